"""Codex backfill throughput: `carto ingest codex` (CodexRolloutSource through run_ingest, rows
written) vs the floor of reading and JSON-decoding the same rollout lines, in one run.

Synthetic rollouts in the current Codex layout (session_meta, turn_context, scaffolding, each
prompt as event_msg + response_item mirror, reasoning, function calls with outputs, apply_patch,
assistant messages, token counts). Reported: medians of --repeat runs, lines ("messages") per
second, ratio to the floor, peak RSS of the process.

    .venv/bin/python benchmarks/codex/bench_backfill.py --rollouts 2000 --turns 12
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

import orjson

from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest
from carto_codex.source import CodexRolloutSource


def rollout_lines(i: int, turns: int) -> list[str]:
    sid = f"{i:08x}-0000-4000-8000-{i:012x}"
    ts = "2026-02-01T10:00:00.000Z"

    def line(kind, payload):
        return json.dumps({"timestamp": ts, "type": kind, "payload": payload})

    out = [line("session_meta", {"id": sid, "timestamp": ts, "cwd": f"/home/u/dev/proj{i % 9}",
                                 "originator": "codex_cli_rs", "cli_version": "0.130.0", "source": "cli"}),
           line("response_item", {"type": "message", "role": "user", "content": [
               {"type": "input_text", "text": "# AGENTS.md instructions for /x\n\n" + "be careful " * 40}]}),
           line("response_item", {"type": "message", "role": "user", "content": [
               {"type": "input_text", "text": "<environment_context><cwd>/x</cwd></environment_context>"}]})]
    for t in range(turns):
        prompt = f"turn {t}: please fix the failing test in module {t % 7} and explain the cause"
        out += [
            line("turn_context", {"cwd": "/x", "model": "gpt-5-codex", "approval_policy": "never"}),
            line("event_msg", {"type": "user_message", "message": prompt}),
            line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}),
            line("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking"}],
                                   "encrypted_content": "x" * 400}),
            line("response_item", {"type": "function_call", "name": "exec_command", "call_id": f"c{t}",
                                   "arguments": json.dumps({"cmd": "pytest -x tests/test_mod.py", "workdir": "/x"})}),
            line("response_item", {"type": "function_call_output", "call_id": f"c{t}",
                                   "output": "collected 12 items\n" + "....F" * 40}),
            line("response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": f"p{t}",
                                   "input": "*** Begin Patch\n*** Update File: src/mod.py\n@@\n-a\n+b\n*** End Patch"}),
            line("response_item", {"type": "custom_tool_call_output", "call_id": f"p{t}", "output": "Done!"}),
            line("response_item", {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": "The cause was an off-by-one in the loop. " * 5}]}),
            line("event_msg", {"type": "agent_message", "message": "The cause was an off-by-one."}),
            line("event_msg", {"type": "token_count", "info": {"total_token_usage": {"total_tokens": 1000 + t}}}),
            line("event_msg", {"type": "task_complete"}),
        ]
    return out


def build(root: Path, rollouts: int, turns: int) -> int:
    lines = 0
    old = time.time() - 86_400
    for i in range(rollouts):
        folder = root / "sessions" / "2026" / "02" / f"{1 + i % 28:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        body = rollout_lines(i, turns)
        lines += len(body)
        path = folder / f"rollout-2026-02-01T10-00-00-{i:08x}-0000-4000-8000-{i:012x}.jsonl"
        path.write_text("\n".join(body) + "\n")
        os.utime(path, (old, old))
    return lines


def floor(root: Path) -> int:
    n = 0
    for path in sorted(root.rglob("rollout-*.jsonl")):
        for raw in path.read_bytes().split(b"\n"):
            if raw:
                orjson.loads(raw)
                n += 1
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "codex"
        lines = build(root, args.rollouts, args.turns)
        floors, ingests, written = [], [], 0
        for r in range(args.repeat):
            started = time.perf_counter()
            floor(root)
            floors.append(time.perf_counter() - started)
            home = Home(Path(tmp) / f"home{r}")
            started = time.perf_counter()
            summary = run_ingest(CodexRolloutSource({"roots": [str(root)]}), home)
            ingests.append(time.perf_counter() - started)
            written = summary.rows_written
        f, i = statistics.median(floors), statistics.median(ingests)
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps({
            "rollouts": args.rollouts, "lines": lines, "turns_written": written,
            "floor_s": round(f, 3), "floor_lines_per_s": round(lines / f),
            "ingest_s": round(i, 3), "ingest_lines_per_s": round(lines / i),
            "ratio_to_floor": round(i / f, 2), "peak_rss_mb": round(rss_mb, 1),
        }, indent=2))


if __name__ == "__main__":
    main()
