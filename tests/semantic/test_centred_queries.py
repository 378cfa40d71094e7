"""Centred queries: the semantic ladder scores q.d - centre * m.d, m the mean of the home's
stored vectors, so rows close to every query (the common direction of static word vectors)
stop topping every question (docs/ranking.md, "Centred queries")."""

from __future__ import annotations

import numpy as np
import pytest

from carto_core.semantic import embedded
from carto_core.semantic.embedded import EmbeddedStore
from carto_core.semantic.searcher import SemanticSearcher
from carto_core.semantic.settings import SemanticSettings
from carto_core.semantic.store import VectorRecord, VectorStore

from .test_store_contract import make_records

MODEL = "m1"


def _unit(v):
    v = np.asarray(v, np.float32)
    return v / np.linalg.norm(v)


def _stored(records, first=None) -> np.ndarray:
    """The rows as the embedded store keeps them, in float64: unit rows as int8 around the
    model's centre (the mean of its first write, `first`: these records when not given)."""
    centre = np.stack([_unit(r.vector) for r in (first or records)]).mean(0, dtype=np.float32)
    codes, scale = embedded.quantize(np.stack([_unit(r.vector) for r in records]), centre)
    return (codes.astype(np.float64) * scale.astype(np.float64)[:, None]
            + centre.astype(np.float64))


def test_centroid_is_the_mean_of_every_stored_row_across_segments(tmp_path):
    store = EmbeddedStore(tmp_path / "v")
    assert store.centroid(MODEL) is None  # nothing stored: nothing to take off
    first, second = make_records(30, seed=1), make_records(70, seed=2)
    second = [VectorRecord(f"b-{r.event_id}", r.vector, project=r.project,
                           timestamp=r.timestamp) for r in second]
    store.upsert(MODEL, first)
    store.upsert(MODEL, second)
    assert len(store._model_segments(MODEL)) == 2
    expected = _stored(first + second, first).mean(0)
    # weighted by rows, not the mean of the two segments' means
    assert np.allclose(store.centroid(MODEL), expected, atol=1e-6)
    assert not np.allclose(store.centroid(MODEL),
                           (_stored(first).mean(0) + _stored(second, first).mean(0)) / 2, atol=1e-3)
    assert store.centroid("other-model") is None


def test_each_segment_keeps_its_exact_row_sum_and_the_store_reads_only_that(tmp_path):
    store = EmbeddedStore(tmp_path / "v")
    records = make_records(40, seed=4)
    store.upsert(MODEL, records)
    (segment,) = store._model_segments(MODEL)
    saved = np.load(segment.folder / embedded.ROW_SUM)
    assert np.allclose(saved, _stored(records).sum(0), atol=1e-9)
    segment.vectors = None  # a search reads the sum, not the rows
    assert np.allclose(EmbeddedStore(tmp_path / "v").centroid(MODEL), saved / 40)
    assert np.allclose(store.centroid(MODEL), saved / 40)


def test_a_large_segment_is_estimated_from_a_bounded_sample(tmp_path, monkeypatch):
    monkeypatch.setattr(embedded, "CENTROID_SAMPLE", 250)
    rng = np.random.default_rng(5)
    lean = _unit(rng.normal(size=16))
    rows = [VectorRecord(f"e{i}", _unit(lean * 3 + rng.normal(size=16)), project="p",
                         timestamp=None) for i in range(2000)]
    store = EmbeddedStore(tmp_path / "v")
    store.upsert(MODEL, rows)
    (segment,) = store._model_segments(MODEL)
    (segment.folder / embedded.ROW_SUM).unlink()  # a segment written before the file existed
    read = []
    real = segment.vectors

    class Spy:
        def __getitem__(self, key):
            part = real[key]
            read.append(len(part))
            return part

    segment.vectors = Spy()
    got = store.centroid(MODEL)
    assert sum(read) <= 250
    assert np.abs(got - _stored(rows).mean(0)).max() < 0.05
    assert store.centroid(MODEL) is got or np.array_equal(store.centroid(MODEL), got)
    assert sum(read) <= 250  # memoised: the segment is not read again


def test_a_store_that_cannot_say_leaves_the_query_as_it_is():
    assert VectorStore.centroid(object.__new__(VectorStore), MODEL) is None


class _FixedEmbedder:
    """One query vector for every text (what the test needs of an embedder)."""

    model_tag = MODEL
    centre = 0.0
    min_score = 0.3

    def __init__(self, vector):
        self.vector = np.asarray(vector, np.float32)

    def check(self):
        return None

    def embed_query(self, text):
        return self.vector


def _hub_home(tmp_path, query):
    """60 generic rows leaning one way (g), one evidence row (e, orthogonal to g), one far row;
    the query is nearer the generic rows (0.75) than the evidence (0.66)."""
    dim = 8
    g, e, far = np.eye(dim)[0], np.eye(dim)[1], np.eye(dim)[2]
    rng = np.random.default_rng(3)
    records = [VectorRecord(f"generic-{i}", _unit(g + 0.05 * rng.normal(size=dim)), project="p",
                            timestamp=None) for i in range(60)]
    records += [VectorRecord("evidence", e, project="p", timestamp=None),
                VectorRecord("far", far, project="p", timestamp=None)]
    store = EmbeddedStore(tmp_path / "v")
    store.upsert(MODEL, records)
    searcher = SemanticSearcher(home=None, settings=SemanticSettings())
    searcher._embedder = _FixedEmbedder(query)
    searcher._store = store
    return searcher


def test_a_centred_query_finds_the_evidence_the_rows_near_every_query_hid(tmp_path):
    query = _unit(0.75 * np.eye(8)[0] + 0.66 * np.eye(8)[1])
    searcher = _hub_home(tmp_path, query)
    plain = [h.event_id for h in searcher.search("q", limit=5)]
    assert plain[0].startswith("generic-") and "evidence" not in plain and not searcher.centred
    centred = searcher.search("q", limit=5, centre=1.0)
    assert centred[0].event_id == "evidence" and searcher.centred
    # the score is the centred query's cosine: q.d - m.d over |q - m|
    m = searcher._store.centroid(MODEL)
    q_c = query - m
    assert centred[0].score == pytest.approx(float(q_c @ np.eye(8)[1] / np.linalg.norm(q_c)),
                                             abs=2e-3)
    # a cosine floor on that scale: a row at cosine 0.1 and the average closeness to the mean
    assert searcher.floor_for(0.1) == pytest.approx((0.1 - float(m @ m)) / np.linalg.norm(q_c),
                                                    rel=1e-5)
    searcher.search("q", limit=5)
    assert searcher.floor_for(0.1) == 0.1  # an uncentred query: the cosine itself


def test_the_relevance_floors_are_the_settings_or_the_models_on_the_querys_scale(tmp_path):
    """`evidence_floors`, read by the semantic ladder and by the team's rows alike: the
    settings' floor before the model's, the model's band, both translated for a centred
    query; none for a model never measured for one."""
    query = _unit(0.75 * np.eye(8)[0] + 0.66 * np.eye(8)[1])
    searcher = _hub_home(tmp_path, query)
    searcher._embedder.evidence_floor, searcher._embedder.evidence_band = 0.22, 0.35
    searcher.search("q", limit=5)
    assert searcher.evidence_floors() == (0.22, 0.35)
    searcher.settings.evidence_floor = 0.3
    assert searcher.evidence_floors() == (0.3, 0.35)
    searcher.search("q", limit=5, centre=1.0)
    assert searcher.centred
    assert searcher.evidence_floors() == (searcher.floor_for(0.3), searcher.floor_for(0.35))
    assert searcher.floor_for(0.3) != 0.3
    searcher._embedder.evidence_band = None
    assert searcher.evidence_floors() == (searcher.floor_for(0.3), None)
    searcher.settings.evidence_floor = searcher._embedder.evidence_floor = None
    assert searcher.evidence_floors() == (None, None)


def test_the_ladder_takes_the_share_from_settings_then_the_embedder_and_translates_its_floor(
        tmp_path, monkeypatch):
    """The ranker's wiring: `[semantic] centre` (CARTO_SEMANTIC_CENTRE) wins over the
    embedder's own share; a centred ladder's floor is the model's cosine floor on the centred
    scale (`floor_for`: here the evidence scores below wordllama's 0.1 and still joins; its
    evidence floor, 0.22, is translated the same way), the cosine itself when the store could
    not centre the query."""
    from carto_core.logio.home import Home
    from carto_core.search.api import Query
    from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder
    from carto_rankers.semantic_plugin import SemanticRanker

    assert WordLlamaEmbedder.centre == 1.0
    seen, floors = [], []

    class FakeSearcher:
        settings = SemanticSettings()
        embedder = WordLlamaEmbedder(Home(tmp_path / "h"))

        def status(self, refresh=False):
            return type("S", (), {"available": False})()

        centred = False

        def floor_for(self, cosine):
            floors.append(cosine)
            return cosine - 0.2 if self.centred else cosine

        def evidence_floors(self):
            return SemanticSearcher.evidence_floors(self)

        def search(self, text, *, limit, projects, since, before, ids, centre):
            seen.append(centre)
            self.centred = bool(centre) and self.can_centre
            from carto_core.semantic.store import Hit

            return [Hit("evt-a", 0.42), Hit("evt-b", 0.04), Hit("evt-c", -0.2)]

    FakeSearcher.can_centre = True
    ranker = SemanticRanker()
    monkeypatch.setattr(ranker, "searcher", lambda engine: FakeSearcher())
    kept = []

    def from_event_ids(name, ids, scores, engine, **kwargs):
        kept.append(list(ids))
        return type("FakeLadder", (), {})()  # the ranker sets the model's uncovered_lift on it

    monkeypatch.setattr("carto_rankers.semantic_plugin.Ladder.from_event_ids", from_event_ids)
    scope = type("Scope", (), {"project": None, "project_values": (), "served_ids": (),
                               "intent": None, "since": None, "before": None})()
    ranker.rank(Query("what sport", ("sport",)), scope, None)
    assert seen == [1.0] and floors == [0.1, 0.22] and kept[-1] == ["evt-a", "evt-b"]
    FakeSearcher.can_centre = False  # a store without a centroid (Qdrant): cosines, floored
    ranker.rank(Query("what sport", ("sport",)), scope, None)
    assert seen[-1] == 1.0 and kept[-1] == ["evt-a"]
    FakeSearcher.settings = SemanticSettings.load(env={"CARTO_SEMANTIC_CENTRE": "0"})
    assert FakeSearcher.settings.centre == 0.0
    ranker.rank(Query("what sport", ("sport",)), scope, None)
    assert seen[-1] == 0.0 and kept[-1] == ["evt-a"]  # uncentred: wordllama's 0.1 floor again
