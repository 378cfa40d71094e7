"""Why `merge_runs` grows faster than the corpus: its cost against the number of runs, on
synthetic runs (docs/performance.md, "merge_runs: the runs times the ranges").

A streamed keyword build writes a run every `RUN_POSTINGS` postings and merges them range by
range, a range being `RANGE_POSTINGS` postings of the hash space; every run has postings in
every range (term hashes are uniform), so the merge visits ranges x runs (run, range) pairs,
each a few numpy calls and `drop_pages`' madvise calls: (T / RANGE) x (T / RUN) for T
postings, the square of the corpus. This script builds runs of `--run` postings (terms,
offsets, docs, tfs written as .npy and memory-mapped back, as `index_stream._write_run`
does), then times `merge_runs` (process CPU) over `--runs` of them with `--range`-posting
ranges: the same (run, range) counts as a real build of a given size with a tenth of its
postings when both sizes are a tenth of the build's (50,000 and 100,000 against 500,000
and 1,000,000). With `--no-drop`, `drop_pages` does nothing (its share of the pairs' cost).

    nice -n 10 .venv/bin/python benchmarks/scale/bench_merge_runs.py --runs 120 360 --workdir W
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np


def make_runs(folder: Path, runs: int, postings: int, seed: int = 0) -> list:
    from carto_core.search.index_stream import _write_run
    from carto_core.search.postings import Segment

    rng = np.random.default_rng(seed)
    out = []
    docs_per_run = postings // 20
    for number in range(runs):
        # Zipf-like term frequencies: a few common terms, many rare ones (as text has).
        counts = np.minimum(rng.zipf(1.6, postings // 4), docs_per_run).astype(np.int64)
        counts = counts[np.cumsum(counts) <= postings]
        terms = np.unique(rng.integers(0, 2 ** 63, len(counts), dtype=np.uint64) * np.uint64(2))
        counts = counts[:len(terms)]
        offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        base = number * docs_per_run
        # Each term's documents increasing (sorted within the term), drawn at once.
        which = np.repeat(np.arange(len(counts)), counts)
        drawn = rng.integers(0, docs_per_run, len(which))
        docs = (drawn[np.lexsort((drawn, which))] + base).astype(np.int32)
        tfs = np.ones(len(docs), np.uint16)
        segment = Segment(terms, offsets, docs, tfs, None, words=None)
        segment.sorted_words = lambda: []  # noqa: B023  (no vocabulary: hashes only)
        out.append(_write_run(folder / "runs" / str(number), segment))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[120, 360])
    parser.add_argument("--run", type=int, default=50_000, help="postings per run")
    parser.add_argument("--range", type=int, default=100_000, help="postings per merge range")
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--no-drop", action="store_true")
    parser.add_argument("--retired", type=float, default=0.0,
                        help="share of documents retired (a later row took them over): the "
                             "merge then drops and renumbers postings, as a real build does")
    args = parser.parse_args()
    from carto_core.search import index_write

    index_write.RANGE_POSTINGS = args.range
    if args.no_drop:
        index_write.drop_pages = lambda *arrays: None
    rows = []
    for count in args.runs:
        folder = args.workdir / f"runs-{count}"
        shutil.rmtree(folder, ignore_errors=True)
        runs = make_runs(folder, count, args.run)
        total = sum(len(run.docs) for run in runs)
        documents = count * (args.run // 20)
        doclen = np.random.default_rng(1).integers(1, 400, documents).astype(np.int32)
        alive = (np.random.default_rng(2).random(documents) >= args.retired) if args.retired else None
        out = folder / "merged"
        out.mkdir()
        cpu, wall = time.process_time(), time.perf_counter()
        written = index_write.merge_runs(out, runs, doclen, 1, alive)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        ranges = max(1, -(-total // args.range))
        rows.append({"runs": count, "documents": documents, "postings": total, "ranges": ranges, "pairs": ranges * count,
                     "cpu_s": round(cpu, 3), "wall_s": round(wall, 3), "written": written,
                     "us_per_pair": round(1e6 * cpu / (ranges * count), 1),
                     "ns_per_posting": round(1e9 * cpu / total, 1)})
        print(json.dumps(rows[-1]), flush=True)
        shutil.rmtree(folder, ignore_errors=True)
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        print(f"# postings x{b['postings'] / a['postings']:.2f}, pairs x{b['pairs'] / a['pairs']:.2f}, "
              f"CPU x{b['cpu_s'] / a['cpu_s']:.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
