"""Would analyzing rows in worker processes help a keyword build on this machine, now?

The indexed texts of up to 150k rows of a home (tool-use, turns, prompts) analyzed by the
configured analyzer in this process, against a fork pool that analyzes batches of 2,000 and
sends each row's terms back (what a parallel build has to do: the postings are made in the
parent). Wall seconds, the parent's CPU seconds and the load, interleaved `--repeats` times.

    nice -n 5 .venv/bin/python benchmarks/scale/analyze_parallel.py /tmp/scale/h200000
"""

from __future__ import annotations

import argparse
import os
import time
from multiprocessing import get_context
from pathlib import Path

import orjson

from carto_core.search.index_build import default_analyzer
from carto_core.search.tokens import row_text

_ANALYZER = None


def _texts(home: Path, limit: int) -> list[str]:
    out = []
    for name in ("tool-use-log.jsonl", "turns.jsonl", "prompt-history.jsonl"):
        with open(home / name, "rb") as handle:
            for line in handle:
                try:
                    row = orjson.loads(line)
                except orjson.JSONDecodeError:
                    continue
                if isinstance(row, dict):
                    out.append(row_text(row))
    return out[:limit]


def _analyze(batch: list[str]) -> list[list[str]]:
    global _ANALYZER
    if _ANALYZER is None:
        _ANALYZER = default_analyzer()
    return [_ANALYZER.terms(text) for text in batch]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("--rows", type=int, default=150_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    texts = _texts(args.home, args.rows)
    batches = [texts[i:i + 2000] for i in range(0, len(texts), 2000)]

    def serial() -> int:
        return sum(len(terms) for batch in batches for terms in _analyze(batch))

    def pooled() -> int:
        with get_context("fork").Pool(args.workers) as pool:
            return sum(len(terms) for out in pool.imap(_analyze, batches) for terms in out)

    for _ in range(args.repeats):
        for label, run in (("serial", serial), (f"pool of {args.workers}", pooled)):
            load = os.getloadavg()[0]
            wall, cpu = time.perf_counter(), time.process_time()
            terms = run()
            print(f"{label}: {time.perf_counter() - wall:.2f} s wall, parent "
                  f"{time.process_time() - cpu:.2f} s CPU, {terms:,} terms, load {load:.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
