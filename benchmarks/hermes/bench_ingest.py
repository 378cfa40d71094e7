"""Hermes backfill throughput: HermesSource.read over a built state.db vs a bare SQLite scan.

The peer is the floor any adapter pays: one `SELECT` of every message's columns with the
tool_calls JSON decoded, in the same process and run. Reported: medians of --repeat runs,
messages per second, the ratio to the floor, peak RSS.

    .venv/bin/python benchmarks/hermes/bench_ingest.py --sessions 2000 --messages 20
"""

from __future__ import annotations

import argparse
import json
import resource
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from carto_hermes.fixtures import T0, HermesHome, call
from carto_hermes.policy import policy_from_dict
from carto_hermes.source import HermesSource


def build(root: Path, sessions: int, per_session: int) -> Path:
    home = HermesHome(root)
    db = home.db()
    conn = sqlite3.connect(db.path)
    rows_s, rows_m = [], []
    tool = json.dumps([call("terminal", command="pytest -x"), call("read_file", path="/tmp/x.py")])
    for s in range(sessions):
        sid = f"2026{s:06d}_bench"
        rows_s.append((sid, "desktop", T0 + s * 60, T0 + s * 60 + 50, f"/home/u/dev/proj{s % 7}",
                       f"session {s} title"))
        for m in range(per_session):
            role = ("user", "assistant", "tool")[m % 3]
            content = f"message {m} of session {s}: " + "lorem ipsum dolor sit amet " * 6
            rows_m.append((sid, role, content, tool if role == "assistant" else None, T0 + s * 60 + m))
    conn.executemany("INSERT INTO sessions (id, source, started_at, ended_at, cwd, title) "
                     "VALUES (?, ?, ?, ?, ?, ?)", rows_s)
    conn.executemany("INSERT INTO messages (session_id, role, content, tool_calls, timestamp) "
                     "VALUES (?, ?, ?, ?, ?)", rows_m)
    conn.commit()
    conn.close()
    return db.path


def floor(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    n = 0
    for _id, _sid, _role, _content, tools, _ts in conn.execute(
            "SELECT id, session_id, role, content, tool_calls, timestamp FROM messages "
            "ORDER BY session_id, id"):
        if tools:
            json.loads(tools)
        n += 1
    conn.close()
    return n


def adapter(root: Path) -> tuple[int, int]:
    source = HermesSource({"policy": policy_from_dict({"hermes_home": str(root)}), "_now": T0 + 1e7})
    rows = 0
    for stream in source.discover():
        rows += len(source.read(stream, None).rows)
    return rows, 0


def timed(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=20, help="messages per session")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "hermes"
        path = build(root, args.sessions, args.messages)
        total = args.sessions * args.messages
        rows = adapter(root)[0]
        t_floor = timed(lambda: floor(path), args.repeat)
        t_adapter = timed(lambda: adapter(root), args.repeat)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"messages {total}, sessions {args.sessions}, rows out {rows}")
        print(f"floor (bare SQLite scan + tool_calls decode): median {t_floor * 1000:.0f} ms, "
              f"{total / t_floor:,.0f} messages/s")
        print(f"HermesSource.read: median {t_adapter * 1000:.0f} ms, {total / t_adapter:,.0f} messages/s, "
              f"{t_adapter / t_floor:.1f}x the floor; peak RSS {rss:.0f} MB")


if __name__ == "__main__":
    main()
