"""Benchmark: a cold search's registry load alone (`get_registries(hooks=RANKING_HOOKS)` in a
new process, timed inside it: the interpreter's start and the search itself left out, which a
loaded machine makes noisy), revision `--base` against revision `--new`, interleaved. Each side
runs its export on `PYTHONPATH`, with `--site` after it (a folder of third-party distributions:
a `.dist-info` beside its module, as an installer leaves them) and its own plugin-table cache;
the first round builds the tables and is not counted.

Reproduce:  .venv/bin/python benchmarks/core/bench_partial_load_ab.py --base REV --new REV --site S [--runs 41]
(docs/performance.md, "A plugin that fails to load")
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from revision import export, pythonpath  # noqa: E402

LOAD = ("import time; wall, cpu = time.perf_counter(), time.process_time()\n"
        "from carto_core.plugin.registry import RANKING_HOOKS, get_registries\n"
        "get_registries(hooks=RANKING_HOOKS)\n"
        "print((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--site", default="", help="a folder of third-party distributions")
    parser.add_argument("--runs", type=int, default=41)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="partial-load-ab-") as tmp:
        scratch = Path(tmp)
        paths = {name: pythonpath(export(rev, scratch / name))
                 for name, rev in (("base", args.base), ("new", args.new))}
        samples: dict[str, tuple[list, list]] = {name: ([], []) for name in paths}
        for i in range(args.runs + 1):
            for name in (list(paths) if i % 2 == 0 else list(paths)[::-1]):
                env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [paths[name], args.site])),
                           XDG_CACHE_HOME=str(scratch / f"cache-{name}"))
                done = subprocess.run([sys.executable, "-c", LOAD], env=env, capture_output=True,
                                      text=True, check=True)
                if i:
                    wall, cpu = map(float, done.stdout.split())
                    samples[name][0].append(wall)
                    samples[name][1].append(cpu)
    print(json.dumps({name: {"wall_ms": round(statistics.median(walls), 1),
                             "cpu_ms": round(statistics.median(cpus), 1), "runs": len(walls)}
                      for name, (walls, cpus) in samples.items()} | {"load_average": os.getloadavg()[0]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
