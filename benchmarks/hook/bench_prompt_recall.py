"""Benchmark: the UserPromptSubmit hook with prompt-time recall on, at 200k events, as a ratio
to the PostToolUse hook measured in the same run (budget, DESIGN 9: within 3x its median).

One generated home (`carto_core.evaluation.generate.generate_home`, seed 1, a year of sessions)
with its keyword index persisted; then, interleaved run by run, whole processes of the
installed `carto` console script: (a) bare `python -c pass`, (b) `carto hook claude
PostToolUse` with a `Ran:` Bash payload (as benchmarks/hook/bench_hook.py), (c) `carto hook
claude UserPromptSubmit` with `CARTO_PROMPT_RECALL=1`, a new session each run and a prompt
drawn from the home's own prompt history (a different one each run: no warm memo), and (d)
the same with a generic prompt ("run the tests", the common case of silence). Reports medians
and p95, the ratio of (c) and (d) to (b), how many recall runs injected something, and the load
average. `--importtime` adds the modules the recall hook imports, by self time.

Reproduce:  .venv/bin/python benchmarks/hook/bench_prompt_recall.py --events 200000 --runs 40 \
                --workdir /tmp/recall-bench
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

PYTHON = Path(sys.executable)
CARTO = PYTHON.parent / "carto"


def timed(cmd: list[str], stdin: bytes, env: dict) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, capture_output=True, env=env, check=False)
    return (time.perf_counter() - start) * 1000.0, done.stdout


def load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def prepare(workdir: Path, events: int, env: dict) -> Path:
    home = workdir / f"home-{events}"
    if not (home / ".carto" / "search" / "CURRENT").exists():
        code = ("import sys; from carto_core.evaluation.generate import generate_home; "
                f"generate_home(sys.argv[1], {events}, days=365, seed=1)")
        subprocess.run([str(PYTHON), "-c", code, str(home)], check=True, env=env)
    # A search builds (or refreshes) the index and records the plugin table's classes.
    subprocess.run([str(CARTO), "search", "--no-semantic", "deploy", "--limit", "1"],
                   stdout=subprocess.DEVNULL, env={**env, "CARTO_HOME": str(home)}, check=False)
    subprocess.run([str(PYTHON), "-c", "import sys; from carto_core.logio.home import Home; "
                    "from carto_core.jobs.refresh import refresh_index; print(refresh_index(Home(sys.argv[1])))",
                    str(home)], env=env, check=True, stdout=subprocess.DEVNULL)
    return home


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/recall-bench"))
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update({"CARTO_CATCHUP": "0", "CARTO_SEMANTIC": "0"})
    args.workdir.mkdir(parents=True, exist_ok=True)
    home = prepare(args.workdir, args.events, env)
    env["CARTO_HOME"] = str(home)
    repo = args.workdir / "repo"
    if not (repo / ".git").exists():
        repo.mkdir(exist_ok=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    rng = random.Random(7)
    prompts = [json.loads(line).get("summary") or "" for line in open(home / "prompt-history.jsonl")]
    prompts = [p for p in rng.sample(prompts, min(len(prompts), args.runs + 5)) if p]
    post = json.dumps({"session_id": "bench-post", "cwd": str(repo), "transcript_path": str(repo / "t.jsonl"),
                       "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1",
                       "tool_input": {"command": "npm test -- --grep parser"},
                       "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}}).encode()

    def prompt_payload(run: int, text: str) -> bytes:
        return json.dumps({"session_id": f"bench-recall-{run}", "cwd": str(repo),
                           "transcript_path": str(repo / f"r{run}.jsonl"),
                           "hook_event_name": "UserPromptSubmit", "prompt": text}).encode()

    recall_env = {**env, "CARTO_PROMPT_RECALL": "1"}
    bare = [str(PYTHON), "-c", "pass"]
    post_hook = [str(CARTO), "hook", "claude", "PostToolUse"]
    prompt_hook = [str(CARTO), "hook", "claude", "UserPromptSubmit"]
    for run in range(3):  # warm the page cache, bytecode and the plugin table
        timed(post_hook, post, env)
        timed(prompt_hook, prompt_payload(-1 - run, prompts[-1 - run]), recall_env)
    names = ("bare python -c pass", "PostToolUse (Ran: row)", "UserPromptSubmit recall (history prompt)",
             "UserPromptSubmit recall (\"run the tests\")")
    samples: dict[str, list[float]] = {name: [] for name in names}
    injected = 0
    load_before = load()
    for run in range(args.runs):
        samples[names[0]].append(timed(bare, b"", env)[0])
        samples[names[1]].append(timed(post_hook, post, env)[0])
        ms, out = timed(prompt_hook, prompt_payload(run, prompts[run % len(prompts)]), recall_env)
        samples[names[2]].append(ms)
        injected += bool(out.strip())
        samples[names[3]].append(timed(prompt_hook, prompt_payload(10_000 + run, "run the tests"), recall_env)[0])
    load_after = load()
    post_median = statistics.median(samples[names[1]])
    post_p95 = sorted(samples[names[1]])[max(0, int(len(samples[names[1]]) * 0.95) - 1)]
    print(f"{args.events} events, {args.runs} runs per variant, python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus, load average {load_before} -> {load_after}")
    print("| path | median ms | p95 ms | median vs PostToolUse | p95 vs PostToolUse p95 |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        values = sorted(samples[name])
        med = statistics.median(values)
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        print(f"| {name} | {med:.1f} | {p95:.1f} | {med / post_median:.2f}x | {p95 / post_p95:.2f}x |")
    print(f"recall runs that injected context: {injected} of {args.runs}")
    log = home / ".carto" / "hook.log"
    if log.exists():
        print("hook.log (last 3 lines):", *log.read_text().splitlines()[-3:], sep="\n  ")
    if args.importtime:
        done = subprocess.run([str(PYTHON), "-X", "importtime", str(CARTO), "hook", "claude", "UserPromptSubmit"],
                              input=prompt_payload(99_999, prompts[0]), capture_output=True, env=recall_env)
        rows = []
        for line in done.stderr.decode().splitlines():
            if line.startswith("import time:") and "|" in line:
                parts = [p.strip() for p in line[len("import time:"):].split("|")]
                if parts[0].isdigit():
                    rows.append((int(parts[0]), int(parts[1]), parts[2]))
        print("imports by self time (us): " + ", ".join(f"{name.strip()} {own}" for own, _, name in
                                                       sorted(rows, reverse=True)[:15]))
        heavy = [name.strip() for _, _, name in rows if name.strip().split(".")[0] in
                 ("numpy", "pluggy", "click", "attrs", "cattrs", "orjson", "sklearn")]
        print(f"heavy imports on the recall path: {heavy or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
