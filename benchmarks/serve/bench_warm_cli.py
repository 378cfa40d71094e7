"""The warm CLI path against the cold CLI, in one run on one home: `carto search QUERY --limit
10` as a new process each time, with `carto serve` of the home running (it answers over
`<home>/.carto/warm.sock`) and with CARTO_WARM=0 (cold: the process opens the index itself),
interleaved query by query so that both see the same load; plus the floor (`python -c "import
json, socket"`: a bare interpreter that could talk to a socket). Outputs of each warm/cold pair
are compared byte for byte (a mismatch is counted, not hidden).

    .venv/bin/python benchmarks/serve/bench_warm_cli.py --events 200000 --workdir /tmp/warm-bench

The home is `carto_core.evaluation.generate.generate_home` (seed 1) and the queries come from
the search benchmark's `make_queries`, as in bench_search.py. Results print as JSON and go to
benchmarks/serve/warm_cli_results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "search"))

from bench_search import CARTO, PY, child_env, make_queries  # noqa: E402


def run(argv, env) -> tuple[float, bytes, int]:
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True)
    return time.perf_counter() - t0, done.stdout, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/warm-bench"))
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "serve" / "warm_cli_results.json")
    args = parser.parse_args()

    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    home_dir = args.workdir / f"home-{args.events}"
    if not (home_dir / "changelog.jsonl").exists():
        generate_home(home_dir, args.events, seed=1)
    env = child_env(home_dir)
    subprocess.run([CARTO, "index", "--step", "keyword"], env=env, check=True, capture_output=True)
    engine = SearchEngine(Home(home_dir), auto_refresh=False)
    engine.ensure_loaded()
    queries = make_queries(engine, args.queries)
    del engine
    load_start = os.getloadavg()[0]
    server = subprocess.Popen([CARTO, "serve", "--port", "0"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()  # the URL: corpus and index are warm, the socket listens
        cold_env = {**env, "CARTO_WARM": "0"}
        warm_env = {**env, "CARTO_WARM": "1"}
        cold, warm, floor, mismatches = [], [], [], 0
        for q in queries[:3]:  # bytecode and page cache
            run([CARTO, "search", q, "--limit", "10", "--call-id", "bench"], cold_env)
            run([CARTO, "search", q, "--limit", "10", "--call-id", "bench"], warm_env)
        for q in queries:
            argv = [CARTO, "search", q, "--limit", "10", "--call-id", "bench", "--no-semantic"]
            tc, out_c, rc_c = run(argv, cold_env)
            tw, out_w, rc_w = run(argv, warm_env)
            tf, _, _ = run([PY, "-c", "import json, socket"], env)
            cold.append(tc)
            warm.append(tw)
            floor.append(tf)
            mismatches += (out_c, rc_c) != (out_w, rc_w)
    finally:
        server.terminate()
        server.wait(10)
    result = {
        "events": args.events, "queries": len(queries),
        "cold_cli_median_ms": round(statistics.median(cold) * 1000, 1),
        "warm_cli_median_ms": round(statistics.median(warm) * 1000, 1),
        "floor_median_ms": round(statistics.median(floor) * 1000, 1),
        "warm_over_cold": round(statistics.median(warm) / statistics.median(cold), 3),
        "cold_p95_ms": round(sorted(cold)[int(0.95 * (len(cold) - 1))] * 1000, 1),
        "warm_p95_ms": round(sorted(warm)[int(0.95 * (len(warm) - 1))] * 1000, 1),
        "output_mismatches": mismatches,
        "load_average_start_end": [round(load_start, 2), round(os.getloadavg()[0], 2)],
    }
    print(json.dumps(result, indent=2))
    args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
