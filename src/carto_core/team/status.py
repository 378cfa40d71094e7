"""`carto team status`: this home's side (settings, allowed projects, how far each log has been
pushed) and the server's (reachable, schema, the team's model, this login's grants, rows,
the last push). The local side never needs the server."""

from __future__ import annotations

import os

from carto_core.logio.fold import LOAD_ORDER
from carto_core.logio.logstate import log_status
from carto_core.team.connect import TeamError, connect, describe, not_a_member, server_identity
from carto_core.team.push import covered_keys, held_back_summary, load_outbox, lost_pushes, pushes_unchecked


def local_status(home, settings, *, held: bool = False) -> dict:
    outbox = load_outbox(home, settings)
    logs = {}
    pending = 0
    for label in LOAD_ORDER:
        entry = outbox["logs"].get(label) or {}
        state = entry.get("state")
        path = home.log(label)
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        status = log_status(path, state)
        pushed = state["end"] if state and status != "stale" else 0
        logs[label] = {"size": size, "pushed_to": pushed, "pending_bytes": max(0, size - pushed),
                       "state": "rewritten" if status == "stale" else ("up_to_date" if size <= pushed else "pending")}
        pending += max(0, size - pushed)
    allowings = settings.matcher().allowings
    behind = sorted({key for label in LOAD_ORDER
                     for key in set(allowings) - covered_keys(outbox["logs"].get(label) or {}, allowings)
                     if (outbox["logs"].get(label) or {}).get("state")})
    return {"server": describe(settings.url), "team": settings.team, "machine": settings.machine,
            "url_from": "CARTO_TEAM_URL" if settings.url != settings.stored_url else "settings",
            "password": ("password file " + settings.passfile) if settings.passfile else
            "libpq (service file, ~/.pgpass or PGPASSWORD)",
            "projects": settings.projects, "logs": logs, "pending_bytes": pending,
            "catch_up": behind,
            "held_back": held_back_summary(home, settings, outbox["logs"], listing=held)}


def server_status(conn, settings) -> dict:
    me, version = conn.execute(
        "SELECT current_user, (SELECT value FROM carto.meta WHERE key = 'schema_version')").fetchone()
    team = conn.execute("SELECT model, dim, analyzer FROM carto.teams WHERE team = %s",
                        (settings.team,)).fetchone()
    grants = conn.execute("SELECT project, can_write FROM carto.members WHERE team = %s AND member = current_user "
                          "ORDER BY project", (settings.team,)).fetchall()
    tallies = conn.execute("SELECT author, machine, events FROM carto.tallies WHERE team = %s "
                           "ORDER BY author, machine", (settings.team,)).fetchall()
    # The newest push's batches (each its own audit row), added up; a row without a push id is
    # a push of its own.
    last = conn.execute(
        "WITH newest AS (SELECT id, detail->>'push' AS push FROM carto.audit WHERE team = %(team)s "
        " AND member = current_user AND action = 'push' ORDER BY id DESC LIMIT 1) "
        "SELECT max(a.at), (array_agg(a.machine ORDER BY a.id DESC))[1], sum(a.sent), sum(a.inserted), "
        " sum(a.updated), sum(a.unchanged), sum(a.refused), count(*) "
        "FROM carto.audit a, newest n WHERE a.team = %(team)s AND a.member = current_user "
        " AND a.action = 'push' AND (a.id = n.id OR a.detail->>'push' = n.push) HAVING count(*) > 0",
        {"team": settings.team}).fetchone()
    conn.rollback()
    out = {"reachable": True, "login": me, "schema": int(version) if version else 0,
           "member": bool(grants) or team is not None,
           "model": team[0] if team else None, "dim": team[1] if team else None,
           "analyzer": team[2] if team else None,
           "grants": [{"project": p, "write": w} for p, w in grants],
           "machines": [{"author": a, "machine": m, "events": n} for a, m, n in tallies],
           "team_events": sum(n for _, _, n in tallies),
           "last_push": None}
    if not out["member"]:
        error = not_a_member(conn, settings.team)
        out.update({"state": error.state, "reason": str(error)})
    if last:
        out["last_push"] = {"at": last[0].isoformat(), "machine": last[1], "sent": int(last[2]),
                            "inserted": int(last[3]), "updated": int(last[4]),
                            "unchanged": int(last[5]), "refused": int(last[6]), "batches": last[7]}
    return out


def _restored(conn, home, settings) -> dict:
    """What a restore of the server to an earlier point undid: `pushes_lost`, the batches this
    machine pushed that it lost (since when, and from when the next push sends again; None:
    from the start); `forgets_undone`, the forgets made here it no longer holds (the next push
    makes them again); `admin_forgets_undone`, those `carto team admin forget` made here on this
    team (the next `carto team admin` command makes them again; checked as the schema's owner
    only); `admin_revokes_undone`, the `carto team admin revoke`s made here whose member holds
    those grants again (the next `carto team admin revoke` makes them again, asked; the owner
    only); `restore_unchecked`, why any could not be checked (another login)."""
    from carto_core.team.forget import undone, undone_as_owner

    # The positions a push would use: those of the server as it names itself, whatever URL
    # (and login) reaches it.
    outbox = load_outbox(home, settings, server_identity(conn, settings)[0])
    lost = lost_pushes(conn, settings, outbox)
    kept = lost["checkpoint"] if lost else None
    forgets, why_forgets = undone(conn, home, settings, outbox["server"])
    admin, why_admin = undone_as_owner(conn, home, settings, settings.team)
    why = [w for w in (pushes_unchecked(conn, outbox), why_forgets, why_admin) if w]
    conn.rollback()

    def listed(found: list[dict]) -> list[dict]:
        return [{"user": f["asked"].get("user"), "project": f["asked"].get("project"), "at": f["at"],
                 "rows": f["rows"]} for f in found if f.get("action") != "revoke"]

    return {"pushes_lost": {"since": lost["since"], "resend_after": _when(kept["receipt"].get("at")) if kept else None}
            if lost else None,
            "forgets_undone": listed(forgets), "admin_forgets_undone": listed(admin),
            "admin_revokes_undone": [{"user": r["user"], "grants": r["back"], "at": r["at"]}
                                     for r in admin if r.get("action") == "revoke"],
            "restore_unchecked": "; ".join(why) or None}


def _when(stamp) -> str | None:
    from carto_core.team.push import iso_time

    return iso_time(stamp or 0)


#: Failures in which the server answered (it refused the login, holds no schema carto knows,
#: or answered a statement with an error): it is reachable, and retrying will not change it.
ANSWERED = frozenset({"denied", "schema_mismatch", "error"})


def answered(error: TeamError) -> bool:
    """Whether the server answered before `error`: one of ANSWERED, or a TLS failure whose
    message only the server's reply produces (it offers no TLS, its certificate does not
    verify: `connect._TLS_ANSWERED`); never a timeout or a handshake cut off (`unreachable`)."""
    return error.state in ANSWERED or bool(getattr(error, "answered", False))


def status(home, settings, *, connector=connect, held: bool = False) -> dict:
    document = {"local": local_status(home, settings, held=held)}
    try:
        conn = connector(settings)
    except TeamError as exc:
        document["server"] = {"reachable": answered(exc), "state": exc.state, "reason": str(exc)}
        return document
    try:
        document["server"] = server_status(conn, settings)
        document["server"].update(_restored(conn, home, settings) if document["server"]["member"] else
                                  {"pushes_lost": None, "forgets_undone": [], "admin_forgets_undone": [],
                                   "admin_revokes_undone": [],
                                   "restore_unchecked": None})
    except Exception as exc:  # noqa: BLE001 - a status never fails on the server's answer
        from carto_core.team.connect import classify

        error = classify(exc, settings)
        document["server"] = {"reachable": answered(error), "state": error.state, "reason": str(error)}
    finally:
        conn.close()
    return document
