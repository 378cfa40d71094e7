"""CPU seconds of each phase of a streamed keyword build: where its time goes, and what grows
faster than the corpus (run it at two sizes and divide).

Builds the keyword index of a home from scratch in this process (`KeywordIndex.build`; the
generation folder under <home>/.carto/search is replaced; `CARTO_JOBS=1` unless set, so the
phases run here), each phase's function wrapped to sum the process CPU time spent in it:
analyzing rows, folding chunks (and, inside it, the id lookups), adding the results, a run's
segment, writing a run, merging the runs, dropping retired documents, opening the result.
Prints one JSON object. docs/performance.md ("Keyword build: per-event speed, bounded
parallelism, the superlinear parts") quotes it at 1M and 3M events.

    cp -a /tmp/perf/w/h1000000 /tmp/k1m && rm -rf /tmp/k1m/.carto   # never a home you need
    nice -n 5 .venv/bin/python benchmarks/scale/keyword_phase_cpu.py /tmp/k1m
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    args = parser.parse_args()
    os.environ["CARTO_HOME"] = str(args.home)
    os.environ.setdefault("CARTO_JOBS", "1")
    shutil.rmtree(args.home / ".carto" / "search", ignore_errors=True)

    from carto_core.logio import eventids
    from carto_core.model import logstream
    from carto_core.logio.home import current_home
    from carto_core.search import index_build, index_stream
    from carto_core.search.index import KeywordIndex

    spent: dict[str, float] = {}

    def timed(owner, name: str) -> None:
        function = getattr(owner, name)

        def run(*a, **k):
            start = time.process_time()
            try:
                return function(*a, **k)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - start
        setattr(owner, name, run)

    for owner, name in ((index_stream, "analyze_rows"), (index_stream, "merge_runs"),
                        (index_stream, "_drop_retired"), (index_stream, "_write_run"),
                        (index_build.DocumentBuilder, "add_analyzed"),
                        (index_build.DocumentBuilder, "segment"), (logstream.Fold, "fold"),
                        (eventids.EventIds, "find"), (eventids.EventIds, "_merge"),
                        (logstream, "fingerprints")):
        timed(owner, name)
    from carto_core.search import index_write

    def timed_generator(owner, name: str) -> None:
        """CPU spent inside a generator's steps (the merge's vocabulary: `merged_words`, a
        heap merge of every run's sorted words, and `_live_words`, which consumes it)."""
        function = getattr(owner, name)

        def run(*a, **k):
            steps = function(*a, **k)
            while True:
                start = time.process_time()
                try:
                    value = next(steps)
                except StopIteration:
                    spent[name] = spent.get(name, 0.0) + time.process_time() - start
                    return
                spent[name] = spent.get(name, 0.0) + time.process_time() - start
                yield value
        setattr(owner, name, run)

    for name in ("merged_words", "_live_words"):
        timed_generator(index_write, name)
    runs_merged = []
    merge = index_stream.merge_runs

    def counting_merge(folder, runs, *a, **k):
        runs_merged.append(len(runs))
        return merge(folder, runs, *a, **k)
    index_stream.merge_runs = counting_merge
    wall, cpu = time.perf_counter(), time.process_time()
    index = KeywordIndex.build(current_home())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({
        "home": str(args.home), "documents": len(index), "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1), "jobs": os.environ["CARTO_JOBS"], "runs_merged": runs_merged,
        "phases_cpu_s": {k: round(v, 2) for k, v in sorted(spent.items(), key=lambda kv: -kv[1])},
        "load": round(os.getloadavg()[0], 2)}, indent=1))


if __name__ == "__main__":
    main()
