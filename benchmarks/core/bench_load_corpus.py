"""Loading a home into events: `carto_core.model.corpus.load_corpus` at N events (default 200,000),
next to the floor of reading every line and decoding it with orjson, same run.

The home is the facts benchmark's generated one (six logs, changelog copies). Median of
--repeat runs each, in this process, the garbage collector as `load_corpus` leaves it.

    .venv/bin/python benchmarks/core/bench_load_corpus.py
    .venv/bin/python benchmarks/core/bench_load_corpus.py --events 50000 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "facts"))
from bench_census import build  # noqa: E402

from carto_core.model.corpus import load_corpus  # noqa: E402
from carto_core.logio.home import Home  # noqa: E402
from carto_core.logio.logs import SEARCHED_LOGS  # noqa: E402


def floor(home: Home) -> int:
    import orjson

    rows = 0
    for name in SEARCHED_LOGS.values():
        path = home.root / name
        if path.exists():
            for line in path.read_bytes().splitlines():
                if line:
                    orjson.loads(line)
                    rows += 1
    return rows


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="carto-bench-load-") as root:
        home = build(root, args.events)
        floor_ms, rows = timed(lambda: floor(home), args.repeat)
        load_ms, corpus = timed(lambda: load_corpus(home), args.repeat)
        print(json.dumps({
            "events": args.events, "rows": rows, "corpus_events": len(corpus),
            "floor_read_and_orjson_ms": round(floor_ms, 1), "load_corpus_ms": round(load_ms, 1),
            "ratio_to_floor": round(load_ms / floor_ms, 2), "load_average": os.getloadavg()[0],
        }, indent=2))


if __name__ == "__main__":
    main()
