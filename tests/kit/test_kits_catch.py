"""The kits themselves (`carto_core.kits`): each passes a good object of its kind and each rule
fails on a fake broken for it (one inline pytest run over every fake)."""

from __future__ import annotations

import textwrap

pytest_plugins = ["pytester"]

FAKES = textwrap.dedent('''
    import os
    import random

    import numpy as np
    import pytest

    from carto_core.api import (
        DecayPolicyContract, EmbedderContract, FactVerbContract, FusionContract, Fused, Ladder,
        RankerContract, WriterContract, Embedder, FactVerb, Ranker,
    )
    from carto_core.builtins.writers import JsonlWriter
    from carto_rankers.bm25 import BM25Ranker
    from carto_rankers.decay import GatedPriorDecay
    from carto_rankers.rrf import RRFPriorFusion

    pytest_plugins = ["carto_core.testing"]


    # ------------------------------------------------------------------ rankers

    class BadStatus(BM25Ranker):
        def status(self, engine):
            return "yes", None

    class WorseFirst(BM25Ranker):
        def rank(self, query, scope, engine, *, depth=500):
            return [Ladder(l.name, l.indices[::-1], l.scores[::-1], None, l.ranker)
                    for l in super().rank(query, scope, engine, depth=depth)]

    class Repeats(BM25Ranker):
        def rank(self, query, scope, engine, *, depth=500):
            out = super().rank(query, scope, engine, depth=depth)
            return [Ladder(l.name, np.concatenate([l.indices[:1], l.indices])[:depth],
                           np.concatenate([l.scores[:1], l.scores])[:depth], None, l.ranker) for l in out]

    class TooDeep(BM25Ranker):
        def rank(self, query, scope, engine, *, depth=500):
            return super().rank(query, scope, engine, depth=500)

    class IgnoresScope(BM25Ranker):
        def rank(self, query, scope, engine, *, depth=500):
            return super().rank(query, engine.scope(), engine, depth=depth)

    class AsksTheEngine(BM25Ranker):
        def rank(self, query, scope, context, *, depth=500):
            context.accesses()
            return super().rank(query, scope, context, depth=depth)

    class ScopedStatistics(BM25Ranker):
        def rank(self, query, scope, engine, *, depth=500):
            share = 1.0 if scope.mask is None else float(scope.mask.mean())
            return [Ladder(l.name, l.indices, l.scores * share, None, l.ranker)
                    for l in super().rank(query, scope, engine, depth=depth)]

    class DepthReorders(BM25Ranker):
        def rank(self, query, scope, engine, *, depth=500):
            out = super().rank(query, scope, engine, depth=500)
            if depth < 500:
                out = [Ladder(l.name, l.indices[-depth:], l.scores[-depth:], None, l.ranker) for l in out]
            return out

    class LiteDiffers(BM25Ranker):
        def rank_lite(self, query, view, scope, *, depth=500):
            return [Ladder(l.name, l.indices[::-1], l.scores[::-1], None, l.ranker)
                    for l in super().rank_lite(query, view, scope, depth=depth)]

    class NoReason(BM25Ranker):
        lite_opt_out = ""
        rank_lite = Ranker.rank_lite


    # ------------------------------------------------------------------ fusions

    class FusesNothingIntoSomething(RRFPriorFusion):
        def fuse(self, ladders, engine, query=None):
            return super().fuse(ladders, engine, query) or [Fused(0, 1.0)]

    class TrimsItself(RRFPriorFusion):
        def fuse(self, ladders, engine, query=None):
            out = super().fuse(ladders, engine, query)
            top = max((f.score for f in out), default=0.0)
            return [f for f in out if f.score >= 0.9 * top]

    class BetterRanksLower(RRFPriorFusion):
        def fuse(self, ladders, engine, query=None):
            out = super().fuse(ladders, engine, query)
            for f in out:
                f.score = 1.0 / f.score
            return out

    class Jitters(RRFPriorFusion):
        def fuse(self, ladders, engine, query=None):
            out = super().fuse(ladders, engine, query)
            for f in out:
                f.score *= 1.0 + random.random() * 1e-3
            return out

    class GatesInAStranger(RRFPriorFusion):
        def gated(self, ladders, query=None):
            return list(ladders[:1]) + [Ladder("stranger", np.zeros(0, np.int64), np.zeros(0))]

    class ForgetsTheRow(RRFPriorFusion):
        # what `carto new-plugin --kind fusion` once generated: sources and ranks only
        def fuse(self, ladders, engine, query=None):
            return [Fused(f.index, f.score, f.sources, f.ranks, fused_score=f.fused_score)
                    for f in super().fuse(ladders, engine, query)]

    class FusesLiteDifferently(RRFPriorFusion):
        def fuse_lite(self, ladders, view, query=None):
            out = super().fuse_lite(ladders, view, query)
            for f in out:
                f.score *= 2
            return out


    # ------------------------------------------------------------------ decay policies

    class DropsOne(GatedPriorDecay):
        def apply(self, candidates, context):
            return super().apply(candidates, context)[:-1]

    class GoesNegative(GatedPriorDecay):
        def apply(self, candidates, context):
            out = super().apply(candidates, context)
            for f in out:
                f.score = -f.score
            return out

    class DecaysAtRandom(GatedPriorDecay):
        def apply(self, candidates, context):
            out = super().apply(candidates, context)
            for f in out:
                f.score *= random.random()
            return out

    class InventsACandidate(GatedPriorDecay):
        def apply(self, candidates, context):
            return super().apply(candidates, context) or [Fused(0, 1.0)]


    # ------------------------------------------------------------------ embedders

    class Hashed(Embedder):
        name = "hashed"
        dims = 16

        @property
        def model_tag(self):
            return "hashed-16"

        def _vector(self, text):
            rng = np.random.default_rng(sum(map(ord, text)))
            return rng.random(self.dims)

        def embed_documents(self, texts):
            return np.asarray([self._vector(t) for t in texts])

        def embed_query(self, text):
            return self._vector(text)

    class NoTag(Hashed):
        @property
        def model_tag(self):
            return ""

    class DropsADocument(Hashed):
        def embed_documents(self, texts):
            return super().embed_documents(texts)[:-1]

    class QueryElsewhere(Hashed):
        def embed_query(self, text):
            return np.concatenate([super().embed_query(text), [0.0]])

    class EmbedsAtRandom(Hashed):
        def embed_query(self, text):
            return np.random.random(self.dims)


    # ------------------------------------------------------------------ fact verbs

    class Counts(FactVerb):
        name = "counts"
        needs_corpus = False

        def run(self, corpus, request):
            import json

            lines = request.context["home"].log("changelog").read_text().splitlines()
            return {"events": len(lines), "sample": [json.loads(lines[0])["event_id"]]}

    class NotJson(Counts):
        def run(self, corpus, request):
            return {"events": object()}

    class CountsAtRandom(Counts):
        def run(self, corpus, request):
            return {"events": random.random()}

    class MadeUpSamples(Counts):
        def run(self, corpus, request):
            return {**super().run(corpus, request), "sample": ["evt-nosuchevent0"]}

    class WritesALog(Counts):
        def run(self, corpus, request):
            home = request.context["home"]
            with open(os.path.join(home.root, "verb-was-here.jsonl"), "a") as handle:
                handle.write("{}\\n")
            return super().run(corpus, request)


    # ------------------------------------------------------------------ writers

    class NoName(JsonlWriter):
        name = ""

    class Miscounts(JsonlWriter):
        def write(self, home, log, rows):
            super().write(home, log, rows)
            return 0

    class Stamps(JsonlWriter):
        def write(self, home, log, rows):
            for row in rows:
                row["written"] = True
            return super().write(home, log, rows)

    class RefusesNothing(JsonlWriter):
        def write(self, home, log, rows):
            return super().write(home, log, rows) if rows else None

    class PrimaryElsewhere(JsonlWriter):
        def write(self, home, log, rows):
            return super().write(home, "research" if log != "research" else "turns", rows)


    def kit(base, fixture, cls):
        if fixture == "embedder":
            def make(self, carto_contract_home):
                return cls(carto_contract_home)
        elif fixture == "verb":
            def make(self):
                return cls
        else:
            def make(self):
                return cls()
        name = f"Test{base.__name__[:-len('Contract')]}{cls.__name__}"
        return type(name, (base,), {fixture: pytest.fixture(name=fixture)(make)})


    for base, fixture, classes in (
            (RankerContract, "ranker", (BM25Ranker, BadStatus, WorseFirst, Repeats, TooDeep, IgnoresScope,
                                        AsksTheEngine, ScopedStatistics, DepthReorders, LiteDiffers, NoReason)),
            (FusionContract, "fusion", (RRFPriorFusion, FusesNothingIntoSomething, TrimsItself,
                                        BetterRanksLower, Jitters, GatesInAStranger, FusesLiteDifferently,
                                        ForgetsTheRow)),
            (DecayPolicyContract, "policy", (GatedPriorDecay, DropsOne, GoesNegative, DecaysAtRandom,
                                             InventsACandidate)),
            (EmbedderContract, "embedder", (Hashed, NoTag, DropsADocument, QueryElsewhere, EmbedsAtRandom)),
            (FactVerbContract, "verb", (Counts, NotJson, CountsAtRandom, MadeUpSamples, WritesALog)),
            (WriterContract, "writer", (JsonlWriter, NoName, Miscounts, Stamps, RefusesNothing,
                                        PrimaryElsewhere))):
        for cls in classes:
            made = kit(base, fixture, cls)
            globals()[made.__name__] = made
''')

#: The good object of each kit, and for each broken fake the rule it must fail.
GOOD = ["TestRankerBM25Ranker", "TestFusionRRFPriorFusion", "TestDecayPolicyGatedPriorDecay",
        "TestEmbedderHashed", "TestFactVerbCounts", "TestWriterJsonlWriter"]
BROKEN = {
    "TestRankerBadStatus": "test_ranker_status_answers",
    "TestRankerWorseFirst": "test_ranker_ladders_are_best_first_within_depth",
    "TestRankerRepeats": "test_ranker_ladders_are_best_first_within_depth",
    "TestRankerTooDeep": "test_ranker_ladders_are_best_first_within_depth",
    "TestRankerIgnoresScope": "test_ranker_honours_the_scope",
    "TestRankerAsksTheEngine": "test_ranker_reads_only_its_context",
    "TestRankerScopedStatistics": "test_ranker_statistics_do_not_depend_on_the_scope",
    "TestRankerDepthReorders": "test_ranker_depth_cuts_the_same_ladder",
    "TestRankerLiteDiffers": "test_ranker_stdlib_ranking_is_the_same_or_says_why_not",
    "TestRankerNoReason": "test_ranker_stdlib_ranking_is_the_same_or_says_why_not",
    "TestFusionFusesNothingIntoSomething": "test_fusion_of_nothing_is_nothing",
    "TestFusionTrimsItself": "test_fusion_keeps_every_candidate_once",
    "TestFusionBetterRanksLower": "test_fusion_never_ranks_a_better_rank_lower",
    "TestFusionJitters": "test_fusion_is_deterministic",
    "TestFusionGatesInAStranger": "test_fusion_gates_to_a_subset",
    "TestFusionFusesLiteDifferently": "test_fusion_stdlib_fusion_is_the_same_or_says_why_not",
    "TestFusionForgetsTheRow": "test_fusion_carries_what_the_decay_reads",
    "TestDecayPolicyDropsOne": "test_decay_keeps_every_candidate",
    "TestDecayPolicyGoesNegative": "test_decay_scores_are_finite_and_not_negative",
    "TestDecayPolicyDecaysAtRandom": "test_decay_is_deterministic",
    "TestDecayPolicyInventsACandidate": "test_decay_of_nothing_is_nothing",
    "TestEmbedderNoTag": "test_embedder_names_its_model",
    "TestEmbedderDropsADocument": "test_embedder_documents_are_one_finite_row_each",
    "TestEmbedderQueryElsewhere": "test_embedder_query_lives_in_the_documents_space",
    "TestEmbedderEmbedsAtRandom": "test_embedder_is_deterministic",
    "TestFactVerbNotJson": "test_verb_answers_with_a_json_document",
    "TestFactVerbCountsAtRandom": "test_verb_is_deterministic",
    "TestFactVerbMadeUpSamples": "test_verb_samples_are_events_of_the_home",
    "TestFactVerbWritesALog": "test_verb_writes_nothing_to_the_logs",
    "TestWriterNoName": "test_writer_has_a_name",
    "TestWriterMiscounts": "test_writer_reports_what_it_wrote",
    "TestWriterStamps": "test_writer_leaves_the_rows_as_they_were",
    "TestWriterRefusesNothing": "test_writer_takes_an_empty_batch",
    "TestWriterPrimaryElsewhere": "test_a_primary_writer_lands_rows_in_the_logs",
}


def test_each_kit_passes_a_good_object_and_fails_each_broken_one_on_its_rule(pytester, outcomes):
    pytester.makepyfile(test_fakes=FAKES)
    reprec = pytester.inline_run("-p", "no:cacheprovider")
    failed, passed = outcomes(reprec)
    assert {name: sorted(failed[name]) for name in GOOD if name in failed} == {}
    assert all(passed.get(name) for name in GOOD), passed
    missed = {name: sorted(failed.get(name, ())) for name, rule in BROKEN.items()
              if rule not in failed.get(name, ())}
    assert missed == {}, "these fakes did not fail the rule they break"
    # every rule of every kit is broken by some fake
    rules = {test for name in GOOD for test in passed[name]}
    assert rules == set(BROKEN.values())
