"""carto's schema on a team server, and its versioned migrations.

Everything lives in the schema `carto` of one database:

- `meta`: `schema_version` (checked at every connect: a client refuses a server whose version
  it does not know, with the command that fixes it), `server_id` (random, made by the setup:
  which server a push's positions belong to) and `server_place` (where the setup found the
  database: `server_place()`; a copy of the database, which carries the same `server_id`, is
  somewhere else: `identify`);
- `teams`: a team, the embedder model whose vectors it keeps (`model`, `dim`; NULL: no vectors)
  and the analyzer its keyword terms are made with;
- `members`: which login role reads (and, with `can_write`, pushes) which project of which team
  (`project` a normalised remote, or `*` for all of them): row-level security reads this table;
- `events`: one row per (team, event_id): the folded, redacted log row (`row`), who pushed it
  (`machine`, `author` = the login role), the log it came from and its rank in the fold order
  (`log`, `log_rank`, `logs` = every log it was seen in), a revision (`rev`: the rewrite
  generation and byte offset of the row in its log, so a newer revision of a turn replaces an
  older one whatever order pushes arrive in), the columns the lenses filter on, the machine-
  independent contention keys of the files it touched (`files`), its keyword terms with their
  counts (`terms`, `tfs`, `dl`) and its vector;
- `tallies`: events and term counts per (team, author, machine): the keyword ladder's document
  count and mean length without counting a million rows per query;
- `term_df` and `term_delta`: how many rows of each (team, project) hold each term, the keyword
  ladder's document frequencies. Triggers on `events` keep them, whatever writes the rows (a
  push, a revised turn, a forget, an administrator's statement): each statement appends its
  change to `term_delta` (only appends: ten machines pushing at once never wait on each other's
  counts, nor deadlock on them), and `fold_terms(team)` moves the deltas into `term_df` (one
  folder at a time, under an advisory lock; a push calls it after each batch, a forget inside
  its transaction) and deletes the counts that fall to 0, so no term outlives the rows that
  held it. A term's frequency is the sum of both tables' rows, so a query is right before and
  after a fold;
- `audit`: who pushed or forgot what, when, from which machine.

- `keyword_candidates(team, terms, every, cap)`: the rows the keyword ladder scores (their
  terms, counts, length and the columns a scope filters on), found through the terms' GIN
  index. Row-level security cannot use that index for a member (`&&` and `@>` are not
  leakproof, so the policy is checked on every row of the table first): this function runs as
  the schema's owner and applies the same rule itself, for the login that called it
  (`session_user`: each person is a login role, and the policy's owner bypass holds too).

Roles: `carto_member` (no login) holds the privileges; each person is a login role granted it.
The term counts are written only by the triggers' and `fold_terms`'s functions, which run as
the schema's owner: a member reads the counts of the projects they may read, and writes none.
The schema's owner (the role that ran `carto team admin setup`) bypasses row-level security;
nobody else does. Policies: a member reads the rows of the teams and projects `members` grants
them, inserts and changes only rows whose `author` is themselves, in projects they may write.
"""

from __future__ import annotations

SCHEMA = "carto"
MEMBER_ROLE = "carto_member"
#: The version this carto reads and writes.
SCHEMA_VERSION = 4

#: Rows a member may read: those of a team they belong to with every project ('*'), or of a
#: project they were granted. Written as IN (subquery): planned once per statement (a hashed
#: subplan), not once per row.
_READABLE = """(
    team IN (SELECT m.team FROM carto.members m WHERE m.member = current_user AND m.project = '*')
    OR (team, project_key) IN (SELECT m.team, m.project FROM carto.members m
                               WHERE m.member = current_user))"""
_WRITABLE = """(
    team IN (SELECT m.team FROM carto.members m
             WHERE m.member = current_user AND m.project = '*' AND m.can_write)
    OR (team, project_key) IN (SELECT m.team, m.project FROM carto.members m
                               WHERE m.member = current_user AND m.can_write))"""
_MY_TEAMS = "team IN (SELECT m.team FROM carto.members m WHERE m.member = current_user)"

#: version -> the statements that bring a schema of the version before it to this one.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        "CREATE SCHEMA IF NOT EXISTS carto",
        "CREATE TABLE carto.meta (key text PRIMARY KEY, value text NOT NULL)",
        """CREATE TABLE carto.teams (
            team text PRIMARY KEY,
            model text,
            dim integer CHECK (dim IS NULL OR dim BETWEEN 1 AND 16000),
            analyzer text NOT NULL DEFAULT 'english',
            created timestamptz NOT NULL DEFAULT now())""",
        """CREATE TABLE carto.members (
            team text NOT NULL REFERENCES carto.teams ON DELETE CASCADE,
            member name NOT NULL,
            project text NOT NULL DEFAULT '*',
            can_write boolean NOT NULL DEFAULT true,
            PRIMARY KEY (team, member, project))""",
        """CREATE TABLE carto.events (
            team text NOT NULL,
            event_id text NOT NULL,
            machine text NOT NULL,
            author name NOT NULL DEFAULT current_user,
            project_key text NOT NULL,
            project text NOT NULL DEFAULT '',
            log text NOT NULL,
            log_rank smallint NOT NULL,
            logs text[] NOT NULL,
            rev bigint NOT NULL,
            ts timestamptz,
            session text NOT NULL DEFAULT '',
            type text NOT NULL DEFAULT '',
            provider text NOT NULL DEFAULT '',
            summary text NOT NULL DEFAULT '',
            row jsonb NOT NULL,
            files text[] NOT NULL DEFAULT '{}',
            terms text[] NOT NULL DEFAULT '{}',
            tfs smallint[] NOT NULL DEFAULT '{}',
            dl integer NOT NULL DEFAULT 0,
            model text,
            embedding vector,
            pushed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (team, event_id))""",
        "CREATE INDEX events_team_ts ON carto.events (team, ts)",
        "CREATE INDEX events_team_project_ts ON carto.events (team, project_key, ts)",
        "CREATE INDEX events_team_session ON carto.events (team, session)",
        "CREATE INDEX events_terms ON carto.events USING gin (terms)",
        """CREATE TABLE carto.tallies (
            team text NOT NULL,
            author name NOT NULL DEFAULT current_user,
            machine text NOT NULL,
            events bigint NOT NULL DEFAULT 0,
            dl_sum bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (team, author, machine))""",
        """CREATE TABLE carto.audit (
            id bigserial PRIMARY KEY,
            at timestamptz NOT NULL DEFAULT now(),
            team text NOT NULL,
            member name NOT NULL DEFAULT current_user,
            machine text,
            action text NOT NULL,
            sent integer NOT NULL DEFAULT 0,
            inserted integer NOT NULL DEFAULT 0,
            updated integer NOT NULL DEFAULT 0,
            unchanged integer NOT NULL DEFAULT 0,
            refused integer NOT NULL DEFAULT 0,
            removed integer NOT NULL DEFAULT 0,
            detail jsonb)""",
        "CREATE INDEX audit_team_at ON carto.audit (team, at)",
        f"""DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{MEMBER_ROLE}') THEN
                CREATE ROLE {MEMBER_ROLE} NOLOGIN;
            END IF;
        END $$""",
        f"GRANT USAGE ON SCHEMA carto TO {MEMBER_ROLE}",
        f"GRANT SELECT ON carto.meta, carto.teams, carto.members TO {MEMBER_ROLE}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON carto.events TO {MEMBER_ROLE}",
        f"GRANT SELECT, INSERT, UPDATE ON carto.tallies TO {MEMBER_ROLE}",
        f"GRANT SELECT, INSERT ON carto.audit TO {MEMBER_ROLE}",
        f"GRANT USAGE ON SEQUENCE carto.audit_id_seq TO {MEMBER_ROLE}",
        "ALTER TABLE carto.events ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE carto.members ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE carto.teams ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE carto.tallies ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE carto.audit ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY own ON carto.members FOR SELECT TO {MEMBER_ROLE} USING (member = current_user)",
        f"CREATE POLICY mine ON carto.teams FOR SELECT TO {MEMBER_ROLE} USING ({_MY_TEAMS})",
        f"CREATE POLICY reads ON carto.events FOR SELECT TO {MEMBER_ROLE} USING {_READABLE}",
        f"""CREATE POLICY pushes ON carto.events FOR INSERT TO {MEMBER_ROLE}
            WITH CHECK (author = current_user AND {_WRITABLE})""",
        f"""CREATE POLICY revises ON carto.events FOR UPDATE TO {MEMBER_ROLE}
            USING (author = current_user) WITH CHECK (author = current_user AND {_WRITABLE})""",
        f"CREATE POLICY forgets ON carto.events FOR DELETE TO {MEMBER_ROLE} USING (author = current_user)",
        f"CREATE POLICY reads ON carto.tallies FOR SELECT TO {MEMBER_ROLE} USING ({_MY_TEAMS})",
        f"""CREATE POLICY counts ON carto.tallies FOR INSERT TO {MEMBER_ROLE}
            WITH CHECK (author = current_user AND {_MY_TEAMS})""",
        f"""CREATE POLICY recounts ON carto.tallies FOR UPDATE TO {MEMBER_ROLE}
            USING (author = current_user) WITH CHECK (author = current_user)""",
        f"CREATE POLICY own ON carto.audit FOR SELECT TO {MEMBER_ROLE} USING (member = current_user)",
        f"""CREATE POLICY records ON carto.audit FOR INSERT TO {MEMBER_ROLE}
            WITH CHECK (member = current_user AND {_MY_TEAMS})""",
    ],
}

#: The change each statement on `events` makes to the term counts, appended to `term_delta`:
#: rows inserted count +1 for each term they hold, rows deleted -1; an update counts the old
#: row -1 and the new one +1, leaving out rows whose team, id, project and terms did not change
#: (a row that only gained a log); a TRUNCATE empties the counts.
_COUNT_TERMS = """CREATE FUNCTION carto.count_terms() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO carto.term_delta (team, project_key, term, delta)
        SELECT n.team, n.project_key, t.term, count(*)
        FROM carto_new n CROSS JOIN LATERAL unnest(n.terms) AS t(term) GROUP BY 1, 2, 3;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO carto.term_delta (team, project_key, term, delta)
        SELECT o.team, o.project_key, t.term, -count(*)
        FROM carto_old o CROSS JOIN LATERAL unnest(o.terms) AS t(term) GROUP BY 1, 2, 3;
    ELSIF TG_OP = 'TRUNCATE' THEN
        -- DELETE, not TRUNCATE: the statement may be truncating these tables too.
        DELETE FROM carto.term_df;
        DELETE FROM carto.term_delta;
    ELSE
        INSERT INTO carto.term_delta (team, project_key, term, delta)
        SELECT team, project_key, term, sum(d) FROM (
            SELECT n.team, n.project_key, t.term, 1 AS d
            FROM carto_new n CROSS JOIN LATERAL unnest(n.terms) AS t(term)
            WHERE NOT EXISTS (SELECT FROM carto_old o WHERE o.team = n.team AND o.event_id = n.event_id
                              AND o.project_key = n.project_key AND o.terms = n.terms)
            UNION ALL
            SELECT o.team, o.project_key, t.term, -1
            FROM carto_old o CROSS JOIN LATERAL unnest(o.terms) AS t(term)
            WHERE NOT EXISTS (SELECT FROM carto_new n WHERE n.team = o.team AND n.event_id = o.event_id
                              AND n.project_key = o.project_key AND n.terms = o.terms)) AS x
        GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
    END IF;
    RETURN NULL;
END $$"""

#: Deltas into `term_df`: one folder a team at a time (another caller returns -1 at once and
#: leaves the deltas to the next fold); rows are upserted sorted by the table's key, so the
#: counts' row locks are always taken in one order.
_FOLD_TERMS = """CREATE FUNCTION carto.fold_terms(p_team text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    moved bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('carto.fold_terms'), hashtext(p_team)) THEN
        RETURN -1;
    END IF;
    WITH gone AS (DELETE FROM carto.term_delta WHERE team = p_team RETURNING project_key, term, delta),
    summed AS (SELECT project_key, term, sum(delta) AS d FROM gone GROUP BY 1, 2),
    upserted AS (
        INSERT INTO carto.term_df AS f (team, project_key, term, df)
        SELECT p_team, project_key, term, d FROM summed WHERE d <> 0 ORDER BY term, project_key
        ON CONFLICT (team, term, project_key) DO UPDATE SET df = f.df + excluded.df
        RETURNING 1)
    SELECT count(*) INTO moved FROM upserted;
    RETURN moved;
END $$"""

MIGRATIONS[2] = [
    """CREATE TABLE carto.term_df (
        team text NOT NULL,
        project_key text NOT NULL,
        term text NOT NULL,
        df bigint NOT NULL,
        PRIMARY KEY (team, term, project_key))""",
    """CREATE TABLE carto.term_delta (
        team text NOT NULL,
        project_key text NOT NULL,
        term text NOT NULL,
        delta bigint NOT NULL)""",
    "CREATE INDEX term_delta_team_term ON carto.term_delta (team, term)",
    _COUNT_TERMS,
    _FOLD_TERMS,
    "REVOKE ALL ON FUNCTION carto.count_terms() FROM PUBLIC",
    "REVOKE ALL ON FUNCTION carto.fold_terms(text) FROM PUBLIC",
    f"GRANT EXECUTE ON FUNCTION carto.fold_terms(text) TO {MEMBER_ROLE}",
    # The triggers first: their lock on `events` holds writers off until this migration
    # commits, so the count below sees every row written before it and none is counted twice.
    """CREATE TRIGGER count_inserted_terms AFTER INSERT ON carto.events
        REFERENCING NEW TABLE AS carto_new FOR EACH STATEMENT EXECUTE FUNCTION carto.count_terms()""",
    """CREATE TRIGGER count_updated_terms AFTER UPDATE ON carto.events
        REFERENCING OLD TABLE AS carto_old NEW TABLE AS carto_new
        FOR EACH STATEMENT EXECUTE FUNCTION carto.count_terms()""",
    """CREATE TRIGGER count_deleted_terms AFTER DELETE ON carto.events
        REFERENCING OLD TABLE AS carto_old FOR EACH STATEMENT EXECUTE FUNCTION carto.count_terms()""",
    """CREATE TRIGGER count_truncated_terms AFTER TRUNCATE ON carto.events
        FOR EACH STATEMENT EXECUTE FUNCTION carto.count_terms()""",
    """INSERT INTO carto.term_df (team, project_key, term, df)
        SELECT e.team, e.project_key, t.term, count(*)
        FROM carto.events e CROSS JOIN LATERAL unnest(e.terms) AS t(term) GROUP BY 1, 2, 3""",
    f"GRANT SELECT ON carto.term_df, carto.term_delta TO {MEMBER_ROLE}",
    "ALTER TABLE carto.term_df ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE carto.term_delta ENABLE ROW LEVEL SECURITY",
    f"CREATE POLICY reads ON carto.term_df FOR SELECT TO {MEMBER_ROLE} USING {_READABLE}",
    f"CREATE POLICY reads ON carto.term_delta FOR SELECT TO {MEMBER_ROLE} USING {_READABLE}",
]

#: `_READABLE` for the login that called a SECURITY DEFINER function (inside one,
#: current_user is its owner), whom row-level security lets read everything when they own the
#: table, are a superuser or bypass it.
_READABLE_BY_CALLER = """(
    e.team IN (SELECT m.team FROM carto.members m WHERE m.member = session_user AND m.project = '*')
    OR (e.team, e.project_key) IN (SELECT m.team, m.project FROM carto.members m
                                   WHERE m.member = session_user)
    OR EXISTS (SELECT FROM pg_roles r, pg_class c WHERE r.rolname = session_user
               AND c.oid = 'carto.events'::regclass
               AND (r.rolsuper OR r.rolbypassrls OR pg_has_role(session_user, c.relowner, 'USAGE'))))"""

#: Rows holding any of `terms`, or (`every`) the newest `cap` holding all of them, that the
#: calling login may read: what the keyword ladder scores and scopes (its prompt intent too).
_KEYWORD_CANDIDATES = f"""CREATE FUNCTION carto.keyword_candidates(p_team text, p_terms text[], p_every boolean,
        p_cap bigint)
    RETURNS TABLE (event_id text, terms text[], tfs smallint[], dl integer, ts timestamptz,
                   project text, project_key text, prompt_intent text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT e.event_id, e.terms, e.tfs, e.dl, e.ts, e.project, e.project_key, e.row->>'prompt_intent'
    FROM carto.events e
    WHERE NOT p_every AND e.team = p_team AND e.terms && p_terms AND {_READABLE_BY_CALLER}
    UNION ALL
    (SELECT e.event_id, e.terms, e.tfs, e.dl, e.ts, e.project, e.project_key, e.row->>'prompt_intent'
     FROM carto.events e
     WHERE p_every AND e.team = p_team AND e.terms @> p_terms AND {_READABLE_BY_CALLER}
     ORDER BY e.ts DESC NULLS LAST LIMIT p_cap)
$$"""

MIGRATIONS[3] = [
    _KEYWORD_CANDIDATES,
    "REVOKE ALL ON FUNCTION carto.keyword_candidates(text, text[], boolean, bigint) FROM PUBLIC",
    f"GRANT EXECUTE ON FUNCTION carto.keyword_candidates(text, text[], boolean, bigint) TO {MEMBER_ROLE}",
]

#: `fold_terms` that also deletes the counts it brings to 0: a term's row outliving every row
#: holding it (a forget, a revised turn) kept the forgotten content's words readable by every
#: member who reads the project. A fold that runs as part of a forget is waited for
#: (`forget.py` takes the lock first), so the words go in the forget's transaction.
_FOLD_TERMS_PRUNING = """CREATE OR REPLACE FUNCTION carto.fold_terms(p_team text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    moved bigint;
    zero_terms text[];
    zero_keys text[];
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('carto.fold_terms'), hashtext(p_team)) THEN
        RETURN -1;
    END IF;
    WITH gone AS (DELETE FROM carto.term_delta WHERE team = p_team RETURNING project_key, term, delta),
    summed AS (SELECT project_key, term, sum(delta) AS d FROM gone GROUP BY 1, 2),
    upserted AS (
        INSERT INTO carto.term_df AS f (team, project_key, term, df)
        SELECT p_team, project_key, term, d FROM summed WHERE d <> 0 ORDER BY term, project_key
        ON CONFLICT (team, term, project_key) DO UPDATE SET df = f.df + excluded.df
        RETURNING f.term, f.project_key, f.df)
    SELECT count(*), array_agg(term) FILTER (WHERE df <= 0), array_agg(project_key) FILTER (WHERE df <= 0)
        INTO moved, zero_terms, zero_keys FROM upserted;
    IF zero_terms IS NOT NULL THEN
        DELETE FROM carto.term_df f USING unnest(zero_terms, zero_keys) AS z(term, project_key)
        WHERE f.team = p_team AND f.term = z.term AND f.project_key = z.project_key AND f.df <= 0;
    END IF;
    RETURN moved;
END $$"""

MIGRATIONS[4] = [
    _FOLD_TERMS_PRUNING,
    # What folds before this one left: the counts of every row forgotten or revised away.
    "DELETE FROM carto.term_df WHERE df <= 0",
]

assert max(MIGRATIONS) == SCHEMA_VERSION


class SchemaState:
    """What a server holds: `version` 0 when it has no carto schema at all."""

    def __init__(self, version: int, has_vector: bool):
        self.version = version
        self.has_vector = has_vector

    @property
    def current(self) -> bool:
        return self.version == SCHEMA_VERSION

    def problem(self) -> str | None:
        """None when this carto can use the server, else what is wrong and who fixes it."""
        if self.version == 0:
            return ("the server has no carto schema: the team's administrator runs "
                    "`carto team admin setup URL --team NAME` once")
        if self.version < SCHEMA_VERSION:
            return (f"the server's carto schema is version {self.version}, this carto needs "
                    f"{SCHEMA_VERSION}: the team's administrator runs `carto team admin setup` "
                    "to migrate it")
        if self.version > SCHEMA_VERSION:
            return (f"the server's carto schema is version {self.version}, newer than this carto "
                    f"knows ({SCHEMA_VERSION}): upgrade carto (pip install -U carto-core[team])")
        return None


def read_state(conn) -> SchemaState:
    """The server's schema version (0: none), without changing anything."""
    row = conn.execute(
        "SELECT to_regclass('carto.meta') IS NOT NULL, "
        "EXISTS (SELECT FROM pg_extension WHERE extname = 'vector')").fetchone()
    version = 0
    if row[0]:
        found = conn.execute("SELECT value FROM carto.meta WHERE key = 'schema_version'").fetchone()
        version = int(found[0]) if found else 0
    if conn.info.transaction_status != 0:  # psycopg.pq.TransactionStatus.IDLE
        conn.rollback()
    return SchemaState(version, bool(row[1]))


def migrate(conn, target: int = SCHEMA_VERSION) -> tuple[int, int]:
    """Bring the schema to `target` (SCHEMA_VERSION; an older one builds the schema an older
    carto made, for the upgrade's tests) as its owner, under an advisory lock so two
    administrators never migrate at once; returns (version before, version after). A failure
    leaves the version before the call."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('carto.migrate'))")
        if not conn.execute("SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'vector')").fetchone()[0]:
            available = conn.execute(
                "SELECT EXISTS (SELECT FROM pg_available_extensions WHERE name = 'vector')").fetchone()[0]
            if not available:
                raise SchemaError("the server has no pgvector extension installed "
                                  "(https://github.com/pgvector/pgvector#installation)")
            superuser = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]
            if not superuser:
                raise SchemaError("pgvector is installed but not created in this database, and "
                                  "only a superuser can: ask one to run `CREATE EXTENSION vector;` "
                                  "in it, then run setup again")
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        before = 0
        if conn.execute("SELECT to_regclass('carto.meta') IS NOT NULL").fetchone()[0]:
            found = conn.execute("SELECT value FROM carto.meta WHERE key = 'schema_version'").fetchone()
            before = int(found[0]) if found else 0
        if before > SCHEMA_VERSION:
            raise SchemaError(SchemaState(before, True).problem() or "")
        for version in range(before + 1, target + 1):
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute("INSERT INTO carto.meta VALUES ('schema_version', %s) "
                         "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (str(version),))
        # A name of its own, kept as long as the schema is: a push's positions are this
        # server's, not its URL's (a server rebuilt at the same URL holds none of them).
        conn.execute("INSERT INTO carto.meta VALUES ('server_id', gen_random_uuid()::text) "
                     "ON CONFLICT (key) DO NOTHING")
    return before, max(before, target)


def server_place(conn) -> str:
    """Where this database is, as 'SYSTEM_IDENTIFIER/OID': its cluster's identifier (made by
    initdb) and its own oid. A standby and a standby promoted in a failover share both; a copy of
    the database (`CREATE DATABASE ... TEMPLATE`, a dump restored into another database or
    another cluster) differs in one. '?' stands for an identifier this login may not read."""
    import psycopg

    oid = conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]
    try:
        with conn.transaction():
            system = conn.execute("SELECT system_identifier FROM pg_control_system()").fetchone()[0]
    except psycopg.Error:  # a managed server may keep pg_control_system() from its users
        system = "?"
    return f"{system}/{oid}"


def same_place(recorded: str, live: str) -> bool:
    """Whether two `server_place`s name one database (an unknown identifier matches any)."""
    recorded_system, _, recorded_oid = recorded.partition("/")
    live_system, _, live_oid = live.partition("/")
    return recorded_oid == live_oid and (recorded_system == live_system or "?" in (recorded_system, live_system))


def copy_id(server_id: str, place: str) -> str:
    """The id of a copy of server `server_id` found at `place`: the same for every push to it
    before and after `identify` records it, so its positions stay its own."""
    import uuid

    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"carto-team-copy:{server_id}@{place}"))


def identify(conn) -> dict:
    """Give the server an id and record where it is: `{"server_id", "copy_of"}`. A database
    whose recorded place is not where it is now is a copy of the server that recorded it (its
    rows and `meta` came along with a dump or a template): it gets an id of its own
    (`copy_id`), `copy_of` names the original's."""
    with conn.transaction():
        found = dict(conn.execute("SELECT key, value FROM carto.meta WHERE key IN ('server_id', 'server_place')").fetchall())
        live = server_place(conn)
        server_id = found.get("server_id")
        recorded = found.get("server_place")
        copy_of = None
        if not server_id:
            server_id = conn.execute("SELECT gen_random_uuid()::text").fetchone()[0]
        elif recorded and not same_place(recorded, live):
            copy_of, server_id = server_id, copy_id(server_id, live)
        if copy_of or not recorded or (recorded.startswith("?/") and not live.startswith("?/")):
            recorded = live
        for key, value in (("server_id", server_id), ("server_place", recorded)):
            conn.execute("INSERT INTO carto.meta VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                         (key, value))
    return {"server_id": server_id, "copy_of": copy_of}


class SchemaError(Exception):
    """The schema cannot be created or migrated (what is missing, who can fix it)."""
