"""Paths of the decay policies mutmut 3 changed with the suite still passing (docs/testing.md):
exp and gated-exp without an access ledger (the common case has its own fast loop), and
gated-prior with a ledger (reuse boost, the last access as the age) and with an undated row;
and the analyzer's typographic apostrophe."""

from __future__ import annotations

import math
from types import SimpleNamespace

from carto_core.search.api import DecayContext, Fused, Query
from carto_rankers.decay import ExpDecay, GatedExpDecay, GatedPriorDecay

NOW = 1_800_000_000.0
HOUR = 3600.0
ENGINE = SimpleNamespace(index=SimpleNamespace(event_id=lambda i: f"evt-{i}"))


def _ctx(accesses=None, matches=None, text="cart checkout"):
    return DecayContext(now=NOW, query=Query(text, tuple(text.split())), accesses=accesses or {},
                        all_token_matches=matches, engine=ENGINE)


def _fused(index, hours_old, full=False):
    return Fused(index=index, score=1.0, fused_score=1.0, holds_all_tokens=full,
                 timestamp=None if hours_old is None else NOW - hours_old * HOUR)


def test_exp_without_a_ledger_decays_by_age_and_leaves_undated_rows_alone():
    old, undated = ExpDecay().apply([_fused(0, 500), _fused(1, None)], _ctx())
    assert math.isclose(old.decay, math.exp(-0.001 * 500)) and math.isclose(old.score, old.decay)
    assert undated.decay == 1.0 and undated.score == 1.0 and not old.gated


def test_gated_exp_without_a_ledger_lifts_a_lookups_full_matches_undecayed():
    full, partial = GatedExpDecay().apply([_fused(0, 500, full=True), _fused(1, 500)], _ctx(matches=3))
    assert full.gated and full.decay == 1.0 and full.boost == 3.0 and full.score == 3.0
    assert not partial.gated and partial.decay < 1.0 and partial.boost == 1.0


def test_gated_prior_with_a_ledger_boosts_reuse_and_ages_from_the_last_access():
    accesses = {"evt-0": [NOW - 2 * HOUR, NOW - HOUR]}
    used, unused = GatedPriorDecay().apply([_fused(0, 5000), _fused(1, 5000)], _ctx(accesses=accesses))
    assert used.reuse_count == 2 and used.boost > 1.0 and unused.boost == 1.0
    # used an hour ago: nearly fresh; the unused twin keeps only about its 1/(1+beta) floor
    assert used.decay > 0.99 > unused.decay
    assert used.score > unused.score


def test_gated_prior_leaves_an_undated_row_at_full_weight():
    (undated,) = GatedPriorDecay().apply([_fused(0, None)], _ctx())
    assert undated.decay == 1.0 and undated.score == 1.0


def test_a_typographic_apostrophe_expands_like_a_straight_one():
    """(analyzers) `user’s-cart` is `user's-cart`: one joined word, no `user`/`cart` parts."""
    from carto_rankers.analyzers import UnicodeAnalyzer

    analyzer = UnicodeAnalyzer()
    for word in ("user's-cart", "don't-panic"):
        curly = word.replace("'", "\u2019")
        assert analyzer.query(curly).terms == analyzer.query(word).terms == (word.replace("'", "").replace("-", ""),)


def test_a_vague_querys_partial_matches_decayed_to_almost_nothing_stay_finite():
    """A vague query (many full matches, the fast decay) ages partial matches months old to a
    subnormal score; scaling them under the last full match by `floor / top` overflowed to
    inf (and 0 x inf to nan): a search printed scores inf and nan, and its JSON `Infinity`."""
    from carto_rankers.decay import _full_matches_first

    full = Fused(index=0, score=0.004, fused_score=0.004, holds_all_tokens=True, timestamp=NOW)
    tiny = [Fused(index=i, score=s, fused_score=0.002, holds_all_tokens=False,
                  timestamp=NOW - 4000 * HOUR, decay=s / 0.002) for i, s in ((1, 1e-323), (2, 5e-324))]
    _full_matches_first([full, *tiny], _ctx(), 0.2)
    assert all(math.isfinite(f.score) and math.isfinite(f.decay) for f in tiny)
    assert tiny[0].score == 0.5 * full.score and tiny[1].score == 0.25 * full.score
    assert [f.decay for f in tiny] == [f.score / 0.002 for f in tiny]
