"""Contract kits for rankers, fusions and decay policies (`carto_core.search.api`).

    from carto_core.api import RankerContract

    class TestMyRanker(RankerContract):
        @pytest.fixture
        def ranker(self):
            return MyRanker()

The kit builds one small generated home for the whole run (`carto_kit_engine`: a
`SearchEngine` over ~600 events with its keyword index persisted, core's `upstream` analyzer),
and draws its queries from the home's own rows. PYTEST_DONT_REWRITE: every assertion carries
its own message.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timezone

import pytest

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
EVENTS = 600


@pytest.fixture(scope="session")
def carto_kit_engine(tmp_path_factory):
    """A `SearchEngine` over a generated home of `EVENTS` events, its index persisted."""
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    root = tmp_path_factory.mktemp("carto-kit") / "home"
    generate_home(root, EVENTS, seed=11, now=NOW)
    engine = SearchEngine(Home(root), analyzer="upstream", auto_refresh=False)
    engine.ensure_loaded()
    return engine


@pytest.fixture(scope="session")
def carto_kit_queries(carto_kit_engine) -> list:
    """A dozen analysed queries: words of the home's own rows (two to four each)."""
    from carto_core.search.api import Query

    engine = carto_kit_engine
    rng = random.Random(3)
    out = []
    for doc in rng.sample(range(len(engine.index)), 40):
        words = engine.analyzer.terms(str(engine.index.row(doc).get("summary") or ""))
        if len(words) >= 2:
            picked = rng.sample(words, min(len(words), rng.randint(2, 4)))
            out.append(Query(" ".join(picked), tuple(dict.fromkeys(picked))))
        if len(out) == 12:
            break
    return out


def _half_scope(engine, seed: int = 5):
    """The engine's scope with a random half of the documents taken out."""
    import numpy as np

    scope = engine.scope()
    keep = np.random.default_rng(seed).random(len(engine.index)) < 0.5
    scope.mask = keep if scope.mask is None else scope.mask & keep
    return scope


def _ladders(ranker, query, scope, engine, depth=500) -> dict:
    """ladder name -> (indices, scores) as lists, empty ladders left out; the ranker is given
    what the pipeline gives it (`RankContext`)."""
    from carto_core.search.api import RankContext

    return {l.name: ([int(i) for i in l.indices], [float(s) for s in l.scores])
            for l in ranker.rank(query, scope, RankContext(engine), depth=depth) if len(l)}


class RankerContract:
    """The ranker rules (`carto_core.search.api.Ranker`); provide a `ranker` fixture."""

    #: How many of the kit's queries must give a non-empty ladder (a kit over nothing proves
    #: nothing); lower it for a ranker that answers few queries on purpose.
    min_answered = 3

    @pytest.fixture
    def ranker(self):
        raise NotImplementedError("define a `ranker` fixture returning the ranker under test")

    def test_ranker_status_answers(self, ranker, carto_kit_engine):
        ok, reason = ranker.status(carto_kit_engine)
        assert isinstance(ok, bool) and isinstance(reason, str), \
            f"status() must return (bool, str), got {(ok, reason)!r}"

    def test_ranker_ladders_are_best_first_within_depth(self, ranker, carto_kit_engine, carto_kit_queries):
        engine, answered = carto_kit_engine, 0
        for query in carto_kit_queries:
            ladders = _ladders(ranker, query, engine.scope(), engine, depth=50)
            answered += bool(ladders)
            for name, (docs, scores) in ladders.items():
                assert len(docs) <= 50, f"{query.text!r}: ladder {name} holds {len(docs)} > depth 50"
                assert len(set(docs)) == len(docs), f"{query.text!r}: ladder {name} repeats a document"
                assert all(0 <= d < len(engine.index) for d in docs), \
                    f"{query.text!r}: ladder {name} names a document the engine does not hold"
                assert all(a >= b for a, b in zip(scores, scores[1:])), \
                    f"{query.text!r}: ladder {name} is not best first: {scores[:10]}"
        assert answered >= self.min_answered, \
            f"only {answered} of {len(carto_kit_queries)} queries gave a ladder (min_answered)"

    def test_ranker_reads_only_its_context(self, ranker, carto_kit_engine, carto_kit_queries):
        """`rank` reads what `RankContext` offers; anything else of the engine (the scope
        builder, fusion, the access ledger, refresh) is the pipeline's, and reading it warns."""
        import warnings

        from carto_core.search.api import EngineAttributeWarning

        engine = carto_kit_engine
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", EngineAttributeWarning)
            for query in carto_kit_queries:
                _ladders(ranker, query, engine.scope(), engine)
        read = sorted({str(w.message).split(",")[0] for w in caught
                       if issubclass(w.category, EngineAttributeWarning)})
        assert not read, f"rank() read the engine beyond its RankContext: {read}"

    def test_ranker_honours_the_scope(self, ranker, carto_kit_engine, carto_kit_queries):
        engine = carto_kit_engine
        scope = _half_scope(engine)
        for query in carto_kit_queries:
            for name, (docs, _) in _ladders(ranker, query, scope, engine).items():
                outside = [d for d in docs if not scope.mask[d]]
                assert not outside, f"{query.text!r}: ladder {name} returns out-of-scope documents {outside[:5]}"

    def test_ranker_statistics_do_not_depend_on_the_scope(self, ranker, carto_kit_engine, carto_kit_queries):
        """A document's score is the same with or without the scope (IDF and the like are the
        whole corpus's): the scope only takes documents out."""
        engine = carto_kit_engine
        scope = _half_scope(engine)
        for query in carto_kit_queries:
            everything = _ladders(ranker, query, engine.scope(), engine)
            scoped = _ladders(ranker, query, scope, engine)
            for name, (docs, scores) in scoped.items():
                whole = dict(zip(*everything.get(name, ([], []))))
                for doc, score in zip(docs, scores):
                    if doc in whole:
                        assert math.isclose(score, whole[doc], rel_tol=1e-6, abs_tol=1e-9), \
                            (f"{query.text!r}: document {doc} scores {score} in scope and "
                             f"{whole[doc]} without it (a statistic follows the scope)")

    def test_ranker_depth_cuts_the_same_ladder(self, ranker, carto_kit_engine, carto_kit_queries):
        engine = carto_kit_engine
        for query in carto_kit_queries:
            full = _ladders(ranker, query, engine.scope(), engine)
            short = _ladders(ranker, query, engine.scope(), engine, depth=5)
            for name, (docs, _) in short.items():
                assert docs == full.get(name, ([], []))[0][:len(docs)], \
                    f"{query.text!r}: ladder {name} at depth 5 is not the top of the full ladder"

    def test_ranker_stdlib_ranking_is_the_same_or_says_why_not(self, ranker, carto_kit_engine, carto_kit_queries):
        """The prompt-time recall calls `rank_lite`: the same ladders, or a stated opt-out."""
        from carto_core.search.api import LiteScope
        from carto_core.search.index_view import IndexView
        from carto_core.search.lite import has_lite

        if not has_lite(type(ranker)):
            reason = getattr(ranker, "lite_opt_out", "")
            assert isinstance(reason, str) and reason.strip(), "no rank_lite and no lite_opt_out reason"
            return
        engine = carto_kit_engine
        view = IndexView.open(engine.home)
        assert view is not None, "the kit's home has no persisted index"
        scope = _half_scope(engine)
        lite_scope = LiteScope(lambda doc: bool(scope.mask[doc]))
        for query in carto_kit_queries:
            mine = {l.name: (list(l.indices), [float(s) for s in l.scores])
                    for l in ranker.rank_lite(query, view, lite_scope) if len(l)}
            theirs = _ladders(ranker, query, scope, engine)
            assert sorted(mine) == sorted(theirs), f"{query.text!r}: ladders {sorted(mine)} != {sorted(theirs)}"
            for name, (docs, scores) in theirs.items():
                assert mine[name][0] == docs, f"{query.text!r}: ladder {name} orders differently in rank_lite"
                assert all(math.isclose(a, b, rel_tol=1e-5) for a, b in zip(mine[name][1], scores)), \
                    f"{query.text!r}: ladder {name} scores differ in rank_lite"


def _fake_ladders(engine, seed: int = 2):
    """Three ladders over the kit's home: two overlapping keyword-like ones and a third."""
    import numpy as np

    from carto_core.search.api import Ladder

    rng = np.random.default_rng(seed)
    n = len(engine.index)
    out = []
    for name, size in (("alpha", 40), ("beta", 30), ("gamma", 20)):
        docs = rng.choice(n, size=size, replace=False).astype(np.int64)
        out.append(Ladder(name, docs, np.linspace(2.0, 1.0, size), np.zeros(size, bool), name,
                          coverage=np.ones(size)))
    return out


def _marked_ladders(engine, seed: int = 8):
    """Two overlapping ladders over rows of the kit's home that each have a time and a salience
    of their own (within the clamp, not the default), every other document flagged as holding
    every query word, and the row values a fusion must carry: doc -> (timestamp, salience)."""
    import numpy as np

    from carto_core.search.api import SALIENCE_DEFAULT, SALIENCE_MAX, SALIENCE_MIN, Ladder

    stamps = np.asarray(engine.index.cols["ts"], np.float64)
    salience = np.asarray(engine.index.cols["salience"], np.float64)
    clean = np.flatnonzero(~np.isnan(stamps) & (salience >= SALIENCE_MIN) & (salience <= SALIENCE_MAX)
                           & (salience != SALIENCE_DEFAULT))
    docs = np.random.default_rng(seed).choice(clean, size=min(60, len(clean)), replace=False)
    first, second = docs[:40].astype(np.int64), docs[20:].astype(np.int64)
    ladders = [Ladder(name, part, np.linspace(2.0, 1.0, len(part)), np.arange(len(part)) % 2 == offset,
                      name, coverage=np.ones(len(part)))
               for name, part, offset in (("alpha", first, 0), ("beta", second, 1))]
    rows = {int(d): (float(stamps[d]), float(salience[d])) for d in docs}
    return ladders, rows


class FusionContract:
    """The fusion rules (`carto_core.search.api.Fusion`); provide a `fusion` fixture."""

    @pytest.fixture
    def fusion(self):
        raise NotImplementedError("define a `fusion` fixture returning the fusion under test")

    def _fused(self, fusion, ladders, engine):
        from carto_core.search.api import Query

        return fusion.fuse(ladders, engine, query=Query("kit", ("kit",)))

    def test_fusion_of_nothing_is_nothing(self, fusion, carto_kit_engine):
        assert list(self._fused(fusion, [], carto_kit_engine)) == [], "fusing no ladder must give []"

    def test_fusion_keeps_every_candidate_once(self, fusion, carto_kit_engine):
        """The trim is the pipeline's (`search.api.trim`): a fusion returns every document of
        the ladders it uses, each once, with the ladders it came from."""
        ladders = _fake_ladders(carto_kit_engine)
        used = fusion.gated(ladders) if hasattr(fusion, "gated") else ladders
        fused = self._fused(fusion, ladders, carto_kit_engine)
        indices = [f.index for f in fused]
        assert len(set(indices)) == len(indices), "a document appears twice in the fusion"
        expected = {int(d) for ladder in used for d in ladder.indices}
        assert set(indices) == expected, \
            f"fusion returned {len(set(indices))} documents of the {len(expected)} its ladders hold"
        names = {l.name: [int(d) for d in l.indices] for l in used}
        for f in fused:
            held = sorted(name for name, docs in names.items() if f.index in docs)
            assert sorted(f.sources) == held, f"document {f.index}: sources {f.sources} != {held}"
            for name in held:
                assert f.ranks.get(name) == names[name].index(f.index) + 1, \
                    f"document {f.index}: rank in {name} is {f.ranks.get(name)}"

    def test_fusion_never_ranks_a_better_rank_lower(self, fusion, carto_kit_engine):
        """In one ladder, of two documents with the same salience, the better-ranked one never
        scores lower."""
        engine = carto_kit_engine
        (ladder,) = _fake_ladders(engine)[:1]
        fused = {f.index: f for f in self._fused(fusion, [ladder], engine)}
        order = [int(d) for d in ladder.indices]
        for better, worse in zip(order, order[1:]):
            a, b = fused[better], fused[worse]
            if a.salience == b.salience:
                assert a.score >= b.score, f"rank {order.index(better) + 1} scores below the next"

    def test_fusion_carries_what_the_decay_reads(self, fusion, carto_kit_engine):
        """Each candidate carries its row's `timestamp` and `salience` and whether a ladder
        flags it as holding every query word (`holds_all_tokens`): the decay policies read
        them, and at their defaults every policy ranks as `none` (`fill_row_fields` fills
        them). `fuse_lite`, when the fusion has one, alike."""
        from carto_core.search.api import Query
        from carto_core.search.index_view import IndexView
        from carto_core.search.lite import has_lite

        engine = carto_kit_engine
        ladders, rows = _marked_ladders(engine)
        used = fusion.gated(ladders)
        held = {int(d) for l in used for d, flag in zip(l.indices, l.holds_all) if flag}
        runs = [("fuse", self._fused(fusion, ladders, engine))]
        if has_lite(type(fusion)):
            from carto_core.search.api import Ladder

            lite = [Ladder(l.name, l.indices.tolist(), l.scores.tolist(), l.holds_all.tolist(), l.ranker,
                           coverage=l.coverage.tolist()) for l in ladders]
            runs.append(("fuse_lite", fusion.fuse_lite(lite, IndexView.open(engine.home),
                                                       Query("kit", ("kit",)))))
        for method, fused in runs:
            assert fused, f"{method} gave no candidate for two ladders"
            for f in fused:
                stamp, salience = rows[f.index]
                where = f"{method}, document {f.index}"
                assert f.timestamp is not None and math.isclose(f.timestamp, stamp, abs_tol=1e-3), (
                    f"{where}: Fused.timestamp {f.timestamp!r}, its row's is {stamp!r} (a fusion "
                    "fills timestamp, salience and holds_all_tokens: carto_core.api.fill_row_fields)")
                assert math.isclose(f.salience, salience, rel_tol=1e-6), (
                    f"{where}: Fused.salience {f.salience!r}, its row's is {salience!r} "
                    "(carto_core.api.fill_row_fields)")
                assert bool(f.holds_all_tokens) == (f.index in held), (
                    f"{where}: Fused.holds_all_tokens {f.holds_all_tokens!r}, but "
                    f"{'a' if f.index in held else 'no'} ladder flags it in Ladder.holds_all "
                    "(carto_core.api.fill_row_fields)")

    def test_fusion_is_deterministic(self, fusion, carto_kit_engine):
        ladders = _fake_ladders(carto_kit_engine)

        def key(fused):
            return sorted((f.index, f.score, tuple(f.sources)) for f in fused)

        assert key(self._fused(fusion, ladders, carto_kit_engine)) == \
            key(self._fused(fusion, ladders, carto_kit_engine)), "two fusions of the same ladders differ"

    def test_fusion_gates_to_a_subset(self, fusion, carto_kit_engine):
        ladders = _fake_ladders(carto_kit_engine)
        kept = fusion.gated(ladders)
        assert all(any(k is l for l in ladders) for k in kept), "gated() returned a ladder it was not given"

    def test_fusion_stdlib_fusion_is_the_same_or_says_why_not(self, fusion, carto_kit_engine):
        from carto_core.search.api import Ladder, Query
        from carto_core.search.index_view import IndexView
        from carto_core.search.lite import has_lite

        if not has_lite(type(fusion)):
            reason = getattr(fusion, "lite_opt_out", "")
            assert isinstance(reason, str) and reason.strip(), "no fuse_lite and no lite_opt_out reason"
            return
        engine = carto_kit_engine
        ladders = _fake_ladders(engine)
        lite = [Ladder(l.name, l.indices.tolist(), l.scores.tolist(), l.holds_all.tolist(), l.ranker,
                       coverage=l.coverage.tolist()) for l in ladders]
        query = Query("kit", ("kit",))

        def key(fused):
            return sorted((f.index, round(f.score, 12), sorted(f.sources)) for f in fused)

        assert key(fusion.fuse_lite(lite, IndexView.open(engine.home), query)) == \
            key(fusion.fuse(ladders, engine, query=query)), "fuse_lite and fuse disagree"


class DecayPolicyContract:
    """The decay policy rules (`carto_core.search.api.DecayPolicy`); provide a `policy` fixture."""

    @pytest.fixture
    def policy(self):
        raise NotImplementedError("define a `policy` fixture returning the decay policy under test")

    def _candidates(self, engine):
        from carto_core.search.api import Fused

        rng = random.Random(4)
        stamps = engine.index.cols["ts"]
        docs = rng.sample(range(len(engine.index)), 60)
        return [Fused(d, 1.0 / (61 + i), ["kit"], {"kit": i + 1}, i % 3 == 0, 0.5,
                      None if stamps[d] != stamps[d] else float(stamps[d]), 1.0 / (61 + i))
                for i, d in enumerate(docs)]

    def _context(self, engine, matches=3):
        from carto_core.search.api import DecayContext, Query
        from carto_core.search.decay_knobs import decay_parameters

        return DecayContext(now=NOW.timestamp(), query=Query("kit words", ("kit", "words")),
                            accesses={}, all_token_matches=matches, engine=engine,
                            rarest_holders=matches, **decay_parameters())

    def test_decay_keeps_every_candidate(self, policy, carto_kit_engine):
        before = self._candidates(carto_kit_engine)
        after = policy.apply(list(before), self._context(carto_kit_engine))
        assert sorted(f.index for f in after) == sorted(f.index for f in before), \
            "a decay policy reshapes scores; it never drops or adds a candidate"

    def test_decay_scores_are_finite_and_not_negative(self, policy, carto_kit_engine):
        for matches in (None, 0, 3, 500):
            for f in policy.apply(self._candidates(carto_kit_engine), self._context(carto_kit_engine, matches)):
                assert math.isfinite(f.score) and f.score >= 0, \
                    f"document {f.index}: score {f.score} (all_token_matches {matches})"

    def test_decay_is_deterministic(self, policy, carto_kit_engine):
        def scores():
            return sorted((f.index, f.score) for f in
                          policy.apply(self._candidates(carto_kit_engine), self._context(carto_kit_engine)))

        assert scores() == scores(), "two runs over the same candidates and context differ"

    def test_decay_of_nothing_is_nothing(self, policy, carto_kit_engine):
        assert list(policy.apply([], self._context(carto_kit_engine))) == [], "no candidate in, none out"
