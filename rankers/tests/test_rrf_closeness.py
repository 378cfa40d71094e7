"""rrf-prior's first page ordered by how near each row is, not by rank alone
(`RRFFusion.closeness_page`, `Ladder.closeness`; docs/ranking.md, "How near, on the first page")."""

from __future__ import annotations

from datetime import datetime, timezone

import numpy as np
import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search.api import Ladder
from carto_core.search.engine import SearchEngine
from carto_rankers.rrf import RRFFusion, RRFPriorFusion, page_reordered


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


def _order(fused) -> list[int]:
    return [f.index for f in sorted(fused, key=lambda f: -f.score)]


def test_the_page_is_ordered_by_how_near_each_row_is_and_keeps_its_rows_and_scores(engine):
    by_rank = RRFPriorFusion().fuse(_ladders(0.0), engine)
    near = RRFPriorFusion().fuse(_ladders(1.0), engine)
    # by rank, the row one light word holds goes over the semantic ladder's first
    assert _order(by_rank)[:2] == [9, 0]
    # heeding the cosines, it falls to where 0.17 of 0.29 puts it, under the rows near 0.2
    assert _order(near)[:10] == [0, 1, 2, 3, 4, 5, 6, 9, 7, 8]
    # the ladder's closeness is the power of the share: squared, 0.17 of 0.29 weighs less
    assert _order(RRFPriorFusion().fuse(_ladders(2.0), engine))[:10] == [0, 1, 2, 3, 4, 5, 6, 7,
                                                                         9, 8]
    # the same ten rows on the page, with the same ten scores; the rest untouched
    assert set(_order(near)[:10]) == set(_order(by_rank)[:10])
    scores = {f.index: f.score for f in by_rank}
    assert sorted(f.score for f in near) == pytest.approx(sorted(scores.values()))
    assert {f.index: f.score for f in near if f.index in (10, 11)} == pytest.approx(
        {i: scores[i] for i in (10, 11)})


def test_upstream_rrf_and_a_ladder_without_closeness_rank_alone(engine):
    plain = RRFFusion().fuse(_ladders(1.0), engine)  # closeness_page 0
    assert _order(plain)[0] == 9
    assert RRFFusion.closeness_page == 0 and RRFPriorFusion.closeness_page == 10


def test_a_page_keeps_its_members_whatever_is_nearer_below_it():
    score = np.array([5.0, 4.0, 3.0, 2.0, 1.0])
    nearer = np.array([1.0, 5.0, 4.0, 0.0, 9.0])
    out = page_reordered(score, nearer, 3)
    np.testing.assert_array_equal(out, [3.0, 5.0, 4.0, 2.0, 1.0])
    np.testing.assert_array_equal(page_reordered(score, nearer, 1), score)
