"""The relevance floor's second look with minilm: in the band from 0.22 to 0.35, a search found
something only when a top row holds a counterpart for the query's words the home never saw
(docs/ranking.md, "The relevance floor")."""

from __future__ import annotations

import numpy as np
import pytest

from carto_core.logio.home import Home
from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder

#: A life in one's own words, and a little coding work.
ROWS = ["My aunt is planning grandpa's ninetieth party.", "It rained all weekend, the garden is soaked.",
        "Remind me to drink more water.", "I sold the car and now drive a Skoda Octavia.",
        "We booked flights to the Dolomites for October.",
        "the staging deploy failed on the database migration",
        "rotated the API tokens for the payment provider",
        "Birdwatching at dawn is my new favourite thing.", "Second-hand shops have great finds.",
        "Airports are chaos in the summer."]
#: Nearest row in the band for both: one is answered by it, the other never was.
VAGUE = "What have I told you about my relatives?"     # "My aunt ... grandpa's ..." (0.34)
UNSEEN = "Where are we with the airflow DAG backfill?"  # "We booked flights ..." (0.25)
#: Unseen, and its telling word one the vocabulary cuts (falcon ##ry): the mean of its pieces
#: aligns with the row about birds, which says nothing of falconry.
CUT = "What happened with the falconry lesson?"
#: Unseen and in the band: its unheld words align 0.22 with a top row (the pieces of
#: or ##th ##odon ##tist among them), so the second look lets it through.
CUT_FOUND = "What did the orthodontist recommend for my daughter?"
#: In the band, asked with a verb no row holds: its topic aligns with the aunt's party (0.45),
#: "say" with nothing there (0.13), as a verb a question asks with never does.
ASKED = "What did I say about my family?"
#: Unseen, in the band, with two words the vocabulary cuts (falcon ##ry, taste ##r): their
#: pieces align 0.17 with the row about birds.
PAIR = "How did the falconry taster go?"


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return MiniLMEmbedder(Home(tmp_path_factory.mktemp("minilm-align")))


def test_an_unseen_word_aligns_with_nothing_and_a_vague_one_with_its_kin(embedder):
    floor = MiniLMEmbedder.alignment_floor
    kin = embedder.alignment(VAGUE, {"relatives"}, [ROWS[0]])
    assert kin >= floor + 0.03, kin
    for query, words, row in [("What did the plumber say about the water heater?",
                               {"plumber", "heater"}, ROWS[1]),
                              ("kubernetes helm chart upgrade", {"kubernetes", "helm"}, ROWS[5])]:
        score = embedder.alignment(query, words, [row])
        assert score <= floor - 0.03, (query, score)


def test_the_best_candidate_counts_and_each_its_worst_word(embedder):
    """Max over the candidates, min over the words: one word without a counterpart sinks a
    row however well the others align."""
    one = embedder.alignment(VAGUE, {"relatives"}, [ROWS[0]])
    assert embedder.alignment(VAGUE, {"relatives"}, [ROWS[5], ROWS[0]]) == pytest.approx(one)
    both = embedder.alignment("my relatives and the kubernetes cluster",
                              {"relatives", "kubernetes"}, [ROWS[0]])
    alone = embedder.alignment("my relatives and the kubernetes cluster", {"relatives"}, [ROWS[0]])
    assert both < alone
    assert embedder.alignment(VAGUE, {"absentword"}, [ROWS[0]]) is None  # not in the query
    assert embedder.alignment(VAGUE, {"relatives"}, []) is None


def test_one_word_cut_in_pieces_is_aligned_by_its_pieces_unless_told_not_to(embedder, monkeypatch):
    """By default one cut word's pieces are aligned (their mean) like any word, and it finds a
    false kin (falcon ##ry with the row about birds); `cut_words = "unaligned"`: it finds no
    counterpart, and no model is run to say so. A word held whole is aligned either way."""
    from carto_rankers.embedders import wordpiece

    vocab = embedder._numpy_model().vocab()
    assert wordpiece.word_ids("falconry", vocab, vocab["[UNK]"]) == [vocab["falcon"], vocab["##ry"]]
    assert wordpiece.word_ids("relatives", vocab, vocab["[UNK]"]) == [vocab["relatives"]]
    bird_row = ROWS[7]
    assert embedder.cut_limit == 0
    assert embedder.alignment(CUT, {"falconry"}, [bird_row]) >= MiniLMEmbedder.alignment_floor + 0.1

    strict = MiniLMEmbedder(embedder.home, {"cut_words": "unaligned"})
    strict._numpy = embedder._numpy_model()

    def no_run(ids):
        raise AssertionError("the model was run for a word it cannot align")

    kin = strict.alignment(VAGUE, {"relatives"}, [ROWS[0]])
    assert kin == pytest.approx(embedder.alignment(VAGUE, {"relatives"}, [ROWS[0]]))
    monkeypatch.setattr(strict._numpy, "states", no_run)
    assert strict.alignment(CUT, {"falconry"}, [bird_row]) == 0.0
    assert strict.alignment(CUT, {"falconry", "lesson"}, ROWS) == 0.0
    assert strict.alignment(CUT, {"falconry"}, []) is None  # no candidate: nothing to judge


def test_a_count_of_cut_words_makes_a_question_unaligned(embedder, monkeypatch):
    """`cut_words = 2`: one cut word aligns by its pieces, as by default (the vocabulary cuts
    ordinary words: "wellbeing"); two such words in the question find no counterpart, counted
    once each however often they are written."""
    pair = MiniLMEmbedder(embedder.home, {"cut_words": "2"})
    pair._numpy = embedder._numpy_model()
    pair._numpy = embedder._numpy_model()
    bird_row = ROWS[7]
    one = pair.alignment(CUT, {"falconry"}, [bird_row])
    assert one == pytest.approx(embedder.alignment(CUT, {"falconry"}, [bird_row])) and one > 0.15
    monkeypatch.setattr(pair._numpy, "states", lambda ids: pytest.fail("model run"))
    query = "What happened with the falconry lesson and the kubernetes upgrade?"
    assert pair.alignment(query, {"falconry", "kubernetes"}, [bird_row, ROWS[5]]) == 0.0
    monkeypatch.undo()
    twice = pair.alignment("falconry and falconry again", {"falconry"}, [bird_row])
    assert twice > 0.0  # one word written twice is one word


@pytest.mark.parametrize("value, limit", [(None, 0), ("", 0), ("align", 0), ("Unaligned", 1),
                                          ("unaligned", 1), ("2", 2), (3, 3), ("0", 0)])
def test_cut_words_is_read_as_a_count(value, limit):
    from carto_rankers.embedders.minilm_embedder import cut_limit

    assert cut_limit(value) == limit


def test_a_cut_words_value_it_cannot_read_is_said_by_check_not_raised_when_built(embedder):
    from carto_core.semantic.embedder import EmbedderUnavailable

    odd = MiniLMEmbedder(embedder.home, {"cut_words": "sometimes"})
    assert odd.cut_limit == 0
    with pytest.raises(EmbedderUnavailable, match="cut_words = 'sometimes'") as caught:
        odd.check()
    assert "CARTO_MINILM_CUT_WORDS" in caught.value.fix


def test_the_token_states_pool_to_the_query_vector(embedder):
    from carto_rankers.embedders import wordpiece

    model = embedder._numpy_model()
    ids = wordpiece.encode(VAGUE, model.vocab())
    pooled = model.states(ids).mean(0)
    np.testing.assert_allclose(pooled / np.linalg.norm(pooled), embedder.embed_query(VAGUE),
                               atol=1e-6)


@pytest.fixture(scope="module")
def indexed(minilm_turns):
    return minilm_turns("band", ROWS)


def _search(home: Home, query: str, monkeypatch):
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    result = run_search(SearchRequest(query=query, limit=5, all=True), engine=SearchEngine(home))
    return result, result.to_dict()["floor"]


def test_in_the_band_a_vague_question_is_found_and_an_unseen_one_is_not(indexed, monkeypatch):
    result, floor = _search(indexed, VAGUE, monkeypatch)
    assert MiniLMEmbedder.evidence_floor <= floor["best_semantic"] < MiniLMEmbedder.evidence_band
    assert floor["found"] and floor["best_confirm"] >= floor["confirm_min"] == 0.15
    assert floor["confirm_words"] == ["relatives"] and floor["reason"] == ""
    assert result.results[0].event_id == "turn-s0-1"
    result, floor = _search(indexed, UNSEEN, monkeypatch)
    assert MiniLMEmbedder.evidence_floor <= floor["best_semantic"] < MiniLMEmbedder.evidence_band
    assert not floor["found"] and result.results == [] and floor["semantic_band"] == 0.35
    assert floor["best_confirm"] < floor["confirm_min"]
    # the words it judged, named: the ones no row of the home holds
    assert floor["confirm_words"] == ["airflow", "backfill", "dag"]
    assert "never holds (airflow, backfill, dag) find their counterpart in a top match" in floor[
        "reason"]
    assert f"the best aligns at {floor['best_confirm']:.2f}, evidence from 0.15" in floor["reason"]


def test_in_the_band_the_verb_a_question_asks_with_is_not_judged(indexed, monkeypatch):
    from carto_rankers.analyzers import EnglishAnalyzer

    result, floor = _search(indexed, ASKED, monkeypatch)
    assert MiniLMEmbedder.evidence_floor <= floor["best_semantic"] < MiniLMEmbedder.evidence_band
    assert floor["found"] and floor["confirm_words"] == ["family"]
    assert floor["best_confirm"] >= 0.15 and result.results[0].event_id == "turn-s0-1"
    # judged, "say" has no counterpart in any top row: the search found nothing
    monkeypatch.setattr(EnglishAnalyzer, "asks_with", lambda self, word: False)
    result, floor = _search(indexed, ASKED, monkeypatch)
    assert floor["confirm_words"] == ["family", "say"]
    assert not floor["found"] and result.results == [] and floor["best_confirm"] < 0.15


def test_in_the_band_a_cut_word_no_row_holds_confirms_only_by_default(indexed, monkeypatch):
    result, floor = _search(indexed, CUT_FOUND, monkeypatch)
    assert MiniLMEmbedder.evidence_floor <= floor["best_semantic"] < MiniLMEmbedder.evidence_band
    assert floor["found"] and result.results and floor["best_confirm"] >= 0.15
    monkeypatch.setenv("CARTO_MINILM_CUT_WORDS", "unaligned")
    result, floor = _search(indexed, CUT_FOUND, monkeypatch)
    assert not floor["found"] and result.results == [] and floor["best_confirm"] == 0.0
    result, floor = _search(indexed, VAGUE, monkeypatch)  # its unheld word is held whole
    assert floor["found"] and result.results[0].event_id == "turn-s0-1"


def test_in_the_band_two_cut_words_no_row_holds_find_no_counterpart_under_a_count(indexed,
                                                                                 monkeypatch):
    result, floor = _search(indexed, PAIR, monkeypatch)  # by default, aligned by their pieces
    assert MiniLMEmbedder.evidence_floor <= floor["best_semantic"] < MiniLMEmbedder.evidence_band
    assert floor["found"] and result.results and floor["best_confirm"] >= 0.15
    monkeypatch.setenv("CARTO_MINILM_CUT_WORDS", "2")
    result, floor = _search(indexed, PAIR, monkeypatch)
    assert not floor["found"] and result.results == [] and floor["best_confirm"] == 0.0
    assert "never holds (falconry, go, taster) find" in floor["reason"]  # which aligned at 0.00
    result, floor = _search(indexed, CUT_FOUND, monkeypatch)  # one cut word: aligned
    assert floor["found"] and result.results and floor["best_confirm"] >= 0.15


def test_without_the_band_the_unseen_question_is_found_as_before(indexed, monkeypatch):
    monkeypatch.setattr(MiniLMEmbedder, "evidence_band", None)
    result, floor = _search(indexed, UNSEEN, monkeypatch)
    assert floor["found"] and result.results and floor["best_confirm"] is None


def test_unheld_words_are_the_content_words_no_document_holds(indexed):
    from carto_core.search.engine import SearchEngine
    from carto_rankers.semantic_plugin import unheld_words

    engine = SearchEngine(indexed)
    engine.ensure_loaded()
    assert unheld_words(UNSEEN, engine) == {"airflow", "dag", "backfill"}
    # nor a verb the question asks with, held or not
    assert unheld_words("What did my aunt say about the party?", engine) == set()
    assert unheld_words("Remind me what I told you about the plumber", engine) == {"plumber"}
    assert unheld_words("the garden party", engine) == set()
    # the clitic after an apostrophe is no word of the question, straight or curly
    assert unheld_words("my aunt's garden party", engine) == set()
    assert unheld_words("the plumber\u2019s van, we'll see", engine) == {"plumber", "van", "see"}


def test_a_second_look_that_fails_leaves_the_cosine_floors_verdict(indexed, monkeypatch):
    def broken(self, query, words, texts):
        raise RuntimeError("the model went away")

    monkeypatch.setattr(MiniLMEmbedder, "alignment", broken)
    result, floor = _search(indexed, UNSEEN, monkeypatch)
    assert floor["found"] and result.results and floor["best_confirm"] is None


def test_the_second_look_reads_the_ladders_first_rows(indexed, monkeypatch):
    """The rows' own words (no " | project: ..." tail), up to five: here the ladder's three
    (the rows minilm's 0.1 lets in for this question)."""
    seen = []

    def record(self, query, words, texts):
        seen.append((query, words, texts))
        return 0.0

    monkeypatch.setattr(MiniLMEmbedder, "alignment", record)
    _search(indexed, UNSEEN, monkeypatch)
    [(query, words, texts)] = seen
    assert query == UNSEEN and words == {"airflow", "dag", "backfill"}
    assert MiniLMEmbedder.alignment_candidates == 5 and len(texts) == 3
    assert set(texts) == {"We booked flights to the Dolomites for October.",
                          "Airports are chaos in the summer.", "Second-hand shops have great finds."}


def test_the_ladder_carries_the_embedders_closeness_for_fusion(indexed, monkeypatch):
    from carto_core.search.api import Query
    from carto_core.search.engine import SearchEngine

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    engine = SearchEngine(indexed)
    engine.ensure_loaded()
    analyzed = engine.analyzer.query(VAGUE)
    query = Query(VAGUE, analyzed.terms, analyzed.prefixes, analyzed.question, analyzed.compounds)
    (ladder,) = engine.ranker("semantic").rank(query, engine.scope(), engine, depth=5)
    assert ladder.closeness == MiniLMEmbedder.closeness == 1.0
    monkeypatch.setattr(MiniLMEmbedder, "closeness", 0.5)
    (ladder,) = engine.ranker("semantic").rank(query, engine.scope(), engine, depth=5)
    assert ladder.closeness == 0.5


def test_in_the_band_the_same_words_as_a_record_are_no_answer(tmp_path, monkeypatch):
    """The band is for a person's words: the vague question's answer said in a conversation
    is found (above), the same words logged as a prompt by the hook are a record, evidence
    only from the band on a home of many records; the turns left are all under the floor, so
    nothing is found."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.semantic.indexer import run_index

    from .conftest import turns_home

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    home = turns_home(tmp_path / "h", ROWS[1:])
    append_rows(home.log("prompts"), [{"event_id": "evt-aunt", "timestamp": "2026-11-20T10:00:00Z",
                                       "type": "prompt", "summary": ROWS[0]}])
    assert run_index(home).outcome == "ok"
    # one record is few: it counts from near the floor, where an unrelated question's nearest
    # of one record seldom reaches
    result, floor = _search(home, VAGUE, monkeypatch)
    assert floor["found"] and floor["record_band"] < floor["best_semantic"]
    assert result.results[0].event_id == "evt-aunt"
    monkeypatch.setattr("carto_core.search.floor.RECORDS_AT_BAND", 1)  # one record is many
    result, floor = _search(home, VAGUE, monkeypatch)
    assert MiniLMEmbedder.evidence_floor <= floor["best_semantic"] < MiniLMEmbedder.evidence_band
    assert floor["best_turn"] < MiniLMEmbedder.evidence_floor
    assert not floor["found"] and result.results == []
    assert "(evidence from 0.35; a conversation turn from 0.22: the closest scores" in floor[
        "reason"]


def test_the_second_look_reads_the_turns_alone(tmp_path, monkeypatch):
    """Under the band only turns can be evidence, so the second look aligns the query with
    them: a prompt among the ladder's first rows ("Airports are chaos ...") is not read."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.semantic.indexer import run_index

    from .conftest import turns_home

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    home = turns_home(tmp_path / "h", ROWS[:-1])
    append_rows(home.log("prompts"), [{"event_id": "evt-air", "timestamp": "2026-11-20T10:00:00Z",
                                       "type": "prompt", "summary": ROWS[-1]}])
    assert run_index(home).outcome == "ok"
    seen = []

    def record(self, query, words, texts):
        seen.append(texts)
        return 0.0

    monkeypatch.setattr(MiniLMEmbedder, "alignment", record)
    monkeypatch.setattr("carto_core.search.floor.RECORDS_AT_BAND", 1)  # one record is many
    _, floor = _search(home, UNSEEN, monkeypatch)
    [texts] = seen
    assert set(texts) == {"We booked flights to the Dolomites for October.",
                          "Second-hand shops have great finds."}
    assert floor["best_turn"] is not None and not floor["found"]


def test_a_record_under_the_band_is_no_result(tmp_path, monkeypatch):
    """The vague question is found through its turn ("My aunt ..."); a prompt the semantic
    ladder holds under the band ("I sold the car ...", 0.16), with no word of the question,
    is set aside, not ranked below it."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.search.api import Query
    from carto_core.search.engine import SearchEngine
    from carto_core.semantic.indexer import run_index

    from .conftest import turns_home

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    home = turns_home(tmp_path / "h", [row for n, row in enumerate(ROWS) if n != 3])
    append_rows(home.log("prompts"), [{"event_id": "evt-car", "timestamp": "2026-11-20T10:00:00Z",
                                       "type": "prompt", "summary": ROWS[3]}])
    assert run_index(home).outcome == "ok"
    engine = SearchEngine(home)
    engine.ensure_loaded()
    analyzed = engine.analyzer.query(VAGUE)
    query = Query(VAGUE, analyzed.terms, analyzed.prefixes, analyzed.question, analyzed.compounds)
    (ladder,) = engine.ranker("semantic").rank(query, engine.scope(), engine, depth=50)
    held = dict(zip((engine.index.event_id(int(i)) for i in ladder.indices), ladder.scores))
    assert held["evt-car"] < MiniLMEmbedder.evidence_band  # the semantic ladder holds it
    result, floor = _search(home, VAGUE, monkeypatch)
    ids = [hit.event_id for hit in result.results]
    assert floor["found"] and ids[0] == "turn-s0-1" and "evt-car" not in ids
