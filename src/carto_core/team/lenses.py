"""The `--team` lenses: the home's answer and the team server's, folded together by the same
code that folds one home.

- `team_search`: the local results and the server's hybrid ranking (`team.search`), fused by
  reciprocal rank, an event in both counted once, each result naming its machine and author;
- `team_standup`: the home's window and the team's (changelog copies and turns) folded by the
  standup's own fold (`lenses.standup.standup`), files keyed across machines as
  `project-key:path` (`team.rows.team_files`, the key the pusher stored);
- `team_sessions`: the team's sessions (the newest, by SQL), their rows folded by the sessions
  view's own summary (`lenses.views.summarize_session`), beside the home's kept summaries
  (`lenses.sessionstore`, what `carto sessions` lists).

When the server cannot be reached each answers with the home's own result and a `team` block
that says why (`state: unreachable`), never an exception.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from carto_core.team.connect import TeamError, connect, describe
from carto_core.util.terminal import counted


def home_team(home):
    """(the home's team settings, None) or (None, the `team` block saying why there are none)."""
    from carto_core.team.settings import TeamSettingsError, load

    try:
        settings = load(home)
    except TeamSettingsError as exc:
        return None, {"state": "error", "reason": str(exc)}
    if settings is None:
        return None, {"state": "not_configured",
                      "reason": "no team is set up for this home: `carto team init URL --team NAME` (docs/team.md)"}
    return settings, None


def team_line(block: dict) -> str:
    """The one line a text answer prints about the team part."""
    if block.get("state") == "ok":
        machines = block.get("machines")
        extra = f", {counted(len(machines), 'machine')}" if machines else ""
        floor = block.get("floor") or {}
        if floor.get("found") is False:
            below = floor.get("below", 0)
            extra += (f"; its {below} weak match{'es' * (below != 1)} left out by the relevance "
                      "floor (--json's team.floor says why)")
        return f"team: {block['team']} on {block['server']}{extra}"
    return f"team: {block.get('state', 'error').replace('_', ' ')} ({block.get('reason') or 'no reason given'}); the answer is this home's alone"


def team_block(settings, state: str = "ok", reason: str = "", **extra) -> dict:
    return {"state": state, "reason": reason or None, "team": settings.team,
            "server": describe(settings.url), "machine": settings.machine, **extra}


def login_of(settings) -> str:
    """The login role the settings connect as (the author of this machine's rows)."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        user = conninfo_to_dict(settings.url).get("user")
    except Exception:  # noqa: BLE001 - a description, never a failure
        user = None
    if user:
        return user
    import getpass
    import os

    return os.environ.get("PGUSER") or getpass.getuser()


def open_team(settings, connector=connect):
    """(connection or None, the team block: ok, or why not)."""
    try:
        return connector(settings), team_block(settings)
    except TeamError as exc:
        return None, team_block(settings, exc.state, str(exc))


def _failed(settings, exc: Exception) -> dict:
    from carto_core.team.connect import classify

    error = classify(exc, settings)
    return team_block(settings, error.state, str(error))


# --------------------------------------------------------------------------- search


def query_for(home, conn, settings, request) -> tuple:
    """(TeamQuery, notes, (evidence floor, band) of its vector, `SemanticSearcher.evidence_floors`):
    the request's text as the team's analyzer and model see it."""
    from carto_core.search.analysis import resolve_analyzer
    from carto_core.team.push import team_config
    from carto_core.team.search import TeamQuery

    config = team_config(conn, settings.team)
    notes: dict = {}
    try:
        analyzer = resolve_analyzer(config["analyzer"])
        terms = list(analyzer.query(request.query).terms)
    except Exception as exc:  # noqa: BLE001 - an analyzer not installed here: vector only
        analyzer, terms = None, []
        notes["keyword"] = f"the team's analyzer {config['analyzer']!r} is not installed here ({exc})"
    vector = floor = None
    floors: tuple = (None, None)
    if config["model"]:
        vector, floor, floors, why = _query_vector(home, request.query, analyzer, config["model"])
        if why:
            notes["vector"] = why
    else:
        notes["vector"] = "the team keeps no vectors"
    query = TeamQuery(request.query, terms, vector, floor, config["model"], config["dim"],
                      request.project, request.since, request.before, request.intent,
                      limit=max(request.limit * 2, 20))
    return query, notes, floors


def _query_vector(home, text: str, analyzer, model: str):
    """(vector, floor, (evidence floor, band), None) when this machine's embedder makes the
    team's model, else (None, None, (None, None), why not)."""
    try:
        from carto_core.semantic.searcher import SemanticSearcher

        searcher = SemanticSearcher(home)
        vector, floor = searcher.query_vector(text, analyzer=analyzer, model=model)
        return vector, floor, searcher.evidence_floors(), None
    except Exception as exc:  # noqa: BLE001 - no vector ladder is an answer, not a failure
        return None, None, (None, None), f"no query vector: {exc}"


def empty_result(request, reason: str):
    """The local result of a home with nothing recorded (a new member's): the team answers."""
    from carto_core.search.api import SearchResult, SemanticState

    return SearchResult(query=request.query, results=[], total=0, facets={}, ladders=[], stages_ms={},
                        semantic=SemanticState("unavailable", reason), decay="", fusion="",
                        project=request.project)


def team_hit(row: tuple, rank: int, score: float):
    """A SearchHit (and its machine, author) from a server row."""
    from carto_core.model.events import Event
    from carto_core.search.api import SALIENCE_DEFAULT, SearchHit
    from carto_core.util.timeparse import format_timestamp

    event_id, _, _, _, machine, author, log, logs, data, _, _ = row
    event = Event.from_row(data, log, fallback_id=event_id)
    ts = data.get("timestamp")
    if not isinstance(ts, str):
        ts = format_timestamp(event.timestamp) if event.timestamp else None
    intent = data.get("prompt_intent")
    hit = SearchHit(event_id=event_id, timestamp=ts, sources=list(logs or [log]), type=event.type,
                    project=event.project, summary=event.summary, score=score,
                    session_id=event.session_id, transcript_path=event.transcript_path,
                    provider=event.provider,
                    salience=round(event.salience if event.salience is not None else SALIENCE_DEFAULT, 4),
                    rank=rank, prompt_intent=intent if isinstance(intent, str) else None)
    return hit, machine, author


def fuse(local_hits, team_rows, *, held: set[str], machine: str, me: str, limit: int,
         k: int = 60) -> tuple[list, int]:
    """The team's ranking first, the home's for what the team cannot rank.

    An event the server holds (`held`: pushed, of an allowed project) is ranked where the team's
    list puts it (team-wide statistics, every machine's rows), the home's copy of it kept (one
    result per event: duplicates folded) and named by the server's machine and author; one the
    server holds but ranked below its list's depth stays out. An event the server does not hold
    (a project not allowed, a row not pushed yet) keeps its rank in the home's list. Both
    lists' ranks interleave by reciprocal rank (k 60), the team's first on a tie. Returns
    ([(hit, machine, author)], candidates)."""
    entries: dict[str, dict] = {}
    local_by_id = {hit.event_id: hit for hit in local_hits}
    for rank, row in enumerate(team_rows):
        event_id = row[0]
        hit = local_by_id.get(event_id)
        if hit is None:
            hit = team_hit(row, rank + 1, 0.0)[0]
        entries[event_id] = {"rank": rank, "team": True, "hit": hit, "machine": row[4], "author": row[5]}
    for rank, hit in enumerate(local_hits):
        if hit.event_id in entries or hit.event_id in held:
            continue
        entries[hit.event_id] = {"rank": rank, "team": False, "hit": hit, "machine": machine, "author": me}
    ordered = sorted(entries.values(), key=lambda e: (e["rank"], not e["team"]))
    out = []
    for position, entry in enumerate(ordered[:limit], start=1):
        hit = entry["hit"]
        hit.score = 1.0 / (k + entry["rank"] + 1)
        hit.rank = position
        out.append((hit, entry["machine"], entry["author"]))
    return out, len(entries)


def team_search(home, settings, request, local_result, *, connector=connect) -> dict:
    """{"hits": [(SearchHit, machine, author)], "total": n, "team": block}."""
    me = login_of(settings)
    local = list(local_result.results)
    conn, block = open_team(settings, connector)
    rows: list = []
    held: set[str] = set()
    if conn is not None:
        try:
            from carto_core.team.search import run

            query, notes, floors = query_for(home, conn, settings, request)
            answer = run(conn, settings.team, query)
            rows = answer["hits"]
            held = held_ids(conn, settings.team, [hit.event_id for hit in local])
            block.update(results=len(rows), ms=answer["ms"],
                         keyword={**answer["keyword"], **({"note": notes["keyword"]} if "keyword" in notes else {})},
                         vector={**answer["vector"], **({"note": notes["vector"]} if "vector" in notes else {})})
            if not local and rows:  # the home found nothing: the team's rows must be evidence
                verdict = _team_verdict(answer, floors)
                block["floor"] = verdict.to_dict()
                if not verdict.found:
                    rows = []
        except TeamError as exc:
            block = team_block(settings, exc.state, str(exc))
        except Exception as exc:  # noqa: BLE001 - a server error: the local answer stands
            block = _failed(settings, exc)
        finally:
            conn.close()
    hits, total = fuse(local, rows, held=held, machine=settings.machine, me=me, limit=request.limit)
    return {"hits": hits, "total": total if block["state"] == "ok" else local_result.total, "team": block}


def _team_verdict(answer: dict, floors: tuple):
    """The relevance floor over the team's rows (`team.floor`), switched off as the home's is
    (`pipeline.floor_off`: an unreadable config file leaves it on, as it does for the home)."""
    from carto_core.search.pipeline import floor_off
    from carto_core.team.floor import team_verdict

    return team_verdict(answer, floors, enabled=not floor_off(None))


def held_ids(conn, team: str, event_ids: list[str]) -> set[str]:
    """Which of these ids the server holds (visible to this login)."""
    if not event_ids:
        return set()
    found = {row[0] for row in conn.execute(
        "SELECT event_id FROM carto.events WHERE team = %s AND event_id = ANY (%s)", (team, event_ids))}
    conn.rollback()
    return found


# --------------------------------------------------------------------------- standup


def team_standup(home, settings, *, since: str = "6h", project: str | None = None,
                 live: str = "20m", me: str | None = None, now: datetime | None = None,
                 scan_unclaimed: bool = True, scan_silent: bool = True, connector=connect) -> dict:
    """The standup over this home and the team (see the module)."""
    from carto_core.lenses.standup import home_window, standup
    from carto_core.team.queries import standup_window
    from carto_core.team.remotes import KeyCache
    from carto_core.team.rows import team_files
    from carto_core.util.timeparse import parse_when

    now = now or datetime.now(timezone.utc)
    start = parse_when(since, now=now)
    events, turns = home_window(home, start, now)
    local_ids = {e.event_id for e in events} | {t.event_id for t in turns}
    conn, block = open_team(settings, connector)
    remote_changelog, remote_turns = [], []
    if conn is not None:
        try:
            remote_changelog, remote_turns = standup_window(conn, settings.team, start, now + timedelta(minutes=5))
        except Exception as exc:  # noqa: BLE001 - the home's standup stands
            block = _failed(settings, exc)
            conn.close()
            conn = None
    keys = KeyCache()
    files: dict[str, list[str]] = {}
    who: dict[str, tuple[str, str]] = {}
    author = login_of(settings)
    for event in [*events, *turns]:
        who[event.event_id] = (settings.machine, author)
    # The same event from the home and the server: the home's row (it may be a newer
    # revision not pushed yet).
    for item in remote_changelog:
        if item.event.event_id not in local_ids:
            events.append(item.event)
            files[item.event.event_id] = item.files
            who[item.event.event_id] = (item.machine, item.author)
    for item in remote_turns:
        if item.event.event_id not in local_ids:
            turns.append(item.event)
            who[item.event.event_id] = (item.machine, item.author)
    events.sort(key=lambda e: e.timestamp)
    turns.sort(key=lambda e: e.timestamp)

    def files_of(event) -> list[tuple[str, str]]:
        stored = files.get(event.event_id)
        found = stored if stored is not None else team_files(event, keys)
        return [(key, key) for key in found]

    def session_rows(ids: list[str]) -> dict[str, list]:
        """Every row of another machine's sessions, as the home's facts columns give its own."""
        if conn is None or not ids:
            return {}
        from carto_core.team.queries import session_rows as rows_of

        try:
            return {sid: [item.event for item in items] for sid, items in rows_of(conn, settings.team, ids).items()}
        except Exception as exc:  # noqa: BLE001 - described by their rows of the window, then
            block.update(_failed(settings, exc))
            return {}

    try:
        doc = standup(home, since=since, project=project, live=live, me=me, now=now,
                      scan_unclaimed=scan_unclaimed, scan_silent=scan_silent, window=(events, turns),
                      files_of=files_of, local_ids=local_ids, session_rows=session_rows)
    finally:
        if conn is not None:
            conn.close()
    sessions_of: dict[str, tuple[str, str]] = {}
    for event in [*events, *turns]:
        if event.has_session and event.event_id in who:
            sessions_of.setdefault(event.session_id, who[event.event_id])
    for entry in doc["sessions"]:
        machine, by = sessions_of.get(entry["id"], (settings.machine, author))
        entry["machine"], entry["author"] = machine, by
    block["machines"] = sorted({m for m, _ in sessions_of.values()})
    block["events"] = len(remote_changelog) + len(remote_turns)
    doc["team"] = block
    return doc


# --------------------------------------------------------------------------- sessions


def team_sessions(home, settings, *, since: datetime | None, project: str | None,
                  provider: str | None, limit: int, connector=connect, summaries=None) -> dict:
    """`carto sessions --team`: the newest sessions of the home and the team, each summarised by
    the sessions view's own fold. A session of this home is summarised from the home's rows (a
    session runs on one machine, and the home holds all of its rows, pushed or not); one of
    another machine from the server's. The server lists the candidates newest first (ended at
    or after `since`, of the project: exact; of the provider: a superset, its commonest
    provider is decided by the fold), and their rows are read a page at a time until `limit`
    sessions are shown. `total` is exact, but without reading every candidate when `provider`
    is given: then it counts the candidates not read as matching (an upper bound).
    `summaries`: the home's kept summaries when the caller holds them, else they are read."""
    from carto_core.lenses.sessionstore import cached_summaries
    from carto_core.lenses.views import select_sessions, session_out

    author = login_of(settings)
    local = summaries if summaries is not None else cached_summaries(home)
    conn, block = open_team(settings, connector)
    if conn is None:
        document = home_sessions(local, since=since, project=project, provider=provider, limit=limit)
        for entry in document["sessions"]:
            entry["machine"], entry["author"] = settings.machine, author
        document["team"] = block
        return document
    from carto_core.lenses.views import summarize_session
    from carto_core.team.queries import session_ends, session_rows

    selected = select_sessions(local.values(), cutoff=since, project=project, provider=provider)
    who = {s["session_id"]: (settings.machine, author) for s in selected}
    try:
        candidates = [(sid, ended) for sid, ended in session_ends(
            conn, settings.team, cutoff=since, project=project, provider=provider) if sid not in local]
        page = max(limit * 2, 50)
        read = 0
        while read < len(candidates):
            # Enough to fill the page: every local session newer than the next candidate is
            # already in `selected`.
            shown = sorted(selected, key=lambda s: s["ended"], reverse=True)[:limit]
            if len(shown) >= limit and shown[-1]["ended"] > candidates[read][1]:
                break
            chunk = [sid for sid, _ in candidates[read:read + page]]
            read += len(chunk)
            for sid, items in session_rows(conn, settings.team, chunk).items():
                summary = summarize_session(sid, [item.event for item in items])
                if select_sessions([summary], cutoff=since, project=project, provider=provider):
                    selected.append(summary)
                    who[sid] = (items[0].machine, items[0].author)
    except Exception as exc:  # noqa: BLE001 - the home's list stands
        conn.close()
        document = home_sessions(local, since=since, project=project, provider=provider, limit=limit)
        for entry in document["sessions"]:
            entry["machine"], entry["author"] = settings.machine, author
        document["team"] = _failed(settings, exc)
        return document
    conn.close()
    selected.sort(key=lambda s: s["ended"], reverse=True)
    sessions = []
    for summary in selected[:limit]:
        out = session_out(summary)
        out["machine"], out["author"] = who.get(summary["session_id"], (settings.machine, author))
        sessions.append(out)
    block["machines"] = sorted({who[s["session_id"]][0] for s in selected if s["session_id"] in who})
    return {"sessions": sessions, "total": len(selected) + len(candidates) - read,
            "index_generation": 1, "team": block}


def home_sessions(summaries: dict[str, dict], *, since, project, provider, limit) -> dict:
    """The home's own session list from its kept summaries (`lenses.sessionstore`, what `carto
    sessions` lists), as `views.list_sessions` gives it over a corpus loaded once (generation 1):
    loading the corpus for it held every event of the home in memory."""
    from carto_core.lenses import views

    return views.sessions_page(summaries.values(), cutoff=since, project=project, provider=provider,
                               limit=limit)


# --------------------------------------------------------------------------- front doors
# What `carto search|standup|sessions|facts --team`, the MCP tools and the explorer's API call:
# the home's answer when there is no team or it cannot be reached, with a `team` block saying so.


def search_with_team(home, request, result) -> tuple[dict, list]:
    """(the search --json document with the team's part, [(hit, machine, author)])."""
    settings, block = home_team(home)
    document = result.to_dict()
    if settings is None:
        document["team"] = block
        return document, [(hit, "", "") for hit in result.results]
    fused = team_search(home, settings, request, result)
    document["results"] = [{**hit.to_dict(), "machine": machine, "author": author}
                           for hit, machine, author in fused["hits"]]
    document["total"] = fused["total"]
    document["team"] = fused["team"]
    return document, fused["hits"]


def standup_with_team(home, **options) -> dict:
    settings, block = home_team(home)
    if settings is None:
        from carto_core.lenses.standup import standup

        doc = standup(home, **options)
        doc["team"] = block
        return doc
    return team_standup(home, settings, **options)


def sessions_with_team(home, *, since, project, provider, limit, summaries=None) -> dict:
    """`summaries`: the home's kept summaries (`lenses.sessionstore`) when the caller holds
    them, else they are read."""
    from carto_core.lenses.sessionstore import cached_summaries

    settings, block = home_team(home)
    summaries = summaries if summaries is not None else cached_summaries(home)
    if settings is None:
        document = home_sessions(summaries, since=since, project=project, provider=provider, limit=limit)
        document["team"] = block
        return document
    return team_sessions(home, settings, since=since, project=project, provider=provider, limit=limit,
                         summaries=summaries)


def facts_with_team(home, raw_request: dict, local, *, connector=connect) -> dict:
    """`carto facts census|tempo --team`: the team's envelope, or `local()`'s (the home's) with
    the team block saying why not. FactsError from a refused request propagates."""
    settings, block = home_team(home)
    if settings is not None:
        conn, block = open_team(settings, connector)
        if conn is not None:
            from carto_core.facts.contract import FactsError
            from carto_core.team.facts import run_team_facts

            try:
                envelope = run_team_facts(raw_request, conn, settings)
                envelope["team"] = block
                return envelope
            except FactsError:
                raise
            except Exception as exc:  # noqa: BLE001 - the home's facts stand
                block = _failed(settings, exc)
            finally:
                conn.close()
    envelope = local()
    envelope["team"] = block
    return envelope
