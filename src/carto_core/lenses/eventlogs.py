"""Which logs hold a row of an event id, kept between runs: `<home>/.carto/sessions/rowids.bin`,
so `carto session ID` can name every log an event occurs in (an event's `sources`: the
domain log its row won in, the changelog's copy) without reading every log.

The facts columns (`carto_core.facts.store`) locate each event's winning row; the rows the fold
dropped (the changelog's copy of a domain row, a second copy in another domain log) are not
kept there. This file keeps, for every log, the CRC-32 of each `"event_id"` value written in its
lines and the byte offset of that line, found by a bytes search (no row is parsed). A lookup
takes the lines whose CRC matches (entries sorted by CRC, bisected; those appended
since the last sort are walked), reads and parses just those, and keeps the logs whose row
really carries the id, so a CRC collision or an `"event_id"` nested in a row's text never adds a
log. A glued row (a torn piece before it on its line) is found as the reader finds it.

Each log's state (`logstate.log_state`) is kept beside its entries: an unchanged log is not
read; a grown one is searched from where the last search ended (a hook's appended rows); a
rewritten, truncated or replaced one is searched again whole. A log that cannot be read is
absent, as the corpus reads it. Failing to write the file (a read-only home) only costs the
next run the same work. Derived state: deleting it is safe. Stdlib only.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from array import array
from bisect import bisect_left
from pathlib import Path

from carto_core.logio.home import Home
from carto_core.logio.logs import FOLD_ORDER
from carto_core.util.privatefiles import make_dirs, open_private

VERSION = 1
MAGIC = b"CARTOROWIDS\n"
#: A line's `"event_id":"..."` values (escapes kept; the value may not leave its line).
_ID = re.compile(rb'"event_id"\s*:\s*"((?:[^"\\\n]|\\[^\n])*)"')
#: Entries appended since the last sort that a lookup walks before they are sorted in (a sort
#: of a large log's entries costs a few tenths of a second: not on every hook's append).
UNSORTED_MAX = 20000


def cache_path(home: Home) -> Path:
    return home.state / "sessions" / "rowids.bin"


def _crc(raw: bytes) -> int:
    return zlib.crc32(raw)


def _id_bytes(raw: bytes) -> bytes:
    """The id as its UTF-8 bytes (an escaped value decoded as JSON decodes it)."""
    if b"\\" not in raw:
        return raw
    try:
        return json.loads(b'"' + raw + b'"').encode("utf-8", "surrogatepass")
    except ValueError:
        return raw


def id_crc(event_id: str) -> int:
    return _crc(event_id.encode("utf-8", "surrogatepass"))


def _search(path: Path, start: int) -> tuple[array, array, int]:
    """(crcs, line offsets, end) of the complete lines of `path` from byte `start`."""
    from carto_core.logio.reader import line_chunks, open_log

    crcs, offsets = array("I"), array("q")
    at = start
    with open_log(path) as handle:
        handle.seek(start)
        for data in line_chunks(handle):
            if not data.endswith(b"\n"):
                break  # a last line not yet ended: searched once it is
            for match in _ID.finditer(data):
                line = data.rfind(b"\n", 0, match.start()) + 1
                crcs.append(_crc(_id_bytes(match.group(1))))
                offsets.append(at + line)
            at += len(data)
    return crcs, offsets, at


class EventLogs:
    """The kept entries of a home's logs, brought up to date on open (`open_event_logs`)."""

    def __init__(self, home: Home, entries: dict, states: dict, sorted_upto: dict):
        self.home = home
        #: label -> (crcs, line offsets): sorted by CRC up to `sorted_upto[label]`, then the
        #: entries appended since, in file order.
        self.entries = entries
        self.states = states
        self.sorted_upto = sorted_upto

    def logs_holding(self, event_ids, before: dict[str, int] | None = None) -> dict[str, list[str]]:
        """event id -> the logs (in load order) whose rows carry it, for each id asked;
        `before`: label -> a byte offset, only the rows of that log that start before it."""
        from carto_core.logio.reader import open_log

        wanted: dict[int, list[str]] = {}
        for event_id in dict.fromkeys(event_ids):
            wanted.setdefault(id_crc(event_id), []).append(event_id)
        out: dict[str, list[str]] = {event_id: [] for ids in wanted.values() for event_id in ids}
        for label in FOLD_ORDER:
            hits = _hits(self.entries.get(label), self.sorted_upto.get(label, 0), wanted)
            if before is not None:
                hits = [offset for offset in hits if offset < before.get(label, 0)]
            if not hits:
                continue
            try:
                handle = open_log(self.home.log(label))
            except OSError:
                continue
            with handle:
                for offset in hits:
                    handle.seek(offset)
                    event_id = _row_id(handle.readline())
                    if event_id is not None and label not in out.get(event_id, [label]):
                        out[event_id].append(label)
        return out


def _hits(entry, upto: int, wanted: dict) -> list[int]:
    """Offsets of the lines whose CRC is wanted: the first `upto` entries are sorted by CRC
    (bisected), the rest (appended since) in file order (walked)."""
    if entry is None:
        return []
    crcs, offsets = entry
    found = set()
    for crc in wanted:
        at = bisect_left(crcs, crc, 0, upto)
        while at < upto and crcs[at] == crc:
            found.add(offsets[at])
            at += 1
    for i in range(upto, len(crcs)):
        if crcs[i] in wanted:
            found.add(offsets[i])
    return sorted(found)


def _sorted(entry) -> tuple[array, array]:
    crcs, offsets = entry
    order = sorted(range(len(crcs)), key=crcs.__getitem__)
    return array("I", map(crcs.__getitem__, order)), array("q", map(offsets.__getitem__, order))


def _row_id(raw: bytes) -> str | None:
    """The event id of the row on a line as the corpus reads it (a glued row: the row after the
    torn piece), None when the line holds no row with its own id."""
    from carto_core.logio.jsonl import fast_loads_line, loads_line
    from carto_core.logio.reader import split_glued

    raw = raw.rstrip(b"\n")
    value, problem = fast_loads_line(raw)
    if problem == "malformed_json" or not isinstance(value, dict):
        value, problem = loads_line(raw)
    if not isinstance(value, dict):
        glued = split_glued(raw)
        value = glued[1] if glued else None
    event_id = value.get("event_id") if isinstance(value, dict) else None
    return event_id if isinstance(event_id, str) else None


def _load(home: Home) -> tuple[dict, dict, dict]:
    try:
        with open(cache_path(home), "rb") as handle:
            if handle.readline() != MAGIC:
                return {}, {}, {}
            header = json.loads(handle.readline())
            if header.get("version") != VERSION:
                return {}, {}, {}
            entries = {}
            for label, count in header["counts"].items():
                crcs, offsets = array("I"), array("q")
                crcs.fromfile(handle, count)
                offsets.fromfile(handle, count)
                entries[label] = (crcs, offsets)
            return entries, header["logs"], {label: int(n) for label, n in header["sorted"].items()}
    except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError):
        return {}, {}, {}


def _save(home: Home, entries: dict, states: dict, sorted_upto: dict) -> None:
    path = cache_path(home)
    try:
        make_dirs(path.parent)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        header = {"version": VERSION, "logs": states,
                  "counts": {label: len(crcs) for label, (crcs, _) in entries.items()},
                  "sorted": sorted_upto}
        with open_private(temporary, "wb") as handle:
            handle.write(MAGIC)
            handle.write(json.dumps(header, separators=(",", ":")).encode("utf-8") + b"\n")
            for crcs, offsets in entries.values():
                crcs.tofile(handle)
                offsets.tofile(handle)
        os.replace(temporary, path)
    except OSError:
        pass


def open_event_logs(home: Home) -> EventLogs:
    """The kept entries, each log searched again from where it changed."""
    from carto_core.logio.logstate import identity, log_state, log_status
    from carto_core.logio.reader import unreadable

    entries, states, sorted_upto = _load(home)
    changed = False
    for label in FOLD_ORDER:
        path = home.log(label)
        state = states.get(label)
        status = log_status(path, state) if state is not None else "stale"
        if status == "fresh" and label in entries:
            continue
        start = 0
        if status == "grown" and label in entries:
            start = int(state.get("end", 0))
        else:
            entries[label] = (array("I"), array("q"))
            sorted_upto[label] = 0
        before = identity(path)
        if not before.get("exists") or unreadable(path):
            entries[label] = (array("I"), array("q"))
            sorted_upto[label] = 0
            states[label] = log_state(path, 0, 0, {"exists": False})
            changed = True
            continue
        try:
            crcs, offsets, end = _search(path, start)
        except OSError:
            entries[label] = (array("I"), array("q"))
            sorted_upto[label] = 0
            states[label] = log_state(path, 0, 0, {"exists": False})
            changed = True
            continue
        if status == "grown" and start and not crcs and end == start:
            continue  # only a torn last line past what was searched: nothing to keep
        entries[label][0].extend(crcs)
        entries[label][1].extend(offsets)
        if len(entries[label][0]) - sorted_upto.get(label, 0) > UNSORTED_MAX:
            entries[label] = _sorted(entries[label])
            sorted_upto[label] = len(entries[label][0])
        # the line count is not kept: `log_status` compares identity, size and fingerprints
        states[label] = log_state(path, end, 0, before)
        changed = True
    if changed and home.root.is_dir():
        _save(home, {label: entries[label] for label in FOLD_ORDER}, states,
              {label: sorted_upto.get(label, 0) for label in FOLD_ORDER})
    return EventLogs(home, entries, states, sorted_upto)
