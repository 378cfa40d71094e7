"""The table of docs/recall.md "A gate that holds back at every home size": generic prompts asked
of homes of about 30, 1k, 20k and 200k events from the webshop (how many spoke, per set, the
`aside` set apart), and the layer's questions (answered, injected snippets relevant), for the
shipped gate and, in the same run, the gate without its size rule (`Gate(min_specific=0)`, no
current project): what the rule changed. `carto_core.evaluation.gatesizes` builds the homes.

Usage (repository root; the homes are kept in --out and reused):

    nice -n 10 .venv/bin/python benchmarks/recall/eval_gate_sizes.py --out /tmp/gate-sizes
    nice -n 10 .venv/bin/python benchmarks/recall/eval_gate_sizes.py --sizes 30,1000

Results: one markdown row per (size, gate) as each is done, JSON in <out>/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/gate-sizes"))
    parser.add_argument("--sizes", default="30,1000,20000,200000")
    args = parser.parse_args(argv)
    os.environ.setdefault("CARTO_SEMANTIC", "0")
    from carto_core.evaluation import gatesizes
    from carto_core.logio.home import Home
    from carto_core.plugin.registry import RANKING_HOOKS, get_registries
    from carto_core.recall.gate import Gate

    get_registries(hooks=RANKING_HOOKS)
    args.out.mkdir(parents=True, exist_ok=True)
    gates = {"shipped": (Gate(), True), "without the size rule": (Gate(min_specific=0), False)}
    sets = list(gatesizes.GENERIC_SETS)
    print("| events | documents | gate | " + " | ".join(f"{s} spoke" for s in sets)
          + " | questions answered | snippets relevant |", flush=True)
    print("|---:|---:|---|" + "---:|" * (len(sets) + 2), flush=True)
    results = {}
    for size in [int(x) for x in args.sizes.split(",")]:
        root = args.out / f"home-{size}"
        started = time.time()
        if not (root / ".carto" / "search" / "CURRENT").exists():
            gatesizes.build_home(root, size, now=NOW)
        built = time.time() - started
        for name, (gate, project) in gates.items():
            r = gatesizes.evaluate(Home(root), now=NOW.timestamp(), gate=gate, project=project)
            results.setdefault(str(size), {})[name] = r
            spoke = " | ".join(f"{r['generic'][s]['spoke']}/{r['generic'][s]['prompts']}" for s in sets)
            q = r["questions"]
            print(f"| {size:,} | {r['documents']:,} | {name} | {spoke} | {q['answered']}/{q['questions']} | "
                  f"{q['relevant']}/{q['snippets']} |", flush=True)
        print(f"  (home-{size}: built in {built:.0f} s)", file=sys.stderr, flush=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
