"""Benchmark: instructions a `carto hook claude PostToolUse` process executes, per checkout.

Wall-clock figures of a 30-100 ms process move by tens of per cent on the shared 2-core
machine; the number of instructions the process executes does not (valgrind's callgrind counts
them, a few hundred thousand apart from run to run). For each checkout given (a commit or
`.` for the working tree), the hook runs with that tree first on PYTHONPATH (this venv's
dependencies, as `benchmarks/compare_commits.py` does), on a Bash `Ran:` payload in a git
repository: a first call builds the plugin table and the changelog's last row, the counted call
is the next one (the agent's next tool call: the parent row looked up, nothing rebuilt). Also
counted: bare `python -c pass` (the interpreter floor), and the modules the hook loaded.

Reproduce:  .venv/bin/python benchmarks/hook/count_hook_instructions.py 6433455 HEAD .
(needs valgrind; the wall-clock cap is set to 600 s: valgrind runs ~50x slower)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
SOURCES = ["src", "plugins/claude/src", "plugins/codex/src", "plugins/git/src", "plugins/hermes/src",
           "examples/notes/src", "rankers/src"]
HOOK = r"""
import sys
before = set(sys.modules)
from carto_core.entry import main
main(["hook", "claude", "PostToolUse"])
sys.stderr.write("\nMODULES %d\n" % len(set(sys.modules) - before))
"""


def tree(commit: str, trees: Path) -> Path:
    if commit == ".":
        return ROOT
    path = trees / f"carto-tree-{commit}"
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), commit],
                       check=True, capture_output=True)
    return path


def instructions(cmd: list[str], stdin: bytes, env: dict) -> tuple[int, str]:
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                          input=stdin, capture_output=True, env=env, check=True)
    err = done.stderr.decode()
    refs = re.search(r"refs:\s+([\d,]+)", err)
    return int(refs.group(1).replace(",", "")), err


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("commits", nargs="+", help="commits to count, '.' for the working tree")
    parser.add_argument("--trees", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        payload = json.dumps({"session_id": "bench", "cwd": str(repo), "transcript_path": str(tmp / "t.jsonl"),
                              "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1",
                              "tool_input": {"command": "npm test -- --grep parser"},
                              "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}).encode()
        base = {k: v for k, v in os.environ.items() if not k.startswith("CARTO_")}
        base.pop("PYTHONDONTWRITEBYTECODE", None)  # as a real install: bytecode cached
        floor, _ = instructions([PYTHON, "-c", "pass"], b"", base)
        print(f"bare python -c pass: {floor / 1e6:7.1f} M instructions (python {sys.version.split()[0]})")
        for commit in args.commits:
            folder = tree(commit, args.trees)
            user = tmp / f"user-{len(os.listdir(tmp))}"
            user.mkdir()
            env = {**base, "HOME": str(user), "XDG_CACHE_HOME": str(user / ".cache"),
                   "CARTO_HOME": str(user / "home"), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0",
                   "CARTO_HOOK_TIMEOUT": "600",
                   "PYTHONPATH": os.pathsep.join(str(folder / p) for p in SOURCES)}
            for _ in range(2):  # bytecode, plugin table, the changelog row the next call chains to
                subprocess.run([PYTHON, "-c", HOOK], input=payload, capture_output=True, env=env, check=True)
            counts = []
            for _ in range(2):
                count, err = instructions([PYTHON, "-c", HOOK], payload, env)
                counts.append(count)
            modules = re.search(r"MODULES (\d+)", err).group(1)
            label = commit if commit != "." else "working tree"
            hook = min(counts)
            print(f"{label:>14}: hook {hook / 1e6:7.1f} M instructions (x{hook / floor:.2f} of bare python, "
                  f"{(hook - floor) / 1e6:.1f} M above it; runs {counts[0] / 1e6:.1f} / {counts[1] / 1e6:.1f}), "
                  f"{modules} modules beyond the interpreter's start-up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
