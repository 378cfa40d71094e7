"""The session commands at scale: `carto session --tree`, `carto facts tokens`, `carto related`,
`carto handoff`, `--tag` on `carto sessions` and `carto search`, cold CLI and through the MCP
server's `CartoMcp.call` (warm, no transport), beside their floors in the same run.

The home is `carto_core.evaluation.generate.generate_home` (seed 1, the search benchmark's
corpus) with its turn rows given what the transcript readers now record, so the new folds
have their inputs: `tokens` on every turn (random reported usage), `tools` on every third
(a Bash call, an Edit of a project file, every tenth of them a Task call `spawned` a subagent
turn that is written too), and lineage (`copied_from` on one turn in a hundred, and a
`session_end_clear`/`session_start_clear` pair for one session in fifty). Rows are rewritten
once before anything is measured.

Floors (same home, same run): `carto session ID --json` (the session view the tree sits beside;
it loads the corpus), `carto search QUERY --json`, `carto sessions --json`, `carto facts census
--json`. Medians of `--runs` cold runs each, the commands interleaved run by run so the load of
the shared machine falls on all alike; CPU seconds (user + system) beside wall seconds.

Usage (from the repository root):

    .venv/bin/python benchmarks/sessions/bench_sessions.py --events 200000 --runs 5

Prints a markdown table; writes benchmarks/sessions/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "search"))

from bench_search import CARTO, child_env, timed_child  # noqa: E402


def enrich(home: Path, seed: int = 3) -> dict:
    """Give the generated turns what the readers record now (see the module docstring)."""
    rng = random.Random(seed)
    path = home / "turns.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    out, spawned, copied = [], 0, 0
    sessions = sorted({r["session"] for r in rows})
    for n, row in enumerate(rows):
        row["tokens"] = {"input": rng.randint(50, 4000), "output": rng.randint(20, 2000),
                         "cache_read": rng.randint(0, 60000), "cache_write": rng.randint(0, 8000)}
        if n % 3 == 0:
            cwd = row.get("cwd") or f"/work/{row['project']}"
            tools = [{"name": "Bash", "input": "pytest -q", "at": row["timestamp"]},
                     {"name": "Edit", "input": f"{cwd}/src/mod{n % 40}.py", "at": row["timestamp"],
                      "edits": [f"{cwd}/src/mod{n % 40}.py"]}]
            if n % 30 == 0:
                agent = f"a{n:08x}"
                tools.append({"name": "Task", "input": "look around", "at": row["timestamp"],
                              "agent_type": "general-purpose",
                              "spawned": f"turn-{row['session']}-agent-{agent}-1"})
                out.append({**row, "event_id": f"turn-{row['session']}-agent-{agent}-1", "turn_idx": 1,
                            "agent_id": agent, "tools": [{"name": "Read", "input": "README.md"}],
                            "transcript_path": row["transcript_path"].replace(".jsonl", f"/subagents/agent-{agent}.jsonl")})
                spawned += 1
            row["tools"] = tools
        if n % 100 == 50:
            row["copied_from"] = rng.choice(sessions)
            copied += 1
        out.append(row)
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in out))
    milestones = home / "session-milestones.jsonl"
    cleared = 0
    with milestones.open("a") as handle:
        for i in range(0, len(sessions) - 1, 50):
            old, new = sessions[i], sessions[i + 1]
            for sid, name, second in ((old, "session_end_clear", "00"), (new, "session_start_clear", "01")):
                handle.write(json.dumps({"event_id": f"evt-bench-{name}-{i}", "timestamp": f"2026-06-01T12:{i % 60:02d}:{second}Z",
                                         "milestone": name, "session_id": sid, "cwd": "/work/bench"}) + "\n")
            cleared += 1
    return {"turns": len(out), "subagent_turns": spawned, "copied": copied, "clear_pairs": cleared}


def pick(home: Path) -> dict:
    """A busy session (most turns), its project, a word of its, a query."""
    from collections import Counter

    turns = [json.loads(line) for line in (home / "turns.jsonl").read_text().splitlines()]
    busiest = Counter(r["session"] for r in turns).most_common(1)[0][0]
    mine = [r for r in turns if r["session"] == busiest]
    word = Counter(w for r in mine for w in r["summary"].split() if w.isalpha() and len(w) > 4).most_common(1)[0][0]
    return {"session": busiest, "project": mine[0]["project"], "word": word}


def median(values):
    return round(statistics.median(values), 3)


def cold(commands: dict[str, list[str]], env: dict, runs: int) -> dict:
    for argv in commands.values():  # one warm-up each: caches built, files in the page cache
        timed_child([CARTO, *argv], env)
    walls = {k: [] for k in commands}
    cpus = {k: [] for k in commands}
    rss = {k: 0 for k in commands}
    for _ in range(runs):
        for key, argv in commands.items():
            wall, peak, cpu = timed_child([CARTO, *argv], env)
            walls[key].append(wall)
            cpus[key].append(cpu)
            rss[key] = max(rss[key], peak)
    return {k: {"wall_s": median(walls[k]), "cpu_s": median(cpus[k]), "rss_mb": rss[k]} for k in commands}


def warm_mcp(home: Path, picked: dict, runs: int) -> dict:
    os.environ["CARTO_HOME"] = str(home)
    from carto_core.logio.home import Home
    from carto_core.mcp.server import CartoMcp

    state = CartoMcp(Home(home))
    calls = {
        "session_tree": ("session_tree", {"session_id": picked["session"]}),
        "related term": ("related", {"query": picked["word"], "kind": "term"}),
        "related session": ("related", {"query": picked["session"], "kind": "session"}),
        "handoff session": ("handoff", {"session_id": picked["session"]}),
        "facts tokens": ("facts", {"verb": "tokens"}),
        "search (floor)": ("search", {"query": picked["word"], "all": True}),
    }
    out = {}
    for key, (tool, args) in calls.items():
        state.call(tool, dict(args))
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            state.call(tool, dict(args))
            times.append(time.perf_counter() - t0)
        out[key] = {"median_ms": round(statistics.median(times) * 1000, 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--reuse", action="store_true", help="Keep the home an earlier run left in --workdir.")
    args = parser.parse_args()
    from carto_core.evaluation.generate import generate_home

    work = Path(args.workdir or tempfile.mkdtemp(prefix="carto-bench-sessions-"))
    home = work / "home"
    t0 = time.perf_counter()
    stamp = work / "generated.json"
    if args.reuse and stamp.exists():  # the same home, generated and enriched by an earlier run
        made, extra = json.loads(stamp.read_text())
    else:
        made = generate_home(home, args.events, seed=1)
        extra = enrich(home)
        stamp.write_text(json.dumps([made, extra]))
    generated_s = round(time.perf_counter() - t0, 1)
    picked = pick(home)
    env = child_env(home)
    commands = {
        "session --tree": ["session", picked["session"], "--tree", "--json"],
        "session (floor)": ["session", picked["session"], "--json"],
        "facts tokens": ["facts", "tokens", "--json"],
        "facts census (floor)": ["facts", "census", "--json"],
        "related term": ["related", picked["word"], "--term", "--json"],
        "related session": ["related", picked["session"], "--json"],
        "handoff session": ["handoff", picked["session"], "--json"],
        "handoff project": ["handoff", "--project", picked["project"], "--json"],
        "sessions --tag": ["sessions", "--tag", "outcome:commit", "--tag", "ext:py", "--json"],
        "sessions (floor)": ["sessions", "--json"],
        "search --tag": ["search", picked["word"], "--tag", "outcome:test-run", "--all", "--json"],
        "search (floor)": ["search", picked["word"], "--all", "--json"],
    }
    results = {"events": made["events"], "enriched": extra, "generated_s": generated_s, "picked": picked,
               "runs": args.runs, "cold": cold(commands, env, args.runs), "mcp_warm": warm_mcp(home, picked, args.runs),
               "load": os.getloadavg(), "python": platform.python_version(), "cpus": os.cpu_count()}
    (ROOT / "benchmarks" / "sessions" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"{made['events']} events, {extra}; load {results['load']}")
    print("| command (cold CLI) | wall s | CPU s | peak RSS MB |\n|---|---|---|---|")
    for key, r in results["cold"].items():
        print(f"| `carto {key}` | {r['wall_s']} | {r['cpu_s']} | {r['rss_mb']} |")
    print("| MCP call (warm, in-process) | median ms |\n|---|---|")
    for key, r in results["mcp_warm"].items():
        print(f"| {key} | {r['median_ms']} |")


if __name__ == "__main__":
    main()
