"""What the relevance floor's second look costs a cold `carto search` (docs/performance.md,
"The relevance floor's second look").

Each query runs as a new `carto search QUERY --json` process, alternately from two source
trees on the same indexed home (`--base`: a checkout without the band, `--new`: this one,
each given as the folder whose `src`, `rankers/src` and `plugins/*/src` go on PYTHONPATH);
per tree and query the median wall, CPU (user + system of the child) and peak RSS, printed
as each query finishes.

    OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/search/bench_floor_band.py \\
        --home /work/tmp/floor2/homes/dlg-c-1 --base /work/tmp/floor2/base-src --new . --runs 7
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hook"))

#: (what it shows, query) on dlg-c's first home: in the band and silenced by the second look;
#: in the band and found by it (a question, and a phrase); above the band (no second look).
QUERIES = [
    ("band, unseen", "What did the locksmith charge for the garage door?"),
    ("band, vague", "What have I told you about my relatives?"),
    ("above the band", "What did I reserve a place on for the spring term?"),
    ("band, a phrase", "linen suit wedding"),
]


def _path(tree: Path) -> str:
    parts = [tree / "src", tree / "rankers" / "src", *sorted((tree / "plugins").glob("*/src"))]
    return os.pathsep.join(str(p) for p in parts)


def main() -> None:
    from bench_prompt_recall import run_child

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", required=True)
    parser.add_argument("--base", required=True, type=Path)
    parser.add_argument("--new", required=True, type=Path)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    carto = str(Path(sys.executable).with_name("carto"))
    trees = {"base": args.base.resolve(), "new": args.new.resolve()}
    envs = {}
    for name, tree in trees.items():
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARTO_")}
        env.update(CARTO_HOME=args.home, CARTO_EMBEDDER="minilm", PYTHONPATH=_path(tree))
        envs[name] = env
    print("| query | tree | exit | results | wall ms | CPU ms | peak RSS MB | floor |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for label, query in QUERIES:
        got = {name: [] for name in trees}
        for _ in range(args.runs):
            for name in trees:  # alternately: the machine's load falls on both alike
                wall, cpu, rss, out = run_child([carto, "search", query, "--json", "--all"], b"",
                                                envs[name])
                got[name].append((wall, cpu, rss, out))
        for name, rows in got.items():
            document = json.loads(rows[-1][3] or b"{}")
            floor = document.get("floor") or {}
            verdict = (f"found, cos {floor.get('best_semantic')}" if floor.get("found")
                       else f"nothing, cos {floor.get('best_semantic')}")
            if floor.get("best_confirm") is not None:
                verdict += f", aligned {floor['best_confirm']}"
            print(f"| {label} | {name} | {0 if document.get('results') else 3} | "
                  f"{len(document.get('results') or [])} | "
                  f"{statistics.median(r[0] for r in rows):.0f} | "
                  f"{statistics.median(r[1] for r in rows):.0f} | "
                  f"{statistics.median(r[2] for r in rows) / 1024:.0f} | {verdict} |", flush=True)


if __name__ == "__main__":
    main()
