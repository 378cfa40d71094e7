"""Taking rows back from a team server: a person's rows, a project's rows, or a person's rows
of one project. A member removes their own rows; the schema's owner anyone's (row-level
security lets nobody else: a member asking for another's rows is refused before anything
runs). The tallies of the machines that lost rows are counted again (the terms' document
counts by the server's triggers, folded in the same transaction, so a term no row holds any
more is gone when the forget commits), and the removal is audited (who, what, how many; never the
rows themselves).
"""

from __future__ import annotations

from carto_core.team.connect import TeamDenied, TeamError


def is_owner(conn) -> bool:
    """True when this login owns carto's tables (or is a superuser): row-level security does
    not apply to it."""
    return bool(conn.execute(
        "SELECT r.rolsuper OR pg_has_role(current_user, c.relowner, 'MEMBER') "
        "FROM pg_roles r, pg_class c WHERE r.rolname = current_user AND c.oid = 'carto.events'::regclass"
    ).fetchone()[0])


def forget(conn, team: str, *, user: str | None = None, project: str | None = None,
           machine: str | None = None) -> dict:
    """Delete the rows of `team` that match every filter given (at least one of user, project)."""
    if not user and not project:
        raise TeamError("say whose rows (--user) or which project's (--project) to forget")
    me = conn.execute("SELECT current_user").fetchone()[0]
    owner = is_owner(conn)
    conn.rollback()
    if not owner and not conn.execute("SELECT EXISTS (SELECT FROM carto.members WHERE team = %s "
                                      "AND member = current_user)", (team,)).fetchone()[0]:
        conn.rollback()
        # Row-level security keeps a login the team no longer lists from writing its audit
        # entry, so nothing could be removed: the owner does it.
        raise TeamDenied(f"{me} is not a member of team {team} any more: {me}'s rows there are removed "
                         f"by the team's administrator (`carto team admin forget {me} --team {team}`)")
    if user and user != me and not owner:
        raise TeamDenied(f"only {user} or the schema's owner can remove {user}'s rows "
                         f"(you are {me}): ask the team's administrator")
    clauses, params = ["team = %(team)s"], {"team": team, "user": user, "project": project}
    if user:
        clauses.append("author = %(user)s")
    elif not owner:
        clauses.append("author = current_user")  # a member's --project removes their own rows
    if project:
        clauses.append("(project_key = %(project)s OR lower(project) = lower(%(project)s))")
    with conn.transaction():
        # The fold below is this transaction's: waiting here for a fold under way (a push's)
        # means the words of the rows removed leave `term_df` and `term_delta` when they do.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('carto.fold_terms'), hashtext(%s))", (team,))
        removed = conn.execute(
            f"DELETE FROM carto.events WHERE {' AND '.join(clauses)} RETURNING author, machine",
            params).fetchall()
        touched = sorted({(a, m) for a, m in removed})
        for author, where in touched:
            conn.execute(
                "UPDATE carto.tallies t SET events = s.n, dl_sum = s.dl FROM ("
                " SELECT count(*) AS n, coalesce(sum(dl), 0) AS dl FROM carto.events"
                " WHERE team = %s AND author = %s AND machine = %s) s"
                " WHERE t.team = %s AND t.author = %s AND t.machine = %s",
                (team, author, where, team, author, where))
        from psycopg.types.json import Jsonb

        conn.execute(
            "INSERT INTO carto.audit (team, machine, action, removed, detail) "
            "VALUES (%s, %s, 'forget', %s, %s)",
            (team, machine, len(removed), Jsonb({"user": user, "project": project,
                                                 "authors": sorted({a for a, _ in touched}),
                                                 "machines": sorted({m for _, m in touched})})))
        # The triggers counted the rows out; the fold drops the counts that reach 0.
        conn.execute("SELECT carto.fold_terms(%s)", (team,))
    conn.commit()  # the block above is a savepoint when a check before it opened a transaction
    return {"team": team, "user": user, "project": project, "removed": len(removed),
            "authors": sorted({a for a, _ in touched}), "machines": sorted({m for _, m in touched}),
            "as_owner": owner}
