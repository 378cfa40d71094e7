"""Inverted lists for the embedded store: k-means centroids over a segment's rows, the list
of each row, and which lists a query probes.

A segment of at least `MIN_ROWS` rows is written with its rows grouped by list (then by
project inside a list), so a probe reads contiguous slices of the mapped file and a cold
process touches only the pages of the lists it probes. The centroids are trained when the
segment is written (a fresh build or a compaction), on a bounded sample, with a fixed seed:
the same rows give the same lists. Training imports scikit-learn; searching does not.

The scores of the rows a probe reads are the same float32 scores as the exact scan's
(`embedded.scores`): the lists only choose which rows are scored. `PROBE` is the share of
a segment's lists a query reads, chosen by measurement (docs/semantic.md): wordllama's
vectors of short queries sit far from every centroid, so a small share loses neighbours.
"""

from __future__ import annotations

import os

import numpy as np

#: Off unless CARTO_VECTOR_LISTS=1: training doubled the first semantic build's CPU and its
#: peak RSS for a small saving on a cold search (docs/performance.md, Scale).
ENABLED = os.environ.get("CARTO_VECTOR_LISTS", "") == "1"
#: Segments with fewer rows are scanned whole: below this the scan costs less than the
#: probe's bookkeeping, and their lists would be trained on too few rows.
MIN_ROWS = 32768
#: Rows per list (a full segment of 65536 rows gets 64 lists).
ROWS_PER_LIST = 1024
#: Rows a segment's k-means is trained on at most (bounded time and memory per segment).
SAMPLE_ROWS = 16384
#: Share of a segment's lists a query reads (1.0: every list, the exact scan). Overridden
#: by CARTO_VECTOR_PROBE (for measurements).
PROBE = 0.85
#: A filter that leaves fewer rows of a segment than this scans all of them (exact): the
#: lists would save little and could miss the few rows that passed.
EXACT_BELOW = 8192
SEED = 0


def list_count(rows: int) -> int:
    """Lists of a segment of `rows` rows (0: no index, scanned whole)."""
    if not ENABLED or rows < MIN_ROWS or not trainable():
        return 0
    return max(2, rows // ROWS_PER_LIST)


def trainable() -> bool:
    """scikit-learn is there to train the lists (a user install leaves it out: the segment is
    then scanned whole, which gives the same scores)."""
    import importlib.util

    return importlib.util.find_spec("sklearn") is not None


def train(sample: np.ndarray, lists: int) -> np.ndarray:
    """Unit-length float32 centroids (lists, dim) of float32 unit rows `sample`."""
    from sklearn.cluster import MiniBatchKMeans  # writers only: a search never trains

    model = MiniBatchKMeans(n_clusters=lists, batch_size=4096, n_init=1, max_iter=10,
                            random_state=SEED, compute_labels=False)
    model.fit(np.asarray(sample, np.float32))
    centroids = model.cluster_centers_.astype(np.float32)
    norms = np.linalg.norm(centroids, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return centroids / norms


def sample_rows(count: int) -> np.ndarray:
    """The rows (sorted) a segment of `count` rows is trained on: the same for the same count."""
    if count <= SAMPLE_ROWS:
        return np.arange(count)
    return np.sort(np.random.default_rng(SEED).choice(count, SAMPLE_ROWS, replace=False))


def probe_share() -> float:
    raw = os.environ.get("CARTO_VECTOR_PROBE")
    if raw:
        try:
            return min(1.0, max(0.0, float(raw)))
        except ValueError:
            pass
    return PROBE


def probed(centroids: np.ndarray, query: np.ndarray, share: float) -> np.ndarray:
    """The lists a unit `query` reads, in list order: the `share` of lists whose centroids
    are nearest to it (at least one)."""
    lists = len(centroids)
    n = min(lists, max(1, int(np.ceil(lists * share))))
    if n >= lists:
        return np.arange(lists)
    near = np.argpartition(-(centroids @ query), n - 1)[:n]
    return np.sort(near)
