"""Sessions by id prefix, and which ended sessions still lack a wrapup.

- `resolve_session(home, "5a1e")` -> the full session id a prefix names (an exact id always
  wins); `SessionNotFound` when no row of the searched logs carries one, `AmbiguousSession` (its
  `candidates`) when several do. It reads the logs' bytes for `"session_id":"<prefix`-shaped
  keys (every spelling: `session_id`, `session`, `sessionId`) and parses nothing else, so
  `carto wrapup --session` and `carto digest session --session` can take a prefix without
  loading the corpus.
- `short_ids(ids, among)` -> each id as `carto sessions` and `carto standup` print it: its
  first 8 characters, lengthened 4 at a time while another id of `ids` or `among` (the home's
  other sessions) starts with them, so that the id pasted into `carto session` names it.
- `pending(summaries, now)` -> the sessions that ended, by a `session_end_*` milestone or by
  being quiet for `CARTO_WRAPUP_STALE_HOURS` (2), with enough work in them (a commit, or at
  least `CARTO_WRAPUP_MIN_EVENTS` (10) events over `CARTO_WRAPUP_MIN_MINUTES` (5) minutes) and no
  `session_wrapup` milestone: newest first; sessions linked across /clear, forks and resumes
  (`lenses.lineage`) are one thread, listed once under its newest session. `summaries` are per-session dicts (the explorer's
  session summaries, `serve.views.session_summaries`, or the SessionStart note's from the logs'
  tails); upstream's knobs `CARTOGRAPHER_WRAPUP_*` are read too.

Stdlib only (the SessionStart note counts pending sessions on the hook path).
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta

from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.logio.reader import line_chunks, open_log


class SessionLookupError(LookupError):
    """A session id prefix that names no session, or several."""


class SessionNotFound(SessionLookupError):
    pass


class AmbiguousSession(SessionLookupError):
    def __init__(self, prefix: str, candidates: list[str]):
        super().__init__(f"session prefix {prefix!r} matches {len(candidates)} sessions")
        self.prefix = prefix
        self.candidates = candidates


_KEY = rb'"(?:session_id|session|sessionId)"\s*:\s*"'


def session_ids_with_prefix(home, prefix: str, logs=None) -> list[str]:
    """Every session id that starts with `prefix` in the searched logs (sorted)."""
    # An id ends on its own line: a row a crash cut inside its id must not run on into the next.
    literal = prefix.encode("utf-8")
    pattern = re.compile(_KEY + re.escape(literal) + rb'([^"\\\r\n]{0,200})"')
    found: set[str] = set()
    for label in logs or SEARCHED_LOGS:
        try:
            with open_log(home.log(label)) as handle:  # a FIFO: refused, not waited on
                for data in line_chunks(handle):
                    # The regex walks every byte; a literal search skips a chunk that cannot
                    # match many times faster (a word no row holds: `carto search` asks this
                    # of every query that found nothing).
                    if literal not in data:
                        continue
                    for match in pattern.finditer(data):
                        found.add(prefix + match.group(1).decode("utf-8", "replace"))
        except OSError:
            continue
    found.discard("")
    return sorted(s for s in found if s.strip().lower() != "unknown")


def resolve_session(home, prefix: str) -> str:
    prefix = prefix.strip()
    if not prefix:
        raise SessionNotFound("no session id given")
    return resolve_among(session_ids_with_prefix(home, prefix), prefix, home)


def resolve_known(home, prefix: str) -> str:
    """The caller's own session as `carto standup --me` and the MCP standup take it: the full id
    a unique start of one names (`resolve_among`: AmbiguousSession, or SessionNotFound for an
    empty `prefix`), else `prefix` as given when no row holds it (a session that has only just
    begun). The logs are read for it once."""
    found = session_ids_with_prefix(home, prefix.strip())
    return resolve_among(found, prefix, home) if found else prefix


def resolve_among(ids, prefix: str, home) -> str:
    """`resolve_session` over the session ids `ids` (those a reader already holds: the
    session-id index of `lenses.sessionstore`, where reading every log for a prefix cost a
    second at a million events)."""
    prefix = prefix.strip()
    if not prefix:
        raise SessionNotFound("no session id given")
    found = sorted(s for s in ids if s.startswith(prefix) and s.strip().lower() != "unknown")
    if prefix in found:
        return prefix
    if not found:
        raise SessionNotFound(f"no session id starts with {prefix!r} in {home.root}")
    if len(found) > 1:
        raise AmbiguousSession(prefix, found)
    return found[0]


def short_ids(ids: list[str], among=()) -> dict[str, str]:
    """Each id's first 8 characters, lengthened 4 at a time while another id of `ids` or
    `among` starts with them (else whole), from each id's sorted neighbours, as a home of many
    sessions cannot compare every pair."""
    pool = sorted(set(ids).union(among))
    at = {sid: i for i, sid in enumerate(pool)}
    out = {}
    for sid in ids:
        i, shared = at[sid], 0
        for other in pool[max(i - 1, 0):i] + pool[i + 1:i + 2]:
            n = 0
            for a, b in zip(sid, other):
                if a != b:
                    break
                n += 1
            shared = max(shared, n)
        length = 8
        while length < len(sid) and length <= shared:
            length += 4
        out[sid] = sid[:length]
    return out


_ID_LIKE = re.compile(r"^[0-9A-Fa-f][0-9A-Fa-f-]{5,}$")


def session_in_query(home, query: str) -> str | None:
    """The session a free-form query names, or None: an exact session id, or a unique prefix
    that looks like one (6+ hex digits and dashes: a word like `cafe` stays a word).
    AmbiguousSession when such a prefix names several."""
    query = query.strip()
    if not query:
        return None
    found = session_ids_with_prefix(home, query)
    if query in found:
        return query
    if not found or not _ID_LIKE.match(query):
        return None
    if len(found) > 1:
        raise AmbiguousSession(query, found)
    return found[0]


def _knob(names: tuple[str, ...], default: float) -> float:
    for name in names:
        try:
            return float(os.environ[name])
        except (KeyError, ValueError):
            continue
    return default


def thresholds() -> dict:
    return {
        "stale_hours": _knob(("CARTO_WRAPUP_STALE_HOURS", "CARTOGRAPHER_WRAPUP_STALE_HOURS"), 2.0),
        "min_events": int(_knob(("CARTO_WRAPUP_MIN_EVENTS", "CARTOGRAPHER_WRAPUP_MIN_EVENTS"), 10)),
        "min_minutes": _knob(("CARTO_WRAPUP_MIN_MINUTES", "CARTOGRAPHER_WRAPUP_MIN_MINUTES"), 5.0),
    }


def pending(summaries, now: datetime, *, project=None, exclude: str = "", threads=()) -> list[dict]:
    """The summaries of ended, substantial sessions without a wrapup, newest first, each with
    `ended_by` ("session_end" or "quiet") added. `project`: a callable(project name) -> bool.

    `threads` (lists of session ids one piece of work went through: `lenses.lineage`): a thread
    is listed once, under its newest session, with `thread` (its sessions, oldest first) and
    is substantial when its sessions' work together is; a wrapup of that newest session closes
    the thread."""
    knobs = thresholds()
    quiet_before = now - timedelta(hours=knobs["stale_hours"])
    summaries = list(summaries)
    by_id = {s.get("session_id"): s for s in summaries}
    member_of: dict[str, list[dict]] = {}
    for members in threads:
        held = [by_id[m] for m in members if m in by_id]
        if len(held) > 1:
            held.sort(key=lambda s: (s.get("ended") is not None, s.get("ended") or now, s.get("session_id")))
            for summary in held:
                member_of[summary["session_id"]] = held
    out = []
    for summary in summaries:
        thread = member_of.get(summary.get("session_id"))
        if thread is not None and summary is not thread[-1]:
            continue  # listed (or closed) under the thread's newest session
        if summary.get("wrapup") or summary.get("session_id") == exclude:
            continue
        ended, started = summary.get("ended"), summary.get("started")
        if ended is None:
            continue
        if project is not None and not any(project(p) for p in summary.get("projects") or [summary.get("project") or ""]):
            continue
        if summary.get("session_end"):
            ended_by = "session_end"
        elif ended <= quiet_before:
            ended_by = "quiet"
        else:
            continue  # still live, as far as anyone can tell
        minutes = (ended - started).total_seconds() / 60 if started else 0.0
        work = thread or [summary]
        first = min((s["started"] for s in work if s.get("started")), default=started)
        span = (ended - first).total_seconds() / 60 if first else 0.0
        substantial = sum(s.get("commits", 0) for s in work) > 0 or (
            sum(s.get("events", 0) for s in work) >= knobs["min_events"] and span >= knobs["min_minutes"])
        if substantial:
            entry = {**summary, "ended_by": ended_by, "minutes": round(minutes)}
            if thread is not None:
                entry["thread"] = [s["session_id"] for s in thread]
            out.append(entry)
    out.sort(key=lambda s: s["ended"], reverse=True)
    return out
