"""`carto facts census|tempo --team`: the facts contract v1 over the team server's rows.

Counts are SQL aggregates (a team of a million events is never shipped to one machine), each
bucket carrying its newest sample event ids, exactly as the local verbs count a home
(`carto_core.facts.census`, `carto_core.facts.tempo`): the same window (since <= time <=
before, undated rows dropped and counted when a window is active), the same scope (a
case-insensitive substring of the project name or of its team key, families widened by the
project registry), the same unattributed values (null, "", "unknown", whatever the case and
spacing, never a bucket), buckets ranked by the same function (`census.ranked`), days scored by
the same function (`tempo.series`). The server holds what was pushed: counts include a
machine's rows once it has pushed them.
"""

from __future__ import annotations

from datetime import datetime, timezone

from carto_core.facts.census import COMMIT_SUMMARY_MAX, COMMITS_MAX, ranked
from carto_core.facts.contract import CONTRACT_VERSION, FactsError, normalize_request
from carto_core.model.project import ProjectScope
from carto_core.util.timeparse import format_timestamp

TEAM_VERBS = ("census", "tempo")

#: SQL for "this column names something" (carto_core.model.events.is_resolved).
def _resolved(column: str) -> str:
    return f"(lower(btrim({column})) NOT IN ('', 'unknown'))"


_DIMENSIONS = {"project": "project", "type": "type", "source": "log", "provider": "provider"}


def _like(name: str) -> str:
    escaped = name.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def scope_clause(project: str | None, alias: str = "", *, keys: bool = True) -> tuple[str, dict]:
    """SQL (and its parameters) for a project scope: any of the scope's names is a substring of
    the row's project name or (`keys`) of its project key (`alias`: the table's, with its dot)."""
    if not project:
        return "TRUE", {}
    scope = ProjectScope.parse(project)
    patterns = [_like(name) for name in scope.names if name]
    if not patterns:
        return "FALSE", {}
    name = f"lower({alias}project) LIKE ANY (%(scope)s)"
    if keys:
        name = f"({name} OR lower({alias}project_key) LIKE ANY (%(scope)s))"
    return name, {"scope": patterns}


def _window(request) -> tuple[str, dict]:
    clauses, params = [], {}
    if request.since_at is not None:
        clauses.append("ts >= %(since)s")
        params["since"] = request.since_at
    if request.before_at is not None:
        clauses.append("ts <= %(before)s")
        params["before"] = request.before_at
    if not clauses:
        return "TRUE", params
    return "(" + " AND ".join(clauses) + ")", params


def census(conn, team: str, request) -> dict:
    window, wparams = _window(request)
    scope, sparams = scope_clause(request.project)
    params = {"team": team, **wparams, **sparams}
    base = "team = %(team)s"
    if request.project:
        # A project-scoped census leaves rows without a project out entirely.
        base += f" AND {_resolved('project')} AND {scope}"
    selected = f"{base} AND {window if request.windowed else 'TRUE'}"
    if request.windowed:
        # As the local census: what the window left out is counted over every row, scope or not.
        counts = conn.execute(
            f"SELECT count(*) FILTER (WHERE ts IS NOT NULL AND NOT {window}), "
            f"count(*) FILTER (WHERE ts IS NULL) FROM carto.events WHERE team = %(team)s", params).fetchone()
        windowed_out, undated = counts
        selected += " AND ts IS NOT NULL"
    else:
        windowed_out = undated = 0
    total, sessions, oldest, newest, *unresolved = conn.execute(
        f"SELECT count(*), count(DISTINCT session) FILTER (WHERE {_resolved('session')}), "
        f"min(ts), max(ts), "
        + ", ".join(f"count(*) FILTER (WHERE NOT {_resolved(column)})"
                    for column in ("project", "session", "provider", "type"))
        + f" FROM carto.events WHERE {selected}", params).fetchone()
    facts = {
        "events": total,
        "windowed_out": windowed_out,
        "undated_dropped": undated,
        "unattributed": dict(zip(("project", "session", "provider", "type"), unresolved), event_id=0),
        "sessions": {"resolved": sessions},
        "span": {"oldest": format_timestamp(oldest) if oldest else None,
                 "newest": format_timestamp(newest) if newest else None},
    }
    for key, dim in (("by_project", "project"), ("by_type", "type"), ("by_source", "source"),
                     ("by_provider", "provider")):
        column = _DIMENSIONS[dim]
        named = conn.execute(
            f"SELECT {column}, count(*) FROM carto.events WHERE {selected} AND {_resolved(column)} "
            f"GROUP BY {column}", params).fetchall()
        top = ranked([(name, count) for name, count in named], request.top)
        samples: dict[str, list[str]] = {}
        if request.sample > 0 and top:
            rows = conn.execute(
                f"SELECT name, event_id FROM (SELECT {column} AS name, event_id, row_number() OVER "
                f"(PARTITION BY {column} ORDER BY ts DESC NULLS LAST, log_rank DESC, machine DESC, rev DESC) AS n "
                f"FROM carto.events WHERE {selected} AND {column} = ANY(%(names)s)) s "
                f"WHERE n <= %(k)s ORDER BY name, n", {**params, "names": [n for n, _ in top], "k": request.sample}
            ).fetchall()
            for name, event_id in rows:
                samples.setdefault(name, []).append(event_id)
        facts[key] = [{"name": name, "count": count,
                       **({"event_ids": samples.get(name, [])} if request.sample > 0 else {})}
                      for name, count in top]
    commits = conn.execute(
        f"SELECT event_id, CASE WHEN {_resolved('project')} THEN project END, type, "
        f"CASE WHEN jsonb_typeof(row->'timestamp') = 'string' THEN row->>'timestamp' END, ts, summary "
        f"FROM carto.events "
        f"WHERE {selected} AND type LIKE 'git\\_%%' "
        f"ORDER BY ts DESC NULLS LAST, log_rank DESC, machine DESC, rev DESC LIMIT {COMMITS_MAX}", params).fetchall()
    facts["commits"] = [{"event_id": event_id, "project": project, "type": etype,
                         "timestamp": raw if raw else (format_timestamp(ts) if ts else None),
                         "summary": (summary or "")[:COMMIT_SUMMARY_MAX]}
                        for event_id, project, etype, raw, ts, summary in commits]
    conn.rollback()
    return facts


def tempo(conn, team: str, request) -> dict:
    from carto_core.facts.tempo import series

    window, wparams = _window(request)
    scope, sparams = scope_clause(request.project)
    params = {"team": team, **wparams, **sparams}
    rows = conn.execute(
        f"SELECT project, floor(extract(epoch FROM ts) / 86400)::bigint AS day, count(*) "
        f"FROM carto.events WHERE team = %(team)s AND ts IS NOT NULL AND {_resolved('project')} "
        f"AND {window} AND {scope} GROUP BY project, day", params).fetchall()
    undated = conn.execute("SELECT count(*) FROM carto.events WHERE team = %(team)s AND ts IS NULL",
                           params).fetchone()[0]
    conn.rollback()
    per_project: dict[str, dict[int, int]] = {}
    for project, day, count in rows:
        per_project.setdefault(project, {})[int(day)] = count
    return {"undated_dropped": undated, "projects": series(per_project, request)}


def run_team_facts(raw_request: dict, conn, settings, *, now: datetime | None = None) -> dict:
    """The facts envelope of `carto facts census|tempo --team` (contract v1, the team's
    counts). Raises FactsError for a request the contract refuses or a verb the team lacks."""
    import time

    started = time.perf_counter()
    request = normalize_request(raw_request, list(TEAM_VERBS), now=now)
    request.context.update(now=now or datetime.now(timezone.utc))
    verb = census if request.verb == "census" else tempo
    facts = verb(conn, settings.team, request)
    size, newest = conn.execute("SELECT count(*), max(pushed_at) FROM carto.events WHERE team = %s",
                                (settings.team,)).fetchone()
    conn.rollback()
    from carto_core.team.connect import describe

    return {
        "contract_version": CONTRACT_VERSION,
        "backend": "carto-team",
        "verb": request.verb,
        "call_id": request.call_id,
        "corpus_root": f"team:{settings.team}@{describe(settings.url)}",
        "index_generation": f"{size}:{newest.isoformat() if newest else '-'}",
        "corpus_events": size,
        "indexed_docs": size,
        "window": {"since": request.since or None, "before": request.before or None},
        "project": request.project or None,
        "facts": facts,
        "stages_ms": {"total": round((time.perf_counter() - started) * 1000, 2)},
    }


__all__ = ["FactsError", "TEAM_VERBS", "census", "run_team_facts", "scope_clause", "tempo"]
