"""Benchmark: `carto hook claude PostToolUse` (whole process) at a git revision against this
tree, interleaved in one run, plus each side's redactor alone in fresh processes.

The revision's `src/` and `plugins/claude/src/` are exported with `git archive`; both sides run
the stdlib hook path with `PYTHONPATH` pointing at their own tree (the same cost for both), the
interpreter floor (`python -c pass`) beside them. Payloads: a small Bash call (`npm test`), a
Bash call whose command is a 20 KB heredoc of mixed text (`mixed_text.py`: shell output, code,
JSON, prose, hashes; the command is redacted whole before its summary cut), and a Stop whose
`last_assistant_message` is that text over a small live transcript. Rounds alternate the order.

In-process, alternating fresh processes of each side: the default redactor on the 20 KB text
and on 2,000 short strings (the backfill's shape), medians of 15 calls each, in CPU time (on a
loaded machine wall time mostly measures the wait for a core).

Each hook variant is reported in wall time and in the child's CPU time (user + system, from
getrusage): on a shared, loaded machine the wall time mostly measures the wait for a core.

Reproduce:  .venv/bin/python benchmarks/redact/bench_hook_ab.py --base main [--runs 25]
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PYTHON = sys.executable
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from mixed_text import mixed_text, short_strings  # noqa: E402
from revision import export  # noqa: E402

HOOK = "import sys; from carto_core.entry import main; sys.argv = ['carto', 'hook', 'claude', sys.argv[1]]; main()"
MICRO = r"""
import json, statistics, sys, time
from carto_core.privacy.redact import Redactor
text, smalls = json.load(open(sys.argv[1]))
r = Redactor()
r.text(text)
big, small = [], []
for _ in range(15):
    t = time.process_time(); r.text(text); big.append((time.process_time() - t) * 1000)
    t = time.process_time()
    for s in smalls:
        r.text(s)
    small.append((time.process_time() - t) * 1e6 / len(smalls))
print(json.dumps([statistics.median(big), statistics.median(small)]))
"""


def timed(cmd: list[str], stdin: bytes, env: dict) -> tuple[float, float]:
    """(wall ms, CPU ms of the child: user + system, which a loaded machine distorts less)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    wall = (time.perf_counter() - start) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="main", help="git revision to compare this tree with")
    parser.add_argument("--runs", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = export(args.base, tmp / "base", ("src", "plugins/claude/src"))
        trees = {"base": base, "this": ROOT}
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        transcript = tmp / "t.jsonl"
        transcript.write_text("".join(json.dumps(line) + "\n" for line in (
            {"type": "user", "uuid": "u1", "sessionId": "bench", "cwd": str(repo), "timestamp": "2026-12-01T10:00:00.000Z",
             "message": {"role": "user", "content": [{"type": "text", "text": "write the notes"}]}},
            {"type": "assistant", "uuid": "u2", "sessionId": "bench", "cwd": str(repo), "timestamp": "2026-12-01T10:00:01.000Z",
             "message": {"role": "assistant", "id": "m1", "content": [{"type": "text", "text": "writing"}]}})))
        common = {"session_id": "bench", "cwd": str(repo), "transcript_path": str(transcript)}
        body = mixed_text(20_000)
        tool = {**common, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1"}
        payloads = {
            "small Bash": ("PostToolUse", {**tool, "tool_input": {"command": "npm test -- --grep parser"},
                                           "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}),
            "20 KB Bash": ("PostToolUse", {**tool, "tool_input": {"command": f"cat > notes.md <<'EOF'\n{body}\nEOF"},
                                           "tool_response": {"stdout": "", "stderr": "", "interrupted": False}}),
            "Stop, 20 KB answer": ("Stop", {**common, "hook_event_name": "Stop", "last_assistant_message": body}),
        }
        variants: dict[str, tuple[list[str], bytes, dict]] = {"python -c pass": ([PYTHON, "-c", "pass"], b"", dict(os.environ))}
        for side, tree in trees.items():
            # Each side its own cache: one plugin table per Python environment, and the two
            # sides' sys.path differ, so a shared table would be rescanned by every call.
            env = {**os.environ, "CARTO_HOME": str(tmp / f"home-{side}"), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0",
                   "XDG_CACHE_HOME": str(tmp / f"cache-{side}"),
                   "PYTHONPATH": f"{tree / 'src'}{os.pathsep}{tree / 'plugins' / 'claude' / 'src'}"}
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            for name, (event, payload) in payloads.items():
                variants[f"{name} [{side}]"] = ([PYTHON, "-c", HOOK, event], json.dumps(payload).encode(), env)
        for _ in range(3):  # page cache, bytecode, plugin table
            for cmd, stdin, env in variants.values():
                timed(cmd, stdin, env)
        samples: dict[str, list[float]] = {name: [] for name in variants}
        order = list(variants)
        for n in range(args.runs):
            for name in (order if n % 2 == 0 else order[::-1]):
                cmd, stdin, env = variants[name]
                samples[name].append(timed(cmd, stdin, env))
        data = tmp / "micro.json"
        data.write_text(json.dumps([body, short_strings()]))
        micro: dict[str, list[list[float]]] = {"base": [], "this": []}
        for n in range(6):
            for side in (("base", "this") if n % 2 == 0 else ("this", "base")):
                env = {**os.environ, "PYTHONPATH": str(trees[side] / "src")}
                done = subprocess.run([PYTHON, "-c", MICRO, str(data)], capture_output=True, text=True, env=env, check=True)
                micro[side].append(json.loads(done.stdout))
        load = os.getloadavg()
    print(f"base {args.base} vs this tree; {args.runs} interleaved rounds; python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    def med(name: str, index: int) -> float:
        return statistics.median(sample[index] for sample in samples[name])

    print(f"  {'python -c pass':28} wall {med('python -c pass', 0):7.1f} ms   CPU {med('python -c pass', 1):7.1f} ms")
    for name in payloads:
        for index, unit in ((0, "wall"), (1, "CPU ")):
            b, t = med(f"{name} [base]", index), med(f"{name} [this]", index)
            print(f"  {name:22} {unit} base {b:7.1f} ms   this {t:7.1f} ms   this/base {t / b:5.3f}")
    for index, label in enumerate(("redactor, 20 KB text (ms)", "redactor, per short string (us)")):
        b = statistics.median(m[index] for m in micro["base"])
        t = statistics.median(m[index] for m in micro["this"])
        print(f"  {label:28} base {b:7.2f}      this {t:7.2f}      this/base {t / b:5.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
