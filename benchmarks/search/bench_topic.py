"""Benchmark: what the search for a query's topic costs the keyword ladder, at this tree and a
revision (docs/ranking.md, "A topic and words apart from it").

The topic is looked for when no row holds every held word of a query of 3 to 6 words: each
pair of held words is intersected once, then the sets whose pairs all meet. The queries here
are made to take that path at its widest: 3 to 6 words drawn from the home's own terms (half
of them common, held by 0.5-5 % of the rows; half mid, 0.05-0.5 %), kept when no row holds
them all. Each tree runs in a fresh process (its `src/` and `rankers/src/` first on
PYTHONPATH, a revision exported with `git archive`), opens the same keyword index, and times
`BM25Ranker.rank` (numpy, `carto search`) and `rank_lite` (stdlib, prompt-time recall) per
query in thread CPU time; rounds alternate the order of the trees. Printed: per tree and
ladder, the median and p95 per query and the total, over the medians of the rounds, and this
tree's ratio to the revision.

    .venv/bin/python benchmarks/search/bench_topic.py --events 200000 --base main~1 \\
        --workdir /tmp/topic-bench --rounds 3

`--unheld N` adds N words no row holds to every query ("quick one - X Y, how did that pan
out?"): the path where the words no row holds bound or stop the topic's search, and the
keyword ladder still names the topic for fusion (`Ladder.topic_holders`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREES = ("src", "rankers/src")
sys.path.insert(0, str(ROOT / "benchmarks"))
from revision import export  # noqa: E402
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)

CHILD = r"""
import json, sys, time, statistics
from carto_core.logio.home import Home
from carto_core.search.api import Query
from carto_core.search.engine import SearchEngine
from carto_core.search.index_view import IndexView
from carto_core.search.api import LiteScope
from carto_rankers.bm25 import BM25Ranker

home, queries = sys.argv[1], json.loads(sys.argv[2])
engine = SearchEngine(Home(home), persist=True, auto_refresh=False)
engine.ensure_loaded()
view = IndexView.open(Home(home))
ranker, scope = BM25Ranker(), engine.scope()
lite_scope = LiteScope(lambda doc: True, frozenset())
out = {"rank": [], "lite": []}
for words in queries:
    query = Query(" ".join(words), tuple(words))
    for name, call in (("rank", lambda: ranker.rank(query, scope, engine)),
                       ("lite", lambda: ranker.rank_lite(query, view, lite_scope))):
        call()  # postings paged in once, as a warm search has them
        start = time.thread_time()
        call()
        out[name].append(time.thread_time() - start)
print(json.dumps(out))
"""


def make_home(workdir: Path, events: int) -> Path:
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    home = workdir / f"home-{events}"
    if not (home / ".built").exists():
        generate_home(home, events, seed=5, now=NOW)
        SearchEngine(Home(home), persist=True).ensure_loaded()
        (home / ".built").write_text("ok")
    return home


def make_queries(home: Path, count: int, seed: int) -> list[list[str]]:
    """`count` queries of 3-6 distinct terms no row holds all together."""
    import numpy as np

    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    engine = SearchEngine(Home(home), persist=True, auto_refresh=False)
    engine.ensure_loaded()
    index, analyzer = engine.index, engine.analyzer
    n = index.n_alive
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for doc in rng.sample(range(len(index)), min(3000, len(index))):
        for term in set(analyzer.terms(str(engine.row(doc).get("summary") or ""))):
            if term.isalpha():
                counts[term] = index.df(term)
    common = [t for t, df in counts.items() if 0.005 * n <= df <= 0.05 * n]
    mid = [t for t, df in counts.items() if 0.0005 * n <= df < 0.005 * n]
    queries: list[list[str]] = []
    while len(queries) < count:
        size = rng.randint(3, 6)
        words = list(dict.fromkeys(rng.sample(common, size // 2)
                                   + rng.sample(mid, size - size // 2)))
        held = None
        for word in words:
            docs = np.unique(np.concatenate([p[0] for p in index.postings(word)]))
            held = docs if held is None else np.intersect1d(held, docs)
        if held is not None and not len(held):
            queries.append(words)
    return queries


def run(tree: Path, home: Path, queries) -> dict:
    env = {"PYTHONPATH": ":".join(str(tree / t) for t in TREES), "PATH": "/usr/bin:/bin",
           "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(home), json.dumps(queries)],
                          capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=50000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--base", default="main~1", help="the revision to compare with")
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--unheld", type=int, default=0,
                        help="words no row holds added to every query")
    args = parser.parse_args()
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="topic-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    home = make_home(workdir, args.events)
    queries = make_queries(home, args.queries, seed=11)
    # no analyzer makes a term with a digit between letters like these: no row holds them
    queries = [words + [f"qx{i}zz{n}" for n in range(args.unheld)]
               for i, words in enumerate(queries)]
    print(f"# {args.events} events, {len(queries)} queries of 3-6 words no row holds together"
          f" and {args.unheld} no row holds at all", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"base": export(args.base, Path(tmp) / "base", TREES),
                 "this": export("HEAD", Path(tmp) / "this", TREES)}
        per: dict[tuple[str, str], list[list[float]]] = {}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for name in order:
                got = run(trees[name], home, queries)
                for ladder, times in got.items():
                    per.setdefault((name, ladder), []).append(times)
                    print(f"round {round_ + 1} {name:4} {ladder}: total {sum(times):.3f} s CPU, "
                          f"median {statistics.median(times) * 1000:.3f} ms", flush=True)
    summary = {}
    for (name, ladder), rounds in per.items():
        each = [statistics.median(r[i] for r in rounds) for i in range(len(rounds[0]))]
        ordered = sorted(each)
        summary[(name, ladder)] = {
            "median_ms": round(statistics.median(each) * 1000, 3),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
            "total_s": round(sum(each), 3)}
    for ladder in ("rank", "lite"):
        base, this = summary[("base", ladder)], summary[("this", ladder)]
        print(f"{ladder}: base {base} | this {this} | total ratio "
              f"{this['total_s'] / base['total_s']:.2f}, median ratio "
              f"{this['median_ms'] / base['median_ms']:.2f}", flush=True)


if __name__ == "__main__":
    main()
