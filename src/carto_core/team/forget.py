"""Taking rows back from a team server: a person's rows, a project's rows, or a person's rows
of one project. A member removes their own rows; the schema's owner anyone's (row-level
security lets nobody else: a member asking for another's rows is refused before anything
runs). The tallies of the machines that lost rows are counted again (the terms' document
counts by the server's triggers, folded in the same transaction, so a term no row holds any
more is gone when the forget commits), and the removal is audited (who, what, how many; never the
rows themselves).

A forget run from a home (`forget_here`) is remembered there, per server, with the id of its
audit row: a server restored to a point before it (point-in-time recovery, a dump restored into
the same database) holds the forgotten rows again and lacks that audit row (it commits with the
removal), so `carto team status` says so (`undone`) and the next push forgets them again
(`forget_again`). `carto team admin forget` is remembered in the home it runs from (an
administrator's machine may hold no other carto state), per server and team (`forget_as_owner`),
and made again by the next `carto team admin` command from there (`forget_again_as_owner`): it
connects as the schema's owner, which reads every audit row and may remove anyone's rows.
`carto team admin revoke` is remembered beside them (`revoke_as_owner`: `action` "revoke", the
grants it took): a restore to a point before it gives the member those grants back, and the
next `carto team admin revoke` from that home asks, naming them, and revokes them again
(`forget_again` with `revokes`); the other admin commands say so.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime, timezone
from typing import NamedTuple

from carto_core.team.connect import TeamDenied, TeamError

FORGETS = "forgets.json"
#: Forgets a home remembers per server (the newest), to make again after a restore.
KEPT = 64


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
    condition, params = _matching(team, user, project, owner)
    with conn.transaction():
        # The fold below is this transaction's: waiting here for a fold under way (a push's)
        # means the words of the rows removed leave `term_df` and `term_delta` when they do.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('carto.fold_terms'), hashtext(%s))", (team,))
        removed = conn.execute(
            f"DELETE FROM carto.events WHERE {condition} RETURNING author, machine",
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

        audit = conn.execute(
            "INSERT INTO carto.audit (team, machine, action, removed, detail) "
            "VALUES (%s, %s, 'forget', %s, %s) RETURNING id",
            (team, machine, len(removed), Jsonb({"user": user, "project": project,
                                                 "authors": sorted({a for a, _ in touched}),
                                                 "machines": sorted({m for _, m in touched})}))).fetchone()[0]
        # The triggers counted the rows out; the fold drops the counts that reach 0.
        conn.execute("SELECT carto.fold_terms(%s)", (team,))
    conn.commit()  # the block above is a savepoint when a check before it opened a transaction
    return {"team": team, "user": user, "project": project, "removed": len(removed),
            "authors": sorted({a for a, _ in touched}), "machines": sorted({m for _, m in touched}),
            "as_owner": owner, "login": me, "audit": audit}


def _matching(team: str, user: str | None, project: str | None, owner: bool) -> tuple[str, dict]:
    """The condition on `carto.events` of the rows a forget removes, and its parameters."""
    clauses, params = ["team = %(team)s"], {"team": team, "user": user, "project": project}
    if user:
        clauses.append("author = %(user)s")
    elif not owner:
        clauses.append("author = current_user")  # a member's --project removes their own rows
    if project:
        clauses.append("(project_key = %(project)s OR lower(project) = lower(%(project)s))")
    return " AND ".join(clauses), params


# --------------------------------------------------------------------------- remembered here


def forget_here(conn, home, settings, *, user: str | None = None, project: str | None = None) -> dict:
    """`forget` on this home's team, remembered here when it removed rows (`undone`)."""
    document = forget(conn, settings.team, user=user, project=project, machine=settings.machine)
    if document["removed"]:
        # Whose rows it took is kept as the server chose them: a member's --project took their
        # own alone, and is made again so whoever makes it.
        whose = user or (None if document["as_owner"] else document["login"])
        _remember(home, _server(conn, settings), _record(document, whose, user, project))
    return document


def _record(document: dict, whose: str | None, user: str | None, project: str | None) -> dict:
    """What a home remembers of a forget that removed rows (`undone` checks it), and the start
    of what it remembers of a revoke (`revoke_as_owner`)."""
    return {"audit": document["audit"], "login": document["login"],
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "user": whose, "project": project, "asked": {"user": user, "project": project}}


class OwnerPlace(NamedTuple):
    """Where `carto team admin` works, as `undone` and `forget_again` read a home's settings."""

    team: str
    machine: str


def revoke_as_owner(conn, home, target, team: str, role: str, *, projects: list[str] | None, machine: str,
                    server: str | None = None) -> dict:
    """`admin.remove_member` run by the schema's owner (`carto team admin revoke`), remembered
    in `home` as forgets are when it took grants; it stands for what this home remembers of
    earlier revokes of `role` it covers (`_regranted`). `server` as for `forget_as_owner`."""
    from carto_core.team.admin import remove_member

    document = remove_member(conn, team, role, projects=projects, machine=machine)
    if document["grants_removed"]:
        key = server or _owner_server(conn, target, team)
        granted(home, key, role, projects)
        # Its own name: a restore gives its audit id again, and its second may be another's.
        _remember(home, key, {**_record(document, role, role, None), "action": "revoke",
                              "id": secrets.token_hex(8), "grants": document["grants"],
                              "asked": {"user": role, "projects": projects}})
    return document


def granted(home, server: str | None, role: str, projects: list[str] | None) -> None:
    """`carto team admin grant` from `home` gave `role` `projects` (none: every one) on the
    server remembered under `server`: the revokes remembered here no longer take those back."""
    if not server:
        return
    data = _read(home)
    if _regranted(data, server, role, projects):
        _write(home, data)


def _regranted(data: dict, server: str, role: str, projects: list[str] | None) -> bool:
    """Take `projects` of `role` (none, or "*": all) out of the revokes `data` remembers under
    `server`, dropping those left with none; whether any changed."""
    kept, changed = [], False
    for record in _records(data, server):
        if record.get("action") == "revoke" and record["user"] == role:
            left = [] if not projects or "*" in projects else [p for p in record["grants"] if p not in projects]
            if left != record["grants"]:
                changed = True
                if not left:
                    continue
                record = {**record, "grants": left}
        kept.append(record)
    if changed:
        data["servers"][server] = kept
    return changed


class OwnerCheck(NamedTuple):
    """What `check_as_owner` found: `server`, the key the owner's forgets of the team on this
    server are remembered under (None: `home` remembers no owner's forget on any server, and the
    server's identity was not asked); `undone` and `why` as `undone_as_owner` gives them."""

    server: str | None
    undone: list[dict]
    why: str | None


def forget_as_owner(conn, home, target, team: str, *, user: str, project: str | None, machine: str,
                    server: str | None = None) -> dict:
    """`forget` run by the schema's owner (`carto team admin forget`), remembered in `home` when
    it removed rows, for the server `target` reached and `team` (`forget_again_as_owner`);
    `server`: that key when the caller holds it (`check_as_owner`), else it is asked for."""
    document = forget(conn, team, user=user, project=project, machine=machine)
    if document["removed"]:
        _remember(home, server or _owner_server(conn, target, team), _record(document, user, user, project))
    return document


def forget_again_as_owner(conn, home, target, team: str, machine: str,
                          checked: OwnerCheck | None = None, *, revokes: bool = False) -> list[str]:
    """`forget_again` for the forgets (and, with `revokes`, the revokes) `carto team admin`
    made from `home` on this server and team; the server is not asked when it made none.
    `checked`: what `check_as_owner` found on this owner's connection, made again as it found
    it (not checked a second time)."""
    if checked is not None:
        return (forget_again(conn, home, OwnerPlace(team, machine), checked.server,
                             (checked.undone, checked.why), revokes=revokes) if checked.server else [])
    server = _owner_forgets(conn, home, target, team)[1]
    return forget_again(conn, home, OwnerPlace(team, machine), server, revokes=revokes) if server else []


def undone_as_owner(conn, home, target, team: str) -> tuple[list[dict], str | None]:
    """`undone` for the forgets `carto team admin forget` made from `home` on this server and
    team: what the next `carto team admin` command makes again. Their audit rows are the
    owner's: under another login none is checked, and the second value says so."""
    return check_as_owner(conn, home, target, team)[1:]


def check_as_owner(conn, home, target, team: str) -> OwnerCheck:
    """`undone_as_owner` with the key it asked the server for (`OwnerCheck`), for a command that
    goes on to make those forgets again and a new one (`carto team admin forget`)."""
    from carto_core.util.terminal import counted

    asked, server = _owner_forgets(conn, home, target, team)
    if not server:
        return OwnerCheck(asked, [], None)
    if not is_owner(conn):
        conn.rollback()
        records = _records(_read(home), server)
        n = sum(r.get("action") != "revoke" for r in records)
        made = [f"{counted(k, action)} made here by `carto team admin {action}`"
                for action, k in (("forget", n), ("revoke", len(records) - n)) if k]
        one = len(records) == 1
        return OwnerCheck(server, [], (
            f"whether the team server still holds {' and '.join(made)} is not checked: only the schema's "
            f"owner reads {'its' if one else 'their'} audit rows (the next `carto team admin` command "
            f"from here checks {'it' if one else 'them'}"
            + (" and forgets again what the server no longer holds)" if n else ")")))
    return OwnerCheck(server, *undone(conn, home, OwnerPlace(team, ""), server))


def _owner_forgets(conn, home, target, team: str) -> tuple[str | None, str | None]:
    """(the key of the owner's forgets of `team` on this server, None when `home` remembers
    none anywhere: the server is not asked; that key again when `home` remembers some there,
    else None)."""
    data = _read(home)
    if not any(key.startswith("owner-") and _records(data, key) for key in data["servers"]):
        return None, None
    server = _owner_server(conn, target, team)
    return server, (server if _records(data, server) else None)


def _owner_server(conn, target, team: str) -> str:
    """The key of the owner's forgets of `team` on the server `target` reached: its identity
    (`server_identity`: a copy elsewhere is another server), not a machine's push positions."""
    from carto_core.team.connect import server_identity

    text = json.dumps(["owner", server_identity(conn, target)[0], team])
    return "owner-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _server(conn, settings) -> str:
    from carto_core.team.connect import server_fingerprint, server_identity

    return server_fingerprint(settings, server_identity(conn, settings)[0])


def _read(home) -> dict:
    from carto_core.team.settings import folder

    try:
        data = json.loads((folder(home) / FORGETS).read_text("utf-8"))
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict) or not isinstance(data.get("servers"), dict):
        data = {"v": 1, "servers": {}}
    return data


def _records(data: dict, server: str) -> list[dict]:
    return [r for r in data["servers"].get(server) or []
            if isinstance(r, dict) and isinstance(r.get("audit"), int) and isinstance(r.get("login"), str)
            and isinstance(r.get("at"), str)
            and isinstance(r.get("asked"), dict)
            and (r.get("action") != "revoke" or isinstance(r.get("grants"), list))]


def _remember(home, server: str, record: dict) -> None:
    data = _read(home)
    data["servers"][server] = (_records(data, server) + [record])[-KEPT:]
    _write(home, data)


def _write(home, data: dict) -> None:
    from carto_core.team.settings import folder, write_private
    from carto_core.util.privatefiles import make_dirs

    make_dirs(folder(home))
    write_private(folder(home) / FORGETS, json.dumps(data, sort_keys=True))


def what(asked: dict) -> str:
    """"project KEY", "user U", "user U and project KEY": a forget as it was asked for."""
    return " and ".join(x for x in (f"user {asked['user']}" if asked.get("user") else "",
                                    f"project {asked['project']}" if asked.get("project") else "") if x)


def undone(conn, home, settings, server: str) -> tuple[list[dict], str | None]:
    """The forgets remembered here whose audit row the server no longer holds (restored to a
    point before them), each with `rows`: how many rows it would remove now (and the revokes
    whose member holds again some of the grants they took, each with `back`: those); and why some
    could not be checked (None: all were): a member's login reads its own audit rows alone, so
    a forget made here under another login is checked by that login or the schema's owner."""
    records = _records(_read(home), server)
    if not records:
        return [], None
    me = conn.execute("SELECT current_user").fetchone()[0]
    others = sorted({r["login"] for r in records} - {me})
    if others and is_owner(conn):
        others = []
    mine = [r for r in records if r["login"] not in others]
    # An audit id the server gave again after a restore is another action's: the row must be
    # this forget's (its login, its project, the user asked for or the one it was made again for).
    held = {audit: (action, member, user, project) for audit, action, member, user, project in conn.execute(
        "SELECT id, action, member, detail->>'user', detail->>'project' FROM carto.audit "
        "WHERE team = %s AND action IN ('forget', 'revoke') AND id = ANY(%s)",
        (settings.team, [r["audit"] for r in mine])).fetchall()}
    out = []
    for record in mine:
        action, member, user, project = held.get(record["audit"], (None, None, None, None))
        if record.get("action") == "revoke":
            if action == "revoke" and member == record["login"] and user == record["user"]:
                continue
            back = [p for (p,) in conn.execute(
                "SELECT project FROM carto.members WHERE team = %s AND member = %s AND project = ANY(%s) "
                "ORDER BY project", (settings.team, record["user"], record["grants"])).fetchall()]
            if back:
                out.append({**record, "back": back})
            continue
        if (action == "forget" and member == record["login"] and project == record["project"]
                and user in (record["asked"].get("user"), record["user"])):
            continue
        condition, params = _matching(settings.team, record["user"], record["project"], True)
        rows = conn.execute(f"SELECT count(*) FROM carto.events WHERE {condition}", params).fetchone()[0]
        out.append({**record, "rows": rows})
    conn.rollback()
    why = None
    if others:
        logins = ", ".join(others)
        why = (f"whether the team server still holds the forgets made here as {logins} is not checked: the "
               f"server shows {me} only its own audit rows (check as {logins}, or as the schema's owner)")
    return out, why


def forget_again(conn, home, settings, server: str,
                 checked: tuple[list[dict], str | None] | None = None, *, revokes: bool = False) -> list[str]:
    """Make again the forgets the server no longer holds (`undone`, or `checked`: what it gave
    on this connection already), and with `revokes` the revokes whose grants are back (without,
    a note says the next `carto team admin revoke` does); a note for each, and one saying why
    some could not be checked."""
    from carto_core.team.admin import remove_member
    from carto_core.util.terminal import counted

    found, why = checked if checked is not None else undone(conn, home, settings, server)
    notes = [why] if why else []
    if not found:
        return notes
    # A revoke made since the check (`revoke_as_owner`) stands for the grants of its member it
    # covers: those left are taken as the home now remembers them.
    remembered = _records(_read(home), server)
    redone = []
    for record in found:
        was = {k: v for k, v in record.items() if k not in ("rows", "back")}
        if record.get("action") == "revoke":
            grants = f"the grants of {record['user']} ({', '.join(record['back'])})"
            if not revokes:
                notes.append(f"the team server holds again {grants} the revoke made here at {record['at']} took "
                             "(restored to an earlier point?): the next `carto team admin revoke` from here "
                             "revokes them again (it asks first)")
                continue
            now = next((r for r in remembered if _same(r, was)), {"grants": []})
            back = [p for p in record["back"] if p in now["grants"]]
            if not back:
                continue
            document = remove_member(conn, settings.team, record["user"], projects=back, machine=settings.machine)
            redone.append((was, {**now, "audit": document["audit"], "login": document["login"]}))
            notes.append(f"the team server held again the grants of {record['user']} ({', '.join(back)}) the "
                         f"revoke made here at {record['at']} took (restored to an earlier point?): revoked again, "
                         f"{counted(document['grants_removed'], 'grant')} removed")
            continue
        document = forget(conn, settings.team, user=record["user"], project=record["project"],
                          machine=settings.machine)
        redone.append((was, {**was, "audit": document["audit"], "login": document["login"]}))
        notes.append(f"the team server no longer held the forget of {what(record['asked'])} made here at "
                     f"{record['at']} (restored to an earlier point?): forgotten again, "
                     f"{counted(document['removed'], 'row')} removed")
    if not redone:
        return notes
    data = _read(home)
    data["servers"][server] = [next((new for old, new in redone if _same(old, r)), r)
                               for r in _records(data, server)]
    _write(home, data)
    return notes


def _same(a: dict, b: dict) -> bool:
    """One remembered action: a revoke by its `id` (a server restored gives audit ids again, and
    a revoke made again within the second is alike in all else), a forget whole."""
    return a.get("id") == b.get("id") if a.get("id") else a == b
