"""A ladder the fusion would gate out is not computed: `rrf-prior` drops the semantic ladder of a
query that is not a question when a document holds every query word, so the pipeline does not
run the semantic ranker for it (`Fusion.gated`, docs/search.md). The answer is the one the
search gave when it ran the ranker and threw its ladder away."""

from __future__ import annotations

import pytest

from carto_core.search import pipeline
from carto_core.search.api import Fusion
from carto_core.semantic.indexer import run_index
from carto_rankers.semantic_plugin import SemanticRanker

from .test_hybrid import answer, search


@pytest.fixture
def counted(paraphrase_home, monkeypatch):
    home, rows, cases = paraphrase_home
    assert run_index(home).outcome == "ok"
    calls: list[str] = []
    real = SemanticRanker.rank

    def rank(self, query, *args, **kwargs):
        calls.append(query.text)
        return real(self, query, *args, **kwargs)

    monkeypatch.setattr(SemanticRanker, "rank", rank)
    return home, rows, cases, calls


def _semantic(result):
    return next(l for l in result.ladders if l.name == "semantic")


def test_the_semantic_ranker_is_not_run_for_a_lookup_and_the_answer_is_unchanged(
        counted, monkeypatch):
    home, rows, _, calls = counted
    query = rows[-1]["summary"]  # a target row's own words: a document holds all of them
    gated = search(home, query, fusion="rrf-prior", decay="gated-prior")
    assert calls == []
    assert _semantic(gated).status == "gated"
    assert _semantic(gated).reason == pipeline.GATED_REASON
    assert gated.semantic.state == "available"
    assert "semantic" not in gated.contributing
    # the same search made to run the ranker: its ladder is computed, then dropped by fusion
    monkeypatch.setattr(pipeline, "_gated_out", lambda *args: False)
    ran = search(home, query, fusion="rrf-prior", decay="gated-prior")
    assert calls == [query]
    assert _semantic(ran).status == "ok" and _semantic(ran).candidates > 0
    assert answer(ran) == answer(gated) and answer(gated)


@pytest.mark.parametrize("query", ["what did I say about login credentials?",
                                   "login credentials zzzqqq"])
def test_a_question_or_a_query_no_document_holds_whole_runs_the_semantic_ranker(counted, query):
    home, _, _, calls = counted
    result = search(home, query, fusion="rrf-prior", decay="gated-prior")
    assert calls == [query]
    assert _semantic(result).status == "ok"


def test_a_fusion_that_gates_nothing_runs_every_ranker(counted):
    home, rows, _, calls = counted
    # upstream's rrf has no gate: the base contract (every ladder kept)
    result = search(home, rows[-1]["summary"], fusion="rrf", decay="gated-prior")
    assert calls == [rows[-1]["summary"]]
    assert _semantic(result).status == "ok"
    assert Fusion().gated(["a", "b"]) == ["a", "b"]
