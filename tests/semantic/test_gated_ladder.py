"""A ladder the fusion would gate out is not computed: `rrf-prior` drops the semantic ladder of a
query that is not a question when a document holds every query word, so the pipeline does not
run the semantic ranker for it (`Fusion.gated`, docs/search.md), nor ask whether it could answer
(`semantic.state` is `unchecked`) unless the search insists on it (`--semantic`) or it is switched
off. The answer is the one the search gave when it ran the ranker and threw its ladder away."""

from __future__ import annotations

import os
from pathlib import Path

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
    real_availability = SemanticRanker.availability

    def rank(self, query, *args, **kwargs):
        calls.append(query.text)
        return real(self, query, *args, **kwargs)

    def availability(self, engine):
        calls.append("availability")
        return real_availability(self, engine)

    monkeypatch.setattr(SemanticRanker, "rank", rank)
    monkeypatch.setattr(SemanticRanker, "availability", availability)
    return home, rows, cases, calls


def _semantic(result):
    return next(l for l in result.ladders if l.name == "semantic")


def test_the_semantic_ranker_is_not_run_for_a_lookup_and_the_answer_is_unchanged(
        counted, monkeypatch):
    home, rows, _, calls = counted
    query = rows[-1]["summary"]  # a target row's own words: a document holds all of them
    gated = search(home, query, fusion="rrf-prior", decay="gated-prior")
    assert calls == []  # neither run nor asked whether it could answer
    assert _semantic(gated).status == "gated"
    assert _semantic(gated).reason == pipeline.GATED_REASON
    assert gated.semantic.to_dict() == {"state": "unchecked", "reason": pipeline.UNCHECKED_REASON,
                                        "fix": "", "not_embedded": None, "embedder": None,
                                        "note": None}
    assert gated.semantic_status == "unchecked" and gated.semantic.label() == "unchecked"
    assert "semantic" not in gated.contributing
    # the same search made to run the ranker: its ladder is computed, then dropped by fusion
    monkeypatch.setattr(pipeline, "_gated_out", lambda *args: False)
    ran = search(home, query, fusion="rrf-prior", decay="gated-prior")
    assert calls == ["availability", query]
    assert ran.semantic.state == "available" and ran.semantic.not_embedded == 0
    assert _semantic(ran).status == "ok" and _semantic(ran).candidates > 0
    assert answer(ran) == answer(gated) and answer(gated)


@pytest.mark.parametrize("query", ["what did I say about login credentials?",
                                   "login credentials zzzqqq"])
def test_a_question_or_a_query_no_document_holds_whole_runs_the_semantic_ranker(counted, query):
    home, _, _, calls = counted
    result = search(home, query, fusion="rrf-prior", decay="gated-prior")
    assert calls == ["availability", query]
    assert _semantic(result).status == "ok"
    assert result.semantic.state == "available"


def test_a_search_that_insists_on_the_semantic_ladder_checks_it_and_still_gates_it(counted):
    home, rows, _, calls = counted
    result = search(home, rows[-1]["summary"], fusion="rrf-prior", decay="gated-prior",
                    semantic=True)
    assert calls == ["availability"]  # asked, not run
    assert _semantic(result).status == "gated"
    assert result.semantic.state == "available" and result.semantic.not_embedded == 0


def _config(text: str) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    path.write_text(path.read_text("utf-8") + text, "utf-8")


@pytest.mark.parametrize("switch", ["env", "config", "config-string"])
def test_a_switched_off_semantic_ladder_says_disabled_for_a_lookup_too(counted, monkeypatch,
                                                                       switch):
    home, rows, _, calls = counted
    if switch == "env":
        monkeypatch.setenv("CARTO_SEMANTIC", "0")
    else:
        _config('[semantic]\nenabled = false\n' if switch == "config"
                else '[semantic]\nenabled = "off"\n')
    result = search(home, rows[-1]["summary"], fusion="rrf-prior", decay="gated-prior")
    assert calls == ["availability"]
    assert result.semantic.state == "disabled"
    assert _semantic(result).status == "unavailable"


def test_the_environment_switch_wins_over_the_config_file(counted, monkeypatch):
    home, rows, _, calls = counted
    _config('[semantic]\nenabled = false\n')
    monkeypatch.setenv("CARTO_SEMANTIC", "1")  # as SemanticSettings reads them: on
    result = search(home, rows[-1]["summary"], fusion="rrf-prior", decay="gated-prior")
    assert calls == [] and result.semantic.state == "unchecked"


def test_a_fusion_that_gates_nothing_runs_every_ranker(counted):
    home, rows, _, calls = counted
    # upstream's rrf has no gate: the base contract (every ladder kept)
    result = search(home, rows[-1]["summary"], fusion="rrf", decay="gated-prior")
    assert calls == ["availability", rows[-1]["summary"]]
    assert _semantic(result).status == "ok"
    assert Fusion().gated(["a", "b"]) == ["a", "b"]
