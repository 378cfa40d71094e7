"""Benchmark: the hook paths the plugin layer sits on, a git revision against this tree,
interleaved in one run: `carto hook claude PostToolUse` (a small Bash call: the plugin table,
the capture handler's `module:attr`, the builders) and `carto hook claude UserPromptSubmit` with
prompt-time recall on over an indexed home (the class records, the standalone class loads, the
stdlib ranking and fusion), a prompt drawn from the home's own prompts each round, plus the
interpreter floor. Each side runs its own tree on `PYTHONPATH` (src, rankers, the Claude plugin)
with its own plugin-table cache; the child's CPU time (user + system) is the figure to read on
a loaded machine. Cold `carto search` has its own A/B: benchmarks/search/bench_cold_ab.py.

Reproduce:  .venv/bin/python benchmarks/core/bench_plugin_ab.py --base REV --home H [--runs 25]
(H: an indexed home, e.g. `generate_home` + `carto index`; searches write telemetry: a copy)
"""

from __future__ import annotations

import argparse
import json
import os
import random
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
TREES = ("src", "rankers/src", "plugins/claude/src")
HOOK = "import sys; from carto_core.entry import main; sys.argv = ['carto', 'hook', 'claude', sys.argv[1]]; main()"


def timed(cmd: list[str], stdin: bytes, env: dict) -> tuple[float, float, bytes]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, capture_output=True, env=env, check=False)
    wall = (time.perf_counter() - start) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000.0
    return wall, cpu, done.stdout


def prompts(home: Path, n: int) -> list[str]:
    lines = (home / "prompt-history.jsonl").read_text("utf-8").splitlines()
    found = [json.loads(line).get("prompt") or json.loads(line).get("summary") for line in lines]
    found = [p for p in found if isinstance(p, str) and len(p.split()) >= 4]
    return random.Random(7).sample(found, min(n, len(found)))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="git revision to compare this tree with")
    parser.add_argument("--home", required=True, type=Path, help="an indexed home")
    parser.add_argument("--runs", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        trees = {"base": export(args.base, tmp / "base", TREES), "this": ROOT}
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        asked = prompts(args.home, args.runs + 3)
        envs = {}
        for side, tree in trees.items():
            envs[side] = {**os.environ, "CARTO_HOME": str(args.home), "CARTO_CATCHUP": "0",
                          "CARTO_KEEPUP": "0", "CARTO_PROMPT_RECALL": "1",
                          "XDG_CACHE_HOME": str(tmp / f"cache-{side}"), "HOME": str(tmp / f"user-{side}"),
                          "PYTHONPATH": os.pathsep.join(str(tree / t) for t in TREES)}
            envs[side].pop("PYTHONDONTWRITEBYTECODE", None)
            # the class records the prompt recall reads come from a registry load
            subprocess.run([PYTHON, "-m", "carto_core", "search", "warm up", "--json", "--no-semantic"],
                           env=envs[side], capture_output=True, check=False)
        bash = {"session_id": "bench", "cwd": str(repo), "hook_event_name": "PostToolUse", "tool_name": "Bash",
                "tool_use_id": "toolu_1", "tool_input": {"command": "npm test -- --grep parser"},
                "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}

        def recall(n: int, side: str) -> bytes:
            # a session per side and round: served ids (shared home) must not hide answers
            return json.dumps({"session_id": f"bench-{side}-{n}", "cwd": str(repo),
                               "hook_event_name": "UserPromptSubmit", "prompt": asked[n % len(asked)]}).encode()

        kinds = {"python -c pass": None, "PostToolUse Bash": "PostToolUse", "UserPromptSubmit recall": "UserPromptSubmit"}
        samples: dict[str, list[tuple[float, float]]] = {}
        injected = {"base": 0, "this": 0}
        outputs: dict[str, list[bytes]] = {"base": [], "this": []}
        for n in range(-2, args.runs):  # two rounds of warm-up: page cache, bytecode
            order = [(k, s) for k in kinds for s in ("base", "this")]
            for kind, side in (order if n % 2 == 0 else order[::-1]):
                event = kinds[kind]
                if event is None:
                    if side == "this":
                        continue
                    cmd, stdin, env, label = [PYTHON, "-c", "pass"], b"", os.environ, kind
                else:
                    stdin = json.dumps(bash).encode() if event == "PostToolUse" else recall(n + 2, side)
                    cmd, env, label = [PYTHON, "-c", HOOK, event], envs[side], f"{kind} [{side}]"
                wall, cpu, out = timed(cmd, stdin, env)
                if n >= 0:
                    samples.setdefault(label, []).append((wall, cpu))
                    if event == "UserPromptSubmit":
                        injected[side] += bool(out.strip())
                        outputs[side].append(out)
        load = os.getloadavg()
    same = sum(a == b for a, b in zip(outputs["base"], outputs["this"]))
    print(f"base {args.base} vs this tree; {args.runs} interleaved rounds; home {args.home}; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    floor = statistics.median(c for _, c in samples["python -c pass"])
    print(f"  {'python -c pass':26} CPU {floor:7.1f} ms")
    for kind in list(kinds)[1:]:
        for index, unit in ((1, "CPU "), (0, "wall")):
            b = statistics.median(s[index] for s in samples[f"{kind} [base]"])
            t = statistics.median(s[index] for s in samples[f"{kind} [this]"])
            print(f"  {kind:26} {unit} base {b:7.1f} ms   this {t:7.1f} ms   this/base {t / b:5.3f}")
    print(f"  recall injected: base {injected['base']}/{args.runs}, this {injected['this']}/{args.runs}; "
          f"identical answers {same}/{args.runs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
