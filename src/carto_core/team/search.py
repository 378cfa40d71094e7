"""`carto search --team`: the team server's keyword and vector ladders fused in one SQL
statement, then fused with the home's own results.

On the server (one statement, after one that counts the query terms):

- keyword: BM25 (k1 1.2, b 0.75, Lucene's idf `ln(1 + (N - df + .5) / (df + .5))`, the local
  ladder's) over the terms the team's analyzer made of each row at push. `df` is counted by the
  terms' GIN index, capped at `DF_CAP` (a term held by more rows than that is common: it still
  scores, but only rows holding a rarer term of the query are candidates; a query of common
  terms alone takes the newest `DF_CAP` rows holding one); `N` and the mean length come from
  the team's tallies;
- vector: the query embedded by this machine's embedder when it makes the team's model (centred
  on the home's mean vector as the local ladder does, its floor translated the same way), rows
  scored by cosine: exactly under `admin.INDEX_MIN_ROWS` vectors, through the IVFFlat index
  `carto team admin reindex` builds past that;
- fused by reciprocal rank (k 60), each ladder `DEPTH` deep, within the same scope (project,
  time window, prompt intent).

Then the team's list and the local one are fused the same way, an event in both counted once
(its best rank: the home's copy and the server's are the same event), each result naming the
machine and the person it came from.
"""

from __future__ import annotations

import time

K1, B = 1.2, 0.75
RRF_K = 60
DEPTH = 100
DF_CAP = 20_000


def idf(df: int, n: int) -> float:
    import math

    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


class TeamQuery:
    """What the server is asked: terms, a vector, the scope."""

    def __init__(self, text: str, terms: list[str], vector=None, floor: float | None = None,
                 model: str | None = None, dim: int | None = None, project: str | None = None,
                 since=None, before=None, intent: str | None = None, limit: int = 15,
                 depth: int = DEPTH):
        self.text, self.terms, self.vector, self.floor = text, terms, vector, floor
        self.model, self.dim = model, dim
        self.project, self.since, self.before, self.intent = project, since, before, intent
        self.limit, self.depth = limit, depth


def _scope(query: TeamQuery) -> tuple[str, dict]:
    from carto_core.team.facts import scope_clause

    clauses, params = [], {}
    if query.project:
        clause, params = scope_clause(query.project, alias="e.")
        clauses.append(clause)
    if query.since is not None:
        clauses.append("e.ts >= %(since)s")
        params["since"] = query.since
    if query.before is not None:
        clauses.append("e.ts <= %(before)s")
        params["before"] = query.before
    if query.intent:
        clauses.append("e.row->>'prompt_intent' = %(intent)s")
        params["intent"] = query.intent
    return " AND ".join(clauses) or "TRUE", params


def run(conn, team: str, query: TeamQuery) -> dict:
    """The team's ranked rows: {"hits": [(event_id, score, keyword rank, vector rank, machine,
    author, log, logs, row)], "keyword": {...}, "vector": {...}, "ms": ...}."""
    from psycopg import sql

    started = time.perf_counter()
    scope, params = _scope(query)
    params.update(team=team, depth=query.depth, limit=query.limit, k=RRF_K, k1=K1, b=B)
    out: dict = {"keyword": {"terms": len(query.terms)}, "vector": {}}
    n, dl_sum = conn.execute("SELECT coalesce(sum(events), 0), coalesce(sum(dl_sum), 0) FROM carto.tallies "
                             "WHERE team = %s", (team,)).fetchone()
    n = max(int(n), 1)
    avgdl = max(float(dl_sum) / n, 1.0)
    terms = list(dict.fromkeys(query.terms))
    keyword_sql = "SELECT NULL::text AS event_id, NULL::bigint AS r WHERE FALSE"
    if terms:
        counted = conn.execute(
            "SELECT t, (SELECT count(*) FROM (SELECT 1 FROM carto.events e WHERE e.team = %(team)s "
            "AND e.terms @> ARRAY[t] LIMIT %(cap)s) x) FROM unnest(%(terms)s::text[]) AS t",
            {"team": team, "cap": DF_CAP, "terms": terms}).fetchall()
        dfs = {t: int(df) for t, df in counted}
        held = [t for t in terms if dfs.get(t)]
        rare = [t for t in held if dfs[t] < DF_CAP]
        out["keyword"].update(held=len(held), common=[t for t in held if dfs[t] >= DF_CAP])
        if held:
            params.update(q_terms=held, q_idf=[idf(dfs[t], max(n, dfs[t])) for t in held],
                          cand=rare or held, avgdl=avgdl)
            newest = "" if rare else f" ORDER BY e.ts DESC NULLS LAST LIMIT {DF_CAP}"
            keyword_sql = f"""
                SELECT c.event_id, row_number() OVER (ORDER BY sum(q.idf * t.tf * (%(k1)s + 1)
                       / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * c.dl / %(avgdl)s))) DESC, c.event_id) AS r
                FROM (SELECT e.event_id, e.terms, e.tfs, e.dl FROM carto.events e
                      WHERE e.team = %(team)s AND e.terms && %(cand)s::text[] AND {scope}{newest}) c
                CROSS JOIN LATERAL unnest(c.terms, c.tfs) AS t(term, tf)
                JOIN unnest(%(q_terms)s::text[], %(q_idf)s::float8[]) AS q(term, idf) ON q.term = t.term
                GROUP BY c.event_id, c.dl
                ORDER BY r LIMIT %(depth)s"""
    vector_sql = "SELECT NULL::text AS event_id, NULL::bigint AS r WHERE FALSE"
    if query.vector is not None and query.model and query.dim:
        import numpy as np
        from pgvector import Vector

        # The vector travels as pgvector's text form and is cast in SQL: a search connection
        # has no vector adapter registered (that would cost a catalogue round trip a query).
        params.update(qv=Vector(np.asarray(query.vector, dtype=np.float32)).to_text(), model=query.model,
                      floor=query.floor if query.floor is not None else -2.0)
        distance = sql.SQL("(e.embedding::vector({0})) <=> %(qv)s::vector({0})").format(
            sql.Literal(int(query.dim))).as_string(conn)
        vector_sql = f"""
            SELECT event_id, row_number() OVER (ORDER BY d, event_id) AS r FROM (
                SELECT e.event_id, {distance} AS d FROM carto.events e
                WHERE e.team = %(team)s AND e.model = {sql.Literal(query.model).as_string(conn)} AND {scope}
                ORDER BY d LIMIT %(depth)s) v
            WHERE 1 - d >= %(floor)s"""
        out["vector"]["model"] = query.model
    statement = f"""
        WITH keyword AS ({keyword_sql}), vector AS ({vector_sql}),
        fused AS (
            SELECT event_id, sum(1.0 / (%(k)s + r)) AS score,
                   min(r) FILTER (WHERE ladder = 'keyword') AS kr,
                   min(r) FILTER (WHERE ladder = 'vector') AS vr
            FROM (SELECT event_id, r, 'keyword' AS ladder FROM keyword
                  UNION ALL SELECT event_id, r, 'vector' FROM vector) u
            GROUP BY event_id ORDER BY score DESC, event_id LIMIT %(limit)s)
        SELECT f.event_id, f.score, f.kr, f.vr, e.machine, e.author, e.log, e.logs, e.row,
               e.files, e.project_key
        FROM fused f JOIN carto.events e ON e.team = %(team)s AND e.event_id = f.event_id
        ORDER BY f.score DESC, f.event_id"""
    conn.execute("SET LOCAL ivfflat.probes = 10")
    conn.execute("SET LOCAL ivfflat.iterative_scan = relaxed_order")
    rows = conn.execute(statement, params).fetchall()
    conn.rollback()
    out["hits"] = rows
    out["keyword"]["ranked"] = sum(1 for r in rows if r[2] is not None)
    out["vector"]["ranked"] = sum(1 for r in rows if r[3] is not None)
    out["ms"] = round((time.perf_counter() - started) * 1000, 2)
    return out

