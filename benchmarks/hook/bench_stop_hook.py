"""Benchmark: `carto hook claude Stop` ingesting the live transcript, whole process, for a
transcript that grows by one turn between two Stops, at 1 MB and at 50 MB; beside the
PostToolUse hook on a Bash payload (DESIGN section 9: within 2x of it) and a bare interpreter.

Each round appends one turn (a prompt, a tool call and its result, the final answer: about
3 KB, fresh timestamps) to both transcripts, then runs, interleaved: `python -c pass`, the
PostToolUse hook (`Ran:` row), the Stop hook on the 1 MB transcript, the Stop hook on the
50 MB one. The Stop hook reads only the bytes since its checkpoint (the previous turn and the
new one), so its cost should not depend on the transcript's size. Before the rounds, each
transcript is primed the way a user's would be: `carto ingest claude` read it once (the Stop
hook then seeds its checkpoint from the backfill's) - without that, the first Stop of a 50 MB
session hands the read to a detached child instead. Medians and p95 per variant, the ratio to
the PostToolUse hook in the same run, rows written, and the child processes the Stop path
started (audit hook, separate run).

The semantic keep-up is off for the timed runs (`CARTO_KEEPUP=0`): when due it costs one
`fork`+`exec` the hook does not wait for, at most once per 5 minutes; the child count below is
taken with it on and not due (the common case: one `stat`).

Reproduce:  .venv/bin/python benchmarks/hook/bench_stop_hook.py [--runs 40]
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

PYTHON = Path(sys.executable)
CARTO = PYTHON.parent / "carto"

sys.path.insert(0, str(Path(__file__).parent))
from bench_hook import COUNT_CHILDREN as _COUNT_POST, timed  # noqa: E402  (same floor, same probe)

COUNT_CHILDREN = _COUNT_POST.replace('"PostToolUse"', '"Stop"')


class Transcript:
    def __init__(self, path: Path, session: str):
        self.path, self.session, self.n = path, session, 0

    def turn(self) -> bytes:
        """One turn of Claude Code lines (the shapes of reference/formats.md 1.2), ~3 KB."""
        self.n += 1
        n, sid = self.n, self.session
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
        common = {"sessionId": sid, "cwd": "/src/shop", "version": "2.1.328", "gitBranch": "main",
                  "userType": "external", "isSidechain": False, "timestamp": stamp}
        output = " ".join(f"line {i} of the test output for turn {n}: ok" for i in range(30))
        lines = [
            {**common, "type": "user", "uuid": f"u{n}", "message": {"role": "user", "content":
                f"turn {n}: please look at the discount rounding in cart.py and fix the tests"}},
            {**common, "type": "assistant", "uuid": f"a{n}", "message": {"id": f"msg_{n}a", "role": "assistant",
                "content": [{"type": "text", "text": f"Looking at cart.py for turn {n}."},
                            {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash",
                             "input": {"command": "pytest -q tests/test_cart.py", "description": "run the tests"}}]}},
            {**common, "type": "user", "uuid": f"r{n}", "toolUseResult": {"stdout": output, "stderr": ""},
             "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{n}",
                                                      "content": output}]}},
            {**common, "type": "assistant", "uuid": f"f{n}", "message": {"id": f"msg_{n}f", "role": "assistant",
                "content": [{"type": "text", "text": f"Done with turn {n}: rounding now uses Decimal "
                             "quantize with ROUND_HALF_UP and the three tests pass."}]}},
        ]
        return b"".join(json.dumps(line).encode() + b"\n" for line in lines)

    def grow_to(self, size: int) -> None:
        with open(self.path, "wb") as handle:
            written = 0
            while written < size:
                chunk = self.turn()
                handle.write(chunk)
                written += len(chunk)

    def append_turn(self) -> None:
        with open(self.path, "ab") as handle:
            handle.write(self.turn())

    def stop_payload(self) -> bytes:
        return json.dumps({"session_id": self.session, "transcript_path": str(self.path), "cwd": "/src/shop",
                           "hook_event_name": "Stop", "stop_hook_active": False,
                           "last_assistant_message": f"Done with turn {self.n}."}).encode()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--sizes", default="1,50", help="transcript sizes in MB (comma-separated)")
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        home = tmp / "home"
        projects = tmp / "projects" / "-src-shop"
        projects.mkdir(parents=True)
        env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a real install has bytecode (see bench_hook)
        transcripts = {}
        for size in sizes:
            t = Transcript(projects / f"bench-{size:g}mb.jsonl", f"bench-{size:g}mb")
            t.grow_to(int(size * 1e6))
            transcripts[size] = t
        started = time.perf_counter()
        subprocess.run([str(CARTO), "ingest", "claude", "--root", str(tmp / "projects"), "--json"],
                       env=env, capture_output=True, check=True)
        prime_s = time.perf_counter() - started
        post = json.dumps({"session_id": "bench", "cwd": str(repo), "transcript_path": str(tmp / "t.jsonl"),
                           "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1",
                           "tool_input": {"command": "npm test -- --grep parser"},
                           "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}).encode()
        hook_post = [str(CARTO), "hook", "claude", "PostToolUse"]
        hook_stop = [str(CARTO), "hook", "claude", "Stop"]
        bare = [str(PYTHON), "-c", "pass"]
        for _ in range(3):  # warm the page cache, bytecode and the dispatch cache
            timed(hook_post, post, env)
            timed(bare, b"", env)
            for t in transcripts.values():
                t.append_turn()
                timed(hook_stop, t.stop_payload(), env)
        turns_before = sum(1 for _ in open(home / "turns.jsonl", "rb"))
        names = ["bare python -c pass", "PostToolUse Bash (Ran: row)"] + [
            f"Stop, {size:g} MB transcript +1 turn" for size in sizes]
        samples: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(args.runs):
            samples[names[0]].append(timed(bare, b"", env))
            samples[names[1]].append(timed(hook_post, post, env))
            for size, t in transcripts.items():
                t.append_turn()
                samples[f"Stop, {size:g} MB transcript +1 turn"].append(timed(hook_stop, t.stop_payload(), env))
        turns_after = sum(1 for _ in open(home / "turns.jsonl", "rb"))
        hook_log = (home / ".carto" / "hook.log").read_text() if (home / ".carto" / "hook.log").exists() else ""
        probe_env = {**env, "CARTO_KEEPUP": "1", "CARTO_KEEPUP_INTERVAL_SECONDS": "3600"}
        (home / ".carto").mkdir(parents=True, exist_ok=True)
        (home / ".carto" / "semantic-keep-up.last").write_text(str(int(time.time())))  # not due
        last = transcripts[sizes[-1]]
        last.append_turn()
        probe = subprocess.run([str(PYTHON), "-c", COUNT_CHILDREN], input=last.stop_payload(),
                               capture_output=True, env=probe_env)
        children = probe.stderr.decode().strip().splitlines()[-1] if probe.stderr else "?"
        sizes_mb = {size: t.path.stat().st_size / 1e6 for size, t in transcripts.items()}
    floor = statistics.median(samples[names[0]])
    post_med = statistics.median(samples[names[1]])
    print(f"runs per variant: {args.runs}  (python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
          f"load {os.getloadavg()[0]:.2f})")
    print(f"transcripts: " + ", ".join(f"{s:g} MB -> {mb:.1f} MB after the runs" for s, mb in sizes_mb.items())
          + f"; primed by one carto ingest claude in {prime_s:.1f} s")
    for name in names:
        values = samples[name]
        med = statistics.median(values)
        print(f"{name:<34} median {med:6.1f} ms  p95 {p95(values):6.1f} ms  "
              f"x{med / floor:4.2f} of bare python  x{med / post_med:4.2f} of PostToolUse")
    print(f"turn rows the Stop runs appended: {turns_after - turns_before} "
          f"({len(sizes)} transcripts x {args.runs} runs: the closed previous turn + the new open one each)")
    print(f"hook.log lines: {len(hook_log.splitlines())}")
    print(f"child processes on the Stop path (keep-up on, not due): {children}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
