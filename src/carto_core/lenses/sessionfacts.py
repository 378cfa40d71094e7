"""One session's facts, for every lens: its span, counts, commits and edits.

`carto sessions`, `carto session`, `carto standup` (and `--commit`), `carto digest session`,
`carto wrapup` (and `--pending`) and the explorer's session views all describe a session with
the numbers `session_facts` computes, so they cannot disagree about it. The rule:

- **the session's events** are its rows in every searched log (changelog, research, milestones,
  tool-use, prompts, turns), each event once: a row copied into two logs (a tool-use row and its
  changelog copy) is one event, folded as the corpus folds (`carto_core.logio.fold`);
- **the evidence of its work** is its hook rows when it logged any, else its transcript turns
  and the events their recorded tool calls stand for (`carto_core.lenses.turnwork`: a call seen
  by a hook and again in the transcript counts once). `evidence` says which: `hooks`, `turns`,
  or None (neither: prompts alone, say);
- **events** counts the session's rows (derived events are not rows), carto's own rows about
  it left out (its wrapups, decision updates: written later, they are not its work, so a
  session counts the same before and after its wrapup; a session of nothing else keeps them);
  **turns** counts its turn rows; **prompts** its prompt rows, or when it has none its main thread's turns (one
  user prompt each: `session_prompts`);
- **commits**, **edits**, **pushes**, shell calls, fetches, searches, subagents and compactions
  count the evidence's events of that kind; **files** are the paths the edits name;
- **started** and **ended** are the first and last moments of the session's events and of its
  evidence (a turn's tool calls carry their own times, after the turn's prompt; a turn row
  read from a transcript that dates its lines holds `ended`, its newest line's time, so the
  answer after a turn's last call is in the span; a row written before turns held it ends at
  its last call), its wrapups and decision updates left out: written later, often from
  elsewhere, they would stretch it;
- **transcript_path** is the main agent's transcript (`session_transcript`), never a
  subagent's file.

Where the events come from is the caller's choice, and both sources fold the same way:

- `session_events(home, session_id)` and `sessions_events(home, ids)` read them through the
  facts columns (`carto_core.facts.store`: every log folded by event_id, with a posting list
  per session, so only the session's rows are read back);
- a loaded corpus (`carto serve`, `carto sessions`) groups its events by session and passes
  each group to `session_facts`.

`SessionFacts.as_dict()` is the JSON form (datetimes as ISO strings). Read-only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import attrs

from carto_core.capture.collision import COMMIT_RE, event_files
from carto_core.model.events import Event, is_resolved
from carto_core.util.timeparse import format_timestamp, parse_timestamp

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

#: Activity counted from the evidence: name -> how an event's type is recognised.
COUNTED = {
    "edits": lambda t: t == "tool_file_edit",
    "bash": lambda t: t == "tool_bash",
    "pushes": lambda t: t == "git_push",
    "searches": lambda t: t == "research_search",
    "fetches": lambda t: t == "research_fetch",
    "subagents": lambda t: t.startswith("milestone_agent_"),
    "compactions": lambda t: t.startswith("milestone_compaction"),
}


def session_provider(rows) -> str | None:
    """The provider most of a session's rows name (one prompt row a backfill tagged otherwise
    does not make a Codex session Claude's); every lens asks this, so they agree."""
    counted = Counter(e.provider for e in rows if is_resolved(e.provider)).most_common(1)
    return counted[0][0] if counted else None


def session_projects(rows) -> list[str]:
    """A session's projects, the one most of its rows name first."""
    return [name for name, _ in Counter(e.project for e in rows if e.has_project).most_common()]


def commit_record(event: Event) -> dict | None:
    """A commit event as the lenses show it (None when `event` is not a commit): sha (the
    row's `commit_hash`, else the one its summary names), subject, conventional type, diff
    quadrant and line counts when the hook measured them, project, cwd, session."""
    if event.type != "git_commit":
        return None
    match = COMMIT_RE.search(event.summary or "")
    row = event.row if isinstance(event.row, dict) else {}
    shape = row.get("diff_shape") if isinstance(row.get("diff_shape"), dict) else {}
    sha = row.get("commit_hash")
    return {
        "event_id": event.event_id,
        "timestamp": format_timestamp(event.timestamp) if event.timestamp else None,
        "sha": sha if isinstance(sha, str) and sha else (match.group(1) if match else ""),
        "subject": match.group(2).strip() if match else event.summary,
        "type": row.get("commit_type") or "other",
        "quadrant": shape.get("quadrant"),
        "added": shape.get("lines_added"),
        "removed": shape.get("lines_removed"),
        "project": event.project if event.has_project else None,
        "cwd": event.cwd,
        "session_id": event.session_id or None,
    }


def _time_key(event: Event):
    return (event.timestamp is None, event.timestamp or _EPOCH)


@dataclass
class SessionFacts:
    """What one session did, as every lens reports it (see the module's rule)."""

    session_id: str
    #: The session's rows (any log, each event once), oldest first; undated last.
    rows: list[Event] = field(default_factory=list, repr=False)
    #: Its events: `rows` less carto's own rows about it (wrapups, decision updates), unless
    #: those are all it holds.
    counted_rows: list[Event] = field(default_factory=list, repr=False)
    #: The evidence of its work: `rows` when it logged a hook row, else `rows` plus the events
    #: its turns' tool calls stand for; oldest first, undated last.
    work: list[Event] = field(default_factory=list, repr=False)
    evidence: str | None = None
    provider: str = ""
    projects: list[str] = field(default_factory=list)
    started: datetime | None = None
    ended: datetime | None = None
    events: int = 0
    turns: int = 0
    prompts: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    commits: list[dict] = field(default_factory=list)
    #: path -> edits that named it, most touched first.
    files: Counter = field(default_factory=Counter)
    #: Edit events whose paths could not be placed.
    files_unresolved: int = 0
    types: Counter = field(default_factory=Counter)
    wrapup: bool = False
    session_end: bool = False
    transcript_path: str = ""

    @property
    def project(self) -> str:
        return self.projects[0] if self.projects else ""

    @property
    def edits(self) -> int:
        return self.counts.get("edits", 0)

    @property
    def span(self) -> timedelta:
        if self.started is None or self.ended is None:
            return timedelta(0)
        return self.ended - self.started

    @property
    def span_ms(self) -> int:
        return int(self.span.total_seconds() * 1000)

    @property
    def minutes(self) -> int:
        """The span in whole minutes (rounded), as the digest and wrapup say it."""
        return round(self.span.total_seconds() / 60)

    def stamps(self) -> list[datetime]:
        """Every dated moment of the session's evidence (its rows included, carto's own rows
        about it left out as from `counted_rows`), in time order."""
        from carto_core.lenses.turnwork import is_own_row

        dated = [e for e in self.work if e.timestamp is not None]
        return [e.timestamp for e in ([e for e in dated if not is_own_row(e)] or dated)]

    def as_dict(self) -> dict:
        return {
            "session_id": self.session_id,
            "provider": self.provider or None,
            "project": self.project or None,
            "projects": self.projects,
            "started": format_timestamp(self.started) if self.started else None,
            "ended": format_timestamp(self.ended) if self.ended else None,
            "span_ms": self.span_ms,
            "events": self.events,
            "turns": self.turns,
            "prompts": self.prompts,
            "evidence": self.evidence,
            "counts": {**self.counts, "commits": len(self.commits)},
            "commits": self.commits,
            "files": [{"path": path, "touches": n} for path, n in self.files.most_common()],
            "files_unresolved": self.files_unresolved,
            "wrapup": self.wrapup,
            "session_end": self.session_end,
            "transcript_path": self.transcript_path or None,
        }


def _hook_kind(event: Event) -> Event:
    """The event typed as its changelog copy is: the fold keeps the domain log's row, and the
    research log types a hook's search or fetch "search"/"fetch", the milestones log a
    compaction or subagent by its hook event ("PreCompact", "SubagentStop"); the counts, tags
    and types every lens gives read the changelog's names (research_search,
    milestone_compaction_auto, milestone_agent_<type>)."""
    if event.source == "research" and event.type in ("search", "fetch"):
        return attrs.evolve(event, type="research_" + event.type)
    milestone = event.row.get("milestone") if event.source == "milestones" and isinstance(event.row, dict) else None
    if isinstance(milestone, str) and milestone and not event.type.startswith("milestone_"):
        return attrs.evolve(event, type="milestone_" + milestone)
    return event


def _is_session_end(event: Event) -> bool:
    milestone = event.row.get("milestone") if isinstance(event.row, dict) else None
    return (isinstance(milestone, str) and milestone.startswith("session_end")) or \
        event.type.startswith("milestone_session_end")


def _unhooked_commits(rows: list[Event]) -> list[Event]:
    """Commits the session's turns record that no hook row of it names: a hook finds a commit
    in git after the call, and misses it when it cannot read the repository (or did not run);
    the transcript still says which sha the call made. A sha is exact, so nothing counts twice
    (the other calls a turn records have no such identity, and are left to the hook rows)."""
    from carto_core.capture.turnactivity import derived_events

    logged = [c["sha"].lower() for c in map(commit_record, rows) if c and c["sha"]]
    out = []
    for turn in rows:
        tools = turn.row.get("tools") if turn.source == "turns" else None
        if not isinstance(tools, list) or not any(isinstance(t, dict) and t.get("commit") for t in tools):
            continue
        for event in derived_events(turn):
            commit = commit_record(event)
            sha = (commit or {}).get("sha", "").lower()
            if sha and not any(s.startswith(sha) or sha.startswith(s) for s in logged):
                logged.append(sha)
                out.append(event)
    return out


def _moments(event: Event) -> list[datetime]:
    """The moments an event dates: its timestamp, and a turn's end (`ended`: the time of its
    transcript's newest line in it) when that is later."""
    if event.timestamp is None:
        return []
    if event.source == "turns" and isinstance(event.row, dict) and event.row.get("ended"):
        end = parse_timestamp(event.row["ended"])
        if end is not None and end > event.timestamp:
            return [event.timestamp, end]
    return [event.timestamp]


def session_facts(session_id: str, events) -> SessionFacts:
    """The facts of one session from its events (every log's rows of it, each event once; rows
    of other sessions are ignored, so a caller may pass a superset)."""
    from carto_core.lenses.turnwork import hooked_sessions, is_own_row, with_turn_work

    unique: dict[str, Event] = {}
    for event in events:
        if event.session_id == session_id:
            unique.setdefault(event.event_id, _hook_kind(event))
    rows = sorted(unique.values(), key=_time_key)
    hooked = session_id in hooked_sessions(rows)
    if hooked:
        work = rows + _unhooked_commits(rows)
        work.sort(key=_time_key)
    else:
        turns = [e for e in rows if e.source == "turns"]
        work = sorted(with_turn_work([e for e in rows if e.source != "turns"], turns, hooked=set()),
                      key=_time_key)
    turn_count = sum(1 for e in rows if e.source == "turns")
    # A wrapup or decision update written after the session is about it, not work in it: not
    # one of its events, nor in its span (a session of nothing else keeps theirs).
    counted_rows = [e for e in rows if not is_own_row(e)] or rows
    facts = SessionFacts(session_id, rows=rows, work=work, counted_rows=counted_rows)
    facts.evidence = "hooks" if hooked else ("turns" if turn_count else None)
    facts.events = len(counted_rows)
    facts.turns = turn_count
    facts.prompts = session_prompts(rows)
    facts.projects = session_projects(rows)
    facts.provider = session_provider(rows) or ""
    counted_work = [e for e in work if not is_own_row(e)] or work
    dated = ([moment for e in counted_work for moment in _moments(e)]
             or [moment for e in work for moment in _moments(e)])
    if dated:
        facts.started, facts.ended = min(dated), max(dated)
    counts = dict.fromkeys(COUNTED, 0)
    for event in counted_work:
        facts.types[event.type or "unknown"] += 1
        for name, test in COUNTED.items():
            if test(event.type):
                counts[name] += 1
        commit = commit_record(event)
        if commit is not None:
            facts.commits.append(commit)
        if event.type == "tool_file_edit":
            paths = event_files(event.type, event.summary, event.cwd)
            facts.files.update(paths)
            facts.files_unresolved += not paths
    facts.counts = counts
    facts.wrapup = any(e.row.get("milestone") == "session_wrapup" for e in rows)
    facts.session_end = any(_is_session_end(e) for e in rows)
    facts.transcript_path = session_transcript(rows)
    return facts


def session_prompts(rows) -> int:
    """The prompts a session was asked: its prompt rows when it has any, else its main thread's
    turns (a turn opens with one user prompt; a subagent's turn with its parent's task, not the
    user's). A backfilled session has prompt rows only where the client's prompt history kept
    it, so counting those alone said 0 for a transcript of four prompts."""
    logged = sum(1 for e in rows if e.source == "prompts")
    if logged:
        return logged
    return sum(1 for e in rows if e.source == "turns" and not e.row.get("agent_id"))


def session_transcript(rows) -> str:
    """The session's own transcript: the newest path its main agent's rows name (hook rows, the
    main thread's turns), never a subagent's file (a subagent turn carries `agent_id`); a
    session known only from subagent turns gets theirs."""
    rows = list(rows)
    for group in ([e for e in rows if not (e.source == "turns" and e.row.get("agent_id"))], rows):
        path = next((e.transcript_path for e in reversed(group) if is_resolved(e.transcript_path)), "")
        if path:
            return path
    return ""


# --------------------------------------------------------------------------- events from a home


def sessions_events(home, session_ids, cols=None) -> dict[str, list[Event]]:
    """session id -> its events (every log, each event once), read through the facts columns:
    only the sessions' own rows are read back from the logs. `cols`: the home's columns a
    caller already holds current (`carto serve`'s), else they are opened."""
    from carto_core.facts.store import facts_columns

    wanted = [sid for sid in dict.fromkeys(session_ids) if is_resolved(sid)]
    out: dict[str, list[Event]] = {sid: [] for sid in wanted}
    if not wanted:
        return out
    cols = cols if cols is not None else facts_columns(home)
    dim = cols.dims["session"]
    for sid in wanted:
        ident = dim.ids.get(sid)
        if ident:
            out[sid] = [cols.event_at(p) for p in dim.postings[ident]]
    return out


def session_events(home, session_id: str) -> list[Event]:
    """One session's events (every log, each event once); [] when the home has none."""
    return sessions_events(home, [session_id]).get(session_id, [])


def facts_for(home, session_id: str) -> SessionFacts:
    """`session_facts` of a session read from a home."""
    return session_facts(session_id, session_events(home, session_id))
