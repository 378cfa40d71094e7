"""The minilm embedder's costs (docs/performance.md, "The minilm encoder").

- `query HOME_MINILM HOME_WORDLLAMA`: a cold `carto search QUESTION --limit 10` on a home indexed
  with minilm and on the same corpus indexed with wordllama, interleaved with the floors
  (`python -c "import numpy, click"`, and like for like: one BLAS thread, the collector off, as a
  one-shot search runs), `--runs` rounds; median wall and CPU (user + system) and the ratios.
  The derived query weights are made before the first round (a one-time cost, said apart).
- `index --events N`: a generated home of N events (evaluation.generate), indexed with minilm
  (`carto index --step semantic`, in-process): rows embedded, CPU seconds, rows per CPU-second
  (one onnxruntime thread, then `--threads 2`), the share of events embedded (tool rows are left
  to the keyword ladders), and the process's peak RSS.

    OPENBLAS_NUM_THREADS=1 nice python benchmarks/semantic/bench_minilm.py query H_MINILM H_WL --runs 11
    ... query H_MINILM H_WL --runs 21 --before ../old-checkout     # and the old tree, interleaved
    nice python benchmarks/semantic/bench_minilm.py index --events 5000 --out /tmp/bench-minilm
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

QUESTIONS = ["how did we fix the flaky login test?", "What did I say about the ramen shop?",
             "which pet did my family adopt?", "what have I been cooking lately?"]


def _run(argv: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall * 1000, ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def query(args) -> None:
    carto = str(Path(sys.executable).with_name("carto"))
    base = {k: v for k, v in os.environ.items() if not k.startswith("CARTO_")}
    base["CARTO_KEEPUP"] = "0"
    base.pop("PYTHONDONTWRITEBYTECODE", None)  # a real install has its bytecode
    variants = {
        "floor": ([sys.executable, "-c", "import numpy, click"], base),
        "floor-like": ([sys.executable, "-c", "import gc; gc.disable(); import numpy, click"],
                       {**base, "OPENBLAS_NUM_THREADS": "1"}),
    }
    homes = [("minilm", args.minilm, "minilm", {}), ("wordllama", args.wordllama, "wordllama", {})]
    if args.before:  # the same minilm home from another checkout (its own cache folder)
        tree = Path(args.before).resolve()
        homes.append(("minilm-before", args.minilm, "minilm", {
            "PYTHONPATH": f"{tree / 'src'}:{tree / 'rankers' / 'src'}",
            "XDG_CACHE_HOME": args.before_cache}))
    for name, home, embedder, extra in homes:
        env = {**base, "CARTO_HOME": home, "CARTO_EMBEDDER": embedder, **extra}
        variants[name] = (None, env)
        # the derived weights and plugin table: made once, before timing
        subprocess.run([carto, "search", "warm up", "--limit", "1"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times = {name: [] for name in variants}
    for round_ in range(args.runs):
        q = QUESTIONS[round_ % len(QUESTIONS)]
        order = list(variants) if round_ % 2 == 0 else list(reversed(variants))
        for name in order:
            argv, env = variants[name]
            argv = argv or [carto, "search", q, "--limit", "10", "--all", "--json"]
            times[name].append(_run(argv, env))
    out = {name: {"wall_ms": round(statistics.median(w for w, _ in t), 1),
                  "cpu_ms": round(statistics.median(c for _, c in t), 1)} for name, t in times.items()}
    for name in [n for n in ("minilm", "wordllama", "minilm-before") if n in out]:
        for floor in ("floor", "floor-like"):
            out[name][f"cpu_x_{floor}"] = round(out[name]["cpu_ms"] / out[floor]["cpu_ms"], 3)
            out[name][f"wall_x_{floor}"] = round(out[name]["wall_ms"] / out[floor]["wall_ms"], 3)
    if "minilm-before" in out:
        out["minilm"]["cpu_x_before"] = round(out["minilm"]["cpu_ms"] / out["minilm-before"]["cpu_ms"], 3)
    out["load"] = os.getloadavg()
    print(json.dumps(out, indent=1))


def index(args) -> None:
    from datetime import datetime, timezone

    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.semantic.indexer import run_index
    from carto_core.semantic.settings import SemanticSettings

    root = Path(args.out)
    if not (root / "changelog.jsonl").exists():
        generate_home(root, args.events, seed=5, now=datetime(2026, 12, 1, tzinfo=timezone.utc))
    os.environ["CARTO_EMBEDDER"] = "minilm"
    os.environ["CARTO_MINILM_THREADS"] = str(args.threads)
    settings = SemanticSettings.load()
    before = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    report = run_index(Home(root), settings=settings, reembed=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(json.dumps({"events": report.corpus, "embedded": report.embedded,
                      "keyword_only": report.keyword_only, "no_text": report.no_text,
                      "share_embedded": round(report.embedded / max(1, report.corpus), 3),
                      "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
                      "rows_per_cpu_s": round(report.embedded / cpu, 1) if cpu else None,
                      "rows_per_wall_s": round(report.embedded / wall, 1),
                      "threads": args.threads, "peak_rss_mb": round(after.ru_maxrss / 1024, 1),
                      "outcome": report.outcome, "load": os.getloadavg()}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    q = sub.add_parser("query")
    q.add_argument("minilm")
    q.add_argument("wordllama")
    q.add_argument("--runs", type=int, default=11)
    q.add_argument("--before", metavar="CHECKOUT",
                   help="also time the minilm home with this checkout's src and rankers/src")
    q.add_argument("--before-cache", metavar="DIR", default="/tmp/bench-minilm-before-cache",
                   help="XDG_CACHE_HOME of the --before runs (its derived weights apart)")
    i = sub.add_parser("index")
    i.add_argument("--events", type=int, default=5000)
    i.add_argument("--out", default="/tmp/bench-minilm")
    i.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    (query if args.command == "query" else index)(args)


if __name__ == "__main__":
    main()
