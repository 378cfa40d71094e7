"""The embedded store's scan: threads, the k-th best, ties, and one BLAS thread for a search.

A search scores its rows on `scan_threads()` threads once enough rows pass its filters; the
answer must be the one-thread answer to the bit, equal scores in the order the segments' rows
are read, whatever the thread count or how the rows were cut into pieces.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.util import parallel
from carto_core.semantic import embedded
from carto_core.semantic.embedded import EmbeddedStore
from carto_core.semantic.store import VectorRecord

NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)


def _store(tmp_path, n, dim, seed, duplicates, monkeypatch):
    """A store of `n` rows in segments of at most 64 rows (several segments, several slices
    per segment by project), a share of them exact copies of others (ties)."""
    monkeypatch.setattr(embedded, "SEGMENT_ROWS", 64)
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(n, dim)).astype(np.float32)
    for i in range(n):
        if rng.random() < duplicates and i:
            base[i] = base[rng.integers(0, i)]
    records = [VectorRecord(f"evt-{i:05d}", base[i], project=f"p{i % 3}",
                            timestamp=NOW - timedelta(hours=i)) for i in range(n)]
    store = EmbeddedStore(tmp_path / f"v{seed}-{n}-{dim}")
    store.upsert("m", records)
    return store, rng


def _answer(store, query, threads, monkeypatch, **kw):
    monkeypatch.setenv("CARTO_SCAN_THREADS", str(threads))
    return [(h.event_id, h.score) for h in store.search("m", query, **kw)]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 400), dim=st.integers(1, 6), seed=st.integers(0, 2**31 - 1),
       limit=st.integers(1, 450), duplicates=st.sampled_from([0.0, 0.3, 0.9]),
       threads=st.integers(2, 4), window=st.booleans(), project=st.booleans())
def test_any_thread_count_gives_the_one_thread_answer_to_the_bit(
        tmp_path_factory, n, dim, seed, limit, duplicates, threads, window, project):
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(embedded, "_THREADED_ROWS", 1)  # thread even the smallest scan
        monkeypatch.setattr(embedded, "_CAST_ROWS", 8)  # and cut it into many pieces
        monkeypatch.setattr(embedded, "_SAMPLE_ROWS", 16)  # and sample for the k-th best
        store, rng = _store(tmp_path_factory.mktemp("s"), n, dim, seed, duplicates, monkeypatch)
        query = rng.normal(size=dim).astype(np.float32)
        kw = {"limit": limit}
        if window:
            kw["since"] = NOW - timedelta(hours=int(rng.integers(0, n + 1)))
        if project:
            kw["projects"] = ["p1", "p2"]
        one = _answer(store, query, 1, monkeypatch, **kw)
        assert _answer(store, query, threads, monkeypatch, **kw) == one
    # equal scores come in the order the rows are read: a segment's rows, segments in order
    scores = [s for _, s in one]
    assert scores == sorted(scores, reverse=True)


def test_tied_rows_come_in_row_order_and_the_cut_keeps_the_first(tmp_path, monkeypatch):
    monkeypatch.setattr(embedded, "_THREADED_ROWS", 1)
    monkeypatch.setattr(embedded, "_CAST_ROWS", 4)
    vector = np.array([1.0, 0.5, -0.25], np.float32)
    other = np.array([-1.0, 0.2, 0.9], np.float32)
    records = [VectorRecord(f"evt-{i:03d}", vector if i % 2 == 0 else other, project="p",
                            timestamp=NOW) for i in range(40)]
    store = EmbeddedStore(tmp_path / "v")
    store.upsert("m", records)
    for threads in (1, 2, 3):
        got = _answer(store, vector, threads, monkeypatch, limit=5)
        assert [e for e, _ in got] == [f"evt-{i:03d}" for i in (0, 2, 4, 6, 8)], threads


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.integers(-5, 5), min_size=2, max_size=3000),
       k=st.integers(1, 200), seed=st.integers(0, 2**31 - 1), sample=st.sampled_from([8, 64, 4096]))
def test_kth_best_is_the_kth_largest_score(values, k, seed, sample):
    """Any scores (few distinct values: many ties; or spread: seed odd), any k below their
    count, sampled or not: the k-th largest, exactly."""
    rng = np.random.default_rng(seed)
    got = np.asarray(values, np.float32) + rng.random(len(values), np.float32) * (seed % 2)
    k = min(k, len(got) - 1)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(embedded, "_SAMPLE_ROWS", sample)
        assert embedded._kth_best(got, k) == np.sort(got)[-k]


def test_kth_best_reads_past_a_sample_that_holds_the_best_rows(monkeypatch):
    """The sampled rows are the best of all: the floor read off the sample lets fewer than k
    rows through, and the whole selection must run."""
    monkeypatch.setattr(embedded, "_SAMPLE_ROWS", 64)
    n, k = 64 * 50, 120
    got = np.linspace(0.0, 1.0, n, dtype=np.float32)
    got[:: n // 64] = 10.0  # the 64 rows the sample reads
    expected = np.sort(got)[-k]
    assert expected < 10.0
    assert embedded._kth_best(got, k) == expected


def test_scan_threads_follow_the_variable_the_cores_and_what_else_runs(monkeypatch):
    monkeypatch.delenv("CARTO_SCAN_THREADS", raising=False)
    busy = {"now": 0}
    monkeypatch.setattr("carto_core.util.parallel.runnable_elsewhere", lambda: busy["now"])
    monkeypatch.setattr("carto_core.util.parallel.cores", lambda: 8)
    assert embedded.scan_threads() == embedded._MAX_SCAN_THREADS == 4
    busy["now"] = 5
    assert embedded.scan_threads() == 3
    monkeypatch.setattr("carto_core.util.parallel.cores", lambda: 2)
    busy["now"] = 0
    assert embedded.scan_threads() == 2
    busy["now"] = 1  # another job holds the other core
    assert embedded.scan_threads() == 1
    busy["now"] = 9
    assert embedded.scan_threads() == 1
    monkeypatch.setenv("CARTO_SCAN_THREADS", "3")
    assert embedded.scan_threads() == 3
    monkeypatch.setenv("CARTO_SCAN_THREADS", "0")
    assert embedded.scan_threads() == 1


def test_runnable_elsewhere_reads_the_runnable_count_less_the_caller(monkeypatch, tmp_path):
    import builtins

    real_open = builtins.open
    fake = tmp_path / "loadavg"

    def opener(path, *args, **kwargs):
        return real_open(fake if path == "/proc/loadavg" else path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", opener)
    fake.write_text("0.52 0.58 0.59 3/412 12345\n")
    assert parallel.runnable_elsewhere() == 2
    fake.write_text("0.52 0.58 0.59 1/412 12345\n")
    assert parallel.runnable_elsewhere() == 0
    fake.unlink()  # no such file: the one-minute load average
    monkeypatch.setattr(os, "getloadavg", lambda: (2.7, 0.0, 0.0))
    assert parallel.runnable_elsewhere() == 2


def test_a_failing_piece_raises_on_the_callers_thread(tmp_path, monkeypatch):
    monkeypatch.setattr(embedded, "_THREADED_ROWS", 1)
    monkeypatch.setattr(embedded, "_CAST_ROWS", 4)
    monkeypatch.setenv("CARTO_SCAN_THREADS", "2")
    store, rng = _store(tmp_path, 200, 3, 1, 0.0, monkeypatch)

    def boom(*args, **kwargs):
        raise RuntimeError("piece failed")

    monkeypatch.setattr(embedded.Segment, "scores", boom)
    with pytest.raises(RuntimeError, match="piece failed"):
        store.search("m", rng.normal(size=3), limit=5)


_PROBE = """
import json, os, sys
from carto_core.entry import one_blas_thread
one_blas_thread()
import numpy  # loaded already, or now with the environment as the user gave it
from carto_core.util.parallel import _blas_controls
print(json.dumps({"threads": [get() for _, get in _blas_controls()],
                  "env": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""


@pytest.mark.parametrize("given_env, threads, env", [({}, 1, None),
                                                     ({"OPENBLAS_NUM_THREADS": "2"}, 2, "2")])
def test_a_one_shot_search_loads_openblas_on_one_thread_and_leaves_the_environment(
        given_env, threads, env):
    environ = {k: v for k, v in os.environ.items()
               if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", _PROBE], env={**environ, **given_env},
                          capture_output=True, text=True, timeout=60, check=True)
    report = json.loads(done.stdout)
    if not report["threads"]:
        pytest.fail("no OpenBLAS found in this numpy: the probe cannot tell")
    assert report["threads"] == [threads] * len(report["threads"])
    assert report["env"] == env
