"""The novelty gate's exact pre-filter (`gatebound`, `embedded.best_rows_above`): what it
reports is what the scan of every row reports, for every query whose best score is above the
threshold (the same row and the same float32 score, to the bit), and nothing for the others.
Stores of random and of clustered rows, queries that are stored rows moved to a chosen cosine
(near the threshold on both sides), and thresholds equal to a score the scan gives."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carto_core.semantic import embedded, gatebound
from carto_core.semantic.embedded import (
    EmbeddedStore,
    best_rows,
    best_rows_above,
    normalise,
    quantize,
)


def _rows(rng, count: int, dim: int, clusters: int) -> np.ndarray:
    """Unit rows: around a shared mean direction (as averaged word vectors lean), in
    `clusters` groups when clusters > 0, else spread."""
    mean = rng.standard_normal(dim).astype(np.float32)
    if clusters:
        centres = rng.standard_normal((clusters, dim)).astype(np.float32)
        rows = centres[rng.integers(0, clusters, count)] + 0.35 * rng.standard_normal((count, dim))
    else:
        rows = rng.standard_normal((count, dim))
    return normalise((rows + 1.2 * mean / np.linalg.norm(mean) * np.sqrt(dim) * 0.3).astype(np.float32))


def _moved(rng, row: np.ndarray, cosine: float) -> np.ndarray:
    """A unit vector at `cosine` from unit `row`."""
    other = rng.standard_normal(row.shape).astype(np.float64)
    other -= other @ row * row
    other /= np.linalg.norm(other)
    return (cosine * row + np.sqrt(max(0.0, 1 - cosine ** 2)) * other).astype(np.float32)


def _queries(rng, stored: np.ndarray, count: int, dim: int, threshold: float) -> np.ndarray:
    """Fresh rows, and stored rows moved to cosines around the threshold (both sides, as
    close as 1e-4) and above it."""
    fresh = _rows(rng, count, dim, 0)
    offsets = np.array([-0.05, -0.01, -1e-3, -1e-4, 1e-4, 1e-3, 0.01, 0.05])
    near = [_moved(rng, stored[rng.integers(len(stored))], float(np.clip(threshold + d, -1, 1)))
            for d in rng.choice(offsets, count)]
    return normalise(np.concatenate([fresh, np.stack(near)]))


def _check(codes, scale, centre, queries, threshold, directions):
    ref_best, ref_row = best_rows(codes, queries, scale, centre)
    got_best, got_row = best_rows_above(codes, queries, scale, centre, threshold, directions)
    passed = ref_best > np.float32(threshold)
    assert np.array_equal(got_row[passed], ref_row[passed])
    assert np.array_equal(got_best[passed].view(np.uint32), ref_best[passed].view(np.uint32))
    assert (got_row[~passed] == -1).all() and np.isneginf(got_best[~passed]).all()
    return int(passed.sum())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), count=st.integers(1, 9000),
       dim=st.sampled_from([8, 64, 256]), clusters=st.sampled_from([0, 3, 40]),
       batch=st.integers(1, 80), threshold=st.sampled_from([0.5, 0.85, 0.95]))
def test_the_filtered_gate_reports_what_the_whole_scan_reports(seed, count, dim, clusters, batch,
                                                               threshold):
    rng = np.random.default_rng(seed)
    stored = _rows(rng, count, dim, clusters)
    centre = stored[: min(count, 512)].mean(axis=0)
    codes, scale = quantize(stored, centre)
    queries = _queries(rng, stored, batch, dim, threshold)
    directions = embedded._gate_basis([_Seg(codes, scale, centre)])
    _check(codes, scale, centre, queries, threshold, directions)


def test_near_the_threshold_every_decision_and_score_is_the_scans():
    """Many pairs within 1e-3 of the threshold, in a store of the gate's shape (256
    dimensions, several 4,096-row parts and a tail): some pass, some do not, each as the
    scan says. A threshold equal to a score the scan gives is not passed by that score."""
    rng = np.random.default_rng(7)
    stored = _rows(rng, 3 * 4096 + 517, 256, 30)
    centre = stored[:512].mean(axis=0)
    codes, scale = quantize(stored, centre)
    queries = _queries(rng, stored, 300, 256, 0.85)
    directions = embedded._gate_basis([_Seg(codes, scale, centre)])
    passed = _check(codes, scale, centre, queries, 0.85, directions)
    assert 100 < passed < 600  # both sides of the threshold are there
    ref_best, _ = best_rows(codes, queries, scale, centre)
    exact = float(np.sort(ref_best)[-50])  # a score the scan gives, as the threshold
    assert _check(codes, scale, centre, queries, exact, directions) == int((ref_best > np.float32(exact)).sum())
    got_best, got_row = best_rows_above(codes, queries, scale, centre, exact, directions)
    at = ref_best == np.float32(exact)
    assert at.any() and (got_row[at] == -1).all()  # above means above, not at


def test_where_the_bound_is_tight_pairs_just_above_the_threshold_still_pass():
    """Rows and queries inside a subspace of a quarter of the dimensions: the basis holds
    them, the residuals are ~0 and the bound is the score itself (plus the rounding margin),
    so pairs 1e-4 to 1e-3 above the threshold are found only if the margin is taken below
    the threshold, not above it. Spread rows: a query's only row near the threshold is its
    twin."""
    rng = np.random.default_rng(13)
    dim, inside = 64, 16
    span = np.linalg.qr(rng.standard_normal((dim, inside)))[0].T.astype(np.float32)
    stored = normalise((rng.standard_normal((5000, inside)) @ span).astype(np.float32))
    centre = stored[:512].mean(axis=0)
    codes, scale = quantize(stored, centre)
    # The rows as stored (quantized: ~0.01 outside the span), in span coordinates; each
    # query moved from one inside the span, so that it stays there.
    stored = embedded.dequantize(codes, scale, centre) @ span.T
    near = [_moved(rng, stored[i] / np.linalg.norm(stored[i]), 0.85 + d) @ span
            for i, d in zip(rng.integers(0, 5000, 200), rng.choice([2e-4, 5e-4, 1e-3], 200))]
    queries = normalise(np.stack(near))
    directions = embedded._gate_basis([_Seg(codes, scale, centre)])
    assert _check(codes, scale, centre, queries, 0.85, directions) > 50


def test_one_asked_query_gets_the_score_the_whole_batch_gets():
    """Batches where a single query may pass in a part: its score is the one the batch's
    product gives (a one-row product would be a matrix-vector product, another sum)."""
    rng = np.random.default_rng(17)
    stored = _rows(rng, 4096 + 300, 256, 20)
    centre = stored[:512].mean(axis=0)
    codes, scale = quantize(stored, centre)
    directions = embedded._gate_basis([_Seg(codes, scale, centre)])
    for _ in range(40):
        far = _rows(rng, int(rng.integers(1, 40)), 256, 0)
        queries = normalise(np.concatenate([far, _moved(rng, stored[rng.integers(len(stored))], 0.9)[None]]))
        assert _check(codes, scale, centre, queries, 0.85, directions) == 1


def test_where_the_bound_lets_most_through_the_later_parts_are_multiplied_whole():
    """A low threshold: nearly every document may pass in every part, the filter stops
    bounding after two parts, and the best rows in the later parts are still found."""
    rng = np.random.default_rng(19)
    stored = _rows(rng, 4 * 4096 + 100, 64, 8)
    centre = stored[:512].mean(axis=0)
    codes, scale = quantize(stored, centre)
    queries = normalise(np.concatenate([_rows(rng, 30, 64, 0), stored[-50:]]))
    directions = embedded._gate_basis([_Seg(codes, scale, centre)])
    kept: list = []
    best, row = best_rows_above(codes, queries, scale, centre, 0.2, directions, kept)
    assert len(kept) == 2  # bounded twice, then whole
    assert _check(codes, scale, centre, queries, 0.2, directions) == len(queries)
    assert (row[30:] >= 4 * 4096).all()  # the stored rows asked about are in the last part


def test_the_bound_is_never_below_the_product():
    rng = np.random.default_rng(3)
    rows = _rows(rng, 2000, 64, 5)
    queries = _rows(rng, 300, 64, 0)
    directions = gatebound.basis(rows[:500])
    bound = gatebound.terms(queries, directions) @ gatebound.terms(rows, directions).T
    exact = queries @ rows.T
    assert (bound >= exact).all()
    # ... and it is the residual term that makes it so: the coordinates alone fall below
    inside = (queries @ directions.T) @ (rows @ directions.T).T
    assert (inside < exact - 0.05).mean() > 0.05


def test_the_store_answers_the_gate_alike_with_and_without_the_filter(tmp_path, monkeypatch):
    """Three segments; `nearest(above=...)` with the filter on (every batch) and off equals
    `nearest()` where the best score is above the threshold, None elsewhere; a second batch
    reuses the kept row terms and still agrees."""
    rng = np.random.default_rng(11)
    store = EmbeddedStore(tmp_path / "vectors")
    stored = _rows(rng, 6000, 64, 12)
    for part in np.array_split(np.arange(len(stored)), 3):
        store.upsert_arrays("m", [f"e{i}" for i in part], stored[part], [""] * len(part),
                            [None] * len(part))
    for attempt in range(2):
        queries = _queries(rng, stored, 60, 64, 0.85)
        every = store.nearest("m", queries)
        expected = [hit if hit is not None and hit.score > 0.85 else None for hit in every]
        monkeypatch.setattr(embedded, "GATE_FILTER_PAIRS", 0)
        filtered = store.nearest("m", queries, above=0.85)
        assert store._gate is not None  # the filter ran
        monkeypatch.setattr(embedded, "GATE_FILTER_PAIRS", 1 << 62)
        plain = store.nearest("m", queries, above=0.85)
        assert filtered == expected == plain
        assert 0 < sum(hit is not None for hit in expected) < len(expected)
        # A threshold equal to a score: that score does not pass it, filtered or not.
        at = max(hit.score for hit in expected if hit is not None)
        for pairs in (0, 1 << 62):
            monkeypatch.setattr(embedded, "GATE_FILTER_PAIRS", pairs)
            assert all(hit is None or hit.score > at for hit in store.nearest("m", queries, above=at))


class _Seg:
    """What `_gate_basis` reads of a segment."""

    quantized = True

    def __init__(self, codes, scale, centre):
        self.vectors, self.scale, self.centre, self.count = codes, scale, centre, len(codes)
