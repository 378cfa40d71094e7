"""One contract, every store: the embedded store and Qdrant (qdrant-client local mode).

Each expectation is checked against an independent brute-force answer computed in the test with
numpy over the same vectors, so a store that filtered after cutting the top-k, scored another
model's vectors or kept two vectors for one id would fail here. Scores agree with the exact
cosine within `SCORE_TOLERANCE`: a store may keep its vectors quantized (the embedded one
keeps int8 offsets from a centre, one scale a row), whose rounding moves a cosine by at most
scale/2 * |q|_1: under 3e-3 for 256-dimension rows, up to about 8e-3 for the 12-dimension
random rows here. Rows whose exact scores lie that close may trade places; nothing else may.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from carto_core.semantic.store import DimensionMismatch, VectorRecord, resolve_projects
from carto_core.model.project import ProjectScope

from .conftest import NOW

PROJECTS = ["webshop", "webshop-admin", "infra", "docs-site"]
SCORE_TOLERANCE = 8e-3


@pytest.fixture(params=["embedded", "qdrant-local"])
def store(request, tmp_path):
    if request.param == "embedded":
        from carto_core.semantic.embedded import EmbeddedStore

        made = EmbeddedStore(tmp_path / "vectors")
    else:
        import qdrant_client  # noqa: F401  (installed by requirements-dev.txt; never skipped)
        from carto_core.semantic.qdrant import QdrantStore

        made = QdrantStore(path=str(tmp_path / "qdrant"), collection="contract")
    yield made
    made.close()


def make_records(n=120, dim=12, seed=3, model_shift=0.0):
    rng = np.random.default_rng(seed)
    records = []
    for i in range(n):
        ts = None if i % 17 == 5 else NOW - timedelta(hours=i)
        records.append(VectorRecord(f"evt-{i:04d}", rng.normal(size=dim) + model_shift,
                                    project=PROJECTS[i % len(PROJECTS)], timestamp=ts,
                                    payload={"summary": f"doc {i}"}))
    return records


def brute_force(records, query, *, limit, keep=lambda r: True):
    """The exact answer: cosine over the records that pass `keep`, best first."""
    q = np.asarray(query, dtype=np.float64)
    q = q / np.linalg.norm(q)
    scored = []
    for r in records:
        if not keep(r):
            continue
        v = np.asarray(r.vector, dtype=np.float64)
        scored.append((float(v @ q / np.linalg.norm(v)), r.event_id))
    scored.sort(key=lambda pair: -pair[0])
    return scored[:limit]


def assert_same(hits, expected):
    """The brute-force answer, up to rounding: as many hits; at each rank the score within
    `SCORE_TOLERANCE` of the exact one; and where the ids differ, only rows whose exact scores
    are within twice that of each other (a near tie) traded places."""
    assert len(hits) == len(expected)
    assert np.allclose([h.score for h in hits], [s for s, _ in expected], atol=SCORE_TOLERANCE)
    exact = {e: s for s, e in expected}
    cut = expected[-1][0] if expected else 0.0
    for hit, (score, event_id) in zip(hits, expected):
        if hit.event_id != event_id:
            theirs = exact.get(hit.event_id, cut)  # a row from beyond the cut ties with the cut
            assert abs(theirs - score) <= 2 * SCORE_TOLERANCE, (hit, event_id, score)
    assert len({h.event_id for h in hits}) == len(hits)


def test_nearest_first_and_exact_scores(store):
    records = make_records()
    assert store.upsert("m1", records) == len(records)
    query = records[7].vector
    hits = store.search("m1", query, limit=10)
    assert hits[0].event_id == "evt-0007" and hits[0].score == pytest.approx(1.0, abs=SCORE_TOLERANCE)
    assert_same(hits, brute_force(records, query, limit=10))


def test_project_filter_applies_before_top_k(store):
    records = make_records()
    store.upsert("m1", records)
    query = records[0].vector  # a webshop vector: the global top-5 is mostly other projects
    wanted = ["infra"]
    hits = store.search("m1", query, limit=5, projects=wanted)
    expected = brute_force(records, query, limit=5, keep=lambda r: r.project in wanted)
    assert len(hits) == 5  # filtering after a global top-5 would leave fewer
    assert_same(hits, expected)


def test_project_values_are_exact_and_resolved_from_scope(store):
    records = make_records()
    store.upsert("m1", records)
    # "webshop" as a scope is a substring: it matches webshop and webshop-admin; the store
    # receives the exact values present and filters by them.
    values = resolve_projects(ProjectScope(["webshop"]), store.projects("m1"))
    assert values == ["webshop", "webshop-admin"]
    hits = store.search("m1", records[2].vector, limit=200, projects=values)
    counted = sum(1 for r in records if r.project in values)
    assert len(hits) == counted
    assert {h.event_id for h in hits} == {r.event_id for r in records if r.project in values}
    assert store.search("m1", records[2].vector, limit=10, projects=[]) == []


def test_time_window_before_top_k_and_rows_without_time(store):
    records = make_records()
    store.upsert("m1", records)
    since, before = NOW - timedelta(hours=60), NOW - timedelta(hours=20)

    def inside(r):
        return r.timestamp is not None and since <= r.timestamp < before

    hits = store.search("m1", records[30].vector, limit=8, since=since, before=before)
    assert_same(hits, brute_force(records, records[30].vector, limit=8, keep=inside))
    # Without a window, rows without a timestamp are scored too.
    undated = [r for r in records if r.timestamp is None]
    everything = store.search("m1", undated[0].vector, limit=len(records))
    assert len(everything) == len(records)
    assert everything[0].event_id == undated[0].event_id
    # With only `before`, an undated row is still out.
    only_before = store.search("m1", undated[0].vector, limit=len(records), before=before)
    assert undated[0].event_id not in {h.event_id for h in only_before}
    assert len(only_before) == sum(1 for r in records if r.timestamp is not None and r.timestamp < before)


def test_filters_combine(store):
    records = make_records()
    store.upsert("m1", records)
    since = NOW - timedelta(hours=80)

    def keep(r):
        return r.project == "docs-site" and r.timestamp is not None and r.timestamp >= since

    hits = store.search("m1", records[3].vector, limit=50, projects=["docs-site"], since=since)
    assert_same(hits, brute_force(records, records[3].vector, limit=50, keep=keep))


def test_other_models_are_never_scored(store):
    first = make_records(40)
    second = [VectorRecord(f"other-{i}", r.vector, project=r.project, timestamp=r.timestamp)
              for i, r in enumerate(make_records(40, seed=9))]
    store.upsert("m1", first)
    store.upsert("m2", second)
    hits = store.search("m1", second[0].vector, limit=100)
    assert {h.event_id for h in hits} == {r.event_id for r in first}
    models = store.models()
    assert {tag: info.count for tag, info in models.items()} == {"m1": 40, "m2": 40}
    assert (store.count("m1"), store.count("m2"), store.count("m3")) == (40, 40, 0)
    assert store.ids("m2") == {r.event_id for r in second}


def test_upsert_replaces_a_vector_by_event_id(store):
    records = make_records(30)
    store.upsert("m1", records)
    moved = VectorRecord("evt-0004", -np.asarray(records[4].vector), project="infra",
                         timestamp=NOW)
    store.upsert("m1", [moved])
    hits = store.search("m1", moved.vector, limit=30)
    assert [h.event_id for h in hits].count("evt-0004") == 1
    assert hits[0].event_id == "evt-0004" and hits[0].score == pytest.approx(1.0, abs=SCORE_TOLERANCE)
    assert len(store.ids("m1")) == 30
    assert store.search("m1", moved.vector, limit=1, projects=["infra"])[0].event_id == "evt-0004"


def test_dimension_mismatch_on_write_and_on_query(store):
    store.upsert("m1", make_records(10, dim=12))
    with pytest.raises(DimensionMismatch):
        store.upsert("m1", make_records(3, dim=8, seed=5))
    with pytest.raises(DimensionMismatch):
        store.search("m1", np.ones(8), limit=3)
    # Nothing was lost by the refused write.
    assert len(store.ids("m1")) == 10


def test_drop_model_and_clear(store):
    store.upsert("m1", make_records(10))
    store.upsert("m2", [VectorRecord("x", np.ones(12), project="infra")])
    assert store.drop_model("m2") == 1
    assert set(store.models()) == {"m1"}
    assert store.search("m2", np.ones(12), limit=5) == []
    store.clear()
    assert store.models() == {}
    assert store.search("m1", np.ones(12), limit=5) == []


def test_many_small_writes_then_compact(store):
    records = make_records(60)
    for start in range(0, 60, 7):
        store.upsert("m1", records[start:start + 7])
    store.compact()
    query = records[11].vector
    assert_same(store.search("m1", query, limit=15), brute_force(records, query, limit=15))
    assert len(store.ids("m1")) == 60


def test_has_names_exactly_the_stored_ids_of_the_model(store):
    records = make_records(30)
    store.upsert("m1", records[:20])
    store.upsert("m2", records[20:25])
    asked = ["evt-0003", "evt-0019", "evt-0021", "evt-0029", "nope"]
    assert store.has("m1", asked).tolist() == [True, True, False, False, False]
    assert store.has("m2", asked).tolist() == [False, False, True, False, False]
    assert store.has("m1", []).tolist() == []


def test_nearest_answers_a_batch_as_one_search_per_vector_would(store):
    """The novelty gate's batch question: each vector's nearest stored vector of the model,
    across segments, other models never; a zero vector is near nothing (no hit, or Qdrant's
    score 0, which no gate threshold passes); an empty model has none."""
    records = make_records(90)
    for start in range(0, 60, 13):  # several segments
        store.upsert("m1", records[start:start + 13])
    store.upsert("m2", records[60:])
    rng = np.random.default_rng(11)
    queries = [records[5].vector, rng.normal(size=12), records[70].vector, np.zeros(12),
               rng.normal(size=12) * 1e-3]
    got = store.nearest("m1", np.asarray(queries))
    assert (got[3] is None or got[3].score == 0) and len(got) == len(queries)
    for hit, query in zip(got[:3] + got[4:], queries[:3] + queries[4:]):
        (score, event_id), = brute_force(records[:60], query, limit=1)
        assert hit.event_id == event_id and hit.score == pytest.approx(score, abs=SCORE_TOLERANCE)
    assert got[0].event_id == "evt-0005" and got[2].event_id != "evt-0070"
    assert store.nearest("m3", np.asarray(queries)) == [None] * len(queries)
