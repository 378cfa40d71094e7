"""The backfill runner shared by every source: checkpoints, redaction, dedup, writers.

For each stream a source discovers: read it from its checkpoint, redact and key-order nothing
further (sources emit rows in their log's shape), drop rows whose event_id the target log already
holds (idempotent re-runs even after a lost checkpoint), hand the rest to every enabled writer,
then save the checkpoint. A checkpoint is saved only after its rows are written, so a crash
re-reads rather than loses.

Revisions. In a log a source names in `revisable_logs` (transcript turns: a turn of a live
transcript is written while open and again as it grows), a row whose event_id is present is
written again when it differs from the newest row held for that id (compared by a CRC-32 of its
encoded bytes, `transcript_path` and `ended` left out: `live.content_digest`; or, its words the
same, by an end later than the one stored: `live.newer`); readers keep the newest
(`carto_core.logio.fold`). An unchanged re-read writes nothing, from the same file or from a
moved or copied one: such rows keep the path they were first written with (readers find a moved
transcript through `carto_core.transcript.resolver`); a turn that grew is written with the path
it was read from.

Checkpoints: `<home>/.carto/checkpoints/<source>.json`, `{stream key: checkpoint}`.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field

from carto_core.capture import live
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.util.terminal import counted
from carto_core.logio.reader import iter_lines
from carto_core.intents import ensure as ensure_intent
from carto_core.privacy.redact import default_redactor, redact_row, redacted
from carto_core.model.sources import ReadBatch, Source, Stream
from carto_core.util.privatefiles import make_dirs, write_text


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
    #: Rows that were open revisions when read (turns of transcripts still being written): they
    #: are written as they stand and rewritten as they grow; `open_until` is when the last of
    #: them becomes final if nothing more is written (epoch seconds).
    open_rows: int = 0
    open_until: float | None = None
    #: Rows written again because they changed (a grown open turn).
    revised: int = 0
    #: The semantic keep-up after the run: "started", a problem line, or None (not started).
    keep_up: str | None = None
    #: Derived writers that raised: name -> (batches, rows, index of its line in `errors`).
    writer_failures: dict = field(default_factory=dict)

    @property
    def rows_written(self) -> int:
        return sum(self.written.values())

    def line(self) -> str:
        per_log = ", ".join(f"{log} {n}" for log, n in sorted(self.written.items())) or "none"
        skipped = sum(self.skipped.values())
        rate = f"{self.units / self.seconds:,.0f}/s" if self.seconds > 0 else "-"
        verb = "would write" if self.dry_run else "wrote"
        text = (
            f"{self.source}: {counted(self.streams, 'stream')}, {counted(self.units, 'unit')} ({rate}), "
            f"{verb} {counted(self.rows_written, 'row')} ({per_log}), {self.already_present} already present, "
            f"{skipped} skipped"
        )
        if skipped:  # why, most first: "replayed parent line 2, unknown type: x 1"
            why = sorted(self.skipped.items(), key=lambda item: (-item[1], item[0]))
            text += " (" + ", ".join(f"{_reason(key)} {count}" for key, count in why) + ")"
        if self.errors:
            text += f", {counted(len(self.errors), 'error')}"
        if self.open_rows:
            one = self.open_rows == 1
            text += (f"; {counted(self.open_rows, 'turn')} still open (written as "
                     f"{'it stands' if one else 'they stand'}, rewritten as {'it grows' if one else 'they grow'}; "
                     f"final once {'its transcript is' if one else 'their transcripts are'} quiet, "
                     f"by {_clock(self.open_until)} if nothing more is written)")
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
            "revised": self.revised,
            "open_turns": self.open_rows,
            "open_until": _clock(self.open_until) if self.open_until is not None else None,
            "semantic_keep_up": self.keep_up,
        }


def _reason(key: str) -> str:
    """A skip reason in words: "replayed_parent_line" -> "replayed parent line",
    "unknown_type:future_record" -> "unknown type: future_record" (the value as written)."""
    reason, _, value = key.partition(":")
    words = reason.replace("_", " ")
    return f"{words}: {value}" if value else words


def _clock(epoch: float | None) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch)) if epoch is not None else "-"


def row_version(row: dict) -> int | list:
    """`live.version` of a row's encoded line (what the JSONL writer appends): the CRC-32 of its
    words (`live.content_digest`) and its end."""
    return live.version(dumps_row(row), row)


def checkpoint_path(home: Home, source: str):
    """`<home>/.carto/checkpoints/<source>.json`; a ValueError for a name that would leave
    that folder (registries refuse such names already: this holds for a source made some other
    way, a plugin calling `run_ingest` with a class it never registered)."""
    folder = home.state / "checkpoints"
    if (not isinstance(source, str) or source in ("", ".", "..") or "\0" in source
            or any(sep in source for sep in ("/", "\\", os.sep, os.altsep or "/"))):
        raise ValueError(f"source name {source!r} cannot name a checkpoint file in {folder}: "
                         "a source's name is lowercase letters, digits and hyphens")
    return folder / f"{source}.json"


class CheckpointStore:
    def __init__(self, home: Home, source: str):
        self.path = checkpoint_path(home, source)
        try:
            data = json.loads(self.path.read_text("utf-8"))
            self.data: dict = data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            self.data = {}

    def get(self, key: str) -> dict | None:
        value = self.data.get(key)
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict) -> None:
        # A checkpoint can keep text (a Stop payload's answer the file did not hold yet): it is
        # stored redacted, like every other byte under the home.
        self.data[key] = default_redactor().value(value)

    def save(self) -> None:
        make_dirs(self.path.parent)
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        write_text(tmp, json.dumps(self.data, sort_keys=True))
        os.replace(tmp, self.path)


class KnownIds:
    """Event ids already in each log, read lazily (one scan per log per run); for a revisable
    log, the digest of the newest row of each id too."""

    def __init__(self, home: Home, revisable: frozenset[str] = frozenset()):
        self.home = home
        self.revisable = revisable
        self._ids: dict[str, set[str]] = {}
        self._digests: dict[str, dict[str, int | list]] = {}

    def of(self, log: str) -> set[str]:
        if log not in self._ids:
            if log in self.revisable:
                self._ids[log] = set(self.digests(log))
            else:
                self._ids[log] = {
                    line.row["event_id"]
                    for line in iter_lines(self.home.log(log))
                    if isinstance(line.row.get("event_id"), str)
                }
        return self._ids[log]

    def digests(self, log: str) -> dict[str, int | list]:
        """event_id -> `live.version` of the newest row's bytes (later rows of an id win)."""
        if log not in self._digests:
            out: dict[str, int | list] = {}
            try:
                with open(self.home.log(log), "rb") as handle:
                    data = handle.read()
            except FileNotFoundError:
                data = b""
            for line in iter_lines(self.home.log(log), data=data):
                event_id = line.row.get("event_id")
                if isinstance(event_id, str):
                    out[event_id] = live.version(data[line.offset:line.end - 1], line.row)
            self._digests[log] = out
        return self._digests[log]


def write_rows(home: Home, log: str, rows: list[dict], writers: Iterable | None = None,
               failed: list | None = None) -> int:
    """Hand rows to every enabled writer; the primary (JSONL) writer's count is returned. A
    derived writer that raises is logged to `.carto/writer-errors.jsonl` and, given `failed`,
    added to it as (writer name, error) for the caller to say."""
    if writers is None:
        from carto_core.plugin.registry import get_registries

        writers = [cls() for _, cls in get_registries().writers.items()]
    written = 0
    for writer in writers:
        if writer.primary:
            written = writer.write(home, log, rows)
        else:
            try:
                writer.write(home, log, rows)
            except Exception as exc:  # derived writers never fail the batch
                _log_writer_failure(home, writer, exc, log, rows)
                if failed is not None:
                    failed.append((writer.name, exc))
    return written


def _log_writer_failure(home: Home, writer, exc: Exception, log: str, rows: list[dict]) -> None:
    """One row of `.carto/writer-errors.jsonl`, naming the rows the writer missed so that
    `carto repair writers` can give them to it again (`carto_core.ingest.writer_errors`)."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.util.timeparse import format_timestamp, utcnow

    append_rows(home.state / "writer-errors.jsonl", redacted([
        {"timestamp": format_timestamp(utcnow()), "writer": writer.name, "error": repr(exc),
         "log": log, "event_ids": [r["event_id"] for r in rows if isinstance(r.get("event_id"), str)]}
    ]))


ProgressCallback = Callable[[Stream, ReadBatch], None]
#: (rows of the batch handled so far, rows in it): told while a batch is written, which is most
#: of a run whose one stream holds thousands of rows (a repository's commits, each redacted).
RowsCallback = Callable[[int, int], None]
ROWS_TOLD_EVERY = 250

#: Longest time between checkpoint saves during one run (seconds).
CHECKPOINT_SAVE_SECONDS = 1.0


class Guard:
    """What a backfill must never write: rows of an excluded project or folder (`[capture]
    exclude`, `carto_core.privacy.exclude`) and events `carto forget` buried
    (`carto_core.logio.tombstone`)."""

    def __init__(self, home: Home):
        from carto_core.logio.tombstone import TombstoneSet
        from carto_core.privacy.exclude import load as exclusion

        self.exclusion = exclusion()
        self.buried = TombstoneSet.of(home)

    def stream(self, stream: Stream) -> bool:
        """True when the stream's file is under an excluded path: it is not even read."""
        return bool(self.exclusion) and stream.path is not None and self.exclusion.path(os.fspath(stream.path))


def _write_batch(home: Home, batch: ReadBatch, summary: IngestSummary, known: KnownIds,
                 writers: list | None, dry_run: bool, guard: Guard,
                 rows_progress: RowsCallback | None = None) -> dict[str, int | list]:
    """Count a batch into `summary` and write its rows that are new (or, in a revisable log,
    changed) and neither excluded nor forgotten (`Guard`); returns event_id -> digest of the
    revisable rows it wrote (`live.version`s), or found stored."""
    summary.units += batch.units
    summary.skipped.update(batch.skipped)
    summary.rows_read += len(batch.rows)
    open_rows = getattr(batch, "open_rows", 0)
    if open_rows:
        summary.open_rows += open_rows
        until = getattr(batch, "open_until", None)
        if until is not None:
            summary.open_until = max(until, summary.open_until or until)
    by_log: dict[str, list[dict]] = {}
    written: dict[str, int | list] = {}
    for done, emit in enumerate(batch.rows):
        if rows_progress is not None and done % ROWS_TOLD_EVERY == 0:
            rows_progress(done, len(batch.rows))
        event_id = emit.row.get("event_id")
        if guard.exclusion and guard.exclusion.row(emit.row):
            summary.skipped["excluded"] += 1
            continue
        if event_id in guard.buried:
            summary.skipped["forgotten"] += 1
            continue
        ids = known.of(emit.log)
        row = redact_row(ensure_intent(emit.log, emit.row))
        revisable = emit.log in known.revisable
        if isinstance(event_id, str) and event_id in ids:
            if not revisable:
                summary.already_present += 1
                continue
            digests = known.digests(emit.log)
            digest = row_version(row)
            if not live.newer(digest, digests.get(event_id)):
                summary.already_present += 1
                # the stored row stands: the hook need not repeat it, and compares with its end
                written[event_id] = digests[event_id]
                continue
            digests[event_id] = digest
            summary.revised += 1
        elif isinstance(event_id, str):
            ids.add(event_id)
            if revisable:
                digest = known.digests(emit.log)[event_id] = row_version(row)
        if isinstance(event_id, str) and revisable:
            written[event_id] = digest
        by_log.setdefault(emit.log, []).append(row)
    for log, rows in by_log.items():
        if dry_run:
            summary.written[log] += len(rows)
        else:
            failed: list = []
            summary.written[log] += write_rows(home, log, rows, writers, failed)
            for name, exc in failed:
                _say_writer_failure(summary, name, exc, len(rows))
    return written


def _say_writer_failure(summary: IngestSummary, name: str, exc: Exception, rows: int) -> None:
    """One error line per failing writer, counting its batches: the rows are in the logs, but
    what the writer derives from them is not, and a run that said nothing left it unknown."""
    batches, total, at = summary.writer_failures.get(name, (0, 0, len(summary.errors)))
    batches, total = batches + 1, total + rows
    line = (f"writer {name!r} failed on {counted(batches, 'batch', 'batches')} "
            f"({counted(total, 'row')}): {type(exc).__name__}: {exc} (the rows are in the logs; "
            "each failure is in .carto/writer-errors.jsonl)")
    if at == len(summary.errors):
        summary.errors.append(line)
    else:
        summary.errors[at] = line
    summary.writer_failures[name] = (batches, total, at)


def refused_stream(source: Source, stream: Stream) -> str | None:
    """Why a backfill never reads `stream`'s file, as the live hook never reads a payload's
    transcript (`carto_core.util.safeio`: the same owner check): another user's file (its
    owner read through its symlinks), or a symlink leading out of the source's folders
    (`Source.read_roots`). None: it may be read."""
    if stream.path is None:
        return None
    from carto_core.util.safeio import ForeignFile, check_owner, leads_out

    try:
        info = os.stat(stream.path)
    except OSError:
        return None  # missing or unreadable: its reader says so, as before
    try:
        check_owner(info)
    except ForeignFile:
        return "another user's file (never read)"
    if leads_out(stream.path, source.read_roots()):
        return "a symlink out of the source's folders (never read)"
    return None


def _quiet_for_a_day(stream: Stream) -> bool:
    try:
        return time.time() - os.stat(stream.path).st_mtime > 86_400 if stream.path else False
    except OSError:
        return True


def run_ingest(
    source: Source,
    home: Home,
    *,
    streams: Iterable[Stream] | None = None,
    dry_run: bool = False,
    writers: Iterable | None = None,
    progress: ProgressCallback | None = None,
    rows_progress: RowsCallback | None = None,
) -> IngestSummary:
    """Read every stream of `source` into `home`; see the module docstring."""
    started = time.perf_counter()
    summary = IngestSummary(source=source.name, dry_run=dry_run)
    checkpoints = CheckpointStore(home, source.name)
    known = KnownIds(home, frozenset(getattr(source, "revisable_logs", ())))
    writer_list = list(writers) if writers is not None else None
    last_save, pending_save = time.perf_counter(), False
    guard = Guard(home)
    for stream in streams if streams is not None else source.discover():
        summary.streams += 1
        if guard.stream(stream):
            summary.streams_skipped += 1
            summary.skipped["excluded stream"] += 1
            continue
        refused = refused_stream(source, stream)
        if refused:
            summary.streams_skipped += 1
            summary.skipped[refused] += 1
            continue
        # A stream the Stop hook reads too (`carto_core.capture.live`) is read under its
        # source's live lock, from the live checkpoint, which is then brought up to date: the
        # two paths append a turn's rows in the order of the transcript states they read.
        live_state = live.load_state(home, source.name, stream.key) if not dry_run else None
        with live.source_lock(home, source.name) if live_state is not None else nullcontext():
            if live_state is not None:  # read again under the lock: the hook may have moved it
                live_state = live.load_state(home, source.name, stream.key)
            checkpoint = checkpoints.get(stream.key)
            if live_state is not None and isinstance(live_state.get("checkpoint"), dict):
                checkpoint = live_state["checkpoint"]
            try:
                batch = source.read(stream, checkpoint)
            except Exception as exc:
                summary.errors.append(f"{stream.path or stream.key}: {type(exc).__name__}: {exc}")
                continue
            excluded_before = summary.skipped["excluded"]
            written = _write_batch(home, batch, summary, known, writer_list, dry_run, guard, rows_progress)
            if batch.rows and summary.skipped["excluded"] - excluded_before == len(batch.rows):
                # Every row was an excluded project's: no checkpoint either (its key names the
                # stream's file, which names the project); the next run reads it again.
                batch.checkpoint = None
            if live_state is not None and batch.checkpoint is not None:
                revisable = [e.row for e in batch.rows if e.log in known.revisable]
                live.save_state(home, source.name, stream.key, batch.checkpoint, revisable,
                                {**live_state.get("written", {}), **written})
                if batch.checkpoint.get("final") and _quiet_for_a_day(stream):
                    live.drop_state(home, source.name, stream.key)  # the session is long over
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
