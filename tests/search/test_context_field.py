"""Session context: a turn also indexes the turn before it (a quarter of the weight), so an
answer is found through its question; context never makes a document *hold* a term."""

from __future__ import annotations

import numpy as np
import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row
from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine
from carto_core.search.index import KeywordIndex
from carto_core.search.index_build import TF_SCALE

from .conftest import NOW


@pytest.fixture(autouse=True)
def context_on(monkeypatch):
    monkeypatch.setenv("CARTO_CONTEXT_TERMS", "48")  # off by default (measured: ranking.md)


def _turn(home: Home, sid: str, n: int, text: str, minute: int) -> str:
    eid = f"turn-{sid}-{n}"
    append_rows(home.log("turns"), [order_row("turns", {
        "event_id": eid, "timestamp": f"2026-05-01T10:{minute:02d}:00Z", "project": "p",
        "type": "transcript", "provider": "claude", "summary": text, "session": sid,
        "turn_idx": n})])
    return eid


def _search(home, query):
    result = run_search(SearchRequest(query=query, all=True, now=NOW, facets=False,
                                      semantic=False), home=home)
    return [h.event_id for h in result.results], result


def test_an_answer_is_found_through_its_question(tmp_path):
    home = Home(tmp_path / "h")
    question = _turn(home, "s1", 1, "can you recommend a tent for mountain camping", 0)
    answer = _turn(home, "s1", 2, "the Hilleberg Soulo is a four season shelter", 1)
    other = _turn(home, "s2", 1, "camping chairs are on sale", 2)
    ids, result = _search(home, "tent for camping")
    assert ids[0] == question and answer in ids and other in ids
    # the answer holds no query word itself: it is not a full match (the lookup gate)
    (ladder,) = [l for l in result.ladders if l.name == "turns"]
    assert ladder.status == "ok"
    by_id = {h.event_id: h for h in result.results}
    assert by_id[question].holds_all_tokens and not by_id[answer].holds_all_tokens
    # context is a quarter of a word: the answer ranks below a row that says "tent" itself
    assert ids.index(answer) > ids.index(question)


def test_postings_encode_own_and_context_terms(tmp_path, monkeypatch):
    home = Home(tmp_path / "h")
    _turn(home, "s1", 1, "alpha alpha beta", 0)
    second = _turn(home, "s1", 2, "gamma alpha", 1)
    index = KeywordIndex.build(home, persist=False)
    doc = index.index_of(second)
    (docs, tfs, _), = index.postings("alpha")
    tf_of = dict(zip(docs.tolist(), tfs.tolist()))
    assert tf_of[doc] == 1 * TF_SCALE + 2  # own 1, context 2 (capped at TF_SCALE - 1)
    (docs, tfs, _), = index.postings("beta")
    assert dict(zip(docs.tolist(), tfs.tolist()))[doc] == 1  # context only
    assert doc not in index.own_docs("beta").tolist() and doc in index.own_docs("gamma").tolist()
    # doclen in the same unit: own 3 terms (its id too) x 4 + 3 context terms (never the
    # previous row's id: searching an id finds that row alone)
    assert int(index.cols["doclen"][doc]) == 3 * TF_SCALE + 3
    assert [p[0].tolist() for p in index.postings("turn-s1-1")] == [[index.index_of("turn-s1-1")]]
    monkeypatch.setenv("CARTO_CONTEXT_TERMS", "0")
    plain = KeywordIndex.build(home, persist=False)
    assert [p[0].tolist() for p in plain.postings("beta")] == [[plain.index_of(f"turn-s1-1")]]


def test_a_tail_row_gets_the_same_context_as_a_full_build(tmp_path):
    home = Home(tmp_path / "h")
    _turn(home, "s1", 1, "which database did we pick", 0)
    engine = SearchEngine(home)
    engine.refresh()  # indexed and persisted with one row
    later = _turn(home, "s1", 2, "postgres with logical replication", 1)
    assert engine.refresh() == "grown"
    tail = engine.index
    full = KeywordIndex.build(home, persist=False)
    for term in ("databas", "pick", "postgr"):
        got = {tail.event_id(int(d)): int(t) for p in tail.postings(term) for d, t in zip(p[0], p[1])}
        want = {full.event_id(int(d)): int(t) for p in full.postings(term) for d, t in zip(p[0], p[1])}
        assert got == want, term
    assert later in _search(home, "which database")[0]


def test_a_change_of_context_setting_rebuilds_the_index(tmp_path, monkeypatch):
    home = Home(tmp_path / "h")
    _turn(home, "s1", 1, "one", 0)
    first = KeywordIndex.open(home)
    assert first.context == 48
    monkeypatch.setenv("CARTO_CONTEXT_TERMS", "0")
    second = KeywordIndex.open(home)
    assert second.context == 0 and second.generation != first.generation
    assert np.all(np.asarray(second.segments[0].tfs) % TF_SCALE == 0)
