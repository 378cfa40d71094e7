"""What `carto forget` takes out: the criteria, and how they match rows, unparsed lines and text.

Criteria combine as AND across kinds and OR within one (`--project a --project b --before
2025-01-01`: rows of a or b older than that day). The unit of forgetting is the event: when any
row of an event_id matches, every row of that id goes, in every log (`carto_core.control.forget`).

- `projects`: the row's `project`, compared case-insensitively and whole (never a substring:
  forgetting "api" must not take "api-gateway"); a row without a project counts as its
  session's when that session holds only the forgotten projects' rows (the plan decides);
- `sessions`: the row's session (`session_id`, `session`, `sessionId`), exact;
- `before`: the row's timestamp is earlier (a row without a usable time never matches);
- `since`: the row's timestamp is that time or later (idem);
- `match`: the text, case-insensitively, in any string of the row (keys and values, at any
  depth);
- `events`: the row's event_id, exact.

A line that does not parse as a row (torn, glued, not JSON) is judged by its bytes (`line`),
and a text log's line (hook.log) by its text (`text`): a criterion that cannot be told from
bytes (`before` on a torn line) does not match, so such a line is kept.
"""

from __future__ import annotations

import json
from datetime import datetime

from carto_core.util.timeparse import epoch_seconds

SESSION_KEYS = ("session_id", "session", "sessionId")


def session_of(row: dict) -> str:
    for key in SESSION_KEYS:
        value = row.get(key)
        if isinstance(value, str) and value.strip() and value.strip().lower() != "unknown":
            return value
    return ""


def _strings(value, out: list[str]) -> list[str]:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(str(key))
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)
    return out


class Criteria:
    """The selection of one forget (`to_dict`/`from_dict`: what its intent file keeps)."""

    __slots__ = ("projects", "sessions", "before", "match", "events", "since", "_projects",
                 "_match", "_before", "_since", "_events")

    def __init__(self, projects=(), sessions=(), before: datetime | None = None, match=(),
                 events=(), since: datetime | None = None):
        self.projects = tuple(p for p in projects if p and p.strip())
        self.sessions = tuple(s for s in sessions if s and s.strip())
        self.before = before
        # text of spaces alone is in nearly every row: no criterion, as an empty one
        self.match = tuple(m for m in match if m and m.strip())
        self.events = tuple(e for e in events if e and e.strip())
        # Asked of every row: a restore keeping out another home's forgotten events names
        # thousands of them.
        self._events = frozenset(self.events)
        self._projects = frozenset(p.strip().lower() for p in self.projects)
        self._match = tuple(m.lower() for m in self.match)
        self._before = before.timestamp() if before is not None else None
        self.since = since
        self._since = since.timestamp() if since is not None else None

    def __bool__(self) -> bool:
        return bool(self.projects or self.sessions or self.before or self.match or self.events
                    or self.since)

    def to_dict(self) -> dict:
        return {"projects": list(self.projects), "sessions": list(self.sessions),
                "before": self.before.isoformat() if self.before else None,
                "match": list(self.match), "events": list(self.events),
                "since": self.since.isoformat() if self.since else None}

    @classmethod
    def from_dict(cls, data: dict) -> "Criteria":
        before, since = data.get("before"), data.get("since")
        return cls(data.get("projects") or (), data.get("sessions") or (),
                   datetime.fromisoformat(before) if before else None,
                   data.get("match") or (), data.get("events") or (),
                   datetime.fromisoformat(since) if since else None)

    def describe(self) -> str:
        parts = []
        for name, values in (("project", self.projects), ("session", self.sessions),
                             ("match", self.match), ("event", self.events)):
            if values:
                parts.append(f"{name} " + " or ".join(repr(v) for v in values))
        if self.before:
            parts.append(f"before {self.before.isoformat()}")
        if self.since:
            parts.append(f"since {self.since.isoformat()}")
        return " and ".join(parts)

    @property
    def timed(self) -> bool:
        """A time bound is among the criteria."""
        return self._before is not None or self._since is not None

    def _in_time(self, value) -> bool:
        if not self.timed:
            return True
        moment = epoch_seconds(value)
        if moment is None:
            return False
        if self._before is not None and moment >= self._before:
            return False
        return self._since is None or moment >= self._since

    # ----------------------------------------------------------------- rows

    def project_of(self, row: dict) -> bool:
        value = row.get("project")
        return isinstance(value, str) and value.strip().lower() in self._projects

    def row(self, row: dict, *, project_by_session: bool = False) -> bool:
        """True when a row matches every criterion given. `project_by_session`: the row has no
        project and its session is a forgotten project's (the plan decides)."""
        if self.projects and not (project_by_session or self.project_of(row)):
            return False
        if self.sessions and session_of(row) not in self.sessions:
            return False
        if not self._in_time(row.get("timestamp")):
            return False
        if self._match:
            text = "\n".join(_strings(row, [])).lower()
            if not any(m in text for m in self._match):
                return False
        if self.events and not _named(row.get("event_id"), self._events):
            return False
        return True

    def holds_match(self, value) -> bool:
        """A state file's value (a checkpoint entry, a live transcript state) holds a `--match`
        text among its strings: state keeps text outside the logs (a Stop's answer waiting for
        its turn), which a forget of that text must take too."""
        if not self._match:
            return False
        text = "\n".join(_strings(value, [])).lower()
        return any(m in text for m in self._match)

    def telemetry(self, row: dict) -> bool:
        """A telemetry row (served-log, access-ledger, search-calls) matches: its project scope
        or result project, its session, its time, its query, its event."""
        if self.projects and not self.project_of(row):
            return False
        if self.sessions and row.get("session_id") not in self.sessions:
            return False
        if not self._in_time(row.get("timestamp")):
            return False
        if self._match:
            query = row.get("query")
            if not isinstance(query, str) or not any(m in query.lower() for m in self._match):
                return False
        if self.events and not _named(row.get("event_id"), self._events):
            return False
        return True

    # ----------------------------------------------------------------- bytes and text

    def line(self, raw: bytes) -> bool:
        """A line that does not parse as one row, judged by its bytes."""
        if self.timed:
            return False
        lowered = raw.lower()
        if self.projects and not any(
                _json_pair("project", p).lower() in lowered for p in self.projects):
            return False
        if self.sessions and not any(s.encode("utf-8") in raw for s in self.sessions):
            return False
        if self._match and not any(_json_text(m).lower() in lowered for m in self.match):
            return False
        if self.events and not any(e.encode("utf-8") in raw for e in self.events):
            return False
        return True

    def text(self, line: str) -> bool:
        """A text log's line (`hook.log`: `<timestamp> <message>`), judged by its text."""
        lowered = line.lower()
        if not self._in_time(line.split(" ", 1)[0]):
            return False
        if self.projects and not any(p.lower() in lowered for p in self.projects):
            return False
        if self.sessions and not any(s in line for s in self.sessions):
            return False
        if self._match and not any(m in lowered for m in self._match):
            return False
        if self.events and not any(e in line for e in self.events):
            return False
        return True


def _named(event_id, events: frozenset) -> bool:
    # An id of a damaged row can be a list or an object: never one of the events named.
    return isinstance(event_id, str) and event_id in events


def _json_text(value: str) -> bytes:
    """How a writer encodes a string inside a row (compact JSON, non-ASCII as is), quotes off."""
    return json.dumps(value, ensure_ascii=False)[1:-1].encode("utf-8")


def _json_pair(key: str, value: str) -> bytes:
    return b'"' + key.encode() + b'":"' + _json_text(value) + b'"'
