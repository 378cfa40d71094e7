"""Cold `carto facts` (and the lenses that read the facts columns) as one-shot processes.

Builds the same generated home as bench_census.py (N events across the six logs), then times
new processes end to end, median of `--repeat` runs each, all in one run:

- floor: `carto facts --help` (Python start-up, click, the CLI's imports; no home read);
- first call: `carto facts census --json` with no cache (builds `<home>/.carto/facts/`);
- cached: `carto facts census --json` and `carto facts tempo --json` (cache fresh);
- appended: the same census after a hook-like append of 5 new rows before each run
  (what a user pays while agents are writing: the rows are folded in, the cache rewritten);
- peer: the previous full-load path, `CARTO_FACTS_CACHE=0 carto facts census --json`
  (`load_corpus` + building the columns in the process), fewer runs (it is slow);
- `carto digest day --json --no-git` with the cache and with CARTO_FACTS_CACHE=0, and
  `carto standup --json --no-git` (it reads the changelog's tail only).

Asserts the cached and full-load answers are equal (facts, corpus_events).

    .venv/bin/python benchmarks/facts/bench_cold_cli.py                 # 200k events
    .venv/bin/python benchmarks/facts/bench_cold_cli.py --events 20000 --repeat 5
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
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_census import build  # noqa: E402

from carto_core.logio.jsonl import dumps_row  # noqa: E402

CARTO = str(Path(sys.executable).with_name("carto"))


def run(args: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run([CARTO, *args], env=env, capture_output=True, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"carto {' '.join(args)} failed ({done.returncode}): {done.stderr[-800:]}")
    return elapsed, done


def median_of(args, env, repeat, before=None):
    samples, last = [], None
    for _ in range(repeat):
        if before:
            before()
        elapsed, last = run(args, env)
        samples.append(elapsed)
    samples.sort()
    return statistics.median(samples), samples, last


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--peer-repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        home = build(root, args.events)
        # Bytecode on (as on a user's machine; this sandbox sets PYTHONDONTWRITEBYTECODE, which
        # makes every process recompile carto's modules); the floor's first run warms it.
        env = {**os.environ, "CARTO_HOME": root, "CARTO_FACTS_CACHE": "1"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for warm in (["facts", "--help"], ["digest", "--help"], ["standup", "--help"]):
            run(warm, env)
        off = {**env, "CARTO_FACTS_CACHE": "0"}
        rows = []

        floor, _, _ = median_of(["facts", "--help"], env, args.repeat)
        rows.append(("floor: carto facts --help", floor, args.repeat))
        first, done = run(["facts", "census", "--json"], env)
        rows.append(("first call: census, cache built", first, 1))
        print(done.stderr.strip(), file=sys.stderr)
        size = os.path.getsize(Path(root) / ".carto" / "facts" / "columns.bin")

        census_ms, _, cached = median_of(["facts", "census", "--json"], env, args.repeat)
        rows.append(("census --json, cache fresh", census_ms, args.repeat))
        tempo_ms, _, tempo_cached = median_of(["facts", "tempo", "--json"], env, args.repeat)
        rows.append(("tempo --json, cache fresh", tempo_ms, args.repeat))
        windowed_ms, _, _ = median_of(["facts", "census", "--since", "24h", "--project", "proj-1", "--json"],
                                      env, args.repeat)
        rows.append(("census --since 24h --project, fresh", windowed_ms, args.repeat))

        counter = [0]

        def hook_append():
            now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            with open(home.log("changelog"), "ab") as handle:
                for _ in range(5):
                    counter[0] += 1
                    handle.write(dumps_row({"event_id": f"evt-live-{counter[0]:08d}", "timestamp": now,
                                            "type": "tool_bash", "provider": "claude", "session_id": "s-live",
                                            "project": "proj-1", "summary": "Ran: pytest"}))

        appended_ms, _, _ = median_of(["facts", "census", "--json"], env, args.repeat, before=hook_append)
        rows.append(("census --json, 5 rows appended first", appended_ms, args.repeat))

        _, cached = run(["facts", "census", "--json"], env)
        peer_ms, _, full = median_of(["facts", "census", "--json"], off, args.peer_repeat)
        rows.append(("peer: census, full load (cache off)", peer_ms, args.peer_repeat))
        _, full_tempo = run(["facts", "tempo", "--json"], off)
        _, tempo_cached = run(["facts", "tempo", "--json"], env)
        a, b = json.loads(cached.stdout), json.loads(full.stdout)
        assert a["facts"] == b["facts"] and a["corpus_events"] == b["corpus_events"], "census differs"
        a, b = json.loads(tempo_cached.stdout), json.loads(full_tempo.stdout)
        assert a["facts"] == b["facts"], "tempo differs"

        day_ms, _, day_cached = median_of(["digest", "day", "--json", "--no-git"], env, args.repeat)
        rows.append(("digest day --json --no-git, cache", day_ms, args.repeat))
        day_peer, _, day_full = median_of(["digest", "day", "--json", "--no-git"], off, args.peer_repeat)
        rows.append(("peer: digest day, full load", day_peer, args.peer_repeat))
        a, b = json.loads(day_cached.stdout), json.loads(day_full.stdout)
        a.pop("generated_at"), b.pop("generated_at")
        assert a == b, "day digest differs"
        standup_ms, _, _ = median_of(["standup", "--json", "--no-git"], env, args.repeat)
        rows.append(("standup --json --no-git (changelog tail)", standup_ms, args.repeat))

        print(f"events {args.events:,}; cache file {size / 1e6:.1f} MB; load average "
              f"{os.getloadavg()[0]:.1f}")
        print(f"{'path':<44} {'median ms':>10} {'runs':>5} {'vs peer':>8}")
        for title, ms, n in rows:
            print(f"{title:<44} {ms:>10.0f} {n:>5} {peer_ms / ms:>7.1f}x")


if __name__ == "__main__":
    main()
