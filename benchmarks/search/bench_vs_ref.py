"""Cold `carto search` and the keyword build against another checkout's carto, same moment.

On a shared machine the load moves a cold-process median by tens of percent between runs, so
the only fair comparison with an older version is interleaved: each configuration a fresh
process, query by query, with the `import numpy, click` floor between them.

    git -C /work/main worktree add /tmp/ref <commit>
    python3 -m venv /tmp/ref/.venv && /tmp/ref/.venv/bin/pip install -e /tmp/ref -e /tmp/ref/rankers \\
        -e /tmp/ref/plugins/claude -e /tmp/ref/plugins/codex -e /tmp/ref/plugins/git -e /tmp/ref/plugins/hermes
    mkdir /tmp/refhome && cp <home>/*.jsonl /tmp/refhome/        # its own index folder
    .venv/bin/python benchmarks/search/bench_vs_ref.py --home <home> \\
        --ref-carto /tmp/ref/.venv/bin/carto --ref-home /tmp/refhome --builds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import CARTO, PY, child_env, timed_child  # noqa: E402

QUERIES = ["deploy cache retry", "fix login", "migrate schema table", "render index", "guard measure"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--ref-carto", required=True)
    parser.add_argument("--ref-home", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--builds", type=int, default=0)
    args = parser.parse_args()
    env_new, env_ref = child_env(args.home), child_env(args.ref_home)
    queries = (QUERIES * (args.runs // len(QUERIES) + 1))[:args.runs]
    for carto, env in ((CARTO, env_new), (args.ref_carto, env_ref)):
        timed_child([carto, "search", queries[0], "--limit", "10"], env)  # bytecode, plugin table
    load = [os.getloadavg()[0]]
    got = {k: [] for k in ("floor", "ref", "ref_no_semantic", "new", "new_no_semantic")}
    for q in queries:
        got["floor"].append(timed_child([PY, "-c", "import numpy, click"], env_new)[0])
        got["ref"].append(timed_child([args.ref_carto, "search", q, "--limit", "10"], env_ref)[0])
        got["new"].append(timed_child([CARTO, "search", q, "--limit", "10"], env_new)[0])
        got["ref_no_semantic"].append(timed_child(
            [args.ref_carto, "search", q, "--limit", "10", "--no-semantic"], env_ref)[0])
        got["new_no_semantic"].append(timed_child(
            [CARTO, "search", q, "--limit", "10", "--no-semantic"], env_new)[0])
    medians = {k: round(statistics.median(v) * 1000, 1) for k, v in got.items()}
    print("cold CLI median ms", medians)
    print("x floor", {k: round(v / medians["floor"], 2) for k, v in medians.items()})
    if args.builds:
        builds = {"ref": [], "new": []}
        for _ in range(args.builds):
            builds["ref"].append(timed_child([args.ref_carto, "index", "--rebuild", "--step", "keyword"], env_ref))
            builds["new"].append(timed_child([CARTO, "index", "--rebuild", "--step", "keyword"], env_new))
        ref = statistics.median(b[0] for b in builds["ref"])
        new = statistics.median(b[0] for b in builds["new"])
        print("keyword build (s, peak RSS MB)", builds, "ratio", round(new / ref, 2))
    load.append(os.getloadavg()[0])
    print("load average at start / end", load)


if __name__ == "__main__":
    main()
