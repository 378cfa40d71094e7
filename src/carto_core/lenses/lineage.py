"""Lineage: which sessions continue which, across /clear, forks and resumes, from what the
clients really record (checked with the genuine Claude Code 2.1.328 and Codex 0.169):

- **fork** (Claude Code `--fork-session`, and clients that copy a conversation into a new session
  when resuming it): the new session's transcript starts with copies of the old one's lines,
  and each copied assistant line names the session that made the request
  (`requestSessionId`). The Claude reader marks such a turn `copied_from: <session>` (docs/
  records.md); a session with copied turns continues the session they came from. The
  SessionStart hook says `source: "fork"` (or `"resume"`): its `session_start_<source>`
  milestone names the kind when it is there;
- **clear** (`/clear`): the old session ends (`SessionEnd` reason `clear`, milestone
  `session_end_clear`) and a new one starts (`SessionStart` source `clear`, milestone
  `session_start_clear`) in the same folder within `CLEAR_SECONDS`, each end paired with the
  first start after it; nothing in either transcript names the other, so only a home with
  carto's hooks links them;
- **resume** and **compact** keep the session id in both clients (same transcript or rollout,
  appended): they are restarts *within* a session, listed under `restarts` from their
  `session_start_resume` milestone and the compaction milestones (`compaction_<trigger>`).

A **thread** is the sessions linked to each other, oldest first: one piece of work across its
sessions. `wrapup --pending` lists a thread once, under its newest session, and the session
digest names it.

`links(home)` reads the milestones log and the lines of the turns log that hold
`"copied_from"` (bytes searches: the other rows are never parsed). Read-only, stdlib only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from carto_core.logio.reader import rows_containing
from carto_core.util.timeparse import format_timestamp, parse_timestamp

#: A `session_start_clear` belongs to the `session_end_clear` at most this long before it.
CLEAR_SECONDS = 60
#: Restarts a session records (their milestone prefix -> kind).
RESTART_MILESTONES = (("session_start_resume", "resume"), ("session_start_fork", "fork"),
                      ("session_start_clear", "clear"), ("compaction_", "compact"))


@dataclass
class Link:
    """`child` continues `parent`: kind fork, resume or clear; evidence = event ids."""

    parent: str
    child: str
    kind: str
    at: datetime | None
    evidence: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"parent": self.parent, "child": self.child, "kind": self.kind,
                "at": format_timestamp(self.at) if self.at else None, "evidence": self.evidence[:5]}


@dataclass
class Lineage:
    links: list[Link] = field(default_factory=list)
    #: session -> [(kind, at, event_id)] restarts within it, in time order.
    restarts: dict[str, list[tuple[str, datetime | None, str]]] = field(default_factory=dict)

    def parents(self, session: str) -> list[Link]:
        return [link for link in self.links if link.child == session]

    def children(self, session: str) -> list[Link]:
        return [link for link in self.links if link.parent == session]

    def thread(self, session: str) -> list[str]:
        """Every session linked to `session` through any chain of links (itself included): a
        parent before its children, siblings in the order they were started from it."""
        seen, todo = {session}, [session]
        while todo:
            current = todo.pop()
            for link in self.links:
                for a, b in ((link.parent, link.child), (link.child, link.parent)):
                    if a == current and b not in seen:
                        seen.add(b)
                        todo.append(b)
        inside = [link for link in self.links if link.parent in seen and link.child in seen]
        placed: list[str] = []
        while len(placed) < len(seen):
            ready = [s for s in seen if s not in placed
                     and all(link.parent in placed for link in inside if link.child == s)]
            if not ready:  # a cycle in bad rows: the rest by name
                ready = [s for s in seen if s not in placed]
            placed.append(min(ready, key=lambda s: (self._started(s, inside), s)))
        return placed

    @staticmethod
    def _started(session: str, links: list[Link]) -> tuple:
        """When `session` was started from its parent (roots first)."""
        stamps = [format_timestamp(link.at) for link in links if link.child == session and link.at]
        return (bool(stamps) or any(link.child == session for link in links), min(stamps) if stamps else "")

    def threads(self) -> list[list[str]]:
        """Every thread of two sessions or more."""
        out, seen = [], set()
        for link in self.links:
            if link.parent not in seen:
                members = self.thread(link.parent)
                seen.update(members)
                out.append(members)
        return out

    def describe(self, session: str) -> dict:
        """What `carto session` and the session digest show: continues, continued_by,
        restarts, thread."""
        return {
            "continues": [{"session_id": link.parent, "kind": link.kind,
                           "at": format_timestamp(link.at) if link.at else None,
                           "evidence": link.evidence[:5]} for link in self.parents(session)],
            "continued_by": [{"session_id": link.child, "kind": link.kind,
                              "at": format_timestamp(link.at) if link.at else None,
                              "evidence": link.evidence[:5]} for link in self.children(session)],
            "restarts": [{"kind": kind, "at": format_timestamp(at) if at else None, "event_id": eid}
                         for kind, at, eid in self.restarts.get(session, [])],
            "thread": self.thread(session),
        }


#: The milestones a lineage is made of (restarts, and the end a /clear pairs with its start):
#: the other milestone rows (wrapups, ends, most of the log) are found and never decoded.
_LINKING = tuple(b'"milestone":"' + prefix.encode() for prefix, _ in RESTART_MILESTONES) + (
    b'"milestone":"session_end_clear"',)


def _rows(home, label: str, needle: bytes, among: tuple[bytes, ...] = ()) -> list[dict]:
    """The rows of the whole lines of the log that hold `needle` (and one of `among`, when
    given); a log that cannot be read is an absent one (and a FIFO is not waited on)."""
    return rows_containing(home.log(label), needle, among=among)


def _sid(row: dict) -> str:
    for key in ("session_id", "session", "sessionId"):
        value = row.get(key)
        if isinstance(value, str) and value.strip() and value.strip().lower() != "unknown":
            return value
    return ""


def lineage(home) -> Lineage:
    """Every link and restart the home's logs hold."""
    out = Lineage()
    milestones = {}
    for row in _rows(home, "milestones", b'"milestone":"', _LINKING):
        name, sid, eid = row.get("milestone"), _sid(row), row.get("event_id")
        if isinstance(name, str) and sid and isinstance(eid, str):
            milestones[eid] = (name, sid, parse_timestamp(row.get("timestamp")), row.get("cwd") or "")
    for eid, (name, sid, at, _) in sorted(milestones.items(), key=lambda kv: _key(kv[1][2])):
        for prefix, kind in RESTART_MILESTONES:
            if name.startswith(prefix):
                out.restarts.setdefault(sid, []).append((kind, at, eid))
    started = {sid: kind for sid, events in out.restarts.items() for kind, _, _ in events
               if kind in ("fork", "resume")}
    copies: dict[tuple[str, str], Link] = {}
    for row in _rows(home, "turns", b'"copied_from":"'):
        parent, child = row.get("copied_from"), _sid(row)
        if not (isinstance(parent, str) and parent and child and parent != child):
            continue
        at = parse_timestamp(row.get("timestamp"))
        link = copies.setdefault((parent, child), Link(parent, child, started.get(child, "fork"), at))
        if isinstance(row.get("event_id"), str) and row["event_id"] not in link.evidence:
            link.evidence.append(row["event_id"])
        if at and (link.at is None or at > link.at):
            link.at = at  # the newest copied turn: where the new session took over
    for link in copies.values():  # the fork's own start, when its hook recorded it
        started_at = [at for kind, at, _ in out.restarts.get(link.child, []) if kind == link.kind and at]
        if started_at:
            link.at = min(started_at)
    out.links.extend(copies.values())
    ends = [(at, sid, cwd, eid) for eid, (name, sid, at, cwd) in milestones.items()
            if name == "session_end_clear" and at]
    starts = sorted((at, eid, sid, cwd) for eid, (name, sid, at, cwd) in milestones.items()
                    if name == "session_start_clear" and at)
    for at, eid, sid, cwd in starts:  # each /clear ends one session and starts one
        before = [e for e in ends if e[1] != sid and e[2] == cwd
                  and timedelta(0) <= at - e[0] <= timedelta(seconds=CLEAR_SECONDS)]
        if before:
            end = max(before)
            ends.remove(end)
            out.links.append(Link(end[1], sid, "clear", at, [end[3], eid]))
    out.links.sort(key=lambda link: (_key(link.at), link.parent, link.child))
    return out


#: home root -> (the linking logs' identities when read, their lineage).
_KEPT: dict[str, tuple[tuple, Lineage]] = {}


def _identity(path) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def kept_lineage(home) -> Lineage:
    """`lineage(home)`, read again only when the milestones or turns log changed since it was
    last read in this process: the explorer describes a session's lineage on each session
    view, and new events land mostly in the other logs."""
    # Taken before reading: a row appended meanwhile changes the identity, so it is read next time.
    key = (_identity(home.log("milestones")), _identity(home.log("turns")))
    held = _KEPT.get(str(home.root))
    if held is not None and held[0] == key:
        return held[1]
    found = lineage(home)
    _KEPT[str(home.root)] = (key, found)
    return found


def _key(at: datetime | None) -> tuple:
    return (at is None, format_timestamp(at) if at else "")
