"""The embedded store's inverted lists (`semantic/ivf.py`): which segments get them, how rows
are laid out, and that a probe changes which rows are scored, never their scores or the
filters."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.semantic import embedded, ivf
from carto_core.semantic.embedded import MANIFEST, EmbeddedStore

PROJECTS = ["/p/a", "/p/b", "/p/c"]
BASE = 1_700_000_000


@pytest.fixture
def small_lists(monkeypatch):
    """Lists on segments of 64 rows and more, 16 rows a list, no exact fallback unless asked."""
    monkeypatch.setattr(ivf, "ENABLED", True)
    monkeypatch.setattr(ivf, "MIN_ROWS", 64)
    monkeypatch.setattr(ivf, "ROWS_PER_LIST", 16)
    monkeypatch.setattr(ivf, "SAMPLE_ROWS", 128)
    monkeypatch.setattr(ivf, "EXACT_BELOW", 0)
    monkeypatch.delenv("CARTO_VECTOR_PROBE", raising=False)


def write(root, n, seed, dim=6):
    """A store of `n` clustered unit rows over three projects, one row an hour."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(5, dim))
    vectors = centres[rng.integers(0, 5, n)] + 0.3 * rng.normal(size=(n, dim))
    ids = [f"evt-{i:05d}" for i in range(n)]
    projects = [PROJECTS[i % 3] for i in range(n)]
    stamps = [BASE + 3600 * i for i in range(n)]
    store = EmbeddedStore(root)
    store.upsert_arrays("m", ids, vectors, projects, stamps)
    return store, embedded.normalise(vectors), ids, projects, stamps, rng


def exact(vectors, ids, projects, stamps, query, limit, wanted=None, since=None, before=None):
    """Brute force over int8 rows as stored (around the rows' mean: the model's first
    write), scored as the store scores them."""
    codes, scale, centre = embedded.stored_rows(vectors, None, None, None)
    got = embedded.int8_scores(codes, scale, centre, embedded.normalise(query[None])[0])
    keep = [i for i in range(len(ids))
            if (wanted is None or projects[i] in wanted)
            and (since is None or stamps[i] >= since) and (before is None or stamps[i] < before)]
    keep.sort(key=lambda i: -got[i])
    return {ids[i]: float(got[i]) for i in keep[:limit]}, got


def test_small_segments_have_no_lists_and_large_ones_do(tmp_path, small_lists):
    write(tmp_path / "small", 63, 1)
    (entry,) = json.loads((tmp_path / "small" / MANIFEST).read_text())["segments"]
    assert "lists" not in entry and not (tmp_path / "small" / entry["name"] / "centroids.npy").exists()
    write(tmp_path / "large", 64, 1)
    (entry,) = json.loads((tmp_path / "large" / MANIFEST).read_text())["segments"]
    assert entry["lists"] == 4  # 64 rows / 16 a list
    centroids = np.load(tmp_path / "large" / entry["name"] / "centroids.npy")
    assert centroids.shape == (4, 6)
    assert np.allclose(np.linalg.norm(centroids, axis=1), 1.0, atol=1e-5)


def test_rows_are_grouped_by_list_then_project_and_each_row_is_in_its_nearest_list(tmp_path, small_lists):
    store, *_ = write(tmp_path / "v", 200, 2)
    (segment,) = store._snapshot()
    width = len(segment.projects)
    rows = segment.float_rows()
    nearest = np.argmax(rows @ segment.centroids.T, axis=1)
    codes = np.asarray(segment.project)
    assert segment.bounds[0] == 0 and segment.bounds[-1] == 200
    assert (np.diff(segment.bounds) >= 0).all()
    for number in range(segment.lists):
        for code in range(width):
            lo = segment.bounds[number * width + code]
            hi = segment.bounds[number * width + code + 1]
            assert (nearest[lo:hi] == number).all() and (codes[lo:hi] == code).all()


def test_the_same_rows_give_the_same_lists(tmp_path, small_lists):
    one, *_ = write(tmp_path / "a", 150, 3)
    two, *_ = write(tmp_path / "b", 150, 3)
    a, b = one._snapshot()[0], two._snapshot()[0]
    assert np.array_equal(a.centroids, b.centroids) and np.array_equal(a.bounds, b.bounds)
    assert np.array_equal(np.asarray(a.ids), np.asarray(b.ids))


@settings(max_examples=12, deadline=None)
@given(st.integers(64, 240), st.integers(0, 2**32 - 1), st.integers(1, 40),
       st.sampled_from([None, ["/p/a"], ["/p/b", "/p/c"]]), st.booleans())
def test_probing_every_list_is_the_exact_scan(n, seed, limit, wanted, window):
    """With every list probed the indexed search returns the exact top-k, scores included,
    under project and time filters."""
    import tempfile

    saved = (ivf.ENABLED, ivf.MIN_ROWS, ivf.ROWS_PER_LIST, ivf.EXACT_BELOW, ivf.PROBE)
    ivf.ENABLED, ivf.MIN_ROWS, ivf.ROWS_PER_LIST, ivf.EXACT_BELOW, ivf.PROBE = True, 64, 16, 0, 1.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            store, vectors, ids, projects, stamps, rng = write(tmp, n, seed)
            assert store._snapshot()[0].lists
            query = rng.normal(size=6)
            since = BASE + 3600 * (n // 4) if window else None
            before = BASE + 3600 * (3 * n // 4) if window else None
            hits = store.search("m", query, limit=limit, projects=wanted,
                                since=None if since is None else datetime.fromtimestamp(since, timezone.utc),
                                before=None if before is None else datetime.fromtimestamp(before, timezone.utc))
            want, _ = exact(vectors, ids, projects, stamps, query, limit, wanted, since, before)
            got = {h.event_id: h.score for h in hits}
            assert len(got) == len(want)
            assert sorted(got.values(), reverse=True) == pytest.approx(
                sorted(want.values(), reverse=True), abs=1e-6)
            kth = min(want.values())
            assert all(i in want or abs(s - kth) < 1e-6 for i, s in got.items())  # ties only
    finally:
        ivf.ENABLED, ivf.MIN_ROWS, ivf.ROWS_PER_LIST, ivf.EXACT_BELOW, ivf.PROBE = saved


@settings(max_examples=12, deadline=None)
@given(st.integers(64, 240), st.integers(0, 2**32 - 1), st.sampled_from([0.1, 0.3, 0.5]),
       st.sampled_from([None, ["/p/a"], ["/p/b", "/p/c"]]), st.booleans())
def test_a_partial_probe_scores_exactly_and_never_breaks_a_filter(n, seed, share, wanted, window):
    """Probing a share of the lists: every hit passes the filters, carries its exact score and
    lies in a probed list; what the probed lists hold that passes is all there (in order)."""
    import tempfile

    saved = (ivf.ENABLED, ivf.MIN_ROWS, ivf.ROWS_PER_LIST, ivf.EXACT_BELOW, ivf.PROBE)
    ivf.ENABLED, ivf.MIN_ROWS, ivf.ROWS_PER_LIST, ivf.EXACT_BELOW, ivf.PROBE = True, 64, 16, 0, share
    try:
        with tempfile.TemporaryDirectory() as tmp:
            store, vectors, ids, projects, stamps, rng = write(tmp, n, seed)
            (segment,) = store._snapshot()
            query = embedded.normalise(rng.normal(size=(1, 6)))[0]
            since = BASE + 3600 * (n // 4) if window else None
            hits = store.search("m", query, limit=n, projects=wanted,
                                since=None if since is None else datetime.fromtimestamp(since, timezone.utc))
            _, got = exact(vectors, ids, projects, stamps, query, n)
            probed = set(ivf.probed(segment.centroids, query, share).tolist())
            assert len(probed) == max(1, int(np.ceil(segment.lists * share)))
            row_of = {bytes(x).decode(): r for r, x in enumerate(segment.ids)}
            width = len(segment.projects)
            list_of = np.searchsorted(segment.bounds, np.arange(n), "right") - 1
            expected = []
            for i in range(n):
                if wanted is not None and projects[i] not in wanted:
                    continue
                if since is not None and stamps[i] < since:
                    continue
                if int(list_of[row_of[ids[i]]]) // width in probed:
                    expected.append(ids[i])
            assert sorted(h.event_id for h in hits) == sorted(expected)
            for hit in hits:
                assert hit.score == pytest.approx(float(got[ids.index(hit.event_id)]), abs=1e-6)
            assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    finally:
        ivf.ENABLED, ivf.MIN_ROWS, ivf.ROWS_PER_LIST, ivf.EXACT_BELOW, ivf.PROBE = saved


def test_a_selective_filter_scans_every_row_that_passed(tmp_path, small_lists, monkeypatch):
    """Fewer rows than EXACT_BELOW pass the filters: all of them are scored (exact), even with
    one list probed."""
    monkeypatch.setattr(ivf, "PROBE", 0.01)
    store, vectors, ids, projects, stamps, rng = write(tmp_path / "v", 240, 5)
    query = rng.normal(size=6)
    wanted = ["/p/b"]  # 80 rows
    monkeypatch.setattr(ivf, "EXACT_BELOW", 81)
    hits = store.search("m", query, limit=80, projects=wanted)
    assert len(hits) == 80
    monkeypatch.setattr(ivf, "EXACT_BELOW", 80)  # 80 rows passed: not below, the lists decide
    assert len(store.search("m", query, limit=80, projects=wanted)) < 80


def test_a_rewrite_without_some_rows_keeps_the_lists(tmp_path, small_lists):
    store, vectors, ids, *_ = write(tmp_path / "v", 192, 6)  # 12 lists
    before = store._snapshot()[0].centroids.copy()
    assert store.delete("m", ids[:5]) == 5  # 187 rows would get 11 lists if trained again
    (segment,) = store._snapshot()
    assert segment.count == 187 and segment.lists == 12
    assert np.array_equal(segment.centroids, before)
    entry = json.loads((tmp_path / "v" / MANIFEST).read_text())["segments"][0]
    assert entry["lists"] == 12


def test_lists_are_off_unless_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(ivf, "MIN_ROWS", 64)
    monkeypatch.setattr(ivf, "ENABLED", False)
    write(tmp_path / "v", 200, 1)
    (entry,) = json.loads((tmp_path / "v" / MANIFEST).read_text())["segments"]
    assert "lists" not in entry and ivf.list_count(10**6) == 0


def test_lists_need_scikit_learn(monkeypatch):
    """Without scikit-learn (a user install) a segment is scanned whole instead of failing."""
    import importlib.util

    monkeypatch.setattr(ivf, "ENABLED", True)
    assert ivf.list_count(10**6) > 0
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "sklearn" else real(name, *a))
    assert ivf.list_count(10**6) == 0


def test_probe_share_from_the_environment(monkeypatch):
    monkeypatch.setenv("CARTO_VECTOR_PROBE", "0.5")
    assert ivf.probe_share() == 0.5
    monkeypatch.setenv("CARTO_VECTOR_PROBE", "7")
    assert ivf.probe_share() == 1.0
    monkeypatch.setenv("CARTO_VECTOR_PROBE", "x")
    assert ivf.probe_share() == ivf.PROBE
