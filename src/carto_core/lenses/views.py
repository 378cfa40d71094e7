"""Read-only views over the warm corpus for the explorer: events, sessions, projects.

Pure functions of a `LiveCorpus` (cached per generation where they scan everything). Ranking,
facts and lenses are not here: those come from their engines (`engines.py`).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta, timezone

from carto_core.capture.collision import edit_paths
from carto_core.facts.columns import names_subagent
from carto_core.model.events import Event
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.util.timeparse import format_timestamp, utcnow

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
#: Events of a session closer than this belong to one burst of activity (the timeline draws
#: bursts, not one bar from the first event to the last).
BURST_GAP = timedelta(minutes=30)
#: At most this many bursts a session (the gap widens until they fit).
BURSTS_MAX = 200

#: Link schemes the page may turn into a clickable link (the page checks again).
SAFE_LINK = re.compile(r"^(https?://|mailto:|#)", re.IGNORECASE)


def is_high_signal(event: Event) -> bool:
    """Upstream's explorer filter: subagent lifecycle milestones and bridge pings are noise."""
    etype = event.type
    if etype.startswith(("milestone_agent_", "agent_")) or "bridge_ping" in etype:
        return False
    return not names_subagent(event.row)


def safe_link(value: object) -> str | None:
    """A link from the corpus when its scheme is allowed (http, https, mailto, #), else None."""
    if isinstance(value, str) and SAFE_LINK.match(value.strip()) and len(value) <= 4096:
        return value.strip()
    return None


def event_dict(event: Event, live: LiveCorpus, *, row: bool = False) -> dict:
    return event_out(event, live.sources_of(event), row=row)


def event_out(event: Event, sources: list[str], *, row: bool = False) -> dict:
    """`event_dict` given the logs the event occurs in (its own first)."""
    out = {
        "event_id": event.event_id,
        "timestamp": format_timestamp(event.timestamp) if event.timestamp else None,
        "source": event.source,
        "sources": sources,
        "type": event.type,
        "provider": event.provider,
        "session_id": event.session_id,
        "project": event.project,
        "summary": event.summary,
        "transcript_path": event.transcript_path,
        "salience": event.salience,
        "parent_event_id": event.parent_event_id,
        "url": safe_link(event.row.get("url")),
    }
    if row:
        out["row"] = event.row
    return out


def project_matches(spec: str | None, project: str) -> bool:
    """Case-insensitive substring, `a|b` alternatives (the explorer's project filter)."""
    if not spec:
        return True
    low = project.lower()
    return any(part.strip().lower() in low for part in spec.split("|") if part.strip())


def selects(event: Event, *, project: str | None, session_id: str | None,
            type_prefix: str | None, all_events: bool) -> bool:
    """Whether the events list's filters keep `event` (the loaded page's and the columns' page's
    rows read since the columns)."""
    return ((all_events or is_high_signal(event))
            and project_matches(project, event.project)
            and (not session_id or event.session_id == session_id)
            and (not type_prefix or event.type.startswith(type_prefix)))


def page_events(live: LiveCorpus, *, limit: int, offset: int, project: str | None,
                session_id: str | None, type_prefix: str | None, all_events: bool) -> dict:
    selected = [e for e in live.newest_first()
                if selects(e, project=project, session_id=session_id, type_prefix=type_prefix,
                           all_events=all_events)]
    page = selected[offset: offset + limit]
    return {"events": [event_dict(e, live) for e in page], "total": len(selected),
            "offset": offset, "limit": limit, "index_generation": live.generation}


def edited_paths(event: Event) -> list[str]:
    """Files an edit event names, by the hooks' one parser (`collision.edit_paths`)."""
    if event.type != "tool_file_edit":
        return []
    return edit_paths(event.summary, event.cwd)


def _session_groups(live: LiveCorpus) -> dict[str, list[Event]]:
    def build():
        groups: dict[str, list[Event]] = {}
        for event in live.corpus.events:
            if event.has_session:
                groups.setdefault(event.session_id, []).append(event)
        return groups

    return live.cached("session_groups", build)  # type: ignore[return-value]


def summarize_session(sid: str, events: list[Event]) -> dict:
    """One session's summary from its events: `lenses.sessionfacts` (the one rule every lens
    shares; the team's sessions fold their rows through this too)."""
    from carto_core.lenses.sessionfacts import session_facts
    from carto_core.lenses.tags import session_tags

    facts = session_facts(sid, events)
    return {
        "session_id": sid,
        "project": facts.project,
        "projects": facts.projects,
        "provider": facts.provider,
        "started": facts.started,
        "ended": facts.ended,
        "events": facts.events,
        "commits": len(facts.commits),
        "edits": facts.edits,
        "prompts": facts.prompts,
        "turns": facts.turns,
        "evidence": facts.evidence,
        "wrapup": facts.wrapup,
        "session_end": facts.session_end,
        "transcript_path": facts.transcript_path,
        "bursts": bursts(facts.stamps()),
        "tags": session_tags(facts),
    }


def _sessions(live: LiveCorpus) -> dict[str, dict]:
    """session id -> its summary (`summarize_session`), kept for the generation."""
    def build():
        return {sid: summarize_session(sid, events) for sid, events in _session_groups(live).items()}

    return live.cached("sessions", build)  # type: ignore[return-value]


def session_summaries(live: LiveCorpus) -> list[dict]:
    """One summary per session (id, project(s), provider, started, ended as datetimes, events,
    commits, edits, prompts, turns, wrapup, session_end, transcript_path)."""
    return list(_sessions(live).values())


def find_sessions(live: LiveCorpus, prefix: str) -> list[str]:
    """Session ids equal to `prefix` (that one alone) or starting with it, sorted."""
    sessions = _sessions(live)
    if prefix in sessions:
        return [prefix]
    return sorted(sid for sid in sessions if sid.startswith(prefix))


def bursts(stamps: list[datetime], gap: timedelta = BURST_GAP) -> list[tuple[datetime, datetime, int]]:
    """(first, last, events) of each run of `stamps` whose neighbours are at most `gap` apart,
    in time order; at most BURSTS_MAX runs (the gap doubles until they fit)."""
    ordered = sorted(stamps)
    while True:
        out: list[list] = []
        for stamp in ordered:
            if out and stamp - out[-1][1] <= gap:
                out[-1][1] = stamp
                out[-1][2] += 1
            else:
                out.append([stamp, stamp, 1])
        if len(out) <= BURSTS_MAX:
            return [tuple(run) for run in out]
        gap *= 2


def session_out(summary: dict, *, with_bursts: bool = False) -> dict:
    out = dict(summary)
    for key in ("started", "ended"):
        out[key] = format_timestamp(out[key]) if out[key] else None
    runs = out.pop("bursts", [])
    if with_bursts:
        out["bursts"] = [[format_timestamp(a), format_timestamp(b), n] for a, b, n in runs]
    return out


def select_sessions(summaries, *, cutoff: datetime | None, project: str | None,
                    provider: str | None, only: set[str] | None = None) -> list[dict]:
    """The summaries a session list shows (ended at or after `cutoff`, of the project and
    provider asked for, among `only` when given), newest first."""
    rows = [
        s for s in summaries
        if s["ended"] is not None and (cutoff is None or s["ended"] >= cutoff)
        and (only is None or s["session_id"] in only)
        and (not project or any(project_matches(project, p) for p in s["projects"] or [""]))
        and (not provider or (s["provider"] or "").lower() == provider.strip().lower())
    ]
    rows.sort(key=lambda s: s["ended"], reverse=True)
    return rows


def list_sessions(live: LiveCorpus, *, days: int | None, project: str | None, provider: str | None,
                  limit: int, now: datetime | None = None, since: datetime | None = None,
                  with_bursts: bool = False, only: set[str] | None = None,
                  summaries: dict[str, dict] | None = None) -> dict:
    """Sessions active since `since` (else the last `days` days; neither: all), newest first;
    among `only` when given (the sessions a tag filter kept). `summaries`: session id -> summary
    to select from (the explorer's, kept by `lenses.sessionstore`), else the corpus's own."""
    cutoff = since if since is not None else (
        (now or utcnow()) - timedelta(days=days) if days is not None else None)
    return sessions_page((summaries if summaries is not None else _sessions(live)).values(),
                         cutoff=cutoff, project=project, provider=provider, limit=limit, only=only,
                         with_bursts=with_bursts, days=days, generation=live.generation)


def sessions_page(summaries, *, cutoff: datetime | None, project: str | None, provider: str | None,
                  limit: int, only: set[str] | None = None, with_bursts: bool = False,
                  days: int | None = None, generation: int = 1) -> dict:
    """The session list document (`select_sessions`' first `limit`, and how many it kept) that
    the explorer (`list_sessions`), `carto sessions` and the team lens's own-home list give;
    generation 1 is a corpus loaded once, what the kept summaries stand for."""
    rows = select_sessions(summaries, cutoff=cutoff, project=project, provider=provider, only=only)
    return {"sessions": [session_out(s, with_bursts=with_bursts) for s in rows[:limit]],
            "total": len(rows), "days": days, "index_generation": generation}


def session_summaries_by_id(live: LiveCorpus) -> dict[str, dict]:
    """session id -> its summary (as `session_summaries`), for the generation."""
    return _sessions(live)


def session_events(live: LiveCorpus, session_id: str, kept=None) -> list[Event]:
    """The session's events in time order (undated last); with `kept` (the summaries and
    facts columns of `sessionstore.unloaded`: a corpus not loaded), its rows read back through
    the columns."""
    if kept is not None:
        group = _rows_of(kept[1], session_id)
    else:
        group = _session_groups(live).get(session_id, [])
    return _in_time(group)


def _in_time(events) -> list[Event]:
    """`events` in time order, the undated last."""
    return sorted(events, key=lambda e: (e.timestamp is None, e.timestamp or _EPOCH))


def _rows_of(cols, session_id: str) -> list[Event]:
    """The session's events from the facts columns `cols`, as a loaded corpus holds them (the
    winning row of each event, in load order)."""
    dim, lkey = cols.dims["session"], cols.lkey
    ident = dim.ids.get(session_id)
    positions = sorted(dim.postings[ident], key=lkey.__getitem__) if ident else []
    return [cols.event_at(p) for p in positions]


def session_detail(live: LiveCorpus, session_id: str, kept=None) -> dict | None:
    """One session's page; `kept` as for `session_events`."""
    if kept is not None:
        summary = kept[0].get(session_id)
        if summary is None:
            return None
        return stored_session_detail(live.home, session_id, summary, kept[1],
                                     generation=live.generation)
    group = _session_groups(live).get(session_id)
    if not group:
        return None
    # One session's summary from its own events (what `_sessions` holds for it): summarising
    # every session of a large home again after each new event cost the page seconds.
    held = live._cache.get("sessions")
    summary = (held[1][session_id] if held is not None and held[0] == live.generation
               else summarize_session(session_id, group))
    sources = live.corpus.sources
    return _detail(live.home, session_id, summary, session_events(live, session_id),
                   lambda e: sources.get(e.event_id, [e.source]), live.generation)


def stored_session_detail(home, session_id: str, summary: dict, cols, *, generation: int = 1) -> dict:
    """`session_detail` of a session read from a home without loading the corpus: its summary
    kept by `lenses.sessionstore`, its rows read back through the facts columns `cols` (the
    winning row of each event, in load order as the corpus holds them), and the logs each
    event occurs in from `lenses.eventlogs`. The document of a corpus loaded once
    (generation 1) unless told."""
    from carto_core.lenses.eventlogs import open_event_logs

    events = _in_time(_rows_of(cols, session_id))
    holding = open_event_logs(home).logs_holding(e.event_id for e in events)

    def sources_of(event: Event) -> list[str]:
        return [event.source] + [label for label in holding.get(event.event_id, ())
                                 if label != event.source]

    return _detail(home, session_id, summary, events, sources_of, generation)


def _detail(home, session_id: str, summary: dict, events: list[Event], sources_of, generation: int) -> dict:
    from carto_core.lenses.lineage import kept_lineage
    from carto_core.lenses.sessionfacts import session_facts

    facts = session_facts(session_id, events)
    last_touch: dict[str, str] = {}
    for event in facts.work:
        for path in edited_paths(event):
            if event.timestamp:
                last_touch[path] = format_timestamp(event.timestamp)
    turns = sorted((e for e in events if e.source == "turns"),
                   key=lambda e: (e.row.get("turn_idx") if isinstance(e.row.get("turn_idx"), int)
                                  else 0))
    wrapups = [e for e in events if e.row.get("milestone") == "session_wrapup"]
    # The events its count counts: a wrapup (shown as such) or the desktop app's record is
    # about the session, not one of its events.
    counted = {e.event_id for e in facts.counted_rows}
    return {
        "session": session_out(summary),
        "events": [event_out(e, sources_of(e)) for e in events if e.event_id in counted],
        "commits": [event_out(e, sources_of(e)) for e in facts.work if e.type.startswith("git_")],
        "files": [{"path": p, "touches": n, "last_touched": last_touch.get(p)}
                  for p, n in facts.files.most_common()],
        "turns": [{**event_out(e, sources_of(e)), "turn_idx": e.row.get("turn_idx")} for e in turns],
        "wrapup": [_wrapup_out(e) for e in wrapups],
        "lineage": kept_lineage(home).describe(session_id),
        "index_generation": generation,
    }


def _wrapup_out(event: Event) -> dict:
    """A wrapup as its session's page shows it. A wrapup written before wrapups left out the
    commits another author wrote holds such a commit's subject as a decision: it is left out,
    as every other reader of decisions leaves it out (`decisions.others_decisions`), and
    `others_commits` counts it (present only when one was)."""
    from carto_core.lenses.decisions import others_decisions
    from carto_core.model.decisions import fold, record_id

    decisions = strings(event.row.get("decisions"))
    out = {"event_id": event.event_id, "description": event.summary, "decisions": decisions}
    if decisions:
        # The records of this row alone: its own cites and folder say where to ask git.
        theirs = others_decisions(fold([event.row]).records.values())
        if theirs:
            project = event.row.get("project") if isinstance(event.row.get("project"), str) else ""
            out["decisions"] = [d for d in decisions
                                if record_id("decision", project, " ".join(d.split())) not in theirs]
            out["others_commits"] = len(decisions) - len(out["decisions"])
    out["unresolved"] = strings(event.row.get("unresolved"))
    out["key_insight"] = (event.row.get("key_insight") if isinstance(event.row.get("key_insight"), str)
                          else "")
    return out


def strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def list_projects(live: LiveCorpus, kept=None) -> dict:
    """Projects with their event counts and newest event; `kept` as for `session_events`."""
    def build():
        if kept is not None:
            return _projects_of(kept[1])
        counts: Counter = Counter()
        newest: dict[str, datetime] = {}
        for event in live.corpus.events:
            if not event.has_project:
                continue
            counts[event.project] += 1
            if event.timestamp and (event.project not in newest
                                    or event.timestamp > newest[event.project]):
                newest[event.project] = event.timestamp
        return [{"name": name, "events": n,
                 "newest": format_timestamp(newest[name]) if name in newest else None}
                for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]

    return {"projects": live.cached("projects", build), "index_generation": live.generation}


def _projects_of(cols) -> list[dict]:
    """`list_projects`' rows from the facts columns: a project's postings are its events, the
    last of them (oldest first) its newest."""
    from carto_core.model.events import is_resolved

    dim = cols.dims["project"]
    rows = []
    for ident in range(1, len(dim.names)):
        plist, name = dim.postings[ident], dim.names[ident]
        if not plist or not is_resolved(name):
            continue
        last = max(plist)
        newest = cols.timestamp_at(last) if last >= cols.n_undated else None
        rows.append({"name": name, "events": len(plist),
                     "newest": format_timestamp(newest) if newest else None})
    return sorted(rows, key=lambda row: (-row["events"], row["name"]))


def newest_timestamp(live: LiveCorpus, kept=None) -> datetime | None:
    """The newest event's time (None: no dated event); `kept` as for `session_events`."""
    if kept is None:
        return max((e.timestamp for e in live.newest_first()[:1] if e.timestamp), default=None)
    cols = kept[1]
    return cols.timestamp_at(cols.n - 1) if cols.n > cols.n_undated else None
