"""`carto repair torn-rows`: rows glued to a torn one are split off; torn rows are restored from
a whole copy, or kept as they are.

A torn row is the start of a row that a crash or a full disk cut short. Before appends sealed
torn lines (`appendlog`), the next row was glued onto it and both were unreadable; readers now
read the glued row, and this repair makes that permanent by putting it on a line of its own.
A torn piece itself is settled by copies:

- the same log holds a whole line that starts with exactly the torn bytes (the row was written
  again: a spill flush, an appender's retry): the piece is dropped, nothing is lost;
- another log holds the row's copy (a tool-use row and its changelog copy share the event id)
  from which this log's row can be rebuilt, and the rebuilt line starts with exactly the torn
  bytes: the piece is replaced by the rebuilt row;
- otherwise the piece stays as it is (`unsettled`): a repair never destroys what it cannot
  rebuild byte for byte.

A line of several torn pieces one after another (writers that died mid-row with nothing sealing
the piece before: writers older than sealing appends, other tools) is split where each row
starts (`reader.split_torn`) and each piece settled on its own.

Runs of NUL bytes (what a crash leaves in a file's last block on some filesystems) are removed.
"""

from __future__ import annotations

import os
import re

from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS, SIDE_LOGS, order_row
from carto_core.logio.reader import looks_torn, split_glued, split_torn
from carto_core.repair.base import Line, Repair, Tally, read_lines

_EVENT_ID = re.compile(rb'^\{"event_id":"((?:[^"\\]|\\.)*)"')


def _rebuild(target: str, source: str, row: dict) -> dict | None:
    """`target`'s row for the event whose `source` row is `row` (the capture's own mapping of
    its pairs, `capture.tooluse.tool_use_pair`), or None when that mapping does not exist."""
    if target == "changelog" and source == "tool-use":
        fields = {k: v for k, v in row.items() if k not in ("tool", "session")}
        fields["session_id"] = row.get("session", "")
        fields["related_ids"] = []
        return order_row("changelog", fields, keep_none=frozenset({"diff_shape"}))
    return None


class _WholeLines:
    """The log's whole lines, looked up by the event id they start with."""

    def __init__(self, lines: list[Line]):
        self._lines = [raw for raw, row in lines if row is not None]
        self._by_id: dict[bytes, list[bytes]] | None = None

    def candidates(self, event_id: str | None) -> list[bytes]:
        if event_id is None:
            return self._lines
        if self._by_id is None:
            self._by_id = {}
            for raw in self._lines:
                match = _EVENT_ID.match(raw)
                if match:
                    self._by_id.setdefault(match.group(1), []).append(raw)
        return self._by_id.get(event_id.encode("utf-8", "replace"), [])


class TornRows(Repair):
    name = "torn-rows"
    found_key = "torn"
    count_keys = ("glued", "restored", "duplicates", "unsettled", "nul_runs")
    labels = (*SEARCHED_LOGS, *SIDE_LOGS)

    def __init__(self):
        self._home: Home | None = None
        self._copies: dict[str, list[tuple[str, dict]]] | None = None

    def prepare(self, home: Home) -> None:
        self._home, self._copies = home, None
        #: Event ids of torn rows no copy settles (a transcript may still hold them).
        self.unsettled: set[str] = set()

    def copies(self, event_id: str) -> list[tuple[str, dict]]:
        """Whole rows of every log with this event id (the logs are indexed on first need: a
        home without torn rows is read once, not twice)."""
        if self._copies is None:
            self._copies = {}
            for label in self.labels:
                for _, row in read_lines(self._home.log(label)) if self._home else []:
                    if row is not None and isinstance(row.get("event_id"), str):
                        self._copies.setdefault(row["event_id"], []).append((label, row))
        return self._copies.get(event_id, [])

    def fix(self, label: str, lines: list[Line], tally: Tally) -> list[bytes]:
        whole = _WholeLines(lines)
        out: list[bytes] = []
        for raw, row in lines:
            if row is not None:
                out.append(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            body = raw.rstrip(b"\n")
            if b"\x00" in body:
                stripped = body.replace(b"\x00", b"")
                tally.add("nul_runs")
                tally.add("fixed")
                if not stripped.strip():
                    continue
                body = stripped
            glued = split_glued(body)
            if glued is not None:
                cut = glued[0]
                tally.add("glued")
                tally.add("fixed")
                tally.example(what="glued", at=body[:60].decode("utf-8", "replace"))
                piece, rest = body[:cut], body[cut:] + b"\n"
                out.extend(self._settle(label, piece, whole, tally))
                out.append(rest)
                continue
            if looks_torn(body) or split_torn(body) is not None:
                out.extend(self._settle(label, body, whole, tally))
            else:
                out.append(body + b"\n")  # not a torn row (garbage, another tool's line): kept
        return out

    def _settle(self, label: str, piece: bytes, whole: "_WholeLines", tally: Tally) -> list[bytes]:
        if not piece.strip():
            tally.add("torn")
            return []
        copy = self._copy_of(label, piece, whole)
        if copy is None and (parts := split_torn(piece)):
            # Several torn rows one after another: settled one by one when any of them can be.
            copies = [self._copy_of(label, part, whole) for part in parts]
            if any(found is not None for found in copies):
                out: list[bytes] = []
                for part, found in zip(parts, copies):
                    out.extend(self._settled(label, part, found, tally))
                return out
        return self._settled(label, piece, copy, tally)

    def _copy_of(self, label: str, piece: bytes, whole: "_WholeLines") -> tuple[bytes, str] | None:
        """What settles a torn piece: `(b"", label)` when a whole line of this log starts with it
        (a duplicate), `(rebuilt line, the log it was rebuilt from)`, or None."""
        event_id = self._event_id(piece)
        if any(line.startswith(piece) for line in whole.candidates(event_id)):
            return b"", label
        for source, row in self.copies(event_id) if event_id else []:
            if source == label:
                continue
            rebuilt = _rebuild(label, source, row)
            if rebuilt is not None and dumps_row(rebuilt).startswith(piece):
                return dumps_row(rebuilt), source
        return None

    @staticmethod
    def _event_id(piece: bytes) -> str | None:
        match = _EVENT_ID.match(piece)
        return match.group(1).decode("utf-8", "replace") if match else None

    def _settled(self, label: str, piece: bytes, copy: tuple[bytes, str] | None, tally: Tally) -> list[bytes]:
        tally.add("torn")
        event_id = self._event_id(piece)
        if copy is not None and not copy[0]:
            tally.add("duplicates")
            tally.add("fixed")
            tally.example(what="duplicate", event_id=event_id)
            return []
        if copy is not None:
            tally.add("restored")
            tally.add("fixed")
            tally.example(what="restored", event_id=event_id, copy_in=copy[1])
            return [copy[0]]
        tally.add("unsettled")
        if event_id:
            self.unsettled.add(event_id)
        tally.example(what="unsettled", event_id=event_id, at=piece[:60].decode("utf-8", "replace"))
        return [piece + b"\n"]


_SESSION = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def transcript_streams(home: Home, event_ids) -> list[tuple[str, object]]:
    """(source name, stream) of every backfilled transcript still on disk whose session an
    event id names: a torn row of an ingested transcript can be read again from it, though the
    source's checkpoint says the file was read."""
    import json

    sessions = {m.group(0) for event_id in event_ids if event_id
                for m in [_SESSION.search(event_id)] if m}
    wanted: dict[str, set[str]] = {}
    for path in sorted((home.state / "checkpoints").glob("*.json")):
        try:
            entries = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        for key, value in entries.items() if isinstance(entries, dict) else ():
            state = value.get("state") if isinstance(value, dict) else None
            session = state.get("session") if isinstance(state, dict) else None
            if session in sessions or any(s in key for s in sessions):
                wanted.setdefault(path.stem, set()).add(key)
    if not wanted:
        return []
    from carto_core.model.config import load_config
    from carto_core.plugin.registry import get_registries

    section = load_config().section("sources")
    out = []
    for name, keys in sorted(wanted.items()):
        cls = get_registries().sources.get(name)
        if cls is None:
            continue
        try:
            source = cls(dict(section.get(name, {}) or {}))
            out += [(name, source, stream) for stream in source.discover()
                    if stream.key in keys and stream.path is not None and os.path.isfile(stream.path)]
        except Exception:  # noqa: BLE001 - a source that cannot look: nothing to read again
            continue
    return out


def read_again(home: Home, found) -> list[str]:
    """Forget each stream's checkpoint entry and ingest that stream alone again (what it holds
    that the logs do not, a torn row's whole row among it, is written; the rest is there
    already and skipped). Returns the transcripts read."""
    from carto_core.ingest.runner import CheckpointStore, run_ingest

    done = []
    for name, source, stream in found:
        checkpoints = CheckpointStore(home, name)
        if checkpoints.data.pop(stream.key, None) is not None:
            checkpoints.save()
        run_ingest(source, home, streams=[stream])
        done.append(str(stream.path))
    return done
