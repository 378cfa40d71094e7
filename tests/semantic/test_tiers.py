"""The embedded store's compaction by size tiers (`carto_core.semantic.tiers`): the plan over
any history of writes keeps each tier below `FANOUT` segments and rewrites each row a bounded
number of times; a store compacted so holds every row it was given, as first quantized, with
its id hash carried rather than computed again."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.semantic import embedded, tiers
from carto_core.semantic.embedded import MANIFEST, EmbeddedStore, id_hashes

#: Rows rewritten per row appended, at most: about once per tier on the way into a full
#: segment, twice when a carry's partial remainder falls back to a lower tier (its rows are
#: at most as many as the carry sent into full segments)...
REWRITES_PER_ROW = 2 * (tiers.TIERS + 1)


def floor_rows(full: int) -> int:
    """... plus, per write, at most one merge of tier 0 (writes smaller than it)."""
    return tiers.FANOUT * -(-full // tiers.FANOUT ** (tiers.TIERS - 1))


def _write(small: list[int], rows: int, full: int) -> int:
    """A write of `rows` rows as the store cuts it (full segments and the rest); returns the
    full segments written (they leave the plan for good)."""
    if rows % full:
        small.append(rows % full)
    return rows // full


def _compact(small: list[int], full: int) -> tuple[int, int]:
    """Apply one plan to the small segments' counts (in place); (rows rewritten, full made)."""
    groups = tiers.plan(small, full)
    members = [i for group in groups for i in group]
    assert len(members) == len(set(members)) and all(len(g) > 1 for g in groups)
    assert all(g == sorted(g) for g in groups)
    rewritten = made = 0
    rest = [c for i, c in enumerate(small) if i not in set(members)]
    for group in groups:
        total = sum(small[i] for i in group)
        rewritten += total
        made += total // full
        if total % full:
            rest.append(total % full)
    small[:] = rest
    return rewritten, made


@settings(max_examples=300, deadline=None)
@given(full=st.sampled_from([4, 16, 64, 1024, 65536]),
       writes=st.lists(st.integers(1, 5000), min_size=1, max_size=120),
       scale=st.sampled_from([1, 10, 1000]))
def test_a_plan_keeps_tiers_small_and_rewrites_each_row_a_bounded_number_of_times(full, writes, scale):
    small: list[int] = []
    appended = rewritten = fulls = 0
    for writes_so_far, size in enumerate(writes, 1):
        size = max(1, size * scale // 1000)
        appended += size
        fulls += _write(small, size, full)
        done, made = _compact(small, full)
        rewritten += done
        fulls += made
        per_tier = {}
        for count in small:
            assert 0 < count < full
            per_tier[tiers.tier(count, full)] = per_tier.get(tiers.tier(count, full), 0) + 1
        assert all(n < tiers.FANOUT for n in per_tier.values())
        assert len(small) <= (tiers.FANOUT - 1) * tiers.TIERS
        assert sum(small) + fulls * full == appended  # no row lost or made
        assert rewritten <= REWRITES_PER_ROW * appended + floor_rows(full) * writes_so_far


@pytest.mark.parametrize("rows, most", [(10, 9), (100, 5), (1000, 3)])
def test_keep_up_writes_rewrite_a_few_rows_per_row_not_the_partial_segment(rows, most):
    """Merging every small segment into the partial one rewrote it (up to `full` rows) at
    every write; by tiers, 300,000 rows written `rows` at a time into 65,536-row segments
    after a first build's partial segment are rewritten fewer than `most` times each."""
    small, rewritten = [40000], 0
    for _ in range(300000 // rows):
        _write(small, rows, 65536)
        rewritten += _compact(small, 65536)[0]
    assert rewritten < most * 300000


def test_tiers_of_a_full_segment_of_65536_rows():
    assert [tiers.tier(c, 65536) for c in (1, 255, 256, 1023, 1024, 4095, 4096, 16383, 16384, 65535)] == \
        [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert tiers.plan([10, 20, 30], 65536) == []  # three of a tier wait for a fourth
    assert tiers.plan([10, 20, 30, 5000, 40], 65536) == [[0, 1, 2, 4]]
    # A carry whose merged segment fills the tier above merges with it in the same pass.
    assert tiers.plan([2000, 2000, 2000, 1000, 300, 300, 300], 65536) == [[0, 1, 2, 3, 4, 5, 6]]
    # Two tiers full at once: the lower one first, its carry joins the upper one's group.
    assert tiers.plan([300] * 4 + [2000] * 4, 65536) == [list(range(8))]
    # The top tier merges once its rows fill a segment, not at the fourth of them.
    assert tiers.plan([40000, 20000], 65536) == []
    assert tiers.plan([40000, 30000], 65536) == [[0, 1]]


def _state(root) -> dict:
    """{id: (codes, scale)} of every stored row, and checks each segment's hash index against
    the ids' hashes computed afresh."""
    out = {}
    for entry in json.loads((root / MANIFEST).read_text())["segments"]:
        folder = root / entry["name"]
        ids = np.load(folder / "ids.npy")
        hashes, rows = np.load(folder / "idhash.npy"), np.load(folder / "idrow.npy")
        assert np.array_equal(hashes, np.sort(id_hashes(ids)))
        assert np.array_equal(hashes, id_hashes(ids)[rows])
        for i, codes, scale in zip(ids, np.load(folder / "vectors.npy"), np.load(folder / "scale.npy")):
            assert bytes(i) not in out
            out[bytes(i)] = (codes.tobytes(), float(scale))
    return out


@settings(max_examples=15, deadline=None)
@given(full=st.sampled_from([4, 8, 32]), sizes=st.lists(st.integers(1, 40), min_size=1, max_size=10),
       long_share=st.sampled_from([0.0, 0.3]), seed=st.integers(0, 2**31 - 1))
def test_a_store_compacted_by_tiers_keeps_every_row_as_last_written(
        tmp_path_factory, full, sizes, long_share, seed):
    """Writes of any sizes (short and long ids: segments of their own; some ids written again),
    each followed by a compaction: every row keeps the codes and scale it was last written
    with (quantized once), its id hash is the one `id_hashes` gives (carried through merges), no tier holds
    `FANOUT` segments, full segments are never rewritten, and a search finds each row."""
    rng = np.random.default_rng(seed)
    root = tmp_path_factory.mktemp("tiers") / "v"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(embedded, "SEGMENT_ROWS", full)
        patch.setattr(embedded, "MAX_SEGMENTS", 10**6)  # compaction only when asked
        store = EmbeddedStore(root)
        first: dict = {}
        serial, fulls = 0, set()
        for size in sizes:
            ids = [(f"turn-{serial:06d}-{'x' * 30}" if rng.random() < long_share else f"evt-{serial:012x}")
                   for serial in range(serial, serial + size)]
            serial += size
            # and an id written before, now with another vector: its segment is rewritten
            # without it (the rewrite carries the other rows' hashes too)
            ids += [i.decode() for i in rng.choice(sorted(first), min(len(first), 2), replace=False)]
            size = len(ids)
            fulls = {name for name in fulls  # unless it held one of those ids
                     if not set(np.load(root / name / "ids.npy").tolist()) & {i.encode() for i in ids}}
            vectors = rng.normal(size=(size, 6)).astype(np.float32)
            store.upsert_arrays("m", ids, vectors, [f"p{i % 3}" for i in range(size)], [None] * size)
            written = _state(root)
            for event_id in ids:
                first[event_id.encode()] = written[event_id.encode()]
            store.compact()
            now = _state(root)
            assert now == first
            segments = json.loads((root / MANIFEST).read_text())["segments"]
            names = {e["name"] for e in segments}
            assert fulls <= names  # a full segment stays as it is...
            fulls |= {e["name"] for e in segments if e["count"] == full}
            for wide in (False, True):
                counts = [e["count"] for e in segments
                          if e["count"] < full and (e["id_width"] > embedded.SHORT_ID) == wide]
                per_tier = [tiers.tier(c, full) for c in counts]
                assert all(per_tier.count(t) < tiers.FANOUT for t in set(per_tier))
        assert store.has("m", [i.decode() for i in first]).all()
        for event_id in list(first)[:: max(1, len(first) // 5)]:
            row = store.search("m", _vector_of(root, event_id), limit=1)[0]
            assert row.event_id == event_id.decode() and row.score == pytest.approx(1.0, abs=8e-3)


def _vector_of(root, event_id: bytes) -> np.ndarray:
    for entry in json.loads((root / MANIFEST).read_text())["segments"]:
        folder = root / entry["name"]
        ids = np.load(folder / "ids.npy")
        hit = np.flatnonzero(ids == event_id)
        if len(hit):
            codes, scale = np.load(folder / "vectors.npy")[hit[0]], np.load(folder / "scale.npy")[hit[0]]
            return codes.astype(np.float32) * scale + np.load(folder / "centre.npy")
    raise KeyError(event_id)
