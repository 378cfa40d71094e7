"""A search of a large store lets go of the pages of the rows it has scored
(`embedded.RELEASE_ABOVE`, `npymap.release_rows`): the same hits and scores, to the bit, as a
scan that keeps them, and the process holds no more of the store than a block after it."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.semantic import embedded
from carto_core.semantic.embedded import EmbeddedStore
from carto_core.util.npymap import map_npy, release_rows

NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)


def _mapped_kb(under) -> int:
    """The resident KB of this process' maps of files under `under` (/proc/self/smaps: the
    pages of those maps only, whatever else the process allocates or frees meanwhile)."""
    total, counting = 0, False
    with open("/proc/self/smaps") as handle:
        for line in handle:
            head = line.split(None, 1)[0]
            if "-" in head and not head.endswith(":"):  # a mapping's first line
                counting = str(under) in line
            elif counting and head == "Rss:":
                total += int(line.split()[1])
    return total


def _store(root, n: int, dim: int, seed: int) -> tuple[EmbeddedStore, np.random.Generator]:
    rng = np.random.default_rng(seed)
    store = EmbeddedStore(root)
    store.upsert_arrays("m", [f"evt-{i:06d}" for i in range(n)], rng.normal(size=(n, dim)),
                        [f"p{i % 3}" for i in range(n)], [NOW - timedelta(hours=i) for i in range(n)])
    return store, rng


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 300), dim=st.integers(1, 8), seed=st.integers(0, 2**31 - 1),
       limit=st.integers(1, 40), threads=st.integers(1, 3), window=st.booleans(),
       project=st.booleans())
def test_a_releasing_scan_answers_as_a_keeping_one_to_the_bit(
        tmp_path_factory, n, dim, seed, limit, threads, window, project):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(embedded, "SEGMENT_ROWS", 64)  # several segments
        patch.setattr(embedded, "_CAST_ROWS", 8)
        patch.setattr(embedded, "_RELEASE_ROWS", 16)  # many released blocks a slice
        patch.setattr(embedded, "_THREADED_ROWS", 1)
        patch.setenv("CARTO_SCAN_THREADS", str(threads))
        store, rng = _store(tmp_path_factory.mktemp("r") / "v", n, dim, seed)
        query = rng.normal(size=dim)
        kw = {"limit": limit, "projects": ["p1", "p2"] if project else None,
              "since": NOW - timedelta(hours=n // 2) if window else None}
        patch.setattr(embedded, "RELEASE_ABOVE", 1 << 62)
        kept = [(h.event_id, h.score) for h in EmbeddedStore(store.root).search("m", query, **kw)]
        patch.setattr(embedded, "RELEASE_ABOVE", 0)
        fresh = EmbeddedStore(store.root)
        released = [(h.event_id, h.score) for h in fresh.search("m", query, **kw)]
        assert all(s.release for s in fresh._model_segments("m"))
        assert released == kept


@pytest.mark.parametrize("window", [False, True])
def test_after_a_search_of_a_large_store_its_rows_are_not_held(tmp_path, monkeypatch, window):
    """12 MB of int8 rows scanned (whole slices, or the rows a time window gathers): a store
    above RELEASE_ABOVE ends the search holding less than a block of them; below it (the
    pages kept) it holds all of them."""
    store, rng = _store(tmp_path / "v", 49152, 256, 5)
    query = rng.normal(size=256)
    since = NOW - timedelta(hours=10**6) if window else None
    grown = {}
    for name, above in (("kept", 1 << 62), ("released", 4 << 20)):
        monkeypatch.setattr(embedded, "RELEASE_ABOVE", above)
        fresh = EmbeddedStore(store.root)
        fresh.search("m", query, limit=1, projects=["nope"])  # maps opened, no rows scanned
        before = _mapped_kb(store.root)
        hits = fresh.search("m", query, limit=5, since=since)
        grown[name] = (_mapped_kb(store.root) - before) / 1024
        assert len(hits) == 5
        del fresh, hits
    assert grown["kept"] > 10
    assert grown["released"] < 5


def test_the_ids_of_a_large_stores_hits_are_not_held_either(tmp_path, monkeypatch):
    """500 hits' ids gathered from a 2 MB ids.npy: each fault maps the 64 KiB around it; a
    releasing search lets them go once read."""
    rng = np.random.default_rng(9)
    n = 49152
    store = EmbeddedStore(tmp_path / "v")
    store.upsert_arrays("m", [f"turn-{i:08d}-{'x' * 28}" for i in range(n)],
                        rng.normal(size=(n, 64)), [""] * n, [None] * n)
    query = rng.normal(size=64)
    grown = {}
    for name, above in (("kept", 1 << 62), ("released", 1 << 20)):
        monkeypatch.setattr(embedded, "RELEASE_ABOVE", above)
        fresh = EmbeddedStore(store.root)
        fresh.search("m", query, limit=1, projects=["nope"])
        before = _mapped_kb("/ids.npy")
        hits = fresh.search("m", query, limit=500)
        grown[name] = (_mapped_kb("/ids.npy") - before) / 1024
        assert len(hits) == 500
        del fresh, hits
    assert grown["kept"] > 1
    assert grown["released"] < 0.2


def test_release_rows_drops_whole_pages_inside_the_rows_only(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.arange(4096 * 64, dtype=np.int64).reshape(4096, 64))  # 512 bytes a row
    mapped = map_npy(path)
    header = path.stat().st_size - mapped.nbytes
    assert 0 < header < 4096
    total = int(mapped.sum())  # every page touched: the header's and the rows' 513 pages
    assert _mapped_kb(tmp_path) == 513 * 4
    release_rows(mapped, 0, 2048)  # rows in bytes [header, header + 1 MB): pages 1..255
    assert _mapped_kb(tmp_path) == (513 - 255) * 4
    release_rows(mapped, 2048, 2049)  # one row: no whole page inside it, nothing goes
    assert _mapped_kb(tmp_path) == (513 - 255) * 4
    release_rows(mapped, 2048, 4096)  # to the end: the last, partial page stays
    assert _mapped_kb(tmp_path) == 3 * 4
    assert int(mapped.sum()) == total  # the values come back from the page cache
    release_rows(np.arange(10), 0, 10)  # not a map: left alone
