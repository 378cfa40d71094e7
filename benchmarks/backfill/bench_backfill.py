"""Benchmark: Claude transcript backfill throughput (messages/s) and peak RSS.

Writes a synthetic `~/.claude/projects` tree in a temporary folder: sessions of realistic
lines (a prompt, assistant replies streamed over several lines sharing a message id, tool_use
blocks, tool_result lines with output, bookkeeping lines), plus a subagent file per tenth
session. Then runs `run_ingest` with the `claude` source into an empty temporary home in a
fresh process and reports messages/s (messages = user lines + distinct assistant message ids,
the source's own `units`), turns written, wall time and the process's peak RSS. The floor is a bare `orjson.loads` of every line in the same run. A second run
over the same tree (everything checkpointed) shows the cost of an idle catch-up.

Reproduce:  .venv/bin/python benchmarks/backfill/bench_backfill.py [--messages 200000]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
from carto_claude.transcripts import ClaudeSource
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest
root, home = sys.argv[1], sys.argv[2]
start = time.perf_counter()
summary = run_ingest(ClaudeSource({"roots": [root], "settle_seconds": 0}), Home(home))
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
print(json.dumps({"units": summary.units, "streams": summary.streams, "written": dict(summary.written),
                  "already": summary.already_present, "seconds": wall, "peak_rss_mb": peak}))
"""

FLOOR = r"""
import json, sys, time
from pathlib import Path
import orjson
start = time.perf_counter()
lines = 0
for path in sorted(Path(sys.argv[1]).rglob("*.jsonl")):
    for raw in path.read_bytes().split(b"\n"):
        if raw:
            orjson.loads(raw)
            lines += 1
print(json.dumps({"lines": lines, "seconds": time.perf_counter() - start}))
"""

WORDS = ("parser token index search ranker decay commit branch test fixture session turn "
         "writer reader checkpoint offset transcript history prompt summary project").split()


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def write_tree(root: Path, messages: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    written = 0
    session = 0
    while written < messages:
        session += 1
        sid = f"{session:08d}-0000-4000-8000-000000000000"
        folder = root / f"-work-proj{session % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = []
        cwd = f"/work/proj{session % 20}"
        ts = 1767225600 + session * 3600
        for turn in range(rng.randint(5, 30)):
            ts += 60
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(ts))
            env = {"sessionId": sid, "cwd": cwd, "timestamp": stamp, "version": "2.1.200", "userType": "external",
                   "isSidechain": False, "gitBranch": "main"}
            lines.append({"type": "user", "uuid": f"{sid}-{len(lines)}", **env,
                          "message": {"role": "user", "content": sentence(rng, rng.randint(5, 40))}})
            written += 1
            for step in range(rng.randint(1, 4)):
                mid = f"msg_{sid}_{turn}_{step}"
                lines.append({"type": "assistant", "uuid": f"{sid}-{len(lines)}", **env, "message": {
                    "id": mid, "role": "assistant", "model": "claude", "content": [
                        {"type": "thinking", "thinking": sentence(rng, 30), "signature": "x" * 40}]}})
                lines.append({"type": "assistant", "uuid": f"{sid}-{len(lines)}", **env, "message": {
                    "id": mid, "role": "assistant", "model": "claude", "content": [
                        {"type": "text", "text": sentence(rng, rng.randint(10, 60))}]}})
                lines.append({"type": "assistant", "uuid": f"{sid}-{len(lines)}", **env, "message": {
                    "id": mid, "role": "assistant", "model": "claude", "content": [
                        {"type": "tool_use", "id": f"toolu_{mid}", "name": "Bash",
                         "input": {"command": "pytest -q " + rng.choice(WORDS), "description": sentence(rng, 5)}}]}})
                written += 1
                lines.append({"type": "user", "uuid": f"{sid}-{len(lines)}", **env,
                              "toolUseResult": {"stdout": sentence(rng, 80), "stderr": "", "interrupted": False},
                              "message": {"role": "user", "content": [
                                  {"type": "tool_result", "tool_use_id": f"toolu_{mid}", "content": sentence(rng, 80)}]}})
                written += 1
            lines.append({"type": "system", "subtype": "turn_duration", "durationMs": 1000, **env})
        with open(folder / f"{sid}.jsonl", "w") as handle:
            handle.write("\n".join(json.dumps(line) for line in lines) + "\n")
        if session % 10 == 0:
            sub = folder / sid / "subagents"
            sub.mkdir(parents=True)
            with open(sub / "agent-a1.jsonl", "w") as handle:
                for line in lines[:20]:
                    handle.write(json.dumps({**line, "isSidechain": True, "agentId": "a1"}) + "\n")
    return written


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        root = tmp / "projects"
        write_tree(root, args.messages)
        size = sum(p.stat().st_size for p in root.rglob("*.jsonl"))
        floor = json.loads(subprocess.run([sys.executable, "-c", FLOOR, str(root)], capture_output=True,
                                          text=True, check=True).stdout)
        print(f"floor (orjson.loads of every line, nothing else): {floor['lines']} lines in "
              f"{floor['seconds']:.2f} s")
        for label in ("first run", "re-run (all checkpointed)"):
            done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(tmp / "home")],
                                  capture_output=True, text=True, check=True)
            result = json.loads(done.stdout)
            rate = result["units"] / result["seconds"] if result["units"] else 0.0
            ratio = f" ({result['seconds'] / floor['seconds']:.1f}x the parse floor)" if result["units"] else ""
            print(f"{label}: {result['streams']} files, {size / 1e6:.1f} MB, {result['units']} messages "
                  f"in {result['seconds']:.2f} s = {rate:,.0f} messages/s; written {result['written']}; "
                  f"peak RSS {result['peak_rss_mb']:.0f} MB{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
