"""Peak RSS of a streamed keyword build, phase by phase: where its memory goes.

Builds the keyword index of a home from scratch in this process (`KeywordIndex.build`, the
generation folder under <home>/.carto/search is replaced) while a thread samples
/proc/self/status every 10 ms, and reports per phase (the fold loop that reads, analyzes and
writes runs; writing a run; closing the id table; merging the runs; dropping retired
documents; opening the result) the peak VmRSS and its anonymous and file-backed parts at
that moment, then VmHWM, wall and CPU seconds. The knobs re-run the ablation of
docs/performance.md ("Keyword build memory"). `--profile FILE` writes a cProfile of the build.

    .venv/bin/python benchmarks/scale/corpus.py /tmp/scale/h1000000 --events 1000000
    nice -n 5 .venv/bin/python benchmarks/scale/keyword_phases.py /tmp/scale/h1000000
    nice -n 5 .venv/bin/python benchmarks/scale/keyword_phases.py /tmp/scale/h200000 \\
        --run-postings 1500000 --chunk-rows 16384 --memo 400000   # the settings before
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import threading
import time
from pathlib import Path


def _status() -> dict[str, int]:
    out = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(("VmRSS", "RssAnon", "RssFile", "VmHWM")):
                out[line.split(":")[0]] = int(line.split()[1]) // 1024
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("--run-postings", type=int, help="postings a run holds (index_stream)")
    parser.add_argument("--chunk-rows", type=int, help="rows folded at a time (index_stream)")
    parser.add_argument("--memo", type=int, help="analyzer memo size (carto_rankers.analyzers)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the build here")
    args = parser.parse_args()
    os.environ["CARTO_HOME"] = str(args.home)
    shutil.rmtree(args.home / ".carto" / "search", ignore_errors=True)

    phase = ["import"]
    peaks: dict[str, dict] = {}

    def sample() -> None:
        while True:
            got, name = _status(), phase[0]
            if got["VmRSS"] > peaks.get(name, {}).get("VmRSS", 0):
                peaks[name] = got
            time.sleep(0.01)

    threading.Thread(target=sample, daemon=True).start()

    from carto_core.logio.home import current_home
    from carto_core.search import index_stream, index_write
    from carto_core.search.index import KeywordIndex

    def tagged(function, name):
        def run(*a, **k):
            before, phase[0] = phase[0], name
            try:
                return function(*a, **k)
            finally:
                phase[0] = before
        return run

    index_stream.merge_runs = tagged(index_stream.merge_runs, "merge_runs")
    index_stream._drop_retired = tagged(index_stream._drop_retired, "drop_retired")
    index_stream._write_run = tagged(index_stream._write_run, "write_run")
    index_write.IdWriter.close = tagged(index_write.IdWriter.close, "ids_close")
    load = KeywordIndex.load.__func__
    KeywordIndex.load = classmethod(tagged(load, "load"))
    if args.run_postings:
        index_stream.RUN_POSTINGS = args.run_postings
    if args.chunk_rows:
        index_stream.CHUNK_ROWS = args.chunk_rows
    if args.memo:
        import carto_rankers.analyzers as analyzers

        analyzers._MEMO_MAX = args.memo

    home = current_home()
    phase[0] = "fold_loop"
    wall, cpu = time.perf_counter(), time.process_time()
    if args.profile:
        import cProfile

        profile = cProfile.Profile()
        index = profile.runcall(KeywordIndex.build, home)
        profile.dump_stats(args.profile)
    else:
        index = KeywordIndex.build(home)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    phase[0] = "done"
    time.sleep(0.05)
    print(json.dumps({
        "home": str(args.home), "documents": len(index), "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1), "hwm_mb": _status()["VmHWM"],
        "phases": {name: {"rss_mb": got["VmRSS"], "anon_mb": got.get("RssAnon"),
                          "file_mb": got.get("RssFile")} for name, got in peaks.items()},
        "load": round(os.getloadavg()[0], 2)}, indent=1))


if __name__ == "__main__":
    main()
