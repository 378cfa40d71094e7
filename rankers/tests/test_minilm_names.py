"""A name on every line: where a speaker's name opens most rows ("Maya: ..."), the semantic
ladder also asks the question without it (`Embedder.name_share`, docs/ranking.md)."""

from __future__ import annotations

import numpy as np
import pytest

from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder

#: Her lines that answer "Which cities has Maya worked in?" without naming a city's kind.
EVIDENCE = ["Maya: Started at a design studio in Manchester straight after college.",
            "Maya: The Lisbon office gave me a desk by the window."]
#: Her lines that say her name twice: a sentence encoder's nearest rows to any question
#: naming her.
TWICE = ["Maya: Maya has been so busy.", "Maya: Maya, that worked a treat!",
         "Maya: Maya has done it again!", "Maya: Maya, keep me posted."]
ROWS = EVIDENCE + TWICE + [
    "Maya: Summarise this for me please.", "Maya: The kettle is broken again.",
    "Maya: Walked the long way home through the park.", "Maya: Tom rang about Saturday.",
    "Really? Tell me more.", "Oh nice!", "Makes sense.", "That's good to hear.", "Wow.",
    "Glad it worked out.", "Ha, fair.", "Oh no."]
QUESTION = "Which cities has Maya worked in?"


@pytest.fixture(scope="module")
def indexed(minilm_turns):
    return minilm_turns("names", ROWS)


@pytest.fixture
def engine(indexed, monkeypatch):
    from carto_core.search.engine import SearchEngine

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    found = SearchEngine(indexed)
    found.ensure_loaded()
    return found


def _without(engine, text: str, share: float = MiniLMEmbedder.name_share) -> str:
    from carto_rankers.semantic_plugin import _unseen_types, without_common_names

    return without_common_names(text, engine, _unseen_types(MiniLMEmbedder(engine.home), engine),
                                share)


def test_a_capitalised_name_most_rows_hold_is_left_out_and_nothing_else(engine):
    # "Maya" opens 10 of the 18 rows
    assert _without(engine, QUESTION) == "Which cities has worked in?"
    assert _without(engine, "What is Maya\u2019s flat like?") == "What is flat like?"
    assert _without(engine, "Did Maya's Maya rows repeat?") == "Did rows repeat?"
    assert _without(engine, QUESTION, share=11 / 18) == QUESTION
    assert _without(engine, QUESTION, share=10 / 18) == "Which cities has worked in?"
    # a capitalised function word is no name, though 3 rows in 18 hold "the"
    assert _without(engine, "Did Maya say The Kettle broke?") == "Did say The Kettle broke?"
    assert _without(engine, "which cities has maya worked in") == "which cities has maya worked in"
    assert _without(engine, "Maya, which cities?") == "Maya, which cities?"  # the first word
    tom = "What did Tom say about Saturday?"
    assert _without(engine, tom) == tom  # one row in 16
    assert _without(engine, "What have I done?") == "What have I done?"  # "I" is no name
    assert _without(engine, "Maya? Maya!") == "Maya? !"


def _semantic_ladder(engine) -> list[str]:
    from carto_core.search.api import Query

    analyzed = engine.analyzer.query(QUESTION)
    query = Query(QUESTION, analyzed.terms, analyzed.prefixes, analyzed.question,
                  analyzed.compounds)
    (ladder,) = engine.ranker("semantic").rank(query, engine.scope(), engine, depth=50)
    return [engine.index.event_id(int(i)) for i in ladder.indices]


def _rank(ids: list[str], text: str) -> int:
    return ids.index(f"turn-s{ROWS.index(text)}-1")


def test_the_ladder_asks_without_the_name_too_and_finds_her_lines_that_answer(engine,
                                                                            monkeypatch):
    blended = _semantic_ladder(engine)
    monkeypatch.setattr(MiniLMEmbedder, "name_share", None)  # the question as asked
    asked = _semantic_ladder(engine)
    # as asked, her name-twice lines come first; asked without her name too, a line that
    # answers does, and each of them climbs
    assert asked[0] == f"turn-s{ROWS.index(TWICE[0])}-1"
    assert blended[0] == f"turn-s{ROWS.index(EVIDENCE[0])}-1"
    assert all(_rank(blended, row) < _rank(asked, row) for row in EVIDENCE)


def test_the_blend_is_the_unit_sum_with_the_second_weighed(engine):
    from carto_core.semantic.searcher import _blended

    first, second = np.array([3.0, 0.0, 0.0]), np.array([0.0, 0.0, 0.5])
    np.testing.assert_allclose(_blended(first, second, 2.0), np.array([1, 0, 2]) / np.sqrt(5))
    np.testing.assert_allclose(_blended(first, second, 1.0), np.array([1, 0, 1]) / np.sqrt(2))


def test_a_query_with_no_first_or_second_person_is_asked_about_someone():
    from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer

    english = EnglishAnalyzer()
    assert english.asks_about_someone("What motivated Adaeze to attempt a marathon?")
    assert english.asks_about_someone("When did Tom move to Leeds")
    for text in ("What did I tell Tom?", "what did u say about Tom", "Where do we meet Tom?",
                 "Tom's advice to you?", "my brother Tom, where does he live now",
                 "What did Tom tell me?", "Which of our plans did Tom like?"):
        assert not english.asks_about_someone(text), text
    # "I" and "US" inside words or as other words are not the person asking
    assert english.asks_about_someone("Did Tom visit the USA or India?")
    # an analyzer that knows no language's persons says no
    assert not UnicodeAnalyzer().asks_about_someone("What motivated Adaeze to attempt a marathon?")


def test_asked_about_someone_every_name_some_row_holds_is_left_out_else_only_common_ones(engine):
    from carto_rankers.semantic_plugin import _unseen_types, without_common_names

    unseen = _unseen_types(MiniLMEmbedder(engine.home), engine)
    tom = "What did Tom say about Saturday?"  # one row in 16 holds "Tom"
    assert without_common_names(tom, engine, unseen, MiniLMEmbedder.name_share) == tom
    # every capitalised word some row holds goes, a day or a place as well as a person (the
    # keyword ladders still match them; the encoder is asked what is asked about them), the
    # first in the first person: the person asked about tells it in their own rows
    assert without_common_names(tom, engine, unseen, MiniLMEmbedder.name_share,
                                any_held=True) == "What did I say about ?"
    assert without_common_names("What is Maya\u2019s flat like, says Tom?", engine, unseen,
                                MiniLMEmbedder.name_share, any_held=True) == "What is my flat like, says ?"
    assert without_common_names("When did Tom ring Maya, and why did she cry?", engine, unseen,
                                MiniLMEmbedder.name_share, any_held=True) == (
                                    "When did I ring , and why did I cry?")
    # a name no row holds stays: leaving it out would ask about nothing
    zed = "What did Zed say about the kettle?"
    assert without_common_names(zed, engine, unseen, MiniLMEmbedder.name_share, any_held=True) == zed


def test_the_ladder_leaves_out_rare_names_only_of_a_question_asked_about_someone(engine,
                                                                                monkeypatch):
    import carto_rankers.semantic_plugin as plugin
    from carto_core.search.api import Query

    seen = []
    real = plugin.without_common_names

    def spy(text, context, unseen, share, any_held=False):
        seen.append((text, any_held))
        return real(text, context, unseen, share, any_held=any_held)

    monkeypatch.setattr(plugin, "without_common_names", spy)
    for text in ("What did Tom say about Saturday?", "What did Tom tell me about Saturday?"):
        analyzed = engine.analyzer.query(text)
        query = Query(text, analyzed.terms, analyzed.prefixes, analyzed.question, analyzed.compounds)
        engine.ranker("semantic").rank(query, engine.scope(), engine, depth=10)
    assert seen == [("What did Tom say about Saturday?", True),
                    ("What did Tom tell me about Saturday?", False)]


def test_a_question_about_someone_said_by_them():
    from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer

    english = EnglishAnalyzer()

    def said(text: str, name: str) -> str:
        start = text.index(name)
        return english.said_by(text, start, start + len(name))

    assert said("What breed is Hana's dog?", "Hana's") == "What breed is my dog?"
    assert said("What breed is Hana\u2019s dog?", "Hana\u2019s") == "What breed is my dog?"
    assert said("What happened to Marisol's old board after she sold it?", "Marisol's") == (
        "What happened to my old board after I sold it?")
    assert said("Which organization did Emi get her two elderly cats from?", "Emi") == (
        "Which organization did I get my two elderly cats from?")
    # after a verb or a preposition a capitalised word is a place or someone met, and a
    # family word someone talked about: none of them speaks in the rows (left as asked, the
    # name is then only left out)
    for text, name in (("Who helped Rafael rebuild the engine?", "Rafael"),
                       ("What did Ingrid knit for Rafael?", "Rafael"),
                       ("The newcomer from Gdansk, how did she get on?", "Gdansk"),
                       ("What's Dad's programme of choice?", "Dad's"),
                       ("Where is Grandma living?", "Grandma"),
                       # nor does a word in capitals or of two capitals: code and acronyms
                       ("When did the MCP server answer?", "MCP"),
                       ("What was the IndexError that kept it?", "IndexError"),
                       ("When did the X server answer?", "X")):
        assert said(text, name) == text, text
    # every pronoun of the third person, whatever its case; words holding one are left
    assert said("When did Tom say he would visit his aunt with her and him?", "Tom") == (
        "When did I say I would visit my aunt with my and me?")
    assert said("Did Tom find SHE or Himself at the theatre shelter?", "Tom") == (
        "Did I find I or myself at the theatre shelter?")
    assert said("What did Tom say about his and her trips?", "Tom") == "What did I say about my trips?"
    # an analyzer that knows no language's persons leaves the question as asked
    text = "What breed is Hana's dog?"
    assert UnicodeAnalyzer().said_by(text, 14, 20) == text
