"""A warm engine (serve, MCP) on a large home: what letting the keyword index's pages go at the
end of each search stage costs a search, against keeping them (docs/performance.md, "Cold search
at 3M: the stages' pages let go").

One process, one `SearchEngine` loaded once; rounds alternate the two modes (the order flips
each round) over a fixed list of lookups and questions, keyword ladders only (the vector store
releases its own pages either way). Per search: the process' CPU time; per round: the RSS after
it. `--query` (repeatable) replaces the list.

    nice -n 10 .venv/bin/python benchmarks/search/bench_warm_release.py HOME --rounds 6
"""

from __future__ import annotations

import argparse
import statistics
import time

QUERIES = ["deploy staging", "fix the flaky login test", "what did we change in the cache",
           "rollout status", "why does the build fail on arm", "add retries to the uploader",
           "migration", "how is the backfill going"]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("home")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--query", action="append")
    args = parser.parse_args()

    from carto_core.logio.home import Home
    from carto_core.search import index
    from carto_core.search.api import SearchRequest
    from carto_core.search.engine import SearchEngine
    from carto_core.search.pipeline import run_search

    queries = args.query or QUERIES
    engine = SearchEngine(Home(args.home))
    engine.ensure_loaded()
    shipped = index.RELEASE_ABOVE
    cpu: dict[str, list[float]] = {"release": [], "keep": []}
    rss: dict[str, list[float]] = {"release": [], "keep": []}
    for round_ in range(args.rounds):
        for mode in ("release", "keep") if round_ % 2 == 0 else ("keep", "release"):
            index.RELEASE_ABOVE = shipped if mode == "release" else 1 << 62
            for query in queries:
                start = time.process_time()
                run_search(SearchRequest(query=query, semantic=False, limit=10), engine=engine)
                cpu[mode].append(time.process_time() - start)
            rss[mode].append(rss_mb())
            print(f"round {round_} {mode:<7} median "
                  f"{statistics.median(cpu[mode][-len(queries):]) * 1000:.1f} ms CPU a search, "
                  f"RSS {rss[mode][-1]:.0f} MB", flush=True)
    index.RELEASE_ABOVE = shipped
    for mode in cpu:
        print(f"{mode:<7} median {statistics.median(cpu[mode]) * 1000:.1f} ms CPU over "
              f"{len(cpu[mode])} searches, RSS after a round {min(rss[mode]):.0f}-{max(rss[mode]):.0f} MB")


if __name__ == "__main__":
    main()
