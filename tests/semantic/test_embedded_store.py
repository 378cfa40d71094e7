"""The embedded store beyond the contract: lock-free readers, atomic swaps, crash leftovers."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.semantic.embedded import MANIFEST, EmbeddedStore, scores, to_float16
from carto_core.semantic.store import StoreError, VectorRecord

from .test_store_contract import brute_force, make_records


def test_reader_is_not_blocked_by_a_writer_holding_the_lock(tmp_path):
    writer = EmbeddedStore(tmp_path / "v")
    records = make_records(50)
    writer.upsert("m1", records)
    reader = EmbeddedStore(tmp_path / "v")
    answers = []
    with writer._write_lock():  # a writer mid-write
        thread = threading.Thread(
            target=lambda: answers.append(reader.search("m1", records[1].vector, limit=3)))
        thread.start()
        thread.join(10)
        finished = not thread.is_alive()
    assert finished, "a reader waited for the writer's lock"
    assert answers[0][0].event_id == records[1].event_id


def test_readers_see_whole_generations_while_a_writer_swaps(tmp_path):
    root = tmp_path / "v"
    base = make_records(40)
    EmbeddedStore(root).upsert("m1", base)
    extra = [VectorRecord(f"new-{i}", r.vector, project=r.project, timestamp=r.timestamp)
             for i, r in enumerate(make_records(200, seed=11))]
    stop = threading.Event()
    errors: list[BaseException] = []

    def write():
        store = EmbeddedStore(root)
        try:
            for start in range(0, len(extra), 10):
                store.upsert("m1", extra[start:start + 10])
                if start % 50 == 0:
                    store.compact()  # removes the segments a reader may still be mapping
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            stop.set()

    reader = EmbeddedStore(root)
    sizes = []
    thread = threading.Thread(target=write)
    thread.start()
    while not stop.is_set():
        hits = reader.search("m1", base[0].vector, limit=1000)
        ids = [h.event_id for h in hits]
        assert len(ids) == len(set(ids))
        # Every generation holds all base rows plus a whole number of 10-row batches.
        assert {r.event_id for r in base} <= set(ids)
        assert (len(ids) - len(base)) % 10 == 0
        sizes.append(len(ids))
    thread.join()
    assert not errors
    assert sizes and sizes == sorted(sizes)
    final = reader.search("m1", base[0].vector, limit=1000)
    assert len(final) == len(base) + len(extra)


def test_leftovers_of_a_crashed_writer_change_nothing(tmp_path):
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    records = make_records(30)
    store.upsert("m1", records)
    before = store.search("m1", records[0].vector, limit=5)
    # A writer that died mid-way: a half-written segment folder and a temporary manifest.
    (root / ".seg-000099-dead00.tmp").mkdir()
    (root / ".seg-000099-dead00.tmp" / "vectors.npy").write_bytes(b"\x93NUMPY torn")
    (root / f".{MANIFEST}.123.abc").write_text('{"format": 1, "segm', "utf-8")
    fresh = EmbeddedStore(root)
    assert fresh.search("m1", records[0].vector, limit=5) == before
    # The next write goes through and the data stays exact.
    fresh.upsert("m1", [VectorRecord("late", np.ones(12), project="infra")])
    assert len(fresh.ids("m1")) == 31
    expected = brute_force(records, records[0].vector, limit=5)
    assert [h.event_id for h in fresh.search("m1", records[0].vector, limit=5)] == [e for _, e in expected]


def test_a_corrupt_manifest_is_an_error_that_says_what_to_do(tmp_path):
    root = tmp_path / "v"
    EmbeddedStore(root).upsert("m1", make_records(5))
    (root / MANIFEST).write_text("{not json", "utf-8")
    with pytest.raises(StoreError, match="carto index"):
        EmbeddedStore(root).search("m1", np.ones(12), limit=3)


def test_files_are_memory_mapped_float16_with_the_model_tag(tmp_path):
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    store.upsert("lsa-8-abc", make_records(20))
    manifest = json.loads((root / MANIFEST).read_text())
    (entry,) = manifest["segments"]
    assert entry["model"] == "lsa-8-abc" and entry["count"] == 20 and entry["dim"] == 12
    vectors = np.load(root / entry["name"] / "vectors.npy", mmap_mode="r")
    assert vectors.dtype == np.float16 and vectors.shape == (20, 12)
    assert np.allclose(np.linalg.norm(vectors.astype(np.float32), axis=1), 1.0, atol=2e-3)
    # Rows are sorted by project code: the project filter reads contiguous slices.
    codes = np.load(root / entry["name"] / "project.npy")
    assert (np.diff(codes) >= 0).all() and len(set(codes.tolist())) == 4
    store.search("lsa-8-abc", np.ones(12), limit=3)
    assert isinstance(store._snapshot()[0].vectors, np.memmap)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1, 1, width=32), min_size=3, max_size=3 * 40).filter(lambda v: len(v) % 3 == 0),
       st.lists(st.floats(-1, 1, width=32), min_size=3, max_size=3))
def test_float16_rows_are_decoded_exactly_into_float32_scores(values, query):
    rows = to_float16(np.array(values, np.float32).reshape(-1, 3))
    rows[0, 0] = np.float16(-0.0)
    q = np.array(query, np.float32)
    expected = np.einsum("ij,j->i", rows.astype(np.float32), q)
    assert np.array_equal(scores(rows, q), expected)
    tiny = np.abs(rows.astype(np.float32))
    assert not ((tiny > 0) & (tiny < 6.1e-05)).any()  # nothing subnormal is stored


def test_format_1_float32_segments_are_still_read_and_merged(tmp_path, monkeypatch):
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    records = make_records(30)
    store.upsert("m", records[:20])
    (entry,) = json.loads((root / MANIFEST).read_text())["segments"]
    folder = root / entry["name"]
    old = np.load(folder / "vectors.npy").astype(np.float32)  # as format 1 wrote them
    np.save(folder / "vectors.npy", old)
    (folder / "idhash.npy").unlink()
    (folder / "idrow.npy").unlink()
    manifest = json.loads((root / MANIFEST).read_text())
    manifest["format"] = 1
    (root / MANIFEST).write_text(json.dumps(manifest))
    fresh = EmbeddedStore(root)
    assert fresh.has("m", ["evt-0003", "evt-0025"]).tolist() == [True, False]
    hit = fresh.search("m", records[3].vector, limit=1)[0]
    assert hit.event_id == "evt-0003" and hit.score == pytest.approx(1.0, abs=1e-3)
    fresh.upsert("m", records[20:])
    fresh.compact()
    (merged,) = json.loads((root / MANIFEST).read_text())["segments"]
    assert merged["count"] == 30
    assert np.load(root / merged["name"] / "vectors.npy", mmap_mode="r").dtype == np.float16


def test_compaction_merges_small_segments_and_leaves_full_ones(tmp_path, monkeypatch):
    import carto_core.semantic.embedded as embedded

    monkeypatch.setattr(embedded, "SEGMENT_ROWS", 8)
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    records = make_records(30)
    store.upsert("m", records[:19])  # written as 8 + 8 + 3
    full = {e["name"] for e in json.loads((root / MANIFEST).read_text())["segments"]
            if e["count"] == 8}
    for start in range(19, 30, 2):
        store.upsert("m", records[start:start + 2])
    store.compact()
    segments = json.loads((root / MANIFEST).read_text())["segments"]
    assert full <= {e["name"] for e in segments}  # never rewritten
    assert all(e["count"] <= 8 for e in segments) and sum(e["count"] for e in segments) == 30
    assert len([e for e in segments if e["count"] < 8]) <= 2
    assert store.ids("m") == {r.event_id for r in records}


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 60), st.integers(1, 6), st.integers(1, 9), st.integers(0, 2**32 - 1),
       st.booleans())
def test_best_rows_equals_a_scan_per_query_over_any_part_size(n, queries, part, seed, half):
    """One pass for a batch (decoded part by part) finds for each query the row and score a
    scan of `scores` per query finds."""
    from carto_core.semantic import embedded

    rng = np.random.default_rng(seed)
    rows = embedded.normalise(rng.normal(size=(n, 5)))
    rows = embedded.to_float16(rows) if half else rows
    asked = embedded.normalise(rng.normal(size=(queries, 5)))
    saved, embedded._DECODE_ROWS = embedded._DECODE_ROWS, part
    try:
        best, where = embedded.best_rows(rows, asked)
    finally:
        embedded._DECODE_ROWS = saved
    for i, query in enumerate(asked):
        each = scores(rows, query)
        assert best[i] == pytest.approx(float(each.max()), abs=1e-6)
        assert each[where[i]] == pytest.approx(float(each.max()), abs=1e-6)


def test_short_and_long_ids_are_written_to_segments_of_their_own_width(tmp_path, monkeypatch):
    """ids.npy is as wide as a segment's longest id: short ids (`evt-` + 12 hex) are not padded
    to a turn id's 51 bytes, in a write and after compaction; every id is still found."""
    from carto_core.semantic import embedded

    monkeypatch.setattr(embedded, "MAX_SEGMENTS", 1000)  # compaction only when asked
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    records = make_records(40)
    for i, record in enumerate(records):
        record.event_id = (f"evt-{i:012x}" if i % 4 else
                           f"turn-codex-{i:08d}-c20f-4000-8000-9249b8d57e6b-{i}")
    for start in range(0, 40, 10):
        store.upsert("m", records[start:start + 10])
    store.compact()
    widths = sorted(np.load(root / e["name"] / "ids.npy", mmap_mode="r").dtype.itemsize
                    for e in json.loads((root / MANIFEST).read_text())["segments"])
    assert widths == [16, max(len(r.event_id) for r in records)]
    assert store.ids("m") == {r.event_id for r in records}
    assert store.has("m", [r.event_id for r in records]).all()
    for record in records[::7]:
        assert store.search("m", record.vector, limit=1)[0].event_id == record.event_id
