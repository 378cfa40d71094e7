"""Benchmark: the Stop hook's first read at a new path on a big turns log, at a git revision
against another (default: this working tree), interleaved; CPU seconds (user + system) and peak
RSS of each `carto hook claude ...` process, from `/usr/bin/time -f "%U %S %M"`, medians.

The home: a turns log of `--mb` MB (rows of other sessions, about 1 KB each) grown over `--days`
days, the hook's mark taken each hour as it grew (`capture.live.record_mark` with that hour's
time; a revision without marks never reads them), then a Claude Code session begun an hour
ago, its `--turns` turns stored by a Stop at their first path (the log's last rows). Each run
is a first read at a new path, which looks the session's rows up in the log:

- moved: the session's transcript copied to a new project folder (a renamed checkout), `Stop`:
  every turn stored already, nothing written;
- subagent: a new `agent-<id>.jsonl` of the session (one finished turn, never stored),
  `SubagentStop` with its `agent_transcript_path`: one row written.

Reproduce:  .venv/bin/python benchmarks/hook/bench_stop_first_read.py --base 803c4385 --runs 3
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from revision import copy_sources, export, pythonpath  # noqa: E402

PYTHON = sys.executable
HOOK = "import sys; from carto_core.entry import main; sys.argv = ['carto', 'hook', 'claude', sys.argv[1]]; main()"
SESSION = "3f1e2d4c-5b6a-4798-8a9b-0c1d2e3f4a5b"


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(epoch))


def transcript(path: Path, turns: int, start: float, agent: str = "") -> None:
    """`turns` turns of Claude Code lines, a minute apart from `start` (an agent file's lines
    are sidechain lines, as Claude Code writes them)."""
    lines = []
    for n in range(turns):
        common = {"sessionId": SESSION, "cwd": "/src/shop", "timestamp": _iso(start + 60 * n),
                  "isSidechain": bool(agent), "userType": "external", "version": "2.1.30"}
        if agent:
            common["agentId"] = agent
        lines.append({**common, "type": "user", "uuid": f"u-{agent}-{n}", "message": {
            "role": "user", "content": f"turn {n}: look at the discount rounding in cart.py"}})
        lines.append({**common, "type": "assistant", "uuid": f"a-{agent}-{n}", "message": {
            "id": f"msg_{agent}_{n}", "role": "assistant",
            "content": [{"type": "text", "text": f"Turn {n}: rounding now uses Decimal quantize."}]}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")


def grow_log(home: Path, mb: int, days: int, until: float, this: Path) -> int:
    """The turns log, `mb` MB over `days` days up to `until`, with an hourly mark (this tree's
    `record_mark`): returns the rows written."""
    sys.path[:0] = [str(this / "src")]
    from carto_core.capture import live
    from carto_core.logio.home import Home

    target = Home(home)
    hours = days * 24
    per_hour = mb * 1_000_000 // hours
    pad = "the filler turn's summary words " * 28
    rows = 0
    with open(home / "turns.jsonl", "ab") as handle:
        for hour in range(hours):
            stamp = until - (hours - hour) * 3600
            written = 0
            while written < per_hour:
                row = {"event_id": f"turn-filler-{hour:05d}-{rows:08d}", "timestamp": _iso(stamp),
                       "project": "shop", "type": "transcript", "provider": "claude",
                       "summary": pad, "session": f"filler-{hour:05d}", "turn_idx": rows}
                line = json.dumps(row, separators=(",", ":")).encode() + b"\n"
                handle.write(line)
                written += len(line)
                rows += 1
            handle.flush()
            live.record_mark(target, now=stamp)
    return rows


def run_hook(event: str, payload: dict, env: dict, out: Path) -> tuple[float, int]:
    subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", str(out), PYTHON, "-c", HOOK, event],
                   input=json.dumps(payload).encode(), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, check=False)
    user, system, rss = out.read_text().split()[-3:]
    return float(user) + float(system), int(rss)


def turn_rows(home: Path) -> int:
    with open(home / "turns.jsonl", "rb") as handle:
        return sum(1 for _ in handle)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="HEAD~1", help="git revision (before)")
    parser.add_argument("--this", default="", help="git revision (after; default: this working tree)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mb", type=int, default=256)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        tmp = Path(tmp)
        trees = {"base": export(args.base, tmp / "base"),
                 "this": export(args.this, tmp / "this") if args.this else copy_sources(tmp / "this")}
        home = tmp / "home"
        home.mkdir()
        now = time.time()
        filler = grow_log(home, args.mb, args.days, now - 3600, trees["this"])
        envs = {side: {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0",
                       "HOME": str(tmp / "user"), "XDG_CACHE_HOME": str(tmp / f"cache-{side}"),
                       "XDG_CONFIG_HOME": str(tmp / "config"), "PYTHONPATH": pythonpath(tree)}
                for side, tree in trees.items()}
        for env in envs.values():
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # a real install has bytecode
        session = tmp / "projects" / "-src-shop" / f"{SESSION}.jsonl"
        transcript(session, args.turns, now - 3600)
        stop = {"session_id": SESSION, "cwd": "/src/shop", "hook_event_name": "Stop", "stop_hook_active": False}
        run_hook("Stop", {**stop, "transcript_path": str(session)}, envs["this"], tmp / "time.txt")
        stored = turn_rows(home)
        assert stored == filler + args.turns, (stored, filler)
        size = (home / "turns.jsonl").stat().st_size
        results: dict = {}
        count = 0
        for n in range(args.runs + 1):  # the first round warms the bytecode and the page cache
            for side in (("base", "this") if n % 2 == 0 else ("this", "base")):
                count += 1
                moved = tmp / "projects" / f"-src-shop-moved-{count}" / f"{SESSION}.jsonl"
                moved.parent.mkdir(parents=True)
                moved.write_bytes(session.read_bytes())
                before = turn_rows(home)
                cost = run_hook("Stop", {**stop, "transcript_path": str(moved)}, envs[side], tmp / "time.txt")
                wrote = turn_rows(home) - before
                if n:
                    results.setdefault("moved", {}).setdefault(side, []).append((*cost, wrote))
                agent = f"a{count:04d}"
                agent_file = tmp / "projects" / "-src-shop" / SESSION / "subagents" / f"agent-{agent}.jsonl"
                transcript(agent_file, 1, now - 1800, agent=agent)
                before = turn_rows(home)
                cost = run_hook("SubagentStop", {**stop, "hook_event_name": "SubagentStop",
                                                 "transcript_path": str(session),
                                                 "agent_transcript_path": str(agent_file)},
                                envs[side], tmp / "time.txt")
                wrote = turn_rows(home) - before
                if n:
                    results.setdefault("subagent", {}).setdefault(side, []).append((*cost, wrote))
        load = os.getloadavg()
        hook_log = home / ".carto" / "hook.log"
        problems = hook_log.read_text().count("\n") if hook_log.exists() else 0
    print(f"base {args.base} vs {args.this or 'this tree'}: turns log {size / 1e6:.0f} MB "
          f"({filler:,} rows over {args.days} days, hourly marks), a {args.turns}-turn session begun "
          f"an hour ago stored at its end; {args.runs} interleaved rounds after one warm-up; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; hook.log lines: {problems}")
    for name, sides in results.items():
        for side, runs in sides.items():
            print(f"  {name:9} {side:5} CPU {statistics.median(r[0] for r in runs):5.3f} s "
                  f"(runs {', '.join(f'{r[0]:.2f}' for r in runs)})   peak RSS "
                  f"{statistics.median(r[1] for r in runs) / 1024:5.1f} MB   rows written {[r[2] for r in runs]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
