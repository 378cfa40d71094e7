"""BM25 against a brute-force reference, RRF arithmetic, and the decay policies."""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search.api import DecayContext, Fused, Ladder, Query
from carto_core.search.engine import SearchEngine
from carto_core.search.tokens import UpstreamAnalyzer, row_text
from carto_rankers.analyzers import EnglishAnalyzer
from carto_rankers.bm25 import DENSE_SHARE, BM25Ranker, UpstreamBM25Ranker
from carto_rankers.decay import ExpDecay, GatedExpDecay, NoDecay
from carto_rankers.rrf import RRFFusion, RRFPriorFusion

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)
WORDS = ["cart", "coupon", "deploy", "cache", "retry", "lock", "state", "zeta"]
ENGLISH = EnglishAnalyzer()


def tokenize(text, analyzer=ENGLISH):
    return analyzer.terms(text)


def query_tokens(text, analyzer=ENGLISH):
    return analyzer.query(text).terms


def lucene_idf(n, df):
    """Lucene's idf, the default: never zero."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def upstream_idf(n, df):
    return max(0.0, math.log((n - df + 0.5) / (df + 0.5)))


def _home(tmp_path, docs):
    """docs: list of (log label, text, age_hours)."""
    home = Home(tmp_path / "h")
    for i, (label, text, age) in enumerate(docs):
        append_rows(home.log(label), [{"event_id": f"evt-{i:012d}",
                    "timestamp": (NOW - timedelta(hours=age)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "summary": text, "project": "p"}])
    return home


def _reference(home, query, analyzer=ENGLISH, idf_of=lucene_idf):
    """Textbook BM25 over every document (k1 1.2, b 0.75), the given idf and analyzer."""
    docs = {}
    for label, name in (("tool-use", "tool-use-log.jsonl"), ("prompts", "prompt-history.jsonl")):
        path = home.root / name
        if path.exists():
            for line in path.read_text().splitlines():
                row = json.loads(line)
                docs[row["event_id"]] = tokenize(row_text(row), analyzer)
    n = len(docs)
    avgdl = sum(map(len, docs.values())) / n
    scores = {}
    for eid, toks in docs.items():
        score = 0.0
        for term in query_tokens(query, analyzer):
            df = sum(1 for t in docs.values() if term in t)
            tf = toks.count(term)
            if not df or not tf:
                continue
            idf = idf_of(n, df)
            score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(toks) / avgdl))
        if score > 0:
            scores[eid] = score
    return scores


@pytest.mark.parametrize("ranker_cls,analyzer,idf_of", [
    (BM25Ranker, "english", lucene_idf), (UpstreamBM25Ranker, "upstream", upstream_idf)])
@settings(max_examples=25, deadline=None)
@given(docs=st.lists(st.tuples(st.sampled_from(["tool-use", "prompts"]),
                               st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join),
                               st.floats(0, 5000)), min_size=3, max_size=25),
       query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join))
def test_bm25_matches_the_reference(tmp_path_factory, docs, query, ranker_cls, analyzer, idf_of):
    home = _home(tmp_path_factory.mktemp("bm25"), docs)
    engine = SearchEngine(home, persist=False, analyzer=analyzer)
    ranker = ranker_cls()
    terms = engine.analyzer.query(query).terms
    ladders = ranker.rank(Query(query, terms), engine.scope(), engine)
    got = {engine.index.event_id(int(i)): float(s) for l in ladders for i, s in zip(l.indices, l.scores)}
    want = _reference(home, query, engine.analyzer, idf_of)
    assert set(got) == set(want)
    for eid, score in want.items():
        assert got[eid] == pytest.approx(score, rel=1e-5)  # float32 scores
    for ladder in ladders:  # one ladder per log, ranked within itself
        if not len(ladder):
            assert ladder.reason and not want  # an empty ladder says why
            continue
        assert list(ladder.scores) == sorted(ladder.scores, reverse=True)
        labels = {ranker.ladder_name(engine.source_label(int(i))) for i in ladder.indices}
        assert labels == {ladder.name}


def test_window_keeps_idf_and_scores(tmp_path):
    docs = [("tool-use", "cache retry lock", age) for age in (1, 10, 100, 1000)]
    docs += [("tool-use", "zeta", 5)] * 6
    home = _home(tmp_path, docs)
    engine = SearchEngine(home, persist=False)
    query = Query("cache retry", query_tokens("cache retry"))
    full = BM25Ranker().rank(query, engine.scope(), engine)[0]
    since = NOW - timedelta(hours=50)
    windowed = BM25Ranker().rank(query, engine.scope(since=since), engine)[0]
    full_scores = dict(zip(full.indices.tolist(), full.scores.tolist()))
    assert len(windowed) == 2 and len(full) == 4
    for index, score in zip(windowed.indices.tolist(), windowed.scores.tolist()):
        assert score == full_scores[index]  # same idf, same avgdl: the window only filters


def test_rrf_sums_reciprocal_ranks_times_salience(tmp_path):
    home = _home(tmp_path, [("tool-use", "a", 1), ("tool-use", "b", 1), ("tool-use", "c", 1)])
    engine = SearchEngine(home, persist=False)
    a = Ladder("x", np.array([0, 1]), np.array([2.0, 1.0]))
    b = Ladder("y", np.array([1, 2, 1]), np.array([3.0, 2.0, 1.0]))  # a repeat counts once
    fused = {f.index: f for f in RRFFusion().fuse([a, b], engine)}
    assert fused[1].score == pytest.approx(0.5 * (1 / 62 + 1 / 61))  # no salience: 0.5
    assert fused[0].score == pytest.approx(0.5 / 61)
    assert fused[2].score == pytest.approx(0.5 / 62)
    assert fused[1].sources == ["x", "y"] and fused[1].ranks == {"x": 2, "y": 1}


def test_rrf_keeps_every_candidate_and_the_trim_drops_what_is_under_a_tenth(tmp_path):
    """Fusion keeps every candidate; the one trim (`search.api.trim`, which the pipeline and the
    prompt recall call) drops what is under 10 % of the top fused score."""
    from carto_core.search.api import trim

    home = Home(tmp_path / "h")
    append_rows(home.log("tool-use"), [
        {"event_id": f"evt-{i:012d}", "timestamp": "2026-05-01T00:00:00Z", "summary": "s",
         "salience": sal} for i, sal in enumerate((1.0, 0.05, 0.2))])
    engine = SearchEngine(home, persist=False)
    fused = RRFFusion().fuse([Ladder("x", np.array([0, 1, 2]), np.array([3.0, 2.0, 1.0]))], engine)
    assert [(f.index, f.sources, f.ranks) for f in fused] == [(0, ["x"], {"x": 1}), (1, ["x"], {"x": 2}),
                                                               (2, ["x"], {"x": 3})]
    kept, floor = trim(fused)
    # 1/61 top; 0.05/62 is under a tenth of it, 0.2/63 is not
    assert floor == pytest.approx(0.1 / 61)
    assert [f.index for f in kept] == [0, 2] and kept[1].score == pytest.approx(0.2 / 63)


def test_rrf_fuses_the_same_in_plain_python(tmp_path):
    """`fuse_lite` (the prompt recall's) gives `fuse`'s records: scores, sources, ranks, flags."""
    home = _home(tmp_path, [("tool-use", "a", 1), ("tool-use", "b", 1), ("tool-use", "c", 1)])
    engine = SearchEngine(home)
    engine.ensure_loaded()
    from carto_core.search.index_view import IndexView

    view = IndexView.open(home)
    for fusion in (RRFFusion(), RRFPriorFusion()):
        a = Ladder("x", np.array([0, 1]), np.array([2.0, 1.0]), np.array([True, False]),
                   coverage=np.array([1.0, 0.5]))
        b = Ladder("y", np.array([1, 2, 1]), np.array([3.0, 2.0, 1.0]), None,
                   coverage=np.array([0.25, 1.0, 0.25]))
        lite = [Ladder(l.name, l.indices.tolist(), l.scores.tolist(),
                       None if l.holds_all is None else l.holds_all.tolist(),
                       coverage=l.coverage.tolist()) for l in (a, b)]
        query = Query("q", ("q",))

        def records(fused):
            return sorted((f.index, round(f.score, 12), f.sources, f.ranks, f.holds_all_tokens,
                           f.salience, f.timestamp) for f in fused)

        assert records(fusion.fuse_lite(lite, view, query)) == records(fusion.fuse([a, b], engine, query))


def _ctx(engine, matches, accesses=None):
    return DecayContext(now=NOW.timestamp(), query=Query("q", ("q",)), accesses=accesses or {},
                        all_token_matches=matches, engine=engine)


def _fused(index, hours_old, holds):
    return Fused(index=index, score=0.01, fused_score=0.01, holds_all_tokens=holds,
                 timestamp=NOW.timestamp() - hours_old * 3600)


def test_decay_policies(tmp_path):
    home = _home(tmp_path, [("tool-use", "a", 1), ("tool-use", "b", 1)])
    engine = SearchEngine(home, persist=False)
    old = 24 * 200
    exp = ExpDecay().apply([_fused(0, old, True), _fused(1, 1, False)], _ctx(engine, 1))
    assert exp[0].score == pytest.approx(0.01 * math.exp(-0.001 * old))
    assert exp[1].score == pytest.approx(0.01 * math.exp(-0.001))
    gated = GatedExpDecay().apply([_fused(0, old, True), _fused(1, 1, False)], _ctx(engine, 1))
    assert gated[0].gated and gated[0].score == pytest.approx(0.03)
    assert not gated[1].gated
    # Many full matches: a vague query, no gate.
    vague = GatedExpDecay().apply([_fused(0, old, True)], _ctx(engine, 11))
    assert not vague[0].gated and vague[0].score < 0.001
    none = NoDecay().apply([_fused(0, old, True)], _ctx(engine, 1))
    assert none[0].score == 0.01


def test_reuse_boost_and_last_access(tmp_path):
    home = _home(tmp_path, [("tool-use", "a", 1)])
    engine = SearchEngine(home, persist=False)
    eid = engine.index.event_id(0)
    accessed = NOW.timestamp() - 86400  # one day ago
    out = ExpDecay().apply([_fused(0, 24 * 100, False)], _ctx(engine, None, {eid: [accessed]}))[0]
    assert out.reuse_count == 1
    assert out.boost == pytest.approx(1.3)
    # last use = the access, not the 100-day-old event
    assert out.decay == pytest.approx(math.exp(-0.001 * 24))


def _reference_ladders(home, engine, query, depth, allowed=lambda eid: True):
    """Per log: the textbook scores of every matching in-scope document, best first, ties by
    document index, cut to depth (computed from the logs, not from the index's postings).
    `depth=None` keeps every document (for a cut that falls inside a tie)."""
    docs = {}
    for name, label in (("tool-use-log.jsonl", "tool-use"), ("prompt-history.jsonl", "prompts"),
                        ("research-log.jsonl", "research")):
        path = home.root / name
        if path.exists():
            for line in path.read_text().splitlines():
                row = json.loads(line)
                docs[row["event_id"]] = (label, tokenize(row_text(row)))
    n = len(docs)
    avgdl = sum(len(t) for _, t in docs.values()) / n
    df = {term: sum(1 for _, t in docs.values() if term in t) for term in query_tokens(query)}
    buckets: dict[str, list] = {}
    for eid, (label, toks) in docs.items():
        score = 0.0
        for term in query_tokens(query):
            tf = toks.count(term)
            if tf and df[term]:
                idf = lucene_idf(n, df[term])
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(toks) / avgdl))
        if score > 0 and allowed(eid):
            buckets.setdefault(label, []).append((-round(score, 6), engine.index_of(eid), score))
    return {label: sorted(entries)[:depth] for label, entries in buckets.items()}


def _same_as_reference(ladders, want, depth) -> None:
    """The same logs, the same scores (float32 vs float64) and the same documents in the same
    order, `want` holding every in-scope match (`_reference_ladders(..., depth=None)`).

    Two documents can score the same in exact arithmetic by different terms (tf 1 in a short
    text, tf 2 in a longer one): float32 then rounds them a unit apart, either way, so at such a
    tie (reference scores within 2e-6) either document may come first, and a cut inside it may
    keep either. Documents whose float32 scores are equal are ordered by document index."""
    assert all(l.reason for l in ladders if not len(l))  # an empty ladder says why
    ladders = [l for l in ladders if len(l)]
    assert {l.name for l in ladders} == set(want)
    for ladder in ladders:
        expect = want[ladder.name][:depth]
        textbook = {doc: score for _, doc, score in want[ladder.name]}
        got = ladder.indices.tolist()
        assert len(got) == len(expect) == len(set(got))
        assert ladder.scores.tolist() == pytest.approx([s for _, _, s in expect], rel=1e-5)
        for doc, (_, _, score) in zip(got, expect):
            assert doc in textbook and textbook[doc] == pytest.approx(score, rel=0, abs=2e-6), (got, expect)
        for (doc_a, a), (doc_b, b) in zip(zip(got, ladder.scores), zip(got[1:], ladder.scores[1:])):
            assert a > b or (a == b and doc_a < doc_b), (got, ladder.scores.tolist())


@pytest.mark.parametrize("query", ["cart", "cart coupon", "quux cart", "quux zeta cart",
                                   "lock state retry cart", "zeta coupon deploy",
                                   "cache missingword"])
@pytest.mark.parametrize("depth", [15, 1000])
def test_pruned_ladders_equal_the_exhaustive_top_depth(tmp_path, query, depth):
    """At a depth far below the match count (and one above it), with a common term (the pruned path), a tail
    segment and a window: each log's ladder is exactly the reference's top `depth`, equal
    scores ordered by document index."""
    import random

    rng = random.Random(7)
    weights = [6, 6, 6, 5, 5, 4, 3, 1]  # "cart" in about a third of the documents, "zeta" in few
    docs = []
    for i in range(900):
        words = rng.choices(WORDS, weights, k=rng.randint(1, 5)) + (["quux", "cart"] if i % 100 == 7 else [])
        docs.append((rng.choice(["tool-use", "prompts", "research"]), " ".join(words), i))
    home = _home(tmp_path, docs[:700])
    engine = SearchEngine(home, persist=False)
    engine.ensure_loaded()
    for i, (label, text, age) in enumerate(docs[700:], 700):  # rows appended: a tail segment
        append_rows(home.log(label), [{"event_id": f"evt-{i:012d}", "summary": text,
                    "timestamp": (NOW - timedelta(hours=age)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "project": "p"}])
    assert engine.refresh() == "grown" and len(engine.index.segments) == 2
    # "quux" is rare enough for the pruned path (its documents are the candidates, "cart"'s
    # other documents are taken from cart's weights alone)
    assert 0 < engine.index.df("quux") * DENSE_SHARE < len(engine.index)
    assert engine.index.df("cart") * DENSE_SHARE > len(engine.index)
    assert engine.index.df("cart") * 2 < len(engine.index)  # a positive idf
    since = NOW - timedelta(hours=600)
    for scope, allowed in ((engine.scope(), lambda eid: True),
                           (engine.scope(since=since), lambda eid: int(eid[4:]) <= 600)):
        ladders = BM25Ranker().rank(Query(query, query_tokens(query)), scope, engine, depth=depth)
        _same_as_reference(ladders, _reference_ladders(home, engine, query, None, allowed), depth)


MORE_WORDS = WORDS + ["alpha", "beta", "gamma", "delta", "omega", "sigma", "theta", "quux"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["tool-use", "prompts", "research"]),
                          st.lists(st.sampled_from(MORE_WORDS), min_size=1, max_size=4)
                          .map(" ".join)), min_size=2, max_size=40),
       st.lists(st.sampled_from(MORE_WORDS), min_size=1, max_size=4).map(" ".join),
       st.integers(1, 12), st.booleans(), st.sampled_from([0, 10**9]))
# found by hypothesis: "cart" (tf 1, 2 tokens) and "cart cart coupon coupon" (tf 2, 5 tokens)
# score the same exactly and a float32 unit apart; the cut at depth 1 may keep either
@example(docs=[("tool-use", "cart")] * 4 + [("tool-use", "cart cart coupon coupon")] * 2,
         query="cart", depth=1, windowed=False, share=0)
def test_every_path_equals_the_reference(tmp_path_factory, docs, query, depth, windowed, share):
    """Random corpora (half indexed, half appended as a tail), depths that cut, with and
    without a window; `share` forces the pruned path (0) or, given a second positive term, the
    dense one (10**9)."""
    from unittest import mock

    import carto_rankers.bm25 as bm25

    rows = [(label, text, float(i * 7 % 50)) for i, (label, text) in enumerate(docs)]
    half = len(rows) // 2
    home = _home(tmp_path_factory.mktemp("paths"), rows[:half])
    engine = SearchEngine(home, persist=False)
    if half:
        engine.ensure_loaded()
    for i, (label, text, age) in enumerate(rows[half:], half):
        append_rows(home.log(label), [{"event_id": f"evt-{i:012d}", "summary": text, "project": "p",
                    "timestamp": (NOW - timedelta(hours=age)).strftime("%Y-%m-%dT%H:%M:%SZ")}])
    engine.refresh()
    ages = {f"evt-{i:012d}": age for i, (_, _, age) in enumerate(rows)}
    if windowed:
        scope = engine.scope(since=NOW - timedelta(hours=24))
        allowed = lambda eid: ages[eid] <= 24  # noqa: E731
    else:
        scope, allowed = engine.scope(), (lambda eid: True)
    with mock.patch.object(bm25, "DENSE_SHARE", share):
        ladders = BM25Ranker().rank(Query(query, query_tokens(query)), scope, engine, depth=depth)
    _same_as_reference(ladders, _reference_ladders(home, engine, query, None, allowed), depth)


@pytest.mark.parametrize("text, holders, unheld", [
    ("cache retry", {0, 1, 4}, 0),
    ("cache retry nowhereword", {0, 1, 4}, 1),  # two held words: their full matches count
    ("cache retry later nowhereword elsewhereword", {4}, 2),
    ("cache retry nowhereword elsewhereword", {0, 1, 4}, 2),  # as many: the decay decides
    ("cache retry later nowhere else unheardof", {4}, 3),  # three of six held: as many
    ("cache retry nowhere else unheardof", set(), 3),  # more unheld than held: none
    ("cache nowhereword elsewhereword", set(), 2),  # one held word: none
    ("cache nowhereword", set(), 1),                # one held word: no full match
])
def test_a_word_no_document_holds_leaves_the_full_matches_of_the_held_words(tmp_path, text,
                                                                           holders, unheld):
    docs = [("tool-use", "cache retry lock", 1), ("prompts", "retry the cache", 2),
            ("tool-use", "cache warm", 3), ("tool-use", "retry later", 4),
            ("tool-use", "cache retry later", 5)]
    home = _home(tmp_path, docs)
    engine = SearchEngine(home, persist=False)
    ladders = BM25Ranker().rank(Query(text, query_tokens(text)), engine.scope(), engine)
    assert all(l.all_token_matches == len(holders) and l.unheld == unheld for l in ladders)
    held = {engine.index.event_id(int(i)) for l in ladders if l.holds_all is not None
            for i, h in zip(l.indices, l.holds_all) if h}
    assert held == {f"evt-{i:012d}" for i in holders}
    if holders:  # of the held words only
        assert {l.rarest_holders for l in ladders} == ({2} if len(holders) == 1 else {4})


@pytest.mark.parametrize("text, holders, apart, unheld", [
    ("rollout flags going", {0, 1}, 1, 0),            # "going" held, never beside the topic
    ("rollout flags going nowhereword", {0, 1}, 1, 1),
    ("rollout going", set(), 0, 0),                    # two words: no topic to leave one out of
    ("rollout flags going nowhereword elsewhereword", set(), 0, 2),  # as many unheld as topic
    ("rollout going smoothly", {5}, 1, 0),             # the pair rows hold, not the first pair
    ("rollout flags plan", {0, 1}, 1, 0),              # the word apart is the rarest
    ("rollout flags api build fine plan", {0}, 3, 0),  # six words: searched
    ("rollout flags api build fine plan smoothly", set(), 0, 0),  # seven: not
    # two pairs held: the one going together most against chance ("going fine", 1 row of
    # words in 3 and 1, over "rollout flags", 2 rows of words in 3 and 3)
    ("rollout flags going fine", {2}, 2, 0),
])
def test_the_topic_is_the_largest_set_of_held_words_rows_hold_together(tmp_path, text,
                                                                      holders, apart, unheld):
    docs = [("tool-use", "rollout flags for the api", 1), ("prompts", "flags rollout again", 2),
            ("tool-use", "the build is going fine", 3), ("tool-use", "flags are going up", 4),
            ("tool-use", "smoothly does it", 5), ("tool-use", "rollout went smoothly", 6),
            ("tool-use", "all going to plan", 7)]
    home = _home(tmp_path, docs)
    engine = SearchEngine(home, persist=False)
    ladders = BM25Ranker().rank(Query(text, query_tokens(text)), engine.scope(), engine)
    assert all(l.all_token_matches == len(holders) and l.apart == apart and l.unheld == unheld
               for l in ladders), [(l.all_token_matches, l.apart, l.unheld) for l in ladders]
    held = {engine.index.event_id(int(i)) for l in ladders if l.holds_all is not None
            for i, h in zip(l.indices, l.holds_all) if h}
    assert held == {f"evt-{i:012d}" for i in holders}
    if apart:  # generic or not: the rarest of every held word, the topic's and the rest's
        df = [sum(w in tokenize(t) for _, t, _ in docs) for w in query_tokens(text)]
        assert {l.rarest_holders for l in ladders} == {min(v for v in df if v)}
    if holders:  # the topic's words together against chance: holders over N x product of df/N
        words = {w: sum(w in tokenize(t) for _, t, _ in docs) for w in query_tokens(text)}
        topic = [w for w in words if all(w in tokenize(docs[i][1]) for i in holders)]
        expected = len(docs) * math.prod(words[w] / len(docs) for w in topic)
        assert {round(l.together, 9) for l in ladders} == {round(len(holders) / expected, 9)}
    else:
        assert {l.together for l in ladders} == {None}
