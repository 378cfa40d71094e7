"""An exact pre-filter for the novelty gate: which stored rows can score above the threshold.

For an orthonormal basis P of k < d directions, every pair of vectors splits as
`x.y = (Px).(Py) + rx.ry` (r: the part outside P), and `|rx.ry| <= |rx| |ry|` (Cauchy-Schwarz),
so `(Px).(Py) + |rx| |ry|` is never below `x.y`. A pair whose bound is below the gate's
threshold can never pass it; only the pairs that might are scored exactly (by the gate's own
product, so what it reports is what a scan of every row reports). The bound is one product of
k + 1 columns (`terms`: the k coordinates and the residual's norm, side by side), a quarter of
the exact product's when k is a quarter of the dimensions.

The basis: the top principal directions of the rows themselves (uncentred: the mean direction
every row shares is the first), from at most `SAMPLE_ROWS` evenly spaced rows. Any orthonormal
basis keeps the bound exact; a good one keeps it tight (how tight on the real vectors:
docs/performance.md, "The gate's exact pre-filter").

Float rounding is covered twice: a residual's norm is taken with `NORM_EPS` added under the
root (the subtraction `|y|^2 - |Py|^2` cancels when the residual is small), and a pair is kept
when its bound exceeds the threshold less `SLACK`: both are orders of magnitude above the
float32 error of a 256-term product, and far below the bound's own slack.
"""

from __future__ import annotations

import numpy as np

#: The basis holds this share of the dimensions (k = d // BASIS_SHARE).
BASIS_SHARE = 4
#: Rows read to find the basis.
SAMPLE_ROWS = 4096
#: Added to a squared residual norm before its root (covers the cancellation's rounding).
NORM_EPS = 1e-4
#: A pair is scored exactly when its bound is above the threshold less this.
SLACK = 2e-3
#: Once the bound has let more than this share of the (document, part) pairs through, over
#: two parts or more, the remaining parts are multiplied whole: vectors with many twins near
#: the threshold (the generated year embedded by minilm: docs/performance.md) gain nothing
#: from the bound and would pay for it.
WORTH = 0.5


def basis(sample: np.ndarray, k: int | None = None) -> np.ndarray:
    """float32 (k, d), orthonormal rows: the top `k` principal directions (uncentred) of the
    float rows `sample` (default k: d // BASIS_SHARE, at least 1)."""
    sample = np.asarray(sample, np.float64)
    dim = sample.shape[1]
    k = max(1, dim // BASIS_SHARE) if k is None else k
    _, vectors = np.linalg.eigh(sample.T @ sample)  # ascending eigenvalues
    return np.ascontiguousarray(vectors[:, ::-1][:, :k].T, np.float32)


def terms(rows: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """float32 (n, k + 1): each row's coordinates on the basis, then the norm of what is
    outside it (rounded up, see the module doc). For rows x and y, `terms(x) @ terms(y).T`
    bounds `x @ y.T` from above."""
    rows = np.asarray(rows, np.float32)
    out = np.empty((len(rows), len(directions) + 1), np.float32)
    np.matmul(rows, directions.T, out=out[:, :-1])
    # float32 sums: their rounding (about 1e-6 for unit rows) is far below NORM_EPS
    inside = np.einsum("ij,ij->i", out[:, :-1], out[:, :-1])
    whole = np.einsum("ij,ij->i", rows, rows)
    whole -= inside
    np.maximum(whole, 0.0, out=whole)
    whole += np.float32(NORM_EPS)
    np.sqrt(whole, out=out[:, -1])
    return out


def may_pass(query_terms: np.ndarray, row_terms: np.ndarray, floor: float) -> np.ndarray:
    """bool (queries, rows): the pairs whose bound exceeds `floor` less `SLACK`: every pair
    whose exact score is above `floor` is among them."""
    return query_terms @ row_terms.T > np.float32(floor) - np.float32(SLACK)
