"""How much of the machine a build may use: worker processes and BLAS threads.

`jobs()` is the number of workers a CPU-bound build may run: the `--jobs` flag or
`CARTO_JOBS` when given (never more than the cores this process may run on), else the cores
the machine has to spare: the cores minus what is busy, at least 1. "Busy" is the smaller of
the one-minute load average and the cores found busy over a short look at /proc/stat: the load
average still counts, for a minute, the build step that just ended (a benchmark's or a
script's previous command), so on an idle machine it alone would give one worker; the look
alone would miss a machine busy in bursts. On a busy 2-core machine that is one, and one is
what is fastest there: BLAS threads that wake on cores other jobs hold spin and wait
(measured: the lsa fit's SVD took 49 s with two OpenBLAS threads at load 10, 11 s with one).

`ordered_pool(workers, ...)` runs tasks in `workers` processes and hands the results back in
the order they were submitted, with a bounded number in flight (a build streams its input to
the workers and keeps its output byte for byte the serial one's); one worker runs each task
in this process, with no pool at all.

`runnable_elsewhere()` is how many other threads are runnable at this instant (/proc/loadavg),
for a decision made in milliseconds: the threads of a search's vector scan.

`blas_threads(n)` caps the OpenBLAS libraries numpy and scipy load at `n` threads for a block
(what threadpoolctl does, for the two symbols these wheels export; a no-op where /proc or the
symbols are missing).
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

ENV = "CARTO_JOBS"


def cores() -> int:
    """Cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def jobs(requested: int | None = None) -> int:
    """Workers for a build: `requested`, else CARTO_JOBS, else the cores to spare."""
    if requested is None:
        value = os.environ.get(ENV, "").strip()
        if value:
            try:
                requested = int(value)
            except ValueError:
                raise ValueError(f"{ENV}={value!r} is not a number of jobs") from None
    limit = cores()
    if requested is not None:
        if requested < 1:
            raise ValueError(f"jobs must be at least 1, not {requested}")
        return min(requested, limit)
    return max(1, min(limit, int(limit - busy_cores() + 0.5)))


#: How long `busy_cores` watches /proc/stat (a build that asks runs for seconds).
LOOK_SECONDS = 0.05


def busy_cores() -> float:
    """Cores busy now: the one-minute load average, or less when a short look at /proc/stat
    finds the cores idler than that (see the module docstring)."""
    try:
        busy = os.getloadavg()[0]
    except OSError:  # pragma: no cover
        busy = 0.0
    looked = _looked_busy(LOOK_SECONDS)
    return busy if looked is None else min(busy, looked)


def runnable_elsewhere() -> int:
    """Threads runnable now besides this one: the kernel's count of runnable tasks (the fourth
    field of /proc/loadavg, which counts the caller) less one; where there is no such file, the
    one-minute load average. The load average is a minute late: it still counts a job that
    just ended, and misses one that just began; this is read at once, for a decision made
    in milliseconds (a search's scan threads), where `busy_cores` looks for `LOOK_SECONDS`."""
    try:
        with open("/proc/loadavg", "rb") as handle:
            return max(0, int(handle.read().split()[3].split(b"/")[0]) - 1)
    except (OSError, ValueError, IndexError):
        try:
            return int(os.getloadavg()[0])
        except OSError:  # pragma: no cover - neither on this system
            return 0


def _cpu_times() -> tuple[int, int] | None:
    """(busy, total) jiffies of every CPU since boot, from /proc/stat's first line."""
    try:
        with open("/proc/stat", "rb") as stat:
            fields = [int(v) for v in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    if len(fields) < 4:
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields[:8]) - idle, sum(fields[:8])


def _looked_busy(seconds: float) -> float | None:
    import time

    before = _cpu_times()
    if before is None:
        return None
    time.sleep(seconds)
    after = _cpu_times()
    if after is None or after[1] <= before[1]:
        return None
    return (os.cpu_count() or 1) * (after[0] - before[0]) / (after[1] - before[1])


class _InProcess:
    """`ordered_pool` with one worker: each task runs when its result is asked for."""

    def submit(self, func, *args):
        return _Ran(func, args)

    def close(self) -> None:
        pass


class _Ran:
    def __init__(self, func, args):
        self.func, self.args = func, args

    def get(self):
        return self.func(*self.args)


class _Pooled:
    def __init__(self, workers: int, initializer, initargs):
        from multiprocessing import get_context

        # spawn, not fork: a worker is a fresh interpreter that imports only what its tasks
        # need (its memory is its own, counted honestly), and forking a process whose other
        # threads (a progress bar's) may hold a lock is not safe
        with _main_unnamed():
            self.pool = get_context("spawn").Pool(workers, initializer, initargs)

    def submit(self, func, *args):
        return self.pool.apply_async(func, args)

    def close(self) -> None:
        self.pool.close()
        self.pool.join()


@contextmanager
def _main_unnamed():
    """Workers started in this block do not run the main script again: spawn re-imports it
    in each worker (as `__mp_main__`) unless it has no file or module name, and a script
    without an `if __name__ == "__main__"` guard would then start a build in every worker.
    Tasks and initializers are functions of carto's own modules, so nothing of the main
    script is needed there."""
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved = {key: main.__dict__[key] for key in ("__file__", "__spec__") if key in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__spec__ = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


@contextmanager
def ordered_pool(workers: int, initializer=None, initargs: tuple = ()):
    """A pool of `workers` processes (`submit(func, *args)` returns a handle whose `get()`
    is the result); with one worker, tasks run in this process and `initializer` is not
    called (the caller has what the workers would set up). Worker failures raise from `get`;
    leaving the block early terminates the workers."""
    executor = _Pooled(workers, initializer, initargs) if workers > 1 else _InProcess()
    try:
        yield executor
    except BaseException:
        if isinstance(executor, _Pooled):
            executor.pool.terminate()
        raise
    executor.close()


_SETTERS = (("openblas_set_num_threads", "openblas_get_num_threads"),
            ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
            ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"))


def _blas_controls() -> list[tuple[object, object]]:
    """(set, get) function pairs of every OpenBLAS loaded in this process."""
    import ctypes

    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line and ".so" in line}
    except OSError:
        return []
    out = []
    for path in sorted(paths):
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in _SETTERS:
            setter, getter = getattr(library, set_name, None), getattr(library, get_name, None)
            if setter is not None and getter is not None:
                out.append((setter, getter))
                break
    return out


@contextmanager
def blas_threads(n: int):
    """Run the block with every loaded OpenBLAS capped at `n` threads, then restore them."""
    controls = _blas_controls()
    before = [getter() for _, getter in controls]
    for setter, _ in controls:
        setter(int(n))
    try:
        yield
    finally:
        for (setter, _), value in zip(controls, before):
            setter(int(value))
