"""`carto search --team`: the team server's keyword and vector ladders fused in one SQL
statement, then fused with the home's own results.

On the server (one statement, after one that reads the query terms' document counts):

- keyword: BM25 (k1 1.2, b 0.75, Lucene's idf `ln(1 + (N - df + .5) / (df + .5))`, the local
  ladder's) over the terms the team's analyzer made of each row at push. `df` is read from the
  counts the server keeps per project (`schema`: `term_df` and its deltas, the projects this
  login may read), `N` and the mean length from the team's tallies. Only a bounded set of rows
  is scored (`candidates`): the query's terms are taken rarest first while the rows holding
  them add up to at most `CANDIDATES`, and every row holding one of them is a candidate. A row
  holding none of them holds only the commoner terms and scores at most the sum of their
  `idf * (k1 + 1)`: when the ladder's last row scores at least that, its ranking is the one
  scoring every row would give (`exact`); else the commoner terms' rows were left out
  (`skipped`). A query whose rarest term alone is held by more rows takes the newest
  `CANDIDATES` rows holding every term of the query. The candidates come from
  `carto.keyword_candidates`, which finds them through the terms' index;
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
#: Rows a keyword ladder scores at most (the rarest terms' rows; see the module).
CANDIDATES = 5_000


def idf(df: int, n: int) -> float:
    import math

    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


class TeamQuery:
    """What the server is asked: terms, a vector, the scope."""

    def __init__(self, text: str, terms: list[str], vector=None, floor: float | None = None,
                 model: str | None = None, dim: int | None = None, project: str | None = None,
                 since=None, before=None, intent: str | None = None, limit: int = 15,
                 depth: int = DEPTH, candidates: int = CANDIDATES):
        self.text, self.terms, self.vector, self.floor = text, terms, vector, floor
        self.model, self.dim = model, dim
        self.project, self.since, self.before, self.intent = project, since, before, intent
        self.limit, self.depth, self.candidates = limit, depth, candidates


def document_frequencies(conn, team: str, terms: list[str]) -> dict[str, int]:
    """term -> how many rows of the projects this login may read hold it (the counts folded,
    plus the deltas not folded yet)."""
    found = conn.execute(
        "SELECT term, sum(n) FROM (SELECT term, df AS n FROM carto.term_df WHERE team = %(team)s "
        "AND term = ANY(%(terms)s) UNION ALL SELECT term, delta FROM carto.term_delta "
        "WHERE team = %(team)s AND term = ANY(%(terms)s)) AS x GROUP BY term",
        {"team": team, "terms": terms}).fetchall()
    return {term: int(n) for term, n in found}


def candidate_terms(held: list[str], dfs: dict[str, int], cap: int) -> tuple[list[str], list[str]]:
    """(the terms whose rows are scored, the terms left out): rarest first while their rows
    add up to at most `cap` (none when the rarest alone is held by more)."""
    chosen: list[str] = []
    total = 0
    ordered = sorted(held, key=lambda t: (dfs[t], t))
    for term in ordered:
        if total + dfs[term] > cap:
            break
        chosen.append(term)
        total += dfs[term]
    return chosen, [t for t in ordered if t not in chosen]


def _scope(query: TeamQuery, intent: str = "e.row->>'prompt_intent'") -> tuple[str, dict]:
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
        clauses.append(f"{intent} = %(intent)s")
        params["intent"] = query.intent
    return " AND ".join(clauses) or "TRUE", params


def run(conn, team: str, query: TeamQuery) -> dict:
    """The team's ranked rows: {"hits": [(event_id, score, keyword rank, vector rank, machine,
    author, log, logs, row, files, project key)], "evidence": [(keyword coverage, cosine) of
    each hit: the share of the query's idf mass it holds (None when no row holds a query
    term) and its cosine (None where the vector ladder did not rank it)], "keyword": {terms,
    held, skipped, exact, ranked}, "vector": {...}, "ms": ...}."""
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
    keyword_sql = "SELECT NULL::text AS event_id, NULL::bigint AS r, NULL::float8 AS s WHERE FALSE"
    # each returned row's coverage (the relevance floor's measure), computed for the page alone
    coverage_sql = "NULL::float8"
    bound = 0.0
    if terms:
        dfs = document_frequencies(conn, team, terms)
        held = [t for t in terms if dfs.get(t, 0) > 0]
        if held:
            idfs = {t: idf(dfs[t], max(n, dfs[t])) for t in held}
            chosen, skipped = candidate_terms(held, dfs, query.candidates)
            bound = sum(idfs[t] * (K1 + 1) for t in skipped)
            out["keyword"].update(held=len(held), skipped=skipped)
            # A term no row holds still counts in the query's whole, as the local ladder counts
            # it: a row's coverage is the share of that idf mass it holds (the relevance floor).
            mass = sum(idfs.values()) + (len(terms) - len(held)) * idf(0, n)
            params.update(q_terms=held, q_idf=[idfs[t] for t in held], avgdl=avgdl, cap=query.candidates,
                          q_mass=mass)
            coverage_sql = """(SELECT coalesce(sum(q.idf), 0) / %(q_mass)s
                FROM unnest(%(q_terms)s::text[], %(q_idf)s::float8[]) AS q(term, idf)
                WHERE array_position(e.terms, q.term) IS NOT NULL)"""
            # The candidates come from `carto.keyword_candidates` (the terms' index, which
            # row-level security cannot use for a member; it applies the policy's rule itself:
            # `schema`), scoped here.
            candidates_scope, _ = _scope(query, intent="e.prompt_intent")
            # Every term common: the newest rows holding them all, within the scope (the
            # function cuts them itself only when there is no scope to cut after).
            params.update(cand=chosen or held, every=not chosen,
                          first_cap=query.candidates if candidates_scope == "TRUE" else None)
            newest = "" if chosen else " ORDER BY e.ts DESC NULLS LAST LIMIT %(cap)s"
            # Each candidate's tf of each query term read off its arrays by position (no row's
            # terms are unnested): the query's few terms against the row's.
            keyword_sql = f"""
                SELECT c.event_id, row_number() OVER (ORDER BY c.s DESC, c.event_id) AS r, c.s FROM (
                    SELECT e.event_id, (
                        SELECT coalesce(sum(q.idf * x.tf * (%(k1)s + 1)
                               / (x.tf + %(k1)s * (1 - %(b)s + %(b)s * e.dl / %(avgdl)s))), 0)
                        FROM unnest(%(q_terms)s::text[], %(q_idf)s::float8[]) AS q(term, idf)
                        CROSS JOIN LATERAL (SELECT e.tfs[array_position(e.terms, q.term)]::float8 AS tf) x
                        WHERE x.tf IS NOT NULL) AS s
                    FROM (SELECT * FROM carto.keyword_candidates(%(team)s, %(cand)s::text[], %(every)s,
                                                                %(first_cap)s) e
                          WHERE {candidates_scope}{newest}) e) c
                ORDER BY r LIMIT %(depth)s"""
    vector_sql = "SELECT NULL::text AS event_id, NULL::bigint AS r, NULL::float8 AS cos WHERE FALSE"
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
            SELECT event_id, row_number() OVER (ORDER BY d, event_id) AS r, 1 - d AS cos FROM (
                SELECT e.event_id, {distance} AS d FROM carto.events e
                WHERE e.team = %(team)s AND e.model = {sql.Literal(query.model).as_string(conn)} AND {scope}
                ORDER BY d LIMIT %(depth)s) v
            WHERE 1 - d >= %(floor)s"""
        out["vector"]["model"] = query.model
    statement = f"""
        WITH keyword AS MATERIALIZED ({keyword_sql}), vector AS ({vector_sql}),
        fused AS (
            SELECT event_id, sum(1.0 / (%(k)s + r)) AS score,
                   min(r) FILTER (WHERE ladder = 'keyword') AS kr,
                   min(r) FILTER (WHERE ladder = 'vector') AS vr,
                   max(cos) AS cos
            FROM (SELECT event_id, r, 'keyword' AS ladder, NULL::float8 AS cos FROM keyword
                  UNION ALL SELECT event_id, r, 'vector', cos FROM vector) u
            GROUP BY event_id ORDER BY score DESC, event_id LIMIT %(limit)s)
        SELECT f.event_id, f.score, f.kr, f.vr, e.machine, e.author, e.log, e.logs, e.row,
               e.files, e.project_key, {coverage_sql} AS cov, f.cos, k.ranked, k.lowest
        FROM fused f JOIN carto.events e ON e.team = %(team)s AND e.event_id = f.event_id
        CROSS JOIN (SELECT count(*) AS ranked, min(s) AS lowest FROM keyword) k
        ORDER BY f.score DESC, f.event_id"""
    conn.execute("SET LOCAL ivfflat.probes = 10")
    conn.execute("SET LOCAL ivfflat.iterative_scan = relaxed_order")
    found = conn.execute(statement, params).fetchall()
    conn.rollback()
    rows = [row[:-4] for row in found]
    out["evidence"] = [(row[-4], row[-3]) for row in found]
    if "held" in out["keyword"]:
        ranked, lowest = (found[0][-2], found[0][-1]) if found else (0, None)
        # Every row left out scores at most `bound`: the ladder is exact when it is full and its
        # last row scores at least that (or nothing was left out).
        out["keyword"]["exact"] = bool(not out["keyword"]["skipped"] or (
            ranked >= query.depth and lowest is not None and lowest >= bound))
    out["hits"] = rows
    out["keyword"]["ranked"] = sum(1 for r in rows if r[2] is not None)
    out["vector"]["ranked"] = sum(1 for r in rows if r[3] is not None)
    out["ms"] = round((time.perf_counter() - started) * 1000, 2)
    return out

