"""`carto repair orphan-sessions`: rows logged without a session get the one session that
strictly matches them, or keep none.

An orphan is a row whose session (the log's key, then `session_id`, `session`, `sessionId`) is
absent, "" or "unknown" (`events.is_resolved`): a hook payload without its id, an old upstream
row. Commits backfilled from git (`git-` ids, no provider) have no session by design and are not
orphans, nor are decision changes a person typed at a terminal (`carto decision`: a
`decision_update` row whose provider is unknown; one that names its agent's provider, or came
through the MCP `decide` tool, `via: mcp`, is an orphan like any other row). Every copy of an
event (a tool-use row and its changelog copy) gets the same answer.

Matching, strict, in this order:

1. transcript: the row's `transcript_path` was recorded by exactly one session, or its file
   name ends in the id of a session the logs know -> that session;
2. project and proximity: the sessions (of the row's provider, when both say one) with an
   event in the row's project (the same name, case-insensitive) within `window` minutes of the
   row's time -> the one session, if there is exactly one. An event of the session in another
   project does not count, nor does carto's own row about it (its wrapup, a decision change:
   written later, they are no sign it was at work then).

Two or more candidates at the first step that has any is `ambiguous` and refused; none at all
is `unmatched`. Neither changes the row.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from carto_core.capture.turnactivity import own_row
from carto_core.model.decisions import UPDATE
from carto_core.model.events import is_resolved
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS, SESSION_KEY
from carto_core.repair.base import Line, Repair, Tally, read_lines
from carto_core.util.timeparse import parse_timestamp
from carto_core.transcript.resolver import session_id_from_path

SESSION_KEYS = ("session_id", "session", "sessionId")
DEFAULT_WINDOW_MINUTES = 10


def row_session(label: str, row: dict) -> str | None:
    for key in (SESSION_KEY.get(label, "session_id"), *SESSION_KEYS):
        value = row.get(key)
        if is_resolved(value) and isinstance(value, str):
            return value
    return None


def sessionless_by_design(row: dict) -> bool:
    """A commit backfilled from git history carries no session (reference 6.5), nor does a
    decision changed by a person at a terminal (`carto decision` run outside any agent: its
    provider is unknown); a decision change whose row names its agent (a provider, or the MCP
    `decide` tool, `via: mcp`) lost a session it had."""
    event_id = row.get("event_id")
    if (isinstance(event_id, str) and event_id.startswith("git-")) or (
            "commit_hash" in row and not row.get("provider")):
        return True
    decision = row.get("milestone") == UPDATE or row.get("type") == "milestone_" + UPDATE
    return decision and not is_resolved(row.get("provider")) and row.get("via") != "mcp"


def _epoch(row: dict) -> float | None:
    moment = parse_timestamp(row.get("timestamp"))
    return moment.timestamp() if moment is not None else None


@dataclass
class _Session:
    #: project (lowercase) -> sorted times of the session's events in it
    times: dict = field(default_factory=dict)
    providers: set = field(default_factory=set)


class OrphanSessions(Repair):
    name = "orphan-sessions"
    found_key = "orphans"
    count_keys = ("matched_transcript", "matched_proximity", "ambiguous", "unmatched")
    labels = tuple(SEARCHED_LOGS)

    def __init__(self, window_minutes: float = DEFAULT_WINDOW_MINUTES):
        self.window = float(window_minutes) * 60
        self._sessions: dict[str, _Session] = {}
        self._by_transcript: dict[str, set[str]] = {}
        self._evidence: dict[str, dict] = {}
        self._decisions: dict[object, tuple[str | None, str, list]] = {}

    def prepare(self, home: Home) -> None:
        """One pass over the searched logs: every session's event times, projects, providers
        and transcripts, and the evidence every copy of an orphan event carries."""
        sessions: dict[str, _Session] = {}
        for label in self.labels:
            for _, row in read_lines(home.log(label)):
                if row is None:
                    continue
                sid = row_session(label, row)
                if sid is None:
                    if not sessionless_by_design(row):
                        self._gather(row)
                    continue
                session = sessions.setdefault(sid, _Session())
                when = _epoch(row)
                # a wrapup or decision change written later, often from a terminal, is about
                # the session: no sign it was at work in the project then
                if when is not None and is_resolved(row.get("project")) and not own_row(row):
                    session.times.setdefault(str(row["project"]).lower(), []).append(when)
                if is_resolved(row.get("provider")):
                    session.providers.add(str(row["provider"]))
                path = row.get("transcript_path")
                if isinstance(path, str) and path:
                    self._by_transcript.setdefault(path, set()).add(sid)
        for session in sessions.values():
            for times in session.times.values():
                times.sort()
        self._sessions = sessions
        self._decisions = {}

    def _gather(self, row: dict) -> None:
        """Copies of one event pool what they know (one has the transcript, another the project)."""
        event_id = row.get("event_id")
        if not isinstance(event_id, str) or not event_id:
            return
        known = self._evidence.setdefault(event_id, {})
        for key in ("transcript_path", "project", "provider", "timestamp"):
            if is_resolved(row.get(key)) and key not in known:
                known[key] = row[key]

    def decide(self, row: dict, key: object) -> tuple[str | None, str, list]:
        """(session or None, how: transcript | proximity | ambiguous | unmatched, candidates)."""
        if key in self._decisions:
            return self._decisions[key]
        facts = {**{k: row.get(k) for k in ("transcript_path", "project", "provider", "timestamp")
                    if is_resolved(row.get(k))},
                 **self._evidence.get(row.get("event_id"), {})}
        decision = self._decide(facts)
        self._decisions[key] = decision
        return decision

    def _decide(self, facts: dict) -> tuple[str | None, str, list]:
        path = facts.get("transcript_path")
        if isinstance(path, str) and path:
            candidates = set(self._by_transcript.get(path, ()))
            named = session_id_from_path(path)
            if named:
                candidates |= {sid for sid in self._sessions if sid.lower() == named}
            if len(candidates) == 1:
                return next(iter(candidates)), "transcript", []
            if len(candidates) > 1:
                return None, "ambiguous", sorted(candidates)
        when = _epoch(facts)
        project = str(facts.get("project") or "").lower()
        if when is None or not project:
            return None, "unmatched", []
        provider = facts.get("provider")
        candidates = []
        for sid, session in self._sessions.items():
            if provider and session.providers and provider not in session.providers:
                continue
            if _near(session.times.get(project, ()), when, self.window):
                candidates.append(sid)
        if len(candidates) == 1:
            return candidates[0], "proximity", []
        if candidates:
            return None, "ambiguous", sorted(candidates)
        return None, "unmatched", []

    def fix(self, label: str, lines: list[Line], tally: Tally) -> list[bytes]:
        out = []
        key_name = SESSION_KEY.get(label, "session_id")
        for raw, row in lines:
            if row is None or row_session(label, row) is not None or sessionless_by_design(row):
                out.append(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            tally.add("orphans")
            event_id = row.get("event_id")
            sid, how, candidates = self.decide(row, event_id if isinstance(event_id, str) and event_id else raw)
            if sid is None:
                tally.add(how)
                if how == "ambiguous":
                    tally.example(what="ambiguous", event_id=event_id, sessions=",".join(candidates[:5]))
                out.append(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            tally.add(f"matched_{how}")
            tally.add("fixed")
            tally.example(what=f"matched_{how}", event_id=event_id, session=sid)
            out.append(dumps_row({**row, key_name: sid}))  # in place when the key is there
        return out


def _near(times: list, when: float, window: float) -> bool:
    """An event of the session within `window` seconds of `when`."""
    i = bisect.bisect_left(times, when)
    return any(0 <= j < len(times) and abs(times[j] - when) <= window for j in (i - 1, i))
