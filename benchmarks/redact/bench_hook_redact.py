"""Benchmark: the redactor's cost on the hook path, before and after the rule table of issue 14.

Three variants, interleaved in one session, whole process each:

- `bare python -c pass`: the interpreter floor;
- `hook, old redactor`: `carto hook claude PostToolUse` with the redactor carto had before
  (13 patterns; `src/carto_core/privacy/redact.py` at --before, loaded in place of today's module, with
  nothing redacted before the summary cut, as then);
- `hook, new redactor`: the same hook with today's redactor.

The payload is a Bash call whose command is a 20 KB heredoc of mixed text (shell output, code,
JSON, prose, paths, hashes: `mixed_text.py`, cut from this repository and the shared fixtures)
written to a file: the command is redacted whole (before its 200-byte summary cut) and a
shell-write row is stored. A second pair runs a small (`npm test`) payload.

In-process, the same run also times the two redactors alone on the 20 KB text and on 2,000
short strings (the backfill's shape).

Reproduce:  .venv/bin/python benchmarks/redact/bench_hook_redact.py [--runs 30] [--before REV]
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
PYTHON = Path(sys.executable)
sys.path.insert(0, str(HERE))

from mixed_text import mixed_text, short_strings  # noqa: E402

#: The last commit before the issue-14 redactor landed.
DEFAULT_BEFORE = "6433455"

RUNNER = r"""
import sys
mode, old_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, old_dir)  # in both modes: the hook's dispatch cache keys on sys.path
if mode == "old":
    import carto_redact_before as old
    old.redact_text = lambda text: text           # the old code redacted only whole rows,
    old.clip = lambda text, limit, tail="": text if len(text) <= limit else text[: limit - len(tail)] + tail
    old.redacted = lambda rows: [old.redact_row(r) for r in rows]
    sys.modules["carto_core.privacy.redact"] = old
from carto_core.capture.hookpath import main
sys.exit(main(["claude", "PostToolUse"]))
"""


def timed(cmd: list[str], stdin: bytes, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return (time.perf_counter() - start) * 1000.0


def in_process(old_dir: Path) -> dict[str, float]:
    """Both redactors alone, alternated run by run (a loaded machine then slows both alike)."""
    sys.path.insert(0, str(old_dir))
    import carto_redact_before as old

    from carto_core.privacy.redact import Redactor

    text, smalls = mixed_text(), short_strings()
    redactors = {"old": old.Redactor(old._BUILTIN), "new": Redactor()}
    big: dict[str, list[float]] = {name: [] for name in redactors}
    small: dict[str, list[float]] = {name: [] for name in redactors}
    for redactor in redactors.values():
        redactor.text(text)
    for _ in range(30):
        for name, redactor in redactors.items():
            start = time.perf_counter()
            redactor.text(text)
            big[name].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            for item in smalls:
                redactor.text(item)
            small[name].append((time.perf_counter() - start) * 1e6 / len(smalls))
    out = {}
    for name in redactors:
        out[f"{name} redactor, 20 KB text (ms)"] = statistics.median(big[name])
        out[f"{name} redactor, per short string (us)"] = statistics.median(small[name])
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--before", default=DEFAULT_BEFORE, help="git revision of the old redactor")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old_dir = tmp / "old"
        old_dir.mkdir()
        source = subprocess.run(["git", "show", f"{args.before}:src/carto_core/privacy/redact.py"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
        (old_dir / "carto_redact_before.py").write_text(source, "utf-8")
        runner = tmp / "runner.py"
        runner.write_text(RUNNER, "utf-8")
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        env = {**os.environ, "CARTO_HOME": str(tmp / "home"), "CARTO_CATCHUP": "0"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a real install: bytecode cached
        base = {"session_id": "bench", "cwd": str(repo), "transcript_path": str(tmp / "t.jsonl"),
                "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1"}
        body = mixed_text(20_000)
        big = json.dumps({**base, "tool_input": {"command": f"cat > notes.md <<'EOF'\n{body}\nEOF"},
                          "tool_response": {"stdout": "", "stderr": "", "interrupted": False}}).encode()
        small = json.dumps({**base, "tool_input": {"command": "npm test -- --grep parser"},
                            "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}).encode()
        variants = {
            "bare python -c pass": ([str(PYTHON), "-c", "pass"], b""),
            "hook 20 KB, old redactor": ([str(PYTHON), str(runner), "old", str(old_dir)], big),
            "hook 20 KB, new redactor": ([str(PYTHON), str(runner), "new", str(old_dir)], big),
            "hook small, old redactor": ([str(PYTHON), str(runner), "old", str(old_dir)], small),
            "hook small, new redactor": ([str(PYTHON), str(runner), "new", str(old_dir)], small),
        }
        for _ in range(3):  # warm the page cache, the bytecode and the dispatch cache
            for cmd, stdin in variants.values():
                timed(cmd, stdin, env)
        samples: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.runs):
            for name, (cmd, stdin) in variants.items():
                samples[name].append(timed(cmd, stdin, env))
        rows = sum(1 for _ in open(tmp / "home" / "tool-use-log.jsonl"))
        load = os.getloadavg()
        micro = in_process(old_dir)
    floor = statistics.median(samples["bare python -c pass"])
    print(f"runs per variant: {args.runs}  (python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}); old redactor from {args.before}")
    for name, values in samples.items():
        values.sort()
        med = statistics.median(values)
        p90 = values[int(len(values) * 0.9) - 1]
        print(f"{name:<28} median {med:6.1f} ms  p90 {p90:6.1f} ms  x{med / floor:4.2f} of bare python")
    for key in ("20 KB", "small"):
        old = statistics.median(samples[f"hook {key}, old redactor"])
        new = statistics.median(samples[f"hook {key}, new redactor"])
        print(f"hook {key}: new - old = {new - old:+.1f} ms (x{new / old:.3f})")
    print(f"rows written: {rows}")
    for name, value in micro.items():
        print(f"{name:<42} {value:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
