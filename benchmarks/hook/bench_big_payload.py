"""Benchmark: `carto hook claude PostToolUse` with payloads built to be expensive, at a git
revision against this tree, interleaved: a Bash call whose command is 10 MB of shell lines with
comments, and calls whose payload nests 1,000 and 100,000 levels deep. Each run writes into a
fresh home; the table says whether the row was kept (the hook's 10 s wall-clock cap stops a
call that runs past it, and a RecursionError stops one at once) and what the call cost, wall
and CPU (user + system of the child, from getrusage), medians.

Reproduce:  .venv/bin/python benchmarks/hook/bench_big_payload.py --base 38cc7c2 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from revision import export  # noqa: E402
PYTHON = sys.executable
HOOK = ("import sys; from carto_core.entry import main; "
        "sys.argv = ['carto', 'hook', 'claude', 'PostToolUse']; main()")


def payloads(cwd: str) -> dict[str, bytes]:
    head = ('{"session_id": "bench", "cwd": ' + json.dumps(cwd) + ', "hook_event_name": '
            '"PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1", ')
    command = "echo start # a comment\n" + "printf 'x y z' # note\n" * 450_000
    out = {"10 MB command": (head + '"tool_input": {"command": ' + json.dumps(command)
                             + '}, "tool_response": {"stdout": "ok"}}').encode()}
    for levels in (1_000, 100_000):
        deep = "[" * levels + '"leaf"' + "]" * levels
        out[f"{levels:,} levels deep"] = (
            head + '"tool_input": {"command": "make test", "extra": ' + deep
            + '}, "tool_response": {"stdout": "ok"}}').encode()
    return out


def run_once(env: dict, stdin: bytes, home: Path) -> tuple[float, float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([PYTHON, "-c", HOOK], input=stdin, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env={**env, "CARTO_HOME": str(home)}, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    log = home / "tool-use-log.jsonl"
    rows = len(log.read_text().splitlines()) if log.exists() else 0
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="main", help="git revision to compare this tree with")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        trees = {"base": export(args.base, tmp / "base", ("src", "plugins/claude/src")), "this": ROOT}
        bodies = payloads(str(tmp))
        results: dict = {}
        count = 0
        for n in range(args.runs):
            for side in (("base", "this") if n % 2 == 0 else ("this", "base")):
                env = {**os.environ, "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0",
                       "XDG_CACHE_HOME": str(tmp / f"cache-{side}"),
                       "PYTHONPATH": f"{trees[side] / 'src'}{os.pathsep}{trees[side] / 'plugins' / 'claude' / 'src'}"}
                for name, stdin in bodies.items():
                    count += 1
                    results.setdefault(name, {}).setdefault(side, []).append(
                        run_once(env, stdin, tmp / f"home-{count}"))
        load = os.getloadavg()
    print(f"base {args.base} vs this tree; {args.runs} interleaved rounds; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for name, sides in results.items():
        for side, runs in sides.items():
            kept = sum(1 for _, _, rows in runs if rows)
            print(f"  {name:20} {side:5} wall {statistics.median(r[0] for r in runs):6.2f} s   "
                  f"CPU {statistics.median(r[1] for r in runs):6.2f} s   row kept {kept}/{len(runs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
