"""The embedded store's inverted lists (`semantic/ivf.py`): recall against the exact scan and
the cold search's CPU, by the share of lists a query probes.

For each home given (indexed already, default embedder), its vectors are written again into a
store of their own under --workdir, through the store's own writer (so with lists wherever a
segment has --min-rows rows or more: lower it to force lists on a small home). The queries are
the home's `cases.jsonl` (the evaluation homes) or, without one, words sampled from its rows
as `bench_search.py` samples them; each is embedded by the home's embedder.

- recall@k (k = 10, 100, 550: 550 is what the semantic ladder asks for) of each share against
  share 1.0 (every list: the exact scan), the same store, the same process. Ties count: a hit
  scoring at least the exact k-th score is a hit.
- cold `store.search` CPU (a fresh process per search, interleaved share by share, median):
  what a `carto search` pays for the ladder's store part.

    python benchmarks/search/bench_vector_lists.py --workdir W HOME [HOME ...]
        [--shares 0.3,0.5,0.6,0.75,0.85,1] [--min-rows 32768] [--exact-below 8192] [--cold-runs 11]
        [--copies 5]          # the home's vectors five times over: a 1M store from a 200k home
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

CHILD = r"""
import sys, time
import numpy as np
from carto_core.semantic.embedded import EmbeddedStore
q = np.load(sys.argv[2])[int(sys.argv[3])]
c = time.process_time()
EmbeddedStore(sys.argv[1]).search(sys.argv[4], q, limit=550)
print(time.process_time() - c)
"""


def queries_of(home: Path, n: int) -> list[str]:
    cases = home / "cases.jsonl"
    if cases.exists():
        return [json.loads(line)["query"] for line in cases.read_text("utf-8").splitlines() if line.strip()]
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.tokens import row_text, tokenize

    engine = SearchEngine(Home(home), auto_refresh=False)
    engine.ensure_loaded()
    rng, index, out = random.Random(11), engine.index, []
    while len(out) < n:
        tokens = [t for t in dict.fromkeys(tokenize(row_text(index.row(rng.randrange(len(index)))))) if len(t) > 2]
        if tokens:
            out.append(" ".join(rng.sample(tokens, min(len(tokens), rng.randint(1, 4)))))
    return out


def copy_store(source, target, model: str, copies: int = 1) -> None:
    """`source`'s vectors written into `target` by its own writer (lists included), then
    compacted as `carto index` does; copies 2.. under their own ids, each row nudged by
    N(0, 0.02) noise and re-normalised (a larger store of the same kind of vectors)."""
    from carto_core.semantic.embedded import normalise, to_float16

    rng = np.random.default_rng(7)
    for copy in range(copies):
        for segment in source._model_segments(model):
            c = segment.columns()
            ts = [None if t == np.iinfo(np.int64).min else t / 1000.0 for t in c["ts"].tolist()]
            ids = [bytes(i).decode("utf-8") for i in c["ids"]]
            vectors = c["vectors"]
            if copy:
                ids = [f"c{copy}-{i}" for i in ids]
                vectors = to_float16(normalise(vectors.astype(np.float32) + rng.normal(
                    scale=0.02, size=vectors.shape).astype(np.float32)))
            target.upsert_arrays(model, ids, vectors, c["projects"], ts,
                                 digests=c["digests"].tolist())
    target.compact()


def recall(store, model, queries, shares, k):
    from carto_core.semantic import ivf

    saved, out = ivf.PROBE, {}
    try:
        ivf.PROBE = 1.0
        exact = [[h.score for h in store.search(model, q, limit=k)] for q in queries]
        for share in shares:
            ivf.PROBE = share
            got = [[h.score for h in store.search(model, q, limit=k)] for q in queries]
            each = [float(np.mean(np.array(g) >= e[-1] - 1e-6)) if e else 1.0 for g, e in zip(got, exact)]
            out[share] = {"mean": round(float(np.mean(each)), 4), "min": round(min(each), 2)}
    finally:
        ivf.PROBE = saved
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("homes", type=Path, nargs="+")
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--shares", default="0.3,0.5,0.6,0.75,0.85,1")
    parser.add_argument("--min-rows", type=int, default=None)
    parser.add_argument("--exact-below", type=int, default=None,
                        help="scan a segment whole when a filter leaves fewer rows (0: never)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--cold-runs", type=int, default=11)
    parser.add_argument("--copies", type=int, default=1,
                        help="write each home's vectors this many times (5 x 200k: a 1M store)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    from carto_core.logio.home import Home
    from carto_core.semantic import ivf
    from carto_core.semantic.embedded import EmbeddedStore
    from carto_core.semantic.searcher import SemanticSearcher

    ivf.ENABLED = True  # the copies are written with lists (CARTO_VECTOR_LISTS=1)
    if args.min_rows is not None:
        ivf.MIN_ROWS = args.min_rows
    if args.exact_below is not None:
        ivf.EXACT_BELOW = args.exact_below  # recall only: the cold children keep the default
    shares = [float(s) for s in args.shares.split(",")]
    rows = []
    for home in args.homes:
        searcher = SemanticSearcher(Home(home))
        status = searcher.status()
        if not status.available:
            sys.exit(f"{home}: semantic ladder {status.label()}")
        texts = queries_of(home, args.queries)
        queries = np.array([searcher.embedder.embed_query(t) for t in texts], np.float32)
        target = args.workdir / home.name
        if not (target / "manifest.json").exists():
            t0 = time.process_time()
            copy_store(EmbeddedStore(home / ".carto" / "vectors"), EmbeddedStore(target), status.model,
                       args.copies)
            print(f"{home.name}: store written with lists in {time.process_time() - t0:.1f} s CPU", flush=True)
        store = EmbeddedStore(target)
        segments = store._model_segments(status.model)
        row = {"home": str(home), "vectors": sum(s.count for s in segments),
               "lists": [s.lists for s in segments], "queries": len(texts),
               "load_average_at_start": round(os.getloadavg()[0], 2)}
        for k in (10, 100, 550):
            row[f"recall@{k}"] = recall(store, status.model, queries, shares, k)
        np.save(args.workdir / f"{home.name}-queries.npy", queries)
        cold = {share: [] for share in shares}
        for run in range(args.cold_runs):
            for share in shares:
                env = dict(os.environ, CARTO_VECTOR_PROBE=str(share))
                done = subprocess.run([sys.executable, "-c", CHILD, str(target),
                                       str(args.workdir / f"{home.name}-queries.npy"),
                                       str(run % len(queries)), status.model],
                                      env=env, capture_output=True, text=True, check=True)
                cold[share].append(float(done.stdout))
        row["cold_store_search_cpu_ms"] = {s: round(statistics.median(v) * 1000, 1) for s, v in cold.items()}
        row["load_average_at_end"] = round(os.getloadavg()[0], 2)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
