"""The lookup gate's edges: exactly 10 in-scope documents holding every query token is still a
lookup (skips decay, lifted x3), 11 is not, 0 is not. Mutation testing found that `<=` could
become `<` (and `1 <=` become `0 <=`) with the whole suite passing; these fail on each."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search import run_search
from carto_core.search.api import DecayContext, Fused, Query, SearchRequest
from carto_core.search.engine import SearchEngine
from carto_rankers.decay import GatedExpDecay, GatedPriorDecay

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)
OLD_HOURS = 24 * 300


def _context(engine, matches):
    return DecayContext(now=NOW.timestamp(), query=Query("q", ("q",)), accesses={},
                        all_token_matches=matches, engine=engine)


def _old_full_match():
    return Fused(index=0, score=0.01, fused_score=0.01, holds_all_tokens=True,
                 timestamp=NOW.timestamp() - OLD_HOURS * 3600)


@pytest.fixture
def engine(tmp_path):
    home = Home(tmp_path / "h")
    append_rows(home.log("tool-use"), [{"event_id": "evt-000000000000", "summary": "x",
                                        "timestamp": NOW.strftime("%Y-%m-%dT%H:%M:%SZ")}])
    return SearchEngine(home, persist=False)


@pytest.mark.parametrize("policy", [GatedExpDecay, GatedPriorDecay])
@pytest.mark.parametrize("matches, lookup", [(0, False), (1, True), (9, True), (10, True), (11, False),
                                             (None, False)])
def test_the_gate_opens_for_one_to_ten_full_matches_exactly(engine, policy, matches, lookup):
    fused = policy().apply([_old_full_match()], _context(engine, matches))[0]
    assert fused.gated is lookup
    if lookup:
        assert fused.decay == 1.0 and fused.score == pytest.approx(0.03)  # no decay, lifted x3
    elif policy is GatedPriorDecay and matches == 11:
        # a vague query's full matches age from the newest of them: this one is it
        assert fused.decay == 1.0 and fused.score == pytest.approx(0.03)
    else:
        assert fused.decay < 1.0


@pytest.mark.parametrize("holders, lookup", [(10, True), (11, False)])
def test_the_pipeline_counts_holders_and_gates_at_ten(tmp_path, holders, lookup):
    """End to end: `holders` old documents hold both query words, fresher ones hold one."""
    home = Home(tmp_path / "h")
    rows = [{"event_id": f"evt-old{i:09d}", "summary": f"quokka zanzibar note {i}", "project": "p",
             "timestamp": (NOW - timedelta(days=300)).strftime("%Y-%m-%dT%H:%M:%SZ")} for i in range(holders)]
    rows += [{"event_id": f"evt-new{i:09d}", "summary": f"quokka only {i}", "project": "p",
              "timestamp": NOW.strftime("%Y-%m-%dT%H:%M:%SZ")} for i in range(30)]
    append_rows(home.log("tool-use"), rows)
    result = run_search(SearchRequest(query="quokka zanzibar", limit=50, decay="gated-exp", all=True,
                                      rankers=["bm25"], now=NOW, semantic=False),
                        engine=SearchEngine(home, persist=False), telemetry=None)
    full = [r for r in result.results if r.event_id.startswith("evt-old")]
    assert len(full) == holders
    assert all(r.gated is lookup for r in full)
