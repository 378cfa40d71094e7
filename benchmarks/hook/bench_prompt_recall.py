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

`--tail-turn` first runs the Stop hook (`carto hook claude Stop`) on a transcript of one turn
after the index was saved, so every recall run also reads the index's unsaved tail (that turn,
and the PostToolUse runs' rows as they accumulate), and adds (e) a prompt about that turn,
which only the tail can answer. Each process's CPU time (user + system) and peak RSS are read
with `os.wait4`; a line of medians is printed every 10 runs.

Reproduce:  .venv/bin/python benchmarks/hook/bench_prompt_recall.py --events 200000 --runs 40 \
                --workdir /tmp/recall-bench [--tail-turn]
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


#: (wall ms, cpu ms, peak RSS KiB) of every process, by variant.
USAGE: dict[str, list[tuple[float, float, int]]] = {}


def run_child(cmd: list[str], stdin: bytes, env: dict) -> tuple[float, float, int, bytes]:
    """Run one process fed `stdin`: (wall ms, CPU ms, peak RSS KiB, stdout)."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=env)
    child.stdin.write(stdin)
    child.stdin.close()
    out = child.stdout.read()
    child.stdout.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = (time.perf_counter() - start) * 1000.0
    return wall, (usage.ru_utime + usage.ru_stime) * 1000.0, usage.ru_maxrss, out


def timed(cmd: list[str], stdin: bytes, env: dict, name: str | None = None) -> tuple[float, bytes]:
    """Run one process; its wall time (and, under `name`, its CPU time and peak RSS)."""
    wall, cpu, rss, out = run_child(cmd, stdin, env)
    if name is not None:
        USAGE.setdefault(name, []).append((wall, cpu, rss))
    return wall, out


TAIL_ANSWER = ("The quokka importer failed because the manifest upload sent no multipart checksum; "
               "it now computes the checksum per part and retries a part twice with backoff. ")


def stop_turn(home: Path, repo: Path, env: dict) -> None:
    """The Stop hook's turn, written after the index was saved: the recall runs read it as tail."""
    sid = f"bench000-0000-4000-8000-{int(time.time()):012x}"  # a new turn each run of the benchmark
    transcript = repo / f"{sid}.jsonl"
    lines = [
        {"type": "user", "timestamp": "2026-01-02T10:00:00Z", "parentUuid": None, "isSidechain": False,
         "userType": "external", "cwd": str(repo), "sessionId": sid, "version": "2.1.0", "uuid": "u-1",
         "message": {"role": "user", "content": "the quokka importer keeps failing on big uploads, fix it"}},
        {"type": "assistant", "timestamp": "2026-01-02T10:03:00Z", "parentUuid": "u-1", "isSidechain": False,
         "userType": "external", "cwd": str(repo), "sessionId": sid, "version": "2.1.0", "uuid": "a-1",
         "message": {"id": "msg-1", "type": "message", "role": "assistant", "model": "claude-x",
                     "content": [{"type": "text", "text": TAIL_ANSWER * 12}], "stop_reason": "end_turn"}},
    ]
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines))
    payload = json.dumps({"session_id": sid, "cwd": str(repo), "transcript_path": str(transcript),
                          "hook_event_name": "Stop"}).encode()
    timed([str(CARTO), "hook", "claude", "Stop"], payload, {**env, "CARTO_KEEPUP": "0"})


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
    parser.add_argument("--tail-turn", action="store_true",
                        help="a Stop turn in the index's unsaved tail, and a prompt about it")
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

    if args.tail_turn:
        stop_turn(home, repo, env)
    recall_env = {**env, "CARTO_PROMPT_RECALL": "1"}
    bare = [str(PYTHON), "-c", "pass"]
    post_hook = [str(CARTO), "hook", "claude", "PostToolUse"]
    prompt_hook = [str(CARTO), "hook", "claude", "UserPromptSubmit"]
    for run in range(3):  # warm the page cache, bytecode and the plugin table
        timed(post_hook, post, env)
        timed(prompt_hook, prompt_payload(-1 - run, prompts[-1 - run]), recall_env)
    names = ("bare python -c pass", "PostToolUse (Ran: row)", "UserPromptSubmit recall (history prompt)",
             "UserPromptSubmit recall (\"run the tests\")")
    if args.tail_turn:
        names += ("UserPromptSubmit recall (about the Stop turn in the tail)",)
    samples: dict[str, list[float]] = {name: [] for name in names}
    injected = tail_recalled = 0
    load_before = load()
    for run in range(args.runs):
        samples[names[0]].append(timed(bare, b"", env, names[0])[0])
        samples[names[1]].append(timed(post_hook, post, env, names[1])[0])
        ms, out = timed(prompt_hook, prompt_payload(run, prompts[run % len(prompts)]), recall_env, names[2])
        samples[names[2]].append(ms)
        injected += bool(out.strip())
        samples[names[3]].append(timed(prompt_hook, prompt_payload(10_000 + run, "run the tests"), recall_env,
                                       names[3])[0])
        if args.tail_turn:
            ms, out = timed(prompt_hook, prompt_payload(20_000 + run, "why did the quokka importer fail on "
                                                        "the manifest upload checksum?"), recall_env, names[4])
            samples[names[4]].append(ms)
            tail_recalled += b"quokka" in out
        if (run + 1) % 10 == 0:
            print(f"  after {run + 1} runs (load {load()}): " + "; ".join(
                f"{name.split(' (')[0] if i < 2 else name[len('UserPromptSubmit recall '):]} "
                f"{statistics.median(samples[name]):.1f} ms" for i, name in enumerate(names)), flush=True)
    load_after = load()
    post_median = statistics.median(samples[names[1]])
    post_p95 = sorted(samples[names[1]])[max(0, int(len(samples[names[1]]) * 0.95) - 1)]
    print(f"{args.events} events, {args.runs} runs per variant, python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus, load average {load_before} -> {load_after}")
    post_cpu = statistics.median(u[1] for u in USAGE[names[1]])
    print("| path | median ms | p95 ms | median vs PostToolUse | p95 vs PostToolUse p95 | median CPU ms "
          "| CPU vs PostToolUse | peak RSS MiB (max) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        values = sorted(samples[name])
        med = statistics.median(values)
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        cpu = statistics.median(u[1] for u in USAGE[name])
        rss = max(u[2] for u in USAGE[name]) / 1024
        print(f"| {name} | {med:.1f} | {p95:.1f} | {med / post_median:.2f}x | {p95 / post_p95:.2f}x "
              f"| {cpu:.1f} | {cpu / post_cpu:.2f}x | {rss:.1f} |")
    print(f"recall runs that injected context: {injected} of {args.runs}")
    if args.tail_turn:
        print(f"prompts about the Stop turn that recalled it: {tail_recalled} of {args.runs}")
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
