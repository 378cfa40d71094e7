"""`carto serve`'s start and first views on a large home: the server's CPU seconds (utime + stime
of /proc/PID/stat) and peak RSS so far (VmHWM) at the printed URL and after each request, in
order: /api/health, /api/desk?days=7, /api/desk?days=348 (the newest week of a home generated
by benchmarks/scale/corpus.py), /api/sessions/ID, /api/events (the view that loads every event).
The whole run is under `/usr/bin/time -f "%U %S %M"`. Rounds alternate between the source trees
given, so that both see the same load from other processes; the median of each step is printed.

    .venv/bin/python benchmarks/serve/bench_serve_start.py --home before=H1 --src before=OLD/src \\
        --home after=H2 --src after=src --session ID [--rounds 3]

Each label takes its own copy of the home when the two trees keep caches of different formats
(the facts columns). Linux only (/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")


def _child(pid: int) -> int:
    for _ in range(500):
        try:
            kids = open(f"/proc/{pid}/task/{pid}/children").read().split()
        except OSError:
            kids = []
        if kids:
            return int(kids[0])
        time.sleep(0.01)
    raise SystemExit("the server did not start")


def _cpu(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _peak_mb(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    return 0


def one_round(src: str, home: str, steps: list[tuple[str, str]]) -> dict:
    env = {**os.environ, "CARTO_HOME": home, "PYTHONPATH": src, "CARTO_KEEPUP": "0"}
    carto = os.path.join(os.path.dirname(sys.executable), "carto")
    timing = subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", carto, "serve", "--port", "0"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pid = _child(timing.pid)
    base, token = timing.stdout.readline().strip().split("/?token=")
    out = {"start": (_cpu(pid), _peak_mb(pid))}
    for name, path in steps:
        request = urllib.request.Request(base + path, headers={"authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=900) as answer:
            answer.read()
        out[name] = (_cpu(pid), _peak_mb(pid))
    os.kill(pid, signal.SIGINT)
    _, err = timing.communicate(timeout=120)
    user, system, peak_kb = err.strip().splitlines()[-1].split()
    out["whole run"] = (float(user) + float(system), int(peak_kb) // 1024)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", action="append", required=True, help="LABEL=PATH")
    parser.add_argument("--src", action="append", required=True, help="LABEL=PATH")
    parser.add_argument("--session", required=True, help="a session id of the home")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    homes = dict(item.split("=", 1) for item in args.home)
    srcs = dict(item.split("=", 1) for item in args.src)
    steps = [("health", "/api/health"), ("desk days=7", "/api/desk?days=7"),
             ("desk days=348", "/api/desk?days=348"), ("session", f"/api/sessions/{args.session}"),
             ("events", "/api/events?limit=50")]
    runs: dict[str, list[dict]] = {label: [] for label in srcs}
    for _ in range(args.rounds):
        for label in srcs:
            runs[label].append(one_round(os.path.abspath(srcs[label]),
                                         os.path.abspath(homes[label]), steps))
            print(label, json.dumps(runs[label][-1]), flush=True)
    for label, rounds in runs.items():
        print(f"{label}: median of {len(rounds)} (CPU s of the step / peak RSS MB so far)")
        previous = [0.0] * len(rounds)
        for name in ["start"] + [name for name, _ in steps] + ["whole run"]:
            spent = [r[name][0] - (p if name != "whole run" else 0) for r, p in zip(rounds, previous)]
            if name != "whole run":
                previous = [r[name][0] for r in rounds]
            print(f"  {name:14} {statistics.median(spent):7.2f} s  "
                  f"{statistics.median(r[name][1] for r in rounds):6.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
