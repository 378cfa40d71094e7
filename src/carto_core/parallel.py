"""How much of the machine a build may use: worker processes and BLAS threads.

`jobs()` is the number of workers a CPU-bound build may run: the `--jobs` flag or
`CARTO_JOBS` when given (never more than the cores this process may run on), else the cores
the machine has to spare: the cores minus the one-minute load average, at least 1. On a busy
2-core machine that is one, and one is what is fastest there: BLAS threads that wake on cores
other jobs hold spin and wait (measured: the lsa fit's SVD took 49 s with two OpenBLAS threads
at load 10, 11 s with one).

`blas_threads(n)` caps the OpenBLAS libraries numpy and scipy load at `n` threads for a block
(what threadpoolctl does, for the two symbols these wheels export; a no-op where /proc or the
symbols are missing).
"""

from __future__ import annotations

import os
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
    try:
        busy = os.getloadavg()[0]
    except OSError:  # pragma: no cover
        busy = 0.0
    return max(1, min(limit, int(limit - busy + 0.5)))


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
