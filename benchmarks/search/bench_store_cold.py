"""The embedded store's cold search: a fresh process per `EmbeddedStore.search` (limit 550, what
the semantic ladder asks for), several stores interleaved query by query, the same code: the
median wall and CPU time of the search call and the median peak RSS of the process. For
comparing two copies of one home's store (a float16 one and the int8 one compaction made of it),
or one store scanned on different numbers of threads (`--threads 1 2`: each store once per
count, `CARTO_SCAN_THREADS`); children load numpy with one OpenBLAS thread, as a one-shot
`carto search` does.

    python benchmarks/search/bench_store_cold.py NAME=VECTORS_DIR [NAME=VECTORS_DIR ...] \
        --home HOME [--queries 21] [--threads 1 2]

HOME gives the model and the queries (words sampled from its rows as bench_vector_lists.py
samples them, embedded by the home's embedder).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from carto_core.entry import BLAS_THREAD_VARIABLES

CHILD = r"""
import sys, time, resource
import numpy as np
from carto_core.semantic.embedded import EmbeddedStore
q = np.load(sys.argv[2])[int(sys.argv[3])]
c, w = time.process_time(), time.perf_counter()
EmbeddedStore(sys.argv[1]).search(sys.argv[4], q, limit=550)
print(time.process_time() - c, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
      time.perf_counter() - w)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", nargs="+", help="NAME=VECTORS_DIR")
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--queries", type=int, default=21)
    parser.add_argument("--threads", type=int, nargs="*", default=None,
                        help="scan each store on these thread counts (CARTO_SCAN_THREADS)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_vector_lists import queries_of

    from carto_core.logio.home import Home
    from carto_core.semantic.searcher import SemanticSearcher

    searcher = SemanticSearcher(Home(args.home))
    status = searcher.status()
    if not status.available:
        sys.exit(f"{args.home}: semantic ladder {status.label()}")
    texts = queries_of(args.home, args.queries)[:args.queries]
    stores = dict(s.split("=", 1) for s in args.stores)
    variants = ({name: (root, None) for name, root in stores.items()} if not args.threads else
                {f"{name}/t{n}": (root, n) for name, root in stores.items() for n in args.threads})
    base = {k: v for k, v in os.environ.items()
            if k not in BLAS_THREAD_VARIABLES}
    base["OPENBLAS_NUM_THREADS"] = "1"
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        qfile = os.path.join(tmp, "q.npy")
        np.save(qfile, np.array([searcher.embedder.embed_query(t) for t in texts], np.float32))
        cpu, rss, wall = ({name: [] for name in variants} for _ in range(3))
        for i in range(len(texts)):
            order = list(variants.items())
            for name, (root, threads) in (order if i % 2 == 0 else order[::-1]):
                env = dict(base) if threads is None else dict(base, CARTO_SCAN_THREADS=str(threads))
                out = subprocess.run([sys.executable, "-c", CHILD, root, qfile, str(i), status.model],
                                     capture_output=True, text=True, check=True, env=env).stdout.split()
                cpu[name].append(float(out[0]) * 1000)
                rss[name].append(int(out[1]) / 1024)
                wall[name].append(float(out[2]) * 1000)
    load.append(os.getloadavg()[0])
    print(json.dumps({name: {"store_search_cpu_ms_median": round(statistics.median(cpu[name]), 2),
                             "store_search_wall_ms_median": round(statistics.median(wall[name]), 2),
                             "rss_mb_median": round(statistics.median(rss[name]), 1)}
                      for name in variants} | {"load": load}, indent=1))

if __name__ == "__main__":
    main()
