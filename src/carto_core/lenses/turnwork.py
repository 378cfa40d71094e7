"""Turns for the lenses: the turns of a window or of one session, and the work they stand for.

A home built by backfill holds turns (`turns.jsonl`) and prompts, and no hook row. The lenses
read a session's hook rows when it has any, else its turns plus the events their `tools`
stand for (`carto_core.capture.turnactivity.derived_events`): one rule, so that a tool call seen by a
hook and again in the transcript is counted once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from carto_core.model.events import Event
from carto_core.logio.jsonl import lines_containing, loads_line
from carto_core.logio.reader import open_log
from carto_core.capture.turnactivity import OWN_TYPES, derived_events

#: Logs that hooks (and carto's own milestones) write; prompts and turns come from ingest.
HOOK_LOGS = frozenset({"changelog", "research", "milestones", "tool-use"})


def is_own_row(event: Event) -> bool:
    """A row carto's lenses wrote for a session (its wrapup or a decision update, in the
    milestones log or as the changelog copy), or the desktop app's metadata: no hook logged it."""
    return event.type in OWN_TYPES or (isinstance(event.row, dict)
                                       and event.row.get("milestone") == "session_wrapup")


def hooked_sessions(events) -> set[str]:
    """Sessions that logged a hook row among `events`."""
    return {e.session_id for e in events
            if e.source in HOOK_LOGS and e.has_session and not is_own_row(e)}


def with_turn_work(events, turns, *, hooked: set[str] | None = None) -> list[Event]:
    """`events` plus, for each turn of a session that logged no hook row, the turn itself and
    the events its tool calls stand for."""
    hooked = hooked_sessions(events) if hooked is None else hooked
    out = list(events)
    for turn in turns:
        if turn.has_session and turn.session_id not in hooked:
            out.append(turn)
            out.extend(derived_events(turn))
    return out


def window_turns(home, since: datetime, until: datetime) -> list[Event]:
    """Turn events with since <= time <= until, oldest first (the facts columns find them:
    turns are appended in ingest order, not in time order, so no tail read would do)."""
    return _window_of(home, since, until, "turns", "transcript")


def window_prompts(home, since: datetime, until: datetime) -> list[Event]:
    """Prompt rows with since <= time <= until, oldest first: a session where a person typed a
    prompt and the agent ran no tool has nothing else to be seen by (the facts columns find
    them, as turns: a backfill appends old prompts after new ones)."""
    return _window_of(home, since, until, "prompts", "prompt")


#: A clock a writer may be behind by: a log last written this long before a window began
#: holds no row of it.
WRITE_SLACK = timedelta(minutes=10)


def _window_of(home, since: datetime, until: datetime, log: str, type_name: str) -> list[Event]:
    try:
        written = home.log(log).stat().st_mtime
    except OSError:
        return []
    # A row is written after what it records: a log not written since the window began holds
    # none of it, and a standup of a quiet morning needs no facts columns (their first build
    # reads the whole home).
    if written < (since - WRITE_SLACK).timestamp():
        return []
    from carto_core.facts.store import facts_columns

    cols = facts_columns(home)
    lo, hi = cols.window(since, until)
    code = cols.dims["type"].ids.get(type_name)
    if code is None:
        return []
    tcol = cols.dims["type"].col
    out = [cols.event_at(p) for p in range(lo, hi) if tcol[p] == code]
    return [e for e in out if e.source == log]


def session_turns(home, session_id: str) -> list[Event]:
    """The turns of one session (lines holding its id are the only ones parsed)."""
    try:
        with open_log(home.log("turns")) as handle:  # a FIFO: refused, not waited on
            data = handle.read()
    except OSError:
        return []
    out: dict[str, Event] = {}
    for raw in lines_containing(data[: data.rfind(b"\n") + 1], session_id.encode()):
        row, problem = loads_line(raw)
        if problem != "malformed_json" and isinstance(row, dict):
            event = Event.from_row(row, "turns")
            if event.session_id == session_id:
                out[event.event_id] = event  # the newest row of an id wins (a turn rewritten as it grew)
    return list(out.values())
