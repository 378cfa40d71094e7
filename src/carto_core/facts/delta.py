"""`delta`: what was appended to the logs since the caller last looked.

Arrival order lives in the append-only logs, not in event timestamps (backfills append rows
dated months back), so delta reads log tails from byte positions. Contract v1 (reference
section 4):

- No cursor is a **baseline**: positions are recorded, zero events are returned.
- Each log's position is `{offset, boundary}`: the offset ends a complete line; the boundary is
  the SHA-1 of up to 4096 bytes before it (`""` at offset 0). A log shorter than its offset is
  `stale: truncated`, one whose boundary no longer matches is `stale: rewritten`; a stale log
  contributes no events and is re-baselined at its end. Never a confident wrong diff.
- Logs are drained round-robin, one row at a time, until `budget` rows are taken; the cursor
  advances only past consumed lines and the rest is reported in `pending`. Blank and malformed
  lines are consumed without being returned (they would wedge the cursor otherwise); a torn
  last line (no newline yet) is not consumed.
- Project scope applies after reading: filtered rows are consumed too (`read` vs `returned`).
- Events are the raw rows (no alias normalisation), folded only where `carto_core.logio.fold` folds
  rows of one log: within a page, a row of the same log and event_id as an earlier one (a live
  turn written again as it grew) replaces it, in its own place; a page after it shows the event
  again when it changed again. A hook row and its changelog copy both appear, as upstream.
"""

from __future__ import annotations

import os
from collections import deque

from carto_core.model.events import TYPE_CHAIN, first_resolved, is_resolved
from carto_core.facts.contract import Position, decode_cursor, encode_cursor
from carto_core.logio.home import Home
from carto_core.logio.jsonl import loads_line
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.model.project import ProjectScope
from carto_core.logio.reader import boundary_hash, open_log, unreadable

SUMMARY_MAX = 300


def _boundary(path, offset: int) -> str:
    if offset <= 0:
        return ""
    try:
        return boundary_hash(path, offset)
    except OSError:
        return ""  # unreadable: compares unequal to any stored boundary (loud, not silent)


def _complete_end(path) -> int:
    """Offset just after the last newline of a file (0 when missing or without one)."""
    try:
        with open_log(path) as handle:  # (not open(): a FIFO would wait for a writer)
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            position = size
            while position > 0:
                step = min(65536, position)
                position -= step
                handle.seek(position)
                chunk = handle.read(step)
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    return position + newline + 1
            return 0
    except OSError:
        return 0


def log_positions(home: Home) -> dict[str, Position]:
    """The current end of every searched log (after its last complete line)."""
    out = {}
    for label in SEARCHED_LOGS:
        path = home.log(label)
        end = _complete_end(path)
        out[label] = Position(end, _boundary(path, end))
    return out


def _queue(path, start: int) -> tuple[deque, int]:
    """(rows, size): a queue of (line end offset, row or None) from `start`, complete lines only."""
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read()
    queue: deque = deque()
    position = 0
    while True:
        newline = data.find(b"\n", position)
        if newline < 0:
            break
        raw = data[position:newline]
        position = newline + 1
        row = None
        if raw.strip():
            value, problem = loads_line(raw)
            if problem != "malformed_json" and isinstance(value, dict):
                row = value
        queue.append((start + position, row))
    return queue, start + len(data)


def read_appended(home: Home, positions: dict[str, Position], budget: int):
    """Read up to `budget` rows appended after `positions`.

    Returns (rows as (source, row) pairs, new positions, stale {source: reason},
    pending {source: count}).
    """
    queues: dict[str, deque] = {}
    next_pos: dict[str, Position] = {}
    stale: dict[str, str] = {}
    for label in SEARCHED_LOGS:
        path = home.log(label)
        prior = positions.get(label, Position(0, ""))
        if unreadable(path):
            # Left out (the envelope's skipped_files says why), its cursor kept: once it can
            # be read, the rows after it are new as usual.
            next_pos[label] = prior
            continue
        try:
            size = os.path.getsize(path)
        except OSError:
            size = None
        if size is None:
            # A missing log is position zero, not stale (nothing was ever read from it, or it
            # was never created); a log that vanished under a cursor was truncated to nothing.
            if prior.offset > 0:
                stale[label] = "truncated"
            next_pos[label] = Position(0, "")
            continue
        if size < prior.offset:
            stale[label] = "truncated"
            end = _complete_end(path)
            next_pos[label] = Position(end, _boundary(path, end))
            continue
        if _boundary(path, prior.offset) != prior.boundary:
            stale[label] = "rewritten"
            end = _complete_end(path)
            next_pos[label] = Position(end, _boundary(path, end))
            continue
        queues[label], _ = _queue(path, prior.offset)
        next_pos[label] = prior
    taken: list[tuple[str, dict]] = []
    consumed: dict[str, int] = {}

    def drop_blanks(label: str) -> None:
        queue = queues[label]
        while queue and queue[0][1] is None:
            consumed[label] = queue.popleft()[0]

    active = [label for label in queues]
    for label in active:
        drop_blanks(label)
    while len(taken) < budget:
        progressed = False
        for label in active:
            if len(taken) >= budget:
                break
            queue = queues[label]
            if not queue:
                continue
            end, row = queue.popleft()
            consumed[label] = end
            taken.append((label, row))
            progressed = True
            drop_blanks(label)
        if not progressed:
            break
    pending = {}
    for label in active:
        left = sum(1 for _, row in queues[label] if row is not None)
        if left:
            pending[label] = left
        if label in consumed:
            end = consumed[label]
            next_pos[label] = Position(end, _boundary(home.log(label), end))
    return taken, next_pos, stale, pending


def _event(source: str, row: dict) -> dict:
    event_id = row.get("event_id")
    project = row.get("project")
    cwd = row.get("cwd")
    timestamp = row.get("timestamp")
    summary = next((row[k] for k in ("summary", "description", "note") if is_resolved(row.get(k))), "")
    return {
        "event_id": event_id if is_resolved(event_id) else None,
        "source": source,
        "timestamp": timestamp if is_resolved(timestamp) else None,
        "project": project if is_resolved(project) else None,
        "type": first_resolved(row, TYPE_CHAIN),
        "session_id": first_resolved(row, ("session_id", "session")),
        "summary": str(summary)[:SUMMARY_MAX],
        "cwd": cwd if isinstance(cwd, str) else "",  # the summary's folder; not an event field
    }


def _places(events: list[dict], cwds: list[str]) -> list[str | None] | None:
    """Each event's folder, for a project name its events were recorded in several folders of
    (a project is a folder's last name: `~/me/api` and `~/clientA/api` are both "api"), grouped
    as census and `carto memory` group them (`model.project.folders_of`); None elsewhere, and
    for such a name's events that name no folder. None when no name needs it."""
    seen: dict[str, dict[str, int]] = {}
    for event, cwd in zip(events, cwds):
        if is_resolved(event["project"]) and cwd:
            counted = seen.setdefault(str(event["project"]), {})
            counted[cwd] = counted.get(cwd, 0) + 1
    from carto_core.model.project import folder_owners

    owners = {name: found for name, counted in seen.items()
              if (found := folder_owners(name, counted)) is not None}
    if not owners:
        return None
    out: list[str | None] = []
    for event, cwd in zip(events, cwds):
        held = owners.get(str(event["project"])) if is_resolved(event["project"]) else None
        out.append(None if held is None else (held.get(cwd) if cwd else None) or "")
    return out  # "" is a split name's event with no folder; None, a name of one folder


def _summary(events: list[dict], top: int, sample: int, cwds: list[str] | None = None) -> dict:
    out = {}
    places = _places(events, cwds) if cwds is not None else None
    for key, field in (("by_source", "source"), ("by_project", "project"), ("by_type", "type")):
        counts: dict[tuple, int] = {}
        ids: dict[tuple, list[str]] = {}
        for n, event in enumerate(events):
            name = event[field]
            if not is_resolved(name):
                continue
            where = places[n] if places is not None and key == "by_project" else None
            bucket_key = (str(name), where)
            counts[bucket_key] = counts.get(bucket_key, 0) + 1
            if sample > 0 and event["event_id"]:
                sampled = ids.setdefault(bucket_key, [])
                if len(sampled) < sample:
                    sampled.append(event["event_id"])
        rows = []
        for (name, where), count in sorted(counts.items(), key=lambda pair: (
                -pair[1], pair[0][0], "" if pair[0][1] is None else pair[0][1] or "\uffff"))[:top]:
            bucket: dict = {"name": name, "count": count}
            if where is not None:
                bucket = {"name": name, "folder": where or None, "count": count}
            if sample > 0:
                bucket["event_ids"] = ids.get((name, where), [])
            rows.append(bucket)
        out[key] = rows
    return out


def fold_page(events: list[dict]) -> list[dict]:
    """A page's events with each (log, event_id) once, by the within-one-log half of
    `carto_core.logio.fold` (the newest row, in its own place); rows of other logs are kept, as
    upstream."""
    from carto_core.logio.fold import takes_over

    last: dict[tuple[str, str], int] = {}
    for position, event in enumerate(events):
        key = (event["source"], event["event_id"])
        if event["event_id"] and (key not in last or takes_over(event["source"], event["source"])):
            last[key] = position
    if len(last) == sum(1 for e in events if e["event_id"]):
        return events
    return [event for position, event in enumerate(events)
            if not event["event_id"] or last[(event["source"], event["event_id"])] == position]


def delta(home: Home, corpus_root: str, request) -> dict:
    if not request.cursor:
        return {
            "cursor": encode_cursor(corpus_root, log_positions(home)),
            "baseline": True,
            "events": [],
            "returned": 0,
            "pending": {},
            "stale": {},
            "summary": {"by_source": [], "by_project": [], "by_type": []},
        }
    positions = decode_cursor(request.cursor, corpus_root, SEARCHED_LOGS)
    rows, next_pos, stale, pending = read_appended(home, positions, request.budget)
    events = fold_page([_event(source, row) for source, row in rows])
    if request.project:
        scope = ProjectScope.parse(request.project)
        events = [event for event in events if scope.matches(event["project"])]
    cwds = [event.pop("cwd") for event in events]
    return {
        "cursor": encode_cursor(corpus_root, next_pos),
        "baseline": False,
        "stale": stale,
        "pending": pending,
        "returned": len(events),
        "read": len(rows),
        "summary": _summary(events, request.top, request.sample, cwds),
        "events": events,
    }
