"""The backfill runner shared by every source: checkpoints, redaction, dedup, writers.

For each stream a source discovers: read it from its checkpoint, redact and key-order nothing
further (sources emit rows in their log's shape), drop rows whose event_id the target log already
holds (idempotent re-runs even after a lost checkpoint), hand the rest to every enabled writer,
then save the checkpoint. A checkpoint is saved only after its rows are written, so a crash
re-reads rather than loses.

Checkpoints: `<home>/.carto/checkpoints/<source>.json`, `{stream key: checkpoint}`.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from carto_core.home import Home
from carto_core.reader import iter_lines
from carto_core.redact import redact_row, redacted
from carto_core.sources import ReadBatch, Source, Stream


@dataclass
class IngestSummary:
    source: str
    streams: int = 0
    streams_skipped: int = 0
    units: int = 0
    rows_read: int = 0
    written: Counter = field(default_factory=Counter)
    already_present: int = 0
    skipped: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    dry_run: bool = False

    @property
    def rows_written(self) -> int:
        return sum(self.written.values())

    def line(self) -> str:
        per_log = ", ".join(f"{log} {n}" for log, n in sorted(self.written.items())) or "none"
        skipped = sum(self.skipped.values())
        rate = f"{self.units / self.seconds:,.0f}/s" if self.seconds > 0 else "-"
        verb = "would write" if self.dry_run else "wrote"
        text = (
            f"{self.source}: {self.streams} streams, {self.units} units ({rate}), "
            f"{verb} {self.rows_written} rows ({per_log}), {self.already_present} already present, "
            f"{skipped} skipped"
        )
        if self.errors:
            text += f", {len(self.errors)} errors"
        return text

    def as_dict(self) -> dict:
        return {
            "source": self.source,
            "streams": self.streams,
            "units": self.units,
            "rows_read": self.rows_read,
            "rows_written": self.rows_written,
            "written": dict(self.written),
            "already_present": self.already_present,
            "skipped": dict(self.skipped),
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
            "dry_run": self.dry_run,
        }


class CheckpointStore:
    def __init__(self, home: Home, source: str):
        self.path = home.state / "checkpoints" / f"{source}.json"
        try:
            data = json.loads(self.path.read_text("utf-8"))
            self.data: dict = data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            self.data = {}

    def get(self, key: str) -> dict | None:
        value = self.data.get(key)
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict) -> None:
        self.data[key] = value

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.data, sort_keys=True), "utf-8")
        os.replace(tmp, self.path)


class KnownIds:
    """Event ids already in each log, read lazily (one scan per log per run)."""

    def __init__(self, home: Home):
        self.home = home
        self._ids: dict[str, set[str]] = {}

    def of(self, log: str) -> set[str]:
        if log not in self._ids:
            self._ids[log] = {
                line.row["event_id"]
                for line in iter_lines(self.home.log(log))
                if isinstance(line.row.get("event_id"), str)
            }
        return self._ids[log]


def write_rows(home: Home, log: str, rows: list[dict], writers: Iterable | None = None) -> int:
    """Hand rows to every enabled writer; the primary (JSONL) writer's count is returned."""
    if writers is None:
        from carto_core.registry import get_registries

        writers = [cls() for _, cls in get_registries().writers.items()]
    written = 0
    for writer in writers:
        if writer.primary:
            written = writer.write(home, log, rows)
        else:
            try:
                writer.write(home, log, rows)
            except Exception as exc:  # derived writers never fail the batch
                _log_writer_failure(home, writer, exc)
    return written


def _log_writer_failure(home: Home, writer, exc: Exception) -> None:
    from carto_core.appendlog import append_rows
    from carto_core.timeparse import format_timestamp, utcnow

    append_rows(home.state / "writer-errors.jsonl", redacted([
        {"timestamp": format_timestamp(utcnow()), "writer": writer.name, "error": repr(exc)}
    ]))


ProgressCallback = Callable[[Stream, ReadBatch], None]

#: Longest time between checkpoint saves during one run (seconds).
CHECKPOINT_SAVE_SECONDS = 1.0


def run_ingest(
    source: Source,
    home: Home,
    *,
    streams: Iterable[Stream] | None = None,
    dry_run: bool = False,
    writers: Iterable | None = None,
    progress: ProgressCallback | None = None,
) -> IngestSummary:
    """Read every stream of `source` into `home`; see the module docstring."""
    started = time.perf_counter()
    summary = IngestSummary(source=source.name, dry_run=dry_run)
    checkpoints = CheckpointStore(home, source.name)
    known = KnownIds(home)
    writer_list = list(writers) if writers is not None else None
    last_save, pending_save = time.perf_counter(), False
    for stream in streams if streams is not None else source.discover():
        summary.streams += 1
        try:
            batch = source.read(stream, checkpoints.get(stream.key))
        except Exception as exc:
            summary.errors.append(f"{stream.path or stream.key}: {type(exc).__name__}: {exc}")
            continue
        summary.units += batch.units
        summary.skipped.update(batch.skipped)
        summary.rows_read += len(batch.rows)
        by_log: dict[str, list[dict]] = {}
        for emit in batch.rows:
            event_id = emit.row.get("event_id")
            ids = known.of(emit.log)
            if isinstance(event_id, str) and event_id in ids:
                summary.already_present += 1
                continue
            if isinstance(event_id, str):
                ids.add(event_id)
            by_log.setdefault(emit.log, []).append(redact_row(emit.row))
        for log, rows in by_log.items():
            if dry_run:
                summary.written[log] += len(rows)
            else:
                summary.written[log] += write_rows(home, log, rows, writer_list)
        if batch.checkpoint is not None and not dry_run:
            checkpoints.set(stream.key, batch.checkpoint)
            pending_save = True
            # Saving rewrites the whole checkpoint file; with thousands of small streams that
            # dominated a backfill, so save at most every CHECKPOINT_SAVE_SECONDS (and at the
            # end). A crash in between re-reads a few streams; their rows fold by event_id.
            if time.perf_counter() - last_save >= CHECKPOINT_SAVE_SECONDS:
                checkpoints.save()
                last_save, pending_save = time.perf_counter(), False
        if progress is not None:
            progress(stream, batch)
    if pending_save:
        checkpoints.save()
    summary.seconds = time.perf_counter() - started
    return summary
