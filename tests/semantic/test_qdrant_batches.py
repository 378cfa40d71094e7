"""The Qdrant store fit for a server: upserts cut by bytes under the request limit, transient
failures tried again, the caller's errors never; against qdrant-client's local mode (no Qdrant
server can be installed here: a server's refusals come from a client made to fail)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.semantic import qdrant as qdrant_module
from carto_core.semantic.qdrant import QdrantStore, batches_by_bytes, point_bytes
from carto_core.semantic.store import StoreError, StoreUnavailable, VectorRecord


def _records(n: int, dim: int = 256, seed: int = 0) -> list[VectorRecord]:
    rng = np.random.default_rng(seed)
    return [VectorRecord(f"evt-{i:06d}", rng.normal(size=dim).astype(np.float32), project=f"p{i % 3}")
            for i in range(n)]


@pytest.fixture
def store(tmp_path):
    made = QdrantStore(path=str(tmp_path / "q"), collection="fit", max_request_bytes=64 << 10, pause=0.0)
    yield made
    made.close()


def _spy(store, monkeypatch, fail=()):
    """Record each upsert's points (and fail the first calls with `fail`'s exceptions)."""
    sent: list[list] = []
    real = store.client.upsert
    failures = list(fail)

    def upsert(collection, points, wait=True, **kwargs):
        if failures:
            raise failures.pop(0)
        sent.append(points)
        return real(collection, points=points, wait=wait, **kwargs)

    monkeypatch.setattr(store.client, "upsert", upsert)
    return sent


def test_an_upsert_is_cut_into_requests_under_the_byte_limit(store, monkeypatch):
    sent = _spy(store, monkeypatch)
    records = _records(600)
    assert store.upsert("m", records) == 600
    assert len(sent) > 1
    for batch in sent:
        body = sum(point_bytes(p.model_dump(mode="json")) for p in batch) + len('{"points":[]}')
        assert body <= store.max_request_bytes
    assert sum(len(b) for b in sent) == 600 and store.count("m") == 600
    got = store.search("m", records[123].vector, limit=1)
    assert got[0].event_id == "evt-000123"


def test_the_default_limit_is_a_quarter_of_qdrants_32_mib(tmp_path, monkeypatch):
    assert qdrant_module.MAX_REQUEST_BYTES * 4 == 32 << 20
    monkeypatch.setenv("CARTO_QDRANT_MAX_REQUEST_MB", "2")
    made = QdrantStore(path=str(tmp_path / "q2"), collection="x")
    assert made.max_request_bytes == 2 << 20
    made.close()


def test_a_transient_failure_is_tried_again_and_nothing_is_doubled(store, monkeypatch):
    from qdrant_client.http.exceptions import ResponseHandlingException

    sent = _spy(store, monkeypatch, fail=[ResponseHandlingException(TimeoutError("read timed out")),
                                          ConnectionError("connection reset")])
    assert store.upsert("m", _records(50)) == 50
    assert store.retried == 2 and store.count("m") == 50
    assert store.upsert("m", _records(50)) == 50  # the same ids again: replaced, not added
    assert store.count("m") == 50 and sum(len(batch) for batch in sent) == 100


class _Rejected(Exception):
    def __init__(self, status_code: int):
        super().__init__(f"status {status_code}")
        self.status_code = status_code


def test_the_callers_error_is_never_retried(store, monkeypatch):
    calls = []

    def refuse(*args, **kwargs):
        calls.append(1)
        raise _Rejected(400)

    store.ensure_collection(256)
    monkeypatch.setattr(store.client, "upsert", refuse)
    with pytest.raises(StoreError, match="rejected \\(400\\)") as caught:
        store.upsert("m", _records(3))
    assert not isinstance(caught.value, StoreUnavailable) and calls == [1]


@pytest.mark.parametrize("status", [429, 503])
def test_a_server_that_keeps_failing_is_reported_after_the_retries(store, monkeypatch, status):
    calls = []

    def failing(*args, **kwargs):
        calls.append(1)
        raise _Rejected(status)

    store.ensure_collection(256)
    monkeypatch.setattr(store.client, "upsert", failing)
    with pytest.raises(StoreUnavailable, match="after 4 tries"):
        store.upsert("m", _records(3))
    assert len(calls) == 1 + qdrant_module.RETRIES


_point = st.builds(lambda n, width: {"id": n, "vector": [0.5] * width, "payload": {"event_id": f"e{n}"}},
                   st.integers(0, 10**9), st.integers(1, 300))


@settings(max_examples=60, deadline=None)
@given(points=st.lists(_point, max_size=40), limit=st.integers(64, 20_000))
def test_batches_keep_every_point_in_order_and_under_the_limit(points, limit):
    batches = batches_by_bytes(points, limit)
    assert [p for b in batches for p in b] == points
    for batch in batches:
        size = len('{"points":[]}') + sum(point_bytes(p) for p in batch)
        assert size <= limit or len(batch) == 1
    assert all(batches)
