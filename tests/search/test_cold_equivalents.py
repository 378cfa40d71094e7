"""Cheaper ways a cold search computes what it computed before (docs/performance.md, "Cold
path", wave 5): each is held to the expression it replaced."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from carto_core.search.index import KeywordIndex
from carto_core.search.pipeline import _top


@given(st.lists(st.sampled_from("abcdefghijkl"), max_size=60), st.integers(1, 12))
def test_the_facet_top_is_most_common(words, n):
    """`_top` sorts instead of calling `most_common(n)` (which imports heapq): the same
    entries in the same order, ties in first-seen order."""
    counter = Counter(words)
    assert list(_top(counter, n).items()) == counter.most_common(n)


def test_the_index_statistics_are_the_masked_ones(writer):
    """`_stats` skips the masked copy when every document is alive: the same average length
    to the bit, and still the live documents' average when one is retired."""
    for i in range(25):
        writer.tool("Ran: " + " ".join(f"word{j}" for j in range(i % 7 + 1)))
    KeywordIndex.build(writer.home)
    index = KeywordIndex.open(writer.home)
    alive = np.asarray(index.cols["alive"])
    dl = np.asarray(index.cols["doclen"])
    assert alive.all() and index.n_alive == len(alive)
    assert index.avgdl == float(dl[alive].mean()) / 4
    alive = np.array(alive)
    alive[[0, 3]] = False
    index.cols["alive"] = alive
    index._stats()
    assert index.n_alive == len(alive) - 2
    assert index.avgdl == float(dl[alive].mean()) / 4 != float(dl.mean()) / 4

