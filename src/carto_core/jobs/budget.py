"""The keep-up job's budget: the policy its process runs under, what each run cost, and that
record read back for `carto doctor`.

- Policy (`apply_policy`, before anything heavy is imported): the job lowers its own priority
  (`os.nice`, `CARTO_KEEPUP_NICE`, 10 by default, 0 leaves it) and runs on one thread
  (`CARTO_KEEPUP_THREADS`, 1 by default): OpenBLAS and OpenMP, onnxruntime's (minilm), carto's
  workers and the store's scan threads. The agent it serves keeps the other cores, and the
  scheduler gives the agent the core they share.
- Record (`measure`): each run's CPU seconds (user + system of the job's process, the
  threads it started included) and the process' peak RSS so far, added to its line in
  `semantic-keep-up.jsonl`.
- Read back (`summary`): the last run and the median and largest CPU and peak RSS over the
  last runs that recorded them; only the log's last `TAIL_BYTES` are read.

Stdlib only: `carto doctor` reads it without numpy.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from contextlib import contextmanager

NICE_DEFAULT = 10
THREADS_DEFAULT = 1
#: The variables that set the thread count of what the job loads: BLAS (numpy), OpenMP,
#: onnxruntime's (minilm's `threads` option), carto's worker processes, the store's scan.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS",
                    "MKL_NUM_THREADS", "CARTO_MINILM_THREADS", "CARTO_JOBS", "CARTO_SCAN_THREADS")
#: The end of the keep-up log `summary` reads (a run's line is ~150 bytes: the last few
#: hundred runs, whatever the log's age).
TAIL_BYTES = 64 << 10
#: Runs the summary's median and largest figures are taken over.
RUNS = 50


def _number(name: str, default: int, lowest: int) -> int:
    try:
        return max(lowest, int(os.environ.get(name, "") or default))
    except ValueError:
        return default


def apply_policy() -> dict:
    """Lower this process' priority and pin its thread counts; returns what was applied.
    Call it before numpy (or onnxruntime) is imported: they read their thread counts once, as
    they load."""
    threads = _number("CARTO_KEEPUP_THREADS", THREADS_DEFAULT, 1)
    for name in THREAD_VARIABLES:
        os.environ[name] = str(threads)
    increment = _number("CARTO_KEEPUP_NICE", NICE_DEFAULT, 0)
    nice = None
    try:
        nice = os.nice(increment) if increment else os.nice(0)
    except OSError:  # a platform without it, or a limit: the job still runs
        pass
    return {"nice": nice, "threads": threads}


@contextmanager
def measure():
    """Yields a dict that holds, once the block ends, the block's CPU seconds (this process:
    user + system, every thread) and the process' peak RSS so far in MB."""
    out: dict = {}
    before = os.times()
    started = time.perf_counter()
    try:
        yield out
    finally:
        after = os.times()
        out["cpu_s"] = round((after.user - before.user) + (after.system - before.system), 3)
        out["wall_s"] = round(time.perf_counter() - started, 3)
        # ru_maxrss is in kilobytes on Linux (bytes on macOS).
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out["peak_rss_mb"] = round(peak / (1 << 20 if os.uname().sysname == "Darwin" else 1 << 10), 1)


def summary(path) -> dict | None:
    """The keep-up log's budget figures (None: no run logged yet): `last` (its line), `runs`
    (how many of the last lines recorded a budget), and over them `cpu_s` and `peak_rss_mb`
    as {median, max}."""
    from carto_core.capture.tail import tail_rows

    rows = tail_rows(path, TAIL_BYTES)
    if not rows:
        return None
    measured = [r for r in rows if isinstance(r.get("cpu_s"), (int, float))
                and isinstance(r.get("peak_rss_mb"), (int, float))][-RUNS:]
    out: dict = {"last": rows[-1], "runs": len(measured)}
    for key in ("cpu_s", "peak_rss_mb"):
        values = sorted(float(r[key]) for r in measured)
        out[key] = ({"median": round(statistics.median(values), 3), "max": values[-1]}
                    if values else None)
    return out
