"""The page ordered by how near each result is, not by rank alone (`Fused.nearer` from
rrf-prior, `Fusion.closeness_page`, `carto_core.search.nearness`; docs/ranking.md, "How near,
on the first page")."""

from __future__ import annotations

from datetime import datetime, timezone

import numpy as np
import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search.api import Fused, Ladder, Query
from carto_core.search.engine import SearchEngine
from carto_core.search.nearness import nearest_first
from carto_rankers.rrf import RRFFusion, RRFPriorFusion


@pytest.fixture
def engine(tmp_path):
    home = Home(tmp_path / "h")
    stamp = datetime(2026, 6, 1, tzinfo=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    append_rows(home.log("turns"), [
        {"event_id": f"turn-{i:012d}", "timestamp": stamp, "summary": f"row {i}",
         "salience": 0.5} for i in range(14)])
    return SearchEngine(home, persist=False)


#: The semantic ladder's first at 0.29, its tenth (row 9) at 0.17; a keyword ladder holds row
#: 9 alone, for one light word of the question (a seventh of its idf mass).
COSINES = np.array([0.29, 0.27, 0.26, 0.25, 0.24, 0.23, 0.22, 0.21, 0.20, 0.17, 0.16, 0.15])


def _ladders(closeness: float):
    semantic = Ladder("semantic", np.arange(12), COSINES, ranker="semantic", uncovered_lift=1.0,
                      closeness=closeness)
    keyword = Ladder("turns", np.array([9]), np.array([4.0]), ranker="bm25", all_token_matches=0,
                     coverage=np.array([1 / 7]))
    return [keyword, semantic]


def _by(fused, field: str) -> list[int]:
    return [f.index for f in sorted(fused, key=lambda f: -getattr(f, field))]


def test_fusion_says_how_near_each_candidate_is_and_ranks_as_before(engine):
    by_rank = RRFPriorFusion().fuse(_ladders(0.0), engine)
    near = RRFPriorFusion().fuse(_ladders(1.0), engine)
    assert all(f.nearer is None for f in by_rank)
    # the scores are rank fusion's: the row one light word holds goes over the semantic first
    assert _by(near, "score") == _by(by_rank, "score") and _by(near, "score")[:2] == [9, 0]
    # heeding the cosines, it falls to where 0.17 of 0.29 puts it, under the rows near 0.2
    assert _by(near, "nearer")[:10] == [0, 1, 2, 3, 4, 5, 6, 9, 7, 8]
    # the ladder's closeness is the power of the share: squared, 0.17 of 0.29 weighs less
    squared = RRFPriorFusion().fuse(_ladders(2.0), engine)
    assert _by(squared, "nearer")[:10] == [0, 1, 2, 3, 4, 5, 6, 7, 9, 8]
    weight = 0.5 * (1 + 6 / 7)  # the semantic ladder's, lifted for the uncovered share
    nine = next(f for f in near if f.index == 9)
    assert nine.nearer == pytest.approx((weight / 70 * 0.17 / 0.29 + 1 / 7 / 61) * 0.75)
    assert RRFFusion.closeness_page == 0 and RRFPriorFusion.closeness_page == 10


def _fused(index: int, score: float, nearer: float | None, decay: float = 1.0) -> Fused:
    return Fused(index, score, fused_score=score / decay, decay=decay, nearer=nearer)


def test_the_page_keeps_its_rows_and_scores_in_the_order_of_nearness():
    fused = [_fused(0, 5.0, 1.0), _fused(1, 4.0, 5.0), _fused(2, 3.0, 4.0), _fused(3, 2.0, 0.0),
             _fused(4, 1.0, 9.0)]
    out = nearest_first(fused, 3)
    assert [f.index for f in out] == [1, 2, 0, 3, 4]  # row 4, nearer, is off the page
    assert [f.score for f in out] == [5.0, 4.0, 3.0, 2.0, 1.0]
    # what the decay made of each counts: row 1 decayed to a tenth of its fused score
    fused = [_fused(0, 5.0, 1.0), _fused(1, 4.0, 5.0, decay=0.1), _fused(2, 3.0, 4.0)]
    assert [f.index for f in nearest_first(fused, 3)] == [2, 0, 1]
    # a page where a row has no nearness, or of one row, is left as it is
    fused = [_fused(0, 5.0, 1.0), _fused(1, 4.0, None), _fused(2, 3.0, 9.0)]
    assert [f.index for f in nearest_first(fused, 3)] == [0, 1, 2]
    assert [f.index for f in nearest_first(fused, 1)] == [0, 1, 2]


def test_a_row_lifted_for_the_topic_keeps_its_lift_on_the_page_ordered_by_nearness(typed_engine):
    """"did the checksum archives stuff ever wrap up?": the answer is a tool row, which minilm
    never embeds; fusion puts the tool rows holding the topic just above the prompts holding
    one of its words. Ordered by nearness after the decay, they fell back under those prompts
    (3rd -> 10th) unless their nearness is lifted by the same rule."""
    engine = typed_engine
    tool = engine.index.strings["types"].index("tool_bash")
    topic = np.array([0, 1, 2])
    question = Query("did the checksum archives stuff ever wrap up?",
                     ("checksum", "archiv", "stuff", "wrap", "up"), (), True)

    def page(fusion, coverage=(0.4, 0.4), prompt=0.4) -> list[int]:
        keyword = Ladder("tool-use", np.array([1, 0]), np.array([2.0, 1.9]), ranker="bm25",
                         all_token_matches=0, coverage=np.array(coverage), unheld=2,
                         topic_holders=topic)
        prompts = Ladder("prompts", np.array([2, 3, 4, 5, 6]),
                         np.array([2.0, 1.0, 0.9, 0.8, 0.7]), ranker="bm25", all_token_matches=0,
                         coverage=np.array([prompt, 0.2, 0.2, 0.2, 0.2]), unheld=2,
                         topic_holders=topic)
        semantic = Ladder("semantic", np.array([2, 3, 4, 5, 6]),
                          np.array([0.57, 0.51, 0.50, 0.46, 0.46]), ranker="semantic",
                          uncovered_lift=1.0, unseen_types=(tool,), closeness=1.0)
        fused = fusion.fuse([keyword, prompts, semantic], engine, query=question)
        fused.sort(key=lambda f: (-f.score, f.index))
        return [f.index for f in nearest_first(fused, fusion.closeness_page)]

    plain = type("Plain", (RRFPriorFusion,), {"unseen_topic": False})()
    assert page(RRFPriorFusion()) == [2, 1, 0, 3, 4, 5, 6]
    # without the lift the tool rows are last, by score and by nearness alike
    assert page(plain)[-2:] == [1, 0]
    # one holding the whole query in its ladder is first already: the lift never lowers it
    assert page(plain, (1.0, 0.4), 0.2)[:2] == [1, 2]
    assert page(RRFPriorFusion(), (1.0, 0.4), 0.2) == [1, 2, 0, 3, 4, 5, 6]


#: A row the keyword ladder holds for "give" alone, and the one that answers in other words.
ROWS = ["Give me a packing list for a weekend in a caravan.",
        "My wife got me an Apple Watch for our anniversary.",
        "It rained all weekend, the garden is soaked.", "Remind me to drink more water.",
        "We booked flights to the Dolomites for October.",
        "the staging deploy failed on the database migration",
        "Airports are chaos in the summer.", "Second-hand shops have great finds."]
QUESTION = "What did my spouse give me to celebrate being married?"


def test_a_search_puts_the_nearer_answer_first(minilm_turns, monkeypatch):
    from carto_core.search import SearchRequest, run_search

    home = minilm_turns("nearness", ROWS)
    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")

    def first() -> str:
        result = run_search(SearchRequest(query=QUESTION, limit=3, all=True),
                            engine=SearchEngine(home))
        return result.results[0].event_id

    assert first() == "turn-s1-1"
    monkeypatch.setattr(RRFPriorFusion, "closeness_page", 0)
    assert first() == "turn-s0-1"
