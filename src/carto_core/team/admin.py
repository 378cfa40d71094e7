"""What a team's administrator runs, connected as the schema's owner (a role with CREATEROLE;
on a server of your own, a superuser once for `CREATE EXTENSION vector`): create or migrate the
schema, create a team, add and remove members with their projects, build the vector index.
"""

from __future__ import annotations

import math
import re

from carto_core.team.schema import MEMBER_ROLE, identify, migrate
from carto_core.util.terminal import counted

_ROLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,62}$")
#: Fewer vectors than this and the vector ladder scans them exactly (recall 1.0, milliseconds).
INDEX_MIN_ROWS = 50_000


class AdminError(Exception):
    pass


def check_role_name(role: str) -> str:
    if not _ROLE.match(role or ""):
        raise AdminError(f"{role!r} is not a role name carto accepts ([A-Za-z_][A-Za-z0-9_.-]*, "
                         "at most 63 characters)")
    return role


def setup(conn, team: str, *, model: str | None = None, dim: int | None = None,
          analyzer: str = "english") -> dict:
    """Create or migrate the schema and create (or update) `team`; a copy of another team
    server gets an id of its own (`copy_of`: the original's)."""
    before, after = migrate(conn)
    found = identify(conn)
    with conn.transaction():
        conn.execute(
            "INSERT INTO carto.teams (team, model, dim, analyzer) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (team) DO UPDATE SET model = excluded.model, dim = excluded.dim, "
            "analyzer = excluded.analyzer", (team, model, dim, analyzer))
    return {"schema_before": before, "schema": after, "team": team, "model": model, "dim": dim,
            "analyzer": analyzer, "server_id": found["server_id"], "copy_of": found["copy_of"]}


def add_member(conn, team: str, role: str, *, projects: list[str] | None = None,
               password: str | None = None, write: bool = True) -> dict:
    """Make `role` a member of `team` for `projects` (normalised remotes; none: every project).
    Creates the login role when it does not exist; `password` is hashed before it is sent (the
    server receives and stores its hash, SCRAM by default, never the password)."""
    from psycopg import sql

    check_role_name(role)
    projects = projects or ["*"]
    with conn.transaction():
        if not conn.execute("SELECT EXISTS (SELECT FROM carto.teams WHERE team = %s)", (team,)).fetchone()[0]:
            raise AdminError(f"no team {team!r} on this server: `carto team admin setup` creates it")
        exists = conn.execute("SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = %s)", (role,)).fetchone()[0]
        if not exists:
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        if password is not None:
            # Hashed here (libpq's PQencryptPasswordConn, the server's password_encryption), as
            # psql's \password does: a utility statement takes no parameters, so the text sent
            # is the statement a server logs (log_statement, or any statement that fails).
            verifier = conn.pgconn.encrypt_password(password.encode("utf-8"), role.encode("utf-8"))
            conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                sql.Identifier(role), sql.Literal(verifier.decode("ascii"))))
        conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(MEMBER_ROLE), sql.Identifier(role)))
        for project in projects:
            conn.execute("INSERT INTO carto.members (team, member, project, can_write) VALUES (%s, %s, %s, %s) "
                         "ON CONFLICT (team, member, project) DO UPDATE SET can_write = excluded.can_write",
                         (team, role, project, write))
    return {"team": team, "member": role, "created": not exists, "projects": projects, "write": write}


def remove_member(conn, team: str, role: str, *, projects: list[str] | None = None,
                  machine: str | None = None) -> dict:
    """Take `projects` (none: all of them) of `team` from `role`. Their rows stay until
    `carto team forget --user` removes them. A revoke that took grants is audited with them
    (`grants`: the projects taken): a server restored to a point before it lacks that row."""
    from psycopg.types.json import Jsonb

    audit = login = None
    with conn.transaction():
        if projects:
            taken = conn.execute("DELETE FROM carto.members WHERE team = %s AND member = %s AND project = ANY(%s) "
                                 "RETURNING project", (team, role, projects)).fetchall()
        else:
            taken = conn.execute("DELETE FROM carto.members WHERE team = %s AND member = %s RETURNING project",
                                 (team, role)).fetchall()
        grants = sorted(p for (p,) in taken)
        if grants:
            audit, login = conn.execute(
                "INSERT INTO carto.audit (team, machine, action, removed, detail) "
                "VALUES (%s, %s, 'revoke', %s, %s) RETURNING id, member",
                (team, machine, len(grants), Jsonb({"user": role, "projects": projects or None,
                                                     "grants": grants}))).fetchone()
    return {"team": team, "member": role, "grants_removed": len(grants), "grants": grants, "audit": audit,
            "login": login}


def members(conn, team: str) -> list[dict]:
    rows = conn.execute("SELECT member, project, can_write FROM carto.members WHERE team = %s "
                        "ORDER BY member, project", (team,)).fetchall()
    return [{"member": m, "project": p, "write": w} for m, p, w in rows]


def vector_index_name(model: str) -> str:
    import hashlib

    return "events_vec_" + hashlib.sha1(model.encode("utf-8")).hexdigest()[:12]


def reindex(conn, team: str) -> dict:
    """Build (or rebuild) the IVFFlat index on the vectors of `team`'s model.

    Inserting into an HNSW index costs each push dearly (measured in docs/performance.md), and
    an exact scan of a million vectors takes about a second, so the team's vectors get an
    IVFFlat index (lists = sqrt(rows)) built from the rows already there; later rows join the
    nearest list at insert, cheaply. Rebuild when the team has grown a few times over.
    Under `INDEX_MIN_ROWS` vectors nothing is built: the exact scan is fast and exact."""
    from psycopg import sql

    found = conn.execute("SELECT model, dim FROM carto.teams WHERE team = %s", (team,)).fetchone()
    if found is None:
        raise AdminError(f"no team {team!r} on this server")
    model, dim = found
    if not model or not dim:
        return {"team": team, "built": False, "reason": "the team keeps no vectors (no model)"}
    rows = conn.execute("SELECT count(*) FROM carto.events WHERE model = %s", (model,)).fetchone()[0]
    conn.commit()
    name = vector_index_name(model)
    if rows < INDEX_MIN_ROWS:
        return {"team": team, "built": False, "rows": rows,
                "reason": f"{counted(rows, 'vector')}: an exact scan is fast under {INDEX_MIN_ROWS:,}"}
    lists = max(10, int(math.sqrt(rows)))
    autocommit = conn.autocommit
    conn.autocommit = True  # CREATE INDEX CONCURRENTLY runs outside a transaction
    try:
        conn.execute("SET maintenance_work_mem = '256MB'")
        conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS carto.{}").format(sql.Identifier(name)))
        conn.execute(sql.SQL(
            "CREATE INDEX CONCURRENTLY {} ON carto.events USING ivfflat "
            "((embedding::vector({})) vector_cosine_ops) WITH (lists = {}) WHERE model = {}").format(
                sql.Identifier(name), sql.Literal(int(dim)), sql.Literal(lists), sql.Literal(model)))
        conn.execute("INSERT INTO carto.meta VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                     (f"index:{model}", str(rows)))
    finally:
        conn.autocommit = autocommit
    return {"team": team, "built": True, "rows": rows, "lists": lists, "index": name}
