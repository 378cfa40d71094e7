"""The learned order in the search (search.learned, the default; `CARTO_SEARCH_ORDER=rules` turns
it off): a question with a semantic ladder has its first fifty ordered by the trees before the
page is cut; any other search, and every search with `rules`, keeps the rules' order."""

from __future__ import annotations

import pytest

from carto_core.search import learned
from carto_core.semantic.indexer import run_index

from .test_hybrid import search


def _stump(column: int, threshold: float) -> learned.Trees:
    """One split: a row over `threshold` in `column` scores 1, the others 0."""
    return learned.Trees({"width": learned.WIDTH, "baseline": 0.0, "trees": [{
        "feature": [column, 0, 0], "threshold": [threshold, 0.0, 0.0], "left": [1, 0, 0],
        "right": [2, 0, 0], "leaf": [False, True, True], "value": [0.0, 0.0, 1.0]}]})


def _described(hit) -> dict:
    return {"id": hit.event_id, "score": hit.score, "type": hit.type, "ts": hit.timestamp,
            "text": hit.summary, "why": hit.why, "dup": hit.duplicates}


@pytest.fixture
def indexed(paraphrase_home, monkeypatch):
    home, _, cases = paraphrase_home
    assert run_index(home).outcome == "ok"
    # the older half of a page first (column 26: a result's age among the page over one half)
    monkeypatch.setattr(learned, "shipped", lambda: _stump(26, 0.5))
    return home, cases


def test_a_questions_first_fifty_are_ordered_by_the_trees_then_cut(indexed, monkeypatch):
    home, cases = indexed
    question = f"What did we say about {cases[0][0]}?"
    monkeypatch.setenv("CARTO_SEARCH_ORDER", "rules")
    default = search(home, question, limit=60, explain=True)
    pool = default.results[: learned.POOL]
    assert default.semantic_status == "available" and len(pool) > 10  # more than a page
    older = [row[26] > 0.5 for row in learned.features(question, [_described(h) for h in pool])]
    assert 0 < sum(older) < len(pool)
    expected = ([h.event_id for h, old in zip(pool, older) if old]
                + [h.event_id for h, old in zip(pool, older) if not old])

    monkeypatch.delenv("CARTO_SEARCH_ORDER")  # the default
    got = search(home, question, limit=10)
    assert [h.event_id for h in got.results] == expected[:10]
    monkeypatch.setenv("CARTO_SEARCH_ORDER", "learned")
    assert [h.event_id for h in search(home, question, limit=10).results] == expected[:10]
    assert [h.rank for h in got.results] == list(range(1, 11))
    assert all(h.why is None for h in got.results)  # no --explain, no why on the page
    assert got.total == default.total
    # a page as long as the pool (or longer: the rules' order follows the trees' fifty)
    longer = search(home, question, limit=60)
    assert [h.event_id for h in longer.results] == expected + [
        h.event_id for h in default.results[learned.POOL:]]


def test_with_rules_or_without_a_question_the_rules_order_stays(indexed, monkeypatch):
    home, cases = indexed
    question = f"What did we say about {cases[0][0]}?"
    monkeypatch.setenv("CARTO_SEARCH_ORDER", "rules")
    before = {q: [h.event_id for h in search(home, q, limit=10).results]
              for q in (question, cases[0][0])}
    monkeypatch.setenv("CARTO_SEARCH_ORDER", " Rules ")  # read as the switch is everywhere
    assert [h.event_id for h in search(home, question, limit=10).results] == before[question]
    monkeypatch.delenv("CARTO_SEARCH_ORDER")
    # a list of words is no question: the trees were fitted on questions
    assert [h.event_id for h in search(home, cases[0][0], limit=10).results] == before[cases[0][0]]
    assert [h.event_id for h in search(home, question, limit=10).results] != before[question]


def test_an_unknown_order_is_refused_before_answering(indexed, monkeypatch):
    from carto_core.search.api import SearchUsageError

    home, cases = indexed
    monkeypatch.setenv("CARTO_SEARCH_ORDER", "learnd")
    refused = "unknown search order 'learnd' in CARTO_SEARCH_ORDER"
    with pytest.raises(SearchUsageError, match=refused):
        search(home, "What did we say about it?", limit=10)


def test_a_page_the_lookup_gate_leads_keeps_the_rules_order(indexed, monkeypatch):
    """"what's new with X": the newest row holding every word, lifted by the lookup gate, stays
    first; the trees (fitted on dialogue questions) would have moved it."""
    home, _ = indexed
    from carto_core.search.learned import features

    monkeypatch.setenv("CARTO_SEARCH_ORDER", "rules")
    rows_texts = [h.summary for h in search(home, "login credentials", limit=60).results]
    for text in rows_texts:
        question = f"what's new with {' '.join(text.split()[:2])}?"
        default = search(home, question, limit=60, explain=True)
        pool = default.results[: learned.POOL]
        if not pool or not pool[0].why["gated"]:
            continue
        older = [r[26] > 0.5 for r in features(question, [_described(h) for h in pool])]
        moved = ([h.event_id for h, old in zip(pool, older) if old]
                 + [h.event_id for h, old in zip(pool, older) if not old])[:10]
        if moved != [h.event_id for h in pool[:10]]:
            break
    else:
        pytest.fail("no status question of this home is led by the lookup gate and movable")
    monkeypatch.delenv("CARTO_SEARCH_ORDER")  # the default: the trees on
    got = search(home, question, limit=10)
    assert [h.event_id for h in got.results] == [h.event_id for h in pool[:10]]
