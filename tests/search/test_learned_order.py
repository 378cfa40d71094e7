"""The learned order's parts (search.learned): the numbers that describe a result, the trees
walked in numpy as scikit-learn walks them, the order they give, and the shipped trees."""

from __future__ import annotations

import json

import numpy as np
import pytest

from carto_core.search import learned


def _hit(eid, score, text, ts, ranks, **why):
    return {"id": eid, "score": score, "type": "transcript", "ts": ts, "text": text, "dup": 0,
            "why": {"ranks": ranks, "sources": why.pop("sources", ["turns", "semantic"]),
                    "fused_score": score, **why}}


HITS = [
    _hit("turn-s1-2", 0.04, "Do you still keep bees behind the school?", "2026-03-02T10:00:00Z",
         {"turns": 1, "semantic": 4}),
    _hit("turn-s1-3", 0.02, "Yes, two hives by the allotments now.", "2026-03-02T10:01:00Z",
         {"semantic": 2}, sources=["semantic", "answer"]),
    _hit("turn-s2-1", 0.01, "The weather turned cold.", "2025-01-01T00:00:00Z", {"semantic": 9}),
]


def test_the_numbers_of_a_result_are_its_place_ladders_text_and_neighbours():
    rows = learned.features("Where do I keep my bees now?", HITS)
    assert len(rows) == 3 and all(len(r) == learned.WIDTH for r in rows)
    first, second, third = rows
    # place, its inverse, score against the first's
    assert first[:3] == [1, 1.0, 1.0] and second[:3] == [2, 0.5, 0.5]
    # each ladder's rank: semantic log1p(4), present; keyword log1p(1), present, one ladder
    assert first[5:10] == [pytest.approx(np.log1p(4)), 1, pytest.approx(np.log1p(1)), 1, 1]
    # no keyword ladder holds the second: 7.0 and absent
    assert second[7:10] == [7.0, 0, 0]
    # lent by the answer step; asks (ends with "?", holds one)
    assert second[10] == 1 and first[10] == 0
    assert first[16:18] == [1, 1] and second[16:18] == [0, 0]
    # content words held: "keep", "bees" of {keep, bees}; "now" is no stop word here
    assert first[19] == pytest.approx(2 / 3) and second[19] == pytest.approx(1 / 3)
    # the turn before the second (turn-s1-2) is first on the page and asks; none before the first
    assert second[22:25] == [1.0, pytest.approx(2 / 3), 1] and first[22:25] == [0.0, 0.0, 0]
    # the turn after the first is second on the page
    assert first[25] == 0.5 and third[25] == 0.0
    # age among the three: the second is the newest
    assert [r[26] for r in rows] == [pytest.approx(2 / 3), pytest.approx(1 / 3), 1.0]
    # the question: three content words, says "now", ends with "?", opens with "where"
    assert first[29:33] == [3, 0, 1, 1] and first[33 + learned._OPENERS.index("where")] == 1


def test_the_trees_give_scikit_learns_decision_function():
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(7)
    x = rng.normal(size=(600, learned.WIDTH))
    y = (x[:, 3] + 0.5 * x[:, 17] * x[:, 20] + rng.normal(scale=0.3, size=600) > 0.2).astype(int)
    for depth in (2, 4):
        model = HistGradientBoostingClassifier(max_depth=depth, max_iter=30, random_state=0)
        model.fit(x, y)
        trees = learned.Trees(json.loads(json.dumps(learned.export(model))))
        probe = rng.normal(size=(50, learned.WIDTH))
        assert np.allclose(trees.margin(probe), model.decision_function(probe))


def _stump(column: int, threshold: float) -> learned.Trees:
    """One split: a row over `threshold` in `column` scores 1, the others 0."""
    return learned.Trees({"width": learned.WIDTH, "baseline": 0.0, "trees": [{
        "feature": [column, 0, 0], "threshold": [threshold, 0.0, 0.0], "left": [1, 0, 0],
        "right": [2, 0, 0], "leaf": [False, True, True], "value": [0.0, 0.0, 1.0]}]})


def test_the_order_puts_the_trees_best_first_and_keeps_the_search_order_among_ties():
    # column 16: the result asks; only the first does
    assert learned.order("where do I keep bees?", HITS, _stump(16, 0.5)) == [0, 1, 2]
    # column 26: age among the page over one half: the first and the third are the older
    assert learned.order("where do I keep bees?", HITS, _stump(26, 0.5)) == [0, 2, 1]
    # column 10: lent by the answer step
    assert learned.order("where do I keep bees?", HITS, _stump(10, 0.5)) == [1, 0, 2]


def test_trees_of_another_width_are_refused():
    with pytest.raises(ValueError, match="43 numbers"):
        learned.Trees({"width": 43, "baseline": 0.0, "trees": []})


def test_the_shipped_trees_read_every_number_and_order_a_page():
    trees = learned.shipped()
    assert len(trees.trees) == 200
    used = {int(f) for tree in trees.trees for f, leaf in zip(tree["feature"], tree["leaf"])
            if not leaf}
    assert used <= set(range(learned.WIDTH)) and len(used) > 20
    assert sorted(learned.order("Where do I keep my bees now?", HITS)) == [0, 1, 2]
