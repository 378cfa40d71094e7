"""EventIds, the 16-byte-an-id table a streamed build numbers events with, against a dict:
whatever the order of adds, repoints and merges of its runs, and when two ids share their
64-bit hash (the CRC-32 tells them apart)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.logio.eventids import EventIds

# (key, check): few keys so that some ids share a 64-bit key and differ in their check
FINGERPRINTS = st.tuples(st.integers(-3, 40), st.integers(0, 3))


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(["add", "repoint"]),
                                st.lists(FINGERPRINTS, min_size=1, max_size=12)), max_size=40),
       merge_min=st.integers(1, 20))
def test_the_table_answers_as_a_dict_does(steps, merge_min):
    table = EventIds()
    table.MERGE_MIN = merge_min
    model: dict[tuple[int, int], int] = {}
    number = 0
    for op, prints in steps:
        prints = list(dict.fromkeys(prints))
        keys = np.array([k for k, _ in prints], np.int64)
        checks = np.array([c for _, c in prints], np.uint32)
        if op == "add":
            new = [i for i, p in enumerate(prints) if p not in model]
            numbers = np.arange(number, number + len(new))
            table.add(keys[new], checks[new], numbers)
            for i, n in zip(new, numbers.tolist()):
                model[prints[i]] = n
            number += len(new)
        else:
            known = [i for i, p in enumerate(prints) if p in model]
            numbers = np.arange(number, number + len(known))
            table.repoint(keys[known], checks[known], numbers)
            for i, n in zip(known, numbers.tolist()):
                model[prints[i]] = n
            number += len(known)
        probe = list(model) + [(41, 0), (0, 9)]
        got = table.find(np.array([k for k, _ in probe], np.int64),
                         np.array([c for _, c in probe], np.uint32))
        assert got.tolist() == [model[p] for p in model] + [-1, -1]
        assert len(table) == len(model)


@settings(max_examples=60, deadline=None)
@given(stored=st.lists(st.tuples(st.integers(-200, 200), st.integers(0, 2)), min_size=1, max_size=400,
                       unique=True),
       asked=st.lists(st.tuples(st.integers(-220, 220), st.integers(0, 2)), min_size=65, max_size=400),
       merge_min=st.integers(1, 500))
def test_a_large_batch_is_found_in_sorted_order_and_answered_in_place(stored, asked, merge_min):
    """`find` bisects a batch of more than 64 keys in sorted order and puts the answers back
    in the batch's order: the same numbers as a dict, with keys shared by several ids, keys
    asked twice and keys absent."""
    table = EventIds()
    table.MERGE_MIN = merge_min
    for start in range(0, len(stored), 97):  # several runs, merged or not
        part = stored[start:start + 97]
        table.add(np.array([k for k, _ in part], np.int64), np.array([c for _, c in part], np.uint32),
                  np.arange(start, start + len(part)))
    model = {p: n for n, p in enumerate(stored)}
    found = table.find(np.array([k for k, _ in asked], np.int64), np.array([c for _, c in asked], np.uint32))
    assert found.tolist() == [model.get(p, -1) for p in asked]
