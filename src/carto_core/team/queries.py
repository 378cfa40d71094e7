"""The SQL the team lenses ask: rows of a window, of sessions, and ranked recall.

Rows come back as `TeamEvent`s (the Event every lens folds, plus who pushed it), ordered as a
home holding every machine's rows would read them: by log in the fold order, machine, then the
row's place in its log (its revision), so a fold over them matches the fold over one home.
"""

from __future__ import annotations

from datetime import datetime

from carto_core.team.rows import TeamEvent, from_server

_COLUMNS = "event_id, log, row, machine, author, logs, files, project_key"
#: The order a home holding every machine's logs would read the rows in.
READ_ORDER = "log_rank, machine, rev"


def _events(cur, source: str | None = None) -> list[TeamEvent]:
    return [from_server(event_id, log, row, machine, author, logs, files, key, source)
            for event_id, log, row, machine, author, logs, files, key in cur.fetchall()]


def standup_window(conn, team: str, since: datetime, until: datetime) -> tuple[list[TeamEvent], list[TeamEvent]]:
    """(rows the changelog holds a copy of, read as the changelog's; transcript turns) with
    since <= time <= until: what a standup folds from a home's changelog and turns."""
    params = {"team": team, "since": since, "until": until}
    changelog = _events(conn.execute(
        f"SELECT {_COLUMNS} FROM carto.events WHERE team = %(team)s AND ts >= %(since)s "
        f"AND ts <= %(until)s AND 'changelog' = ANY (logs) ORDER BY {READ_ORDER}", params), "changelog")
    turns = _events(conn.execute(
        f"SELECT {_COLUMNS} FROM carto.events WHERE team = %(team)s AND ts >= %(since)s "
        f"AND ts <= %(until)s AND log = 'turns' AND type = 'transcript' ORDER BY ts, {READ_ORDER}", params))
    conn.rollback()
    return changelog, turns


def session_ends(conn, team: str, *, cutoff: datetime | None, project: str | None,
                 provider: str | None) -> list[tuple[str, datetime]]:
    """(session, its newest time) of the team's sessions that may be listed (ended at or after
    `cutoff`; with a row of the project and of the provider asked for), newest first. A
    superset: the fold over their rows decides (a session's provider is its commonest)."""
    from carto_core.team.facts import scope_clause

    # Names only: the sessions view matches a session's project names, and the fold decides.
    scope, params = scope_clause(project, keys=False)
    params.update(team=team, cutoff=cutoff, provider=provider)
    having = ["max(ts) IS NOT NULL"]
    if cutoff is not None:
        having.append("max(ts) >= %(cutoff)s")
    if project:
        having.append(f"bool_or({scope})")
    if provider:
        having.append("bool_or(provider = %(provider)s)")
    rows = conn.execute(
        "SELECT session, max(ts) FROM carto.events WHERE team = %(team)s "
        "AND lower(btrim(session)) NOT IN ('', 'unknown') "
        f"GROUP BY session HAVING {' AND '.join(having)} ORDER BY max(ts) DESC, session", params).fetchall()
    conn.rollback()
    return rows


def session_rows(conn, team: str, sessions: list[str]) -> dict[str, list[TeamEvent]]:
    """Every row of these sessions, grouped by session, in read order."""
    if not sessions:
        return {}
    cur = conn.execute(f"SELECT {_COLUMNS}, session FROM carto.events WHERE team = %s "
                       f"AND session = ANY (%s) ORDER BY {READ_ORDER}", (team, sessions))
    out: dict[str, list[TeamEvent]] = {}
    for *fields, session in cur.fetchall():
        out.setdefault(session, []).append(from_server(*fields))
    conn.rollback()
    return out
