"""gated-prior decay, rrf-prior fusion (salience prior, semantic weight and gate)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search.api import DecayContext, Fused, Ladder, Query
from carto_core.search.engine import SearchEngine
from carto_rankers.decay import GatedExpDecay, GatedPriorDecay
from carto_rankers.rrf import RRFFusion, RRFPriorFusion

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)


@pytest.fixture
def engine(tmp_path):
    home = Home(tmp_path / "h")
    append_rows(home.log("tool-use"), [
        {"event_id": f"evt-{i:012d}", "timestamp": (NOW - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
         "summary": f"row {i}", "salience": sal} for i, sal in enumerate((1.0, 0.2, 0.5, 0.05))])
    return SearchEngine(home, persist=False)


def _ctx(engine, matches, text="q"):
    return DecayContext(now=NOW.timestamp(), query=Query(text, ("q",)), accesses={},
                        all_token_matches=matches, engine=engine)


def _fused(index, hours_old, holds=False):
    return Fused(index=index, score=0.01, fused_score=0.01, holds_all_tokens=holds,
                 timestamp=NOW.timestamp() - hours_old * 3600)


def test_a_question_in_own_words_keeps_most_of_an_old_memory(engine):
    """No document holds every term: a bounded prior (1 + 0.25 exp(-0.001 h)) / 1.25, never
    below four fifths, where exp buried a 200-day-old event at 0.008."""
    old, new = _fused(0, 24 * 200), _fused(1, 1)
    GatedPriorDecay().apply([old, new], _ctx(engine, 0))
    assert old.score == pytest.approx(0.01 * (1 + 0.25 * math.exp(-0.001 * 24 * 200)) / 1.25)
    assert old.score > 0.01 * 4 / 5 and new.score > old.score  # recency still breaks ties


def test_asking_for_the_latest_state_weighs_recency_more(engine):
    plain = _fused(0, 24 * 60)
    latest = _fused(0, 24 * 60)
    present = _fused(0, 24 * 60)
    GatedPriorDecay().apply([plain], _ctx(engine, 0, "where does my sister live"))
    GatedPriorDecay().apply([latest], _ctx(engine, 0, "where does my sister live now"))
    GatedPriorDecay().apply([present], _ctx(engine, 0, "where does my sister live at present"))
    r = math.exp(-0.001 * 24 * 60)
    assert latest.score == pytest.approx(0.01 * (1 + 0.75 * r) / 1.75)
    assert present.score == latest.score
    assert plain.score == pytest.approx(0.01 * (1 + 0.25 * r) / 1.25)


def test_lookups_skip_decay_and_are_lifted(engine):
    old = _fused(0, 24 * 300, holds=True)
    partial = _fused(1, 24 * 300)
    GatedPriorDecay().apply([old, partial], _ctx(engine, 3))
    assert old.gated and old.score == pytest.approx(0.03)
    assert not partial.gated and partial.score < 0.01


def test_a_vague_query_puts_its_newest_full_match_first(engine):
    """More than 10 full matches: the matches are lifted x3 and everything decays at
    0.2/h, so the newest match wins over a better-ranked older one and over newer partials."""
    newest = Fused(index=0, score=0.01, fused_score=0.01, holds_all_tokens=True,
                   timestamp=NOW.timestamp() - 1 * 3600)
    older = Fused(index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
                  timestamp=NOW.timestamp() - 6 * 3600)
    partial = Fused(index=2, score=0.02, fused_score=0.02, holds_all_tokens=False,
                    timestamp=NOW.timestamp() - 0.5 * 3600)
    GatedPriorDecay().apply([newest, older, partial], _ctx(engine, 40))
    # ages count from the newest full match: its decay is 1, the older one's exp(-0.2 x 5)
    assert newest.score == pytest.approx(0.01 * 3)
    assert older.score == pytest.approx(0.02 * 3 * math.exp(-0.2 * 5))
    assert newest.score > older.score and newest.score > partial.score
    assert not newest.gated


def test_a_vague_query_puts_an_old_full_match_above_a_newer_partial_one(engine):
    """"deploy staging" among busy work: the newest row holding both words is two days old,
    a row holding one of them an hour old. The fast decay alone (x3 lift) ranked the partial
    one first (exp(-0.2 x 47) is 8e-5); every full match now comes before every partial one,
    and the partial ones keep their order among themselves."""
    full = _fused(0, 48, holds=True)
    fresh = Fused(index=1, score=0.03, fused_score=0.03, timestamp=NOW.timestamp() - 3600)
    older = Fused(index=2, score=0.03, fused_score=0.03, timestamp=NOW.timestamp() - 5 * 3600)
    GatedPriorDecay().apply([full, fresh, older], _ctx(engine, 40))
    assert full.score > fresh.score > older.score > 0


def _lookup(engine, tokens, matches, rarest):
    return DecayContext(now=NOW.timestamp(), query=Query(" ".join(tokens), tuple(tokens)),
                        accesses={}, all_token_matches=matches, engine=engine,
                        rarest_holders=rarest)


def test_a_short_lookup_puts_its_newest_full_match_first(engine):
    """Two words that four rows hold in full (each word alone held by a few): the newest of
    the four first, whatever their keyword scores; kept apart like a lookup's matches."""
    newest = _fused(0, 30, holds=True)
    better = Fused(index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
                   timestamp=NOW.timestamp() - 200 * 3600)
    partial = Fused(index=2, score=0.03, fused_score=0.03, timestamp=NOW.timestamp() - 3600)
    GatedPriorDecay().apply([newest, better, partial], _lookup(engine, ["deploy", "stage"], 4, 6))
    assert newest.score > better.score > partial.score
    assert newest.gated and better.gated


def test_a_lookup_whose_words_are_each_generic_puts_its_newest_first(engine):
    newest = _fused(0, 30, holds=True)
    better = Fused(index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
                   timestamp=NOW.timestamp() - 200 * 3600)
    GatedPriorDecay().apply([newest, better], _lookup(engine, ["rotat", "key", "vault"], 3, 40))
    assert newest.score > better.score


def test_a_known_item_lookup_keeps_its_keyword_order(engine):
    """Three words, one of them rare (held by 2 rows): the better keyword match first,
    undecayed, whatever its age."""
    newest = _fused(0, 30, holds=True)
    better = Fused(index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
                   timestamp=NOW.timestamp() - 200 * 3600)
    GatedPriorDecay().apply([newest, better], _lookup(engine, ["quokka", "ledger", "schema"], 2, 2))
    assert better.score == pytest.approx(0.06) and newest.score == pytest.approx(0.03)
    # the same query with a single full match is a lookup too: undecayed
    one = _fused(0, 300, holds=True)
    GatedPriorDecay().apply([one], _lookup(engine, ["deploy", "stage"], 1, 6))
    assert one.score == pytest.approx(0.03) and one.gated


def test_rrf_prior_weighs_salience_as_a_bounded_prior(engine):
    ladder = Ladder("x", np.array([0, 1]), np.array([2.0, 1.0]))
    plain = {f.index: f.score for f in RRFFusion().fuse([ladder], engine)}
    prior = {f.index: f.score for f in RRFPriorFusion().fuse([ladder], engine)}
    assert plain[1] == pytest.approx(0.2 / 62)  # upstream: x salience
    assert prior[1] == pytest.approx((1 + 0.2) / 2 / 62)
    assert prior[0] == pytest.approx(1.0 / 61)


def test_rrf_prior_gates_and_weighs_the_semantic_ladder(engine):
    keyword = Ladder("tool-use", np.array([0]), np.array([1.0]), ranker="bm25", all_token_matches=0)
    semantic = Ladder("semantic", np.array([2, 0]), np.array([0.9, 0.8]), ranker="semantic")
    fused = {f.index: f for f in RRFPriorFusion().fuse([keyword, semantic], engine)}
    assert fused[2].score == pytest.approx(0.5 / 61 * (1 + 0.5) / 2)
    assert fused[0].score == pytest.approx((1 / 61 + 0.5 / 62) * (1 + 1.0) / 2)
    # a document holds every term: the keyword side answers alone
    keyword.all_token_matches = 1
    fused = RRFPriorFusion().fuse([keyword, semantic], engine)
    assert [f.index for f in fused] == [0] and fused[0].sources == ["tool-use"]
    # upstream's rrf keeps the semantic ladder at full weight, ungated
    assert {f.index for f in RRFFusion().fuse([keyword, semantic], engine)} == {0, 2}


def test_a_question_lets_the_semantic_ladder_join_when_a_row_holds_its_words(engine):
    """"What is in my garden now?" -> "garden": the one row holding it ("Garden centres are
    crowded") is not the answer; a gate meant for lookups left the question one result."""
    keyword = Ladder("tool-use", np.array([0]), np.array([1.0]), ranker="bm25", all_token_matches=1)
    semantic = Ladder("semantic", np.array([2, 0]), np.array([0.9, 0.8]), ranker="semantic")
    question = Query("what is in my garden now?", ("garden",), (), True)
    listed = Query("garden", ("garden",))
    asked = RRFPriorFusion().fuse([keyword, semantic], engine, query=question)
    assert {f.index for f in asked} == {0, 2}
    assert [f.index for f in RRFPriorFusion().fuse([keyword, semantic], engine, query=listed)] == [0]


def test_rrf_prior_weighs_a_keyword_match_by_its_share_of_the_query(engine):
    """Each log's ladder puts its own best partial match first: a row holding one rare-ish
    word of the question is weighed by that word's share of the query's idf."""
    full = Ladder("turns", np.array([0]), np.array([5.0]), ranker="bm25",
                  coverage=np.array([1.0]))
    partial = Ladder("tool-use", np.array([1, 2]), np.array([2.0, 1.0]), ranker="bm25",
                     coverage=np.array([0.25, 0.5]))
    fused = {f.index: f.score for f in RRFPriorFusion().fuse([full, partial], engine)}
    assert fused[0] == pytest.approx(1 / 61 * (1 + 1.0) / 2)
    assert fused[1] == pytest.approx(0.25 / 61 * (1 + 0.2) / 2)
    assert fused[2] == pytest.approx(0.5 / 62 * (1 + 0.5) / 2)
    # upstream's rrf: rank alone
    plain = {f.index: f.score for f in RRFFusion().fuse([full, partial], engine)}
    assert plain[1] == pytest.approx(0.2 / 61)


def _ledger_engine(tmp_path) -> SearchEngine:
    """Five tool rows: one rare word ("quokka") in one, a common one ("ledger") in four."""
    home = Home(tmp_path / "c")
    stamp = (NOW - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    texts = ["quokka ledger", "ledger one", "ledger two", "ledger three", "unrelated words"]
    append_rows(home.log("tool-use"), [{"event_id": f"evt-{i:012d}", "timestamp": stamp,
                                        "summary": t} for i, t in enumerate(texts)])
    return SearchEngine(home, persist=False)


def test_bm25_reports_each_candidates_share_of_the_query(tmp_path):
    from carto_rankers.bm25 import BM25Ranker

    engine = _ledger_engine(tmp_path)
    query = Query("quokka ledger", engine.analyzer.query("quokka ledger").terms)
    ranker = BM25Ranker()
    (ladder,) = ranker.rank(query, engine.scope(), engine)
    big_n = engine.index.n_alive
    idf_q, idf_l = ranker.idf(1, big_n), ranker.idf(4, big_n)
    share = dict(zip(ladder.indices.tolist(), ladder.coverage.tolist()))
    assert share[0] == pytest.approx(1.0)
    assert share[1] == share[2] == share[3] == pytest.approx(idf_l / (idf_q + idf_l))


def test_a_query_word_no_row_holds_still_counts_in_the_share(tmp_path):
    """"What bedtime plan ...": no row holds "bedtime", so a row holding "plan" holds a small
    share of the question, not all of what is left of it."""
    from carto_rankers.bm25 import BM25Ranker

    engine = _ledger_engine(tmp_path)
    text = "quokka ledger zebra"
    query = Query(text, engine.analyzer.query(text).terms)
    ranker = BM25Ranker()
    (ladder,) = ranker.rank(query, engine.scope(), engine)
    big_n = engine.index.n_alive
    idf_q, idf_l, idf_z = ranker.idf(1, big_n), ranker.idf(4, big_n), ranker.idf(0, big_n)
    share = dict(zip(ladder.indices.tolist(), ladder.coverage.tolist()))
    assert share[0] == pytest.approx((idf_q + idf_l) / (idf_q + idf_l + idf_z))
    assert share[1] == pytest.approx(idf_l / (idf_q + idf_l + idf_z))


def test_a_question_that_does_not_ask_for_the_latest_state_has_no_recency_prior(engine):
    """"What did you suggest for my loaves?" asks for a memory of any age: a 200-day-old
    match and an hour-old one of the same fused score stay equal (the prior of 0.25 put the
    newer a fifth ahead, more than fifteen ranks of a ladder). Asked for the latest state,
    recency weighs as before; a query that is no question keeps the 0.25 prior."""
    question = Query("what did you suggest for my loaves?", ("suggest", "loav"), (), True)
    old, new = _fused(0, 24 * 200), _fused(1, 1)
    GatedPriorDecay().apply([old, new], DecayContext(
        now=NOW.timestamp(), query=question, accesses={}, all_token_matches=0, engine=engine))
    assert old.score == new.score == pytest.approx(0.01)
    latest = Query("what do I bake now?", ("bake",), (), True)
    old, new = _fused(0, 24 * 200), _fused(1, 1)
    GatedPriorDecay().apply([old, new], DecayContext(
        now=NOW.timestamp(), query=latest, accesses={}, all_token_matches=0, engine=engine))
    assert old.score == pytest.approx(0.01 * (1 + 0.75 * math.exp(-0.001 * 24 * 200)) / 1.75)
    assert new.score > old.score


def test_the_question_prior_is_a_knob(engine, monkeypatch):
    from carto_core.search.decay_knobs import QUESTION_BETA, decay_parameters

    assert QUESTION_BETA == 0.0 and decay_parameters()["question_beta"] == 0.0
    monkeypatch.setenv("CARTO_DECAY_QUESTION_BETA", "0.25")
    params = decay_parameters()
    old = _fused(0, 24 * 200)
    GatedPriorDecay().apply([old], DecayContext(
        now=NOW.timestamp(), query=Query("what did you suggest?", ("suggest",), (), True),
        accesses={}, all_token_matches=0, engine=engine, **params))
    assert old.score == pytest.approx(0.01 * (1 + 0.25 * math.exp(-0.001 * 24 * 200)) / 1.25)


def test_the_semantic_ladder_weighs_what_no_keyword_candidate_covers(engine):
    """The best keyword candidate holds a quarter of the question's idf mass: a semantic
    ladder whose model lifts 1 (wordllama) weighs 0.5 x (1 + 0.75); it keeps 0.5 when a
    candidate holds the whole query, reaches 1.0 (a keyword ladder's weight) when no keyword
    ladder has a candidate, and a keyword ladder that does not tell its coverage is taken to
    hold the whole query. A model that lifts 0 (lsa) keeps 0.5."""
    semantic = Ladder("semantic", np.array([2, 0]), np.array([0.9, 0.8]), ranker="semantic",
                      uncovered_lift=1.0)
    partial = Ladder("tool-use", np.array([0]), np.array([1.0]), ranker="bm25",
                     all_token_matches=0, coverage=np.array([0.25]))
    fused = {f.index: f.score for f in RRFPriorFusion().fuse([partial, semantic], engine)}
    assert fused[2] == pytest.approx(0.5 * 1.75 / 61 * (1 + 0.5) / 2)
    assert fused[0] == pytest.approx((0.25 / 61 + 0.5 * 1.75 / 62) * (1 + 1.0) / 2)
    full = Ladder("tool-use", np.array([0, 1]), np.array([2.0, 1.0]), ranker="bm25",
                  all_token_matches=0, coverage=np.array([0.4, 1.0]))
    fused = {f.index: f.score for f in RRFPriorFusion().fuse([full, semantic], engine)}
    assert fused[2] == pytest.approx(0.5 / 61 * (1 + 0.5) / 2)
    alone = {f.index: f.score for f in RRFPriorFusion().fuse([semantic], engine)}
    assert alone[2] == pytest.approx(1.0 / 61 * (1 + 0.5) / 2)
    untold = Ladder("tool-use", np.array([0]), np.array([1.0]), ranker="bm25", all_token_matches=0)
    fused = {f.index: f.score for f in RRFPriorFusion().fuse([untold, semantic], engine)}
    assert fused[2] == pytest.approx(0.5 / 61 * (1 + 0.5) / 2)
    # upstream's rrf weighs the semantic ladder 1 whatever the keyword side covers
    plain = {f.index: f.score for f in RRFFusion().fuse([partial, semantic], engine)}
    assert plain[2] == pytest.approx(1.0 / 61 * 0.5)
    semantic.uncovered_lift = 0.0
    fused = {f.index: f.score for f in RRFPriorFusion().fuse([partial, semantic], engine)}
    assert fused[2] == pytest.approx(0.5 / 61 * (1 + 0.5) / 2)


class _FakeSearcher:
    """A semantic searcher answering `hits` for any text, with `embedder` for the ranker to
    read (its lift, the row types it leaves out)."""

    centred = False

    def __init__(self, embedder, hits):
        from carto_core.semantic.settings import SemanticSettings

        self.embedder, self.hits, self.settings = embedder, hits, SemanticSettings()

    def status(self, refresh=False):
        return type("S", (), {"available": False})()

    def floor_for(self, cosine):
        return -1.0

    def evidence_floors(self):
        from carto_core.semantic.searcher import SemanticSearcher

        return SemanticSearcher.evidence_floors(self)

    def search(self, text, **kwargs):
        return list(self.hits)


def test_the_semantic_ladder_carries_its_models_lift(engine, monkeypatch):
    """The semantic ranker sets the ladder's `uncovered_lift` from its embedder: wordllama 1,
    lsa and the base class 0 (lsa's ladder lost questions when lifted)."""
    from carto_core.logio.home import Home
    from carto_core.search.api import Scope
    from carto_core.semantic.embedder import Embedder
    from carto_core.semantic.store import Hit
    from carto_rankers.embedders.lsa import LsaEmbedder
    from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder
    from carto_rankers.semantic_plugin import SemanticRanker

    assert (WordLlamaEmbedder.uncovered_lift, LsaEmbedder.uncovered_lift,
            Embedder.uncovered_lift) == (1.0, 0.0, 0.0)

    scope = Scope(mask=None)
    hits = [Hit("evt-000000000002", 0.4), Hit("evt-000000000000", 0.3)]
    for model, lift in ((WordLlamaEmbedder, 1.0), (LsaEmbedder, 0.0)):
        ranker = SemanticRanker()
        searcher = _FakeSearcher(model(Home(engine.home.root)), hits)
        monkeypatch.setattr(ranker, "searcher", lambda engine, s=searcher: s)
        (ladder,) = ranker.rank(Query("what sport", ("sport",)), scope, engine)
        assert ladder.indices.tolist() == [2, 0] and ladder.uncovered_lift == lift


def test_a_one_word_question_is_not_a_short_lookup(engine):
    """"What do I work as now?" holds one content word that several rows hold: its answer may
    say it in other words, so the rows holding "work" do not go first by date, and a row
    holding no query word (a semantic candidate) is not put under them."""
    older = Fused(index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
                  timestamp=NOW.timestamp() - 200 * 3600)
    meaning = Fused(index=2, score=0.05, fused_score=0.05, timestamp=NOW.timestamp() - 300 * 3600)
    context = DecayContext(now=NOW.timestamp(), query=Query("What do I work as now?", ("work",),
                                                            question=True),
                           accesses={}, all_token_matches=3, engine=engine, rarest_holders=3)
    GatedPriorDecay().apply([older, meaning], context)
    assert older.gated and older.score == pytest.approx(0.06)
    assert meaning.score > 0.05 * 0.5  # the prior only: not scaled under the full matches


def _unheld(engine, matches, rarest, text="backfill orders recap"):
    tokens = tuple(text.split())
    return DecayContext(now=NOW.timestamp(), query=Query(text, tokens), accesses={},
                        all_token_matches=matches, engine=engine, rarest_holders=rarest,
                        unheld_words=1)


@pytest.mark.parametrize("policy", [GatedPriorDecay, GatedExpDecay])
def test_beside_a_word_no_row_holds_generic_words_have_full_matches_and_rare_ones_not(engine,
                                                                                     policy):
    """"backfill orders recap", no row saying "recap": each held word in 40 rows, so the 3
    rows holding both are the query's full matches (newest first under gated-prior). With a
    held word in 5 rows ("What languages does Jon speak?") they are not: no lift, no
    ordering by date, as when no row held every word."""
    newest = _fused(0, 30, holds=True)
    better = Fused(index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
                   timestamp=NOW.timestamp() - 200 * 3600)
    policy().apply([newest, better], _unheld(engine, 3, 40))
    if policy is GatedPriorDecay:
        assert newest.score > better.score
    assert newest.gated and better.gated
    newest, better = _fused(0, 30, holds=True), Fused(
        index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
        timestamp=NOW.timestamp() - 200 * 3600)
    policy().apply([newest, better], _unheld(engine, 3, 5))
    assert not newest.gated and not better.gated
    assert better.score > newest.score and newest.boost == 1.0
    # the bound: held by 10 rows is not generic, by 11 it is
    for rarest, generic in ((10, False), (11, True)):
        row = _fused(0, 30, holds=True)
        policy().apply([row], _unheld(engine, 3, rarest))
        assert row.gated is generic
    # the same rare words with every word held: a lookup, lifted
    lifted = _fused(0, 30, holds=True)
    policy().apply([lifted], _lookup(engine, ["jon", "speak"], 3, 5))
    assert lifted.gated


@pytest.mark.parametrize("text, question, full", [
    ("backfill orders recap", False, True),
    ("did the backfill orders happen yet", True, True),
    ("what's new with the backfill orders", True, True),
    ("backfill orders - where do things stand?", True, True),
    ("latest backfill orders summary?", True, True),
    ("What medical tests has Maya had?", True, False),   # generic held words, but a question
])
def test_beside_a_word_no_row_holds_a_question_must_ask_how_things_stand(engine, text,
                                                                       question, full):
    row = _fused(0, 30, holds=True)
    context = DecayContext(now=NOW.timestamp(), query=Query(text, ("a", "b", "c"),
                                                            question=question),
                           accesses={}, all_token_matches=3, engine=engine, rarest_holders=40,
                           unheld_words=1)
    GatedPriorDecay().apply([row], context)
    assert row.gated is full


def test_a_topic_matched_apart_from_other_words_lets_the_semantic_ladder_join(engine):
    """Rows hold the topic ("rollout flags"), none with the rest of the query ("going"):
    not the query matched in full, so the semantic gate stays open as beside a word no row
    holds."""
    keyword = Ladder("tool-use", np.array([0]), np.array([1.0]), ranker="bm25",
                     all_token_matches=1, apart=1)
    semantic = Ladder("semantic", np.array([2, 0]), np.array([0.9, 0.8]), ranker="semantic")
    assert {f.index for f in RRFPriorFusion().fuse([keyword, semantic], engine)} == {0, 2}
    keyword.apart = 0
    assert [f.index for f in RRFPriorFusion().fuse([keyword, semantic], engine)] == [0]


def _apart(engine, text, question, rarest, unheld=0, apart=1, together=None):
    return DecayContext(now=NOW.timestamp(), query=Query(text, ("a", "b", "c"),
                                                         question=question),
                        accesses={}, all_token_matches=3, engine=engine, rarest_holders=rarest,
                        unheld_words=unheld, apart_words=apart, together=together)


@pytest.mark.parametrize("text, question, rarest, unheld, together, full", [
    ("rollout flags going", False, 40, 0, None, True),
    ("rollout flags - how is it going?", True, 40, 0, 6.0, True),  # words that go together
    ("rollout flags - how is it going?", True, 40, 0, 1.0, False),  # as by chance: no topic
    ("rollout flags - how is it going?", True, 40, 0, 1.01, True),
    ("rollout flags - how is it going?", True, 40, 0, None, False),
    ("rollout flags - how is it going?", True, 10, 0, 6.0, False),  # a word in 10 rows
    ("rollout flags - how is it going?", True, 11, 0, 6.0, True),
    ("catch me up on the rollout flags", False, 40, 1, 0.2, True),  # and a word no row holds
    ("Which rollout flags has Maya caught up on?", True, 40, 1, 0.2, False),
    ("Which rollout flags has Maya caught up on?", True, 40, 1, 6.0, True),
    ("any news on the rollout flags yet?", True, 40, 1, 0.2, True),  # asks how it stands
])
def test_a_topic_beside_words_held_apart_is_the_full_match_when_every_word_is_generic(
        engine, text, question, rarest, unheld, together, full):
    """Every held word generic, and a question's words going together more than by chance
    (or a question asking how things stand in words the analyzer knows)."""
    newest, better = _fused(0, 30, holds=True), Fused(
        index=1, score=0.02, fused_score=0.02, holds_all_tokens=True,
        timestamp=NOW.timestamp() - 200 * 3600)
    GatedPriorDecay().apply([newest, better],
                            _apart(engine, text, question, rarest, unheld, together=together))
    assert newest.gated is full and better.gated is full
    assert (newest.score > better.score) is full


@pytest.mark.parametrize("together, full", [(0.17, False), (None, False), (8.0, True)])
def test_beside_a_word_no_row_holds_a_question_whose_words_go_together_is_a_topic(
        engine, together, full):
    """"what came of the hydrate sandbox": no row says "came", and the rows saying
    "hydrate sandbox" (their words together 8 times what chance would give) are its full
    matches; "What medical tests has Maya had?": "Maya" and "test" meet less than by chance
    (0.17), and the rows saying both are not its answer."""
    row = _fused(0, 30, holds=True)
    GatedPriorDecay().apply([row], _apart(engine, "what came of the hydrate sandbox", True,
                                          40, unheld=1, apart=0, together=together))
    assert row.gated is full


@pytest.mark.parametrize("text, tokens, question, together, full", [
    # two held words, two no row holds: the held half is a topic when it goes together
    ("how's the harden firewall coming along?", ("harden", "firewal", "come", "along"), True,
     8.0, True),
    ("how's the harden firewall coming along?", ("harden", "firewal", "come", "along"), True,
     1.0, False),
    ("harden firewall coming along", ("harden", "firewal", "come", "along"), False, 8.0, True),
    ("harden firewall coming along", ("harden", "firewal", "come", "along"), False, None, False),
    ("latest harden firewall coming along", ("harden", "firewal", "come", "along"), False, 0.5,
     False),  # asking how it stands is not enough for as many unheld words
    # fewer unheld than held: as before, a non-question needs no association
    ("harden firewall recap", ("harden", "firewal", "recap"), False, 0.5, True),
])
def test_as_many_unheld_words_as_held_ones_need_the_held_ones_to_go_together(
        engine, text, tokens, question, together, full):
    unheld = 2 if len(tokens) == 4 else 1
    row = _fused(0, 30, holds=True)
    context = DecayContext(now=NOW.timestamp(), query=Query(text, tokens, question=question),
                           accesses={}, all_token_matches=3, engine=engine, rarest_holders=40,
                           unheld_words=unheld, together=together)
    GatedPriorDecay().apply([row], context)
    assert row.gated is full


def _topic_ladders(engine, topic):
    """Tool row 1 holds the topic ("preload fonts", with row 0 and prompt 2); prompts 3-6
    hold one of its words, and the semantic ladder ranks them right after prompt 2."""
    tool = engine.index.strings["types"].index("tool_bash")
    keyword = Ladder("tool-use", np.array([0, 1]), np.array([2.0, 1.9]), ranker="bm25",
                     all_token_matches=0, coverage=np.array([0.2, 0.2]), unheld=4,
                     topic_holders=topic)
    prompts = Ladder("prompts", np.array([2, 3, 4, 5, 6]), np.array([2.0, 1.0, 0.9, 0.8, 0.7]),
                     ranker="bm25", all_token_matches=0,
                     coverage=np.array([0.2, 0.1, 0.1, 0.1, 0.1]), unheld=4,
                     topic_holders=topic)
    semantic = Ladder("semantic", np.array([2, 3, 4, 5, 6]), np.array([0.9, 0.8, 0.7, 0.6, 0.5]),
                      ranker="semantic", uncovered_lift=1.0, unseen_types=(tool,))
    return [keyword, prompts, semantic]


def test_a_row_the_semantic_ladder_never_holds_is_not_out_ranked_by_rows_holding_less_of_its_topic(
        typed_engine):
    """"quick one - preload fonts, how did that pan out?": the tool rows saying "preload
    fonts" have their keyword contribution only (minilm never embeds a tool row), and every
    prompt saying "fonts" that the semantic ladder ranks went over them. They now come just
    above the best of those, in their own order, and under the prompt holding the topic
    that both ladders rank first."""
    engine = typed_engine
    question = Query("quick one - preload fonts, how did that pan out?",
                     ("quick", "one", "preload", "font", "pan", "out"), (), True)

    def order(ladders, fusion=RRFPriorFusion()):
        fused = fusion.fuse(ladders, engine, query=question)
        return [f.index for f in sorted(fused, key=lambda f: (-f.score, f.index))]

    topic = np.array([0, 1, 2])
    before = order(_topic_ladders(engine, topic), type("Plain", (RRFPriorFusion,),
                                                       {"unseen_topic": False})())
    assert before[:5] == [2, 3, 4, 5, 6] and set(before[5:]) == {0, 1}
    assert order(_topic_ladders(engine, topic)) == [2, 0, 1, 3, 4, 5, 6]
    # no topic (its words meet by chance: "Maya" and "test"), or a semantic ladder that holds
    # every kind of row: as before
    assert order(_topic_ladders(engine, None)) == before
    ladders = _topic_ladders(engine, topic)
    ladders[2].unseen_types = ()
    assert order(ladders) == before
    # keyword ladders alone: nothing was lifted over the tool rows, nothing to undo
    ladders = _topic_ladders(engine, topic)[:2]
    alone = order(ladders, type("Plain", (RRFPriorFusion,), {"unseen_topic": False})())
    assert order(ladders) == alone


def _full_match_ladders(full: bool):
    """Prompt 2 holds every held word of the question (its topic, words going together),
    first in its keyword ladder; prompts 3-6 hold one of them, and the semantic ladder ranks
    them first and never reaches prompt 2 (its first places: a name's short rows). `full`
    False: no row holds every held word, the topic is the largest set rows hold together."""
    topic = np.array([2])
    holds = np.array([True, False, False, False, False]) if full else None
    keyword = Ladder("prompts", np.array([2, 3, 4, 5, 6]), np.array([9.0, 2.0, 1.9, 1.8, 1.7]),
                     holds, ranker="bm25", all_token_matches=1 if full else 0,
                     coverage=np.array([0.6, 0.1, 0.1, 0.1, 0.1]), unheld=1, topic_holders=topic)
    semantic = Ladder("semantic", np.array([3, 4, 5, 6]), np.array([0.6, 0.6, 0.6, 0.5]),
                      ranker="semantic", uncovered_lift=1.0)
    return [keyword, semantic]


def test_a_row_holding_every_held_word_of_a_question_is_not_out_ranked_by_rows_holding_less(
        typed_engine):
    """"What was the outcome of Marco's presentation to the board?": the row holding
    "presentation" and "board" (the asking turn, whose reply is the answer) was first of the
    keyword side and 200th of the semantic ladder, under copies of "Marco: Finally."; a row
    holding one word and first semantically went over it. A full match of the held words
    now comes just above the rows holding less; rows the semantic ladder holds keep their
    order when the topic is only the largest set of words rows hold together, and nothing
    changes without a semantic ladder."""
    engine = typed_engine
    question = Query("What was the outcome of Marco's presentation to the board?",
                     ("outcom", "marco", "present", "board"), (), True)
    plain = type("Plain", (RRFPriorFusion,), {"unseen_topic": False})()

    def order(ladders, fusion=RRFPriorFusion()):
        fused = fusion.fuse(ladders, engine, query=question)
        return [f.index for f in sorted(fused, key=lambda f: (-f.score, f.index))]

    before = order(_full_match_ladders(True), plain)
    assert before[0] == 3 and before.index(2) > 0
    assert order(_full_match_ladders(True)) == [2] + [i for i in before if i != 2]
    assert order(_full_match_ladders(False)) == order(_full_match_ladders(False), plain)
    alone = _full_match_ladders(True)[:1]
    assert order(alone) == order(alone, plain)


def test_the_semantic_ladder_names_the_row_types_its_embedder_leaves_out(typed_engine, monkeypatch):
    """minilm leaves tool rows to the keyword ladders; with rows = "all" it embeds them."""
    from carto_core.search.api import Scope
    from carto_core.semantic.store import Hit
    from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder
    from carto_rankers.semantic_plugin import SemanticRanker

    engine = typed_engine
    types = engine.index.strings["types"]

    for options, unseen in (({}, {"tool_bash"}), ({"rows": "all"}, set())):
        ranker = SemanticRanker()
        searcher = _FakeSearcher(MiniLMEmbedder(engine.home, options), [Hit("evt-000000000002", 0.4)])
        monkeypatch.setattr(ranker, "searcher", lambda engine, s=searcher: s)
        (ladder,) = ranker.rank(Query("fonts", ("font",)), Scope(mask=None), engine)
        assert {types[code] for code in ladder.unseen_types} == unseen


def _said(when: datetime, index: int = 0) -> Fused:
    return Fused(index=index, score=0.01, fused_score=0.01, holds_all_tokens=False,
                 timestamp=when.timestamp())


def test_a_month_named_in_a_question_lifts_the_rows_said_in_it_and_the_month_after(engine):
    """docs/ranking.md, "A month named in the question": x2 from the first of the month to the
    first of the month after next; the rows of a question naming no month as before."""
    text = "What position was Hana offered in November 2025?"
    said = {day: _said(day, i) for i, day in enumerate([
        datetime(2025, 10, 31, 23, 59, tzinfo=timezone.utc),  # the day before: not lifted
        datetime(2025, 11, 1, tzinfo=timezone.utc),  # the first instant of the month
        datetime(2025, 12, 31, 23, 59, tzinfo=timezone.utc),  # the last minute of the next
        datetime(2026, 1, 1, tzinfo=timezone.utc)])}  # the month after next: not lifted
    GatedPriorDecay().apply(list(said.values()), _ctx(engine, 0, text))
    plain = {day: _said(day, i) for i, day in enumerate(said)}
    GatedPriorDecay().apply(list(plain.values()), _ctx(engine, 0, text.replace(" 2025", "")))
    lifted = [said[day].score / plain[day].score for day in said]
    assert lifted == pytest.approx([1.0, 2.0, 2.0, 1.0])
    assert [said[day].boost for day in said] == pytest.approx([1.0, 2.0, 2.0, 1.0])
    # December's window runs into the next year
    dec = [_said(datetime(2026, 1, 20, tzinfo=timezone.utc)), _said(datetime(2026, 2, 1, tzinfo=timezone.utc), 1)]
    GatedPriorDecay().apply(dec, _ctx(engine, 0, "what happened in December 2025?"))
    base = [_said(datetime(2026, 1, 20, tzinfo=timezone.utc)), _said(datetime(2026, 2, 1, tzinfo=timezone.utc), 1)]
    GatedPriorDecay().apply(base, _ctx(engine, 0, "what happened in December?"))
    assert [d.score / b.score for d, b in zip(dec, base)] == pytest.approx([2.0, 1.0])


@pytest.mark.parametrize("text, named", [
    ("What position was Hana offered in November 2025?", (2025, 11)),
    ("may 2026 rollout notes", (2026, 5)), ("since MARCH 1999", (1999, 3)),
    ("What did Hana do in November?", None), ("May I ask about 2025?", None),
    ("the 2025 November plan", None)])
def test_which_queries_name_a_month(text, named):
    from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer

    assert EnglishAnalyzer().names_a_month(text) == named
    assert UnicodeAnalyzer().names_a_month(text) is None  # no month names known
