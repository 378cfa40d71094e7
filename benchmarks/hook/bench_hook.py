"""Benchmark: `carto hook claude PostToolUse` on a Bash payload, whole process.

Runs, interleaved in one session, (a) a bare `python -c pass` (the interpreter floor),
(b) the installed `carto` console script with a `Ran:` Bash payload in a git repository, and
(c) the same with a `git status` noise payload (no row), (d) a command whose output redirection
writes a file (`Modified:` row: the redirect reader runs), (e) Claude's `PostToolBatch` for a
call PostToolUse already recorded (no row: the changelog tail is searched for its
tool_use_id). Reports medians, the ratio to the bare
interpreter, and how many child processes the hook started (counted by an audit hook on
`subprocess.Popen`, `os.posix_spawn`, `os.fork` and `os.exec`, in a separate instrumented run).

Reproduce:  .venv/bin/python benchmarks/hook/bench_hook.py [--runs 40]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = Path(sys.executable)
CARTO = PYTHON.parent / "carto"

COUNT_CHILDREN = r"""
import sys
spawned = []
def audit(event, args):
    if event in ("subprocess.Popen", "os.posix_spawn", "os.fork", "os.exec", "os.spawn", "os.system"):
        spawned.append(event)
sys.addaudithook(audit)
from carto_core.entry import main
sys.argv = ["carto", "hook", "claude", "PostToolUse"]
main()
sys.stderr.write("CHILDREN=%d %s\n" % (len(spawned), ",".join(spawned)))
"""


def timed(cmd: list[str], stdin: bytes, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return (time.perf_counter() - start) * 1000.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        home = tmp / "home"
        env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0"}
        # A real install has bytecode (pip compiles wheels; an editable install writes it on
        # first import). This sandbox sets PYTHONDONTWRITEBYTECODE, which would make every run
        # recompile carto's modules; drop it so the warm-up runs write the caches.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        base = {"session_id": "bench", "cwd": str(repo), "transcript_path": str(tmp / "t.jsonl"),
                "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1"}
        ran = json.dumps({**base, "tool_input": {"command": "npm test -- --grep parser"},
                          "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}).encode()
        noise = json.dumps({**base, "tool_input": {"command": "git status"},
                            "tool_response": {"stdout": "", "stderr": "", "interrupted": False}}).encode()
        noise = json.dumps({**base, "tool_input": {"command": f"cd {repo} && ls -la"}}).encode()
        redirect = json.dumps({**base, "tool_use_id": "toolu_2", "tool_input": {"command": "npm test > test.log 2>&1"},
                               "tool_response": {"stdout": "", "stderr": "", "interrupted": False}}).encode()
        batch = json.dumps({**base, "hook_event_name": "PostToolBatch", "tool_calls": [
            {"tool_name": "Bash", "tool_input": {"command": "npm test -- --grep parser"}, "tool_use_id": "toolu_1",
             "tool_response": "ok"}]}).encode()
        hook = [str(CARTO), "hook", "claude", "PostToolUse"]
        batch_hook = [str(CARTO), "hook", "claude", "PostToolBatch"]
        bare = [str(PYTHON), "-c", "pass"]
        for _ in range(3):  # warm the page cache and build the dispatch cache
            timed(hook, ran, env)
            timed(bare, b"", env)
        samples: dict[str, list[float]] = {"bare python -c pass": [], "hook Bash (Ran: row)": [],
                                           "hook Bash (noise, no row)": [], "hook Bash (redirect, Modified:)": [],
                                           "hook PostToolBatch (recorded)": []}
        for _ in range(args.runs):
            samples["bare python -c pass"].append(timed(bare, b"", env))
            samples["hook Bash (Ran: row)"].append(timed(hook, ran, env))
            samples["hook Bash (noise, no row)"].append(timed(hook, noise, env))
            samples["hook Bash (redirect, Modified:)"].append(timed(hook, redirect, env))
            samples["hook PostToolBatch (recorded)"].append(timed(batch_hook, batch, env))
        rows = sum(1 for line in open(home / "tool-use-log.jsonl") if '"summary":"Ran:' in line)
        probe = subprocess.run([str(PYTHON), "-c", COUNT_CHILDREN], input=ran, capture_output=True, env=env)
        children = probe.stderr.decode().strip().splitlines()[-1]
    floor = statistics.median(samples["bare python -c pass"])
    print(f"runs per variant: {args.runs}  (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    for name, values in samples.items():
        values.sort()
        med = statistics.median(values)
        p90 = values[int(len(values) * 0.9) - 1]
        print(f"{name:<28} median {med:6.1f} ms  p90 {p90:6.1f} ms  x{med / floor:4.2f} of bare python")
    print(f"rows written by the Ran: runs: {rows} (expected {args.runs + 3})")
    print(f"child processes on the Bash PostToolUse path: {children}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
