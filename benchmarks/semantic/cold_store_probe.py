"""One cold search of an embedded store in this (fresh) process: the search's CPU seconds, the
process' peak RSS, the hits. `keep` scans keeping every page it reads (`RELEASE_ABOVE` set out
of reach), `release` as configured (docs/semantic.md, "What a search holds"); run each in a
new process, alternating:

    for i in 1 2 3 4 5; do for mode in keep release; do
        CARTO_SCAN_THREADS=1 nice -n 10 .venv/bin/python benchmarks/semantic/cold_store_probe.py \\
            HOME/.carto/vectors $mode $i
    done; done
"""

from __future__ import annotations

import json
import resource
import sys
import time

import numpy as np

from carto_core.semantic import embedded
from carto_core.semantic.embedded import EmbeddedStore


def main() -> int:
    root, mode, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "keep":
        embedded.RELEASE_ABOVE = 1 << 62
    store = EmbeddedStore(root)
    model = next(iter(store.models()))
    dim = store.models()[model].dim
    query = np.random.default_rng(seed).normal(size=dim).astype(np.float32)
    start = time.process_time()
    hits = store.search(model, query, limit=10)
    print(json.dumps({"mode": mode, "search_cpu_s": round(time.process_time() - start, 3),
                      "process_cpu_s": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 3),
                      "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                      "hits": [h.event_id for h in hits]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
