"""The embedded store beyond the contract: lock-free readers, atomic swaps, crash leftovers."""

from __future__ import annotations

import json
import mmap
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.semantic import embedded, tiers
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


def test_files_are_memory_mapped_int8_around_the_centre_with_the_model_tag(tmp_path):
    records = make_records(20)
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    store.upsert("lsa-8-abc", records)
    manifest = json.loads((root / MANIFEST).read_text())
    assert manifest["format"] == 3
    (entry,) = manifest["segments"]
    assert entry["model"] == "lsa-8-abc" and entry["count"] == 20 and entry["dim"] == 12
    assert entry["rows"] == "int8"
    folder = root / entry["name"]
    codes = np.load(folder / "vectors.npy", mmap_mode="r")
    scale = np.load(folder / "scale.npy")
    centre = np.load(folder / "centre.npy")
    assert codes.dtype == np.int8 and codes.shape == (20, 12)
    assert scale.dtype == np.float32 and scale.shape == (20,) and centre.shape == (12,)
    # The centre is the mean of the model's first rows; each row uses its full code range.
    unit = embedded.normalise(np.array([r.vector for r in records], np.float32))
    assert np.allclose(centre, unit.mean(axis=0), atol=1e-6)
    assert (np.abs(np.asarray(codes)).max(axis=1) == 127).all()
    ids = [bytes(i).decode() for i in np.load(folder / "ids.npy")]
    rows = embedded.dequantize(codes, scale, centre)
    expected = unit[[int(i.split("-")[1]) for i in ids]]
    assert np.abs(rows - expected).max() <= scale.max() / 2 + 1e-6  # rounded to nearest
    store.search("lsa-8-abc", np.ones(12), limit=3)
    (segment,) = store._snapshot()
    for column in (segment.vectors, segment.scale, segment.ids, segment.ts):
        base = column
        while isinstance(base, np.ndarray) and base.base is not None:
            base = base.base
        base = base.obj if isinstance(base, memoryview) else base
        assert isinstance(base, mmap.mmap) and not column.flags.writeable  # mapped, not read
    # Rows are sorted by project code: the project filter reads contiguous slices.
    codes = np.load(root / entry["name"] / "project.npy")
    assert (np.diff(codes) >= 0).all() and len(set(codes.tolist())) == 4


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


def _as_old_format(root, version: int, unit: np.ndarray) -> None:
    """Turn the store's one segment into a format-`version` one: float32 (1) or float16 (2)
    unit rows from `unit` (by the row's id), no scale or centre; format 1 had no id hashes."""
    (entry,) = json.loads((root / MANIFEST).read_text())["segments"]
    folder = root / entry["name"]
    ids = [int(bytes(i).decode().split("-")[1]) for i in np.load(folder / "ids.npy")]
    rows = unit[ids]
    np.save(folder / "vectors.npy", rows if version == 1 else to_float16(rows))
    for name in ("scale.npy", "centre.npy") + (("idhash.npy", "idrow.npy") if version == 1 else ()):
        (folder / name).unlink()
    manifest = json.loads((root / MANIFEST).read_text())
    manifest["format"] = version
    del manifest["segments"][0]["rows"]
    (root / MANIFEST).write_text(json.dumps(manifest))


@pytest.mark.parametrize("version", [1, 2])
def test_old_float_segments_are_still_read_and_rewritten_as_int8(tmp_path, version):
    """A store of an older format (float32 or float16 rows, no scale or centre) answers
    searches by scoring its rows as they are, and compaction rewrites it as int8."""
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    records = make_records(30)
    unit = embedded.normalise(np.array([r.vector for r in records], np.float32))
    store.upsert("m", records[:20])
    _as_old_format(root, version, unit)
    fresh = EmbeddedStore(root)
    assert fresh.has("m", ["evt-0003", "evt-0025"]).tolist() == [True, False]
    (segment,) = fresh._snapshot()
    assert not segment.quantized
    for query in (records[3].vector, records[11].vector + records[4].vector):
        q = embedded.normalise(np.asarray(query, np.float32)[None])[0]
        exact = unit[:20] @ q
        hits = fresh.search("m", query, limit=3)
        assert [h.event_id for h in hits] == [f"evt-{i:04d}" for i in np.argsort(-exact)[:3]]
        assert [h.score for h in hits] == pytest.approx(np.sort(exact)[::-1][:3], abs=1e-3)
    fresh.upsert("m", records[20:])  # int8 rows, around their own centre (the old rows have none)
    fresh.compact()  # the old segment rewritten (upgraded); two small ones are not merged
    after = json.loads((root / MANIFEST).read_text())["segments"]
    assert sorted(e["count"] for e in after) == [10, 20] and all(e["rows"] == "int8" for e in after)
    for entry in after:
        assert np.load(root / entry["name"] / "vectors.npy", mmap_mode="r").dtype == np.int8
    after = EmbeddedStore(root)
    for i in (3, 25):
        hit = after.search("m", records[i].vector, limit=1)[0]
        assert hit.event_id == f"evt-{i:04d}" and hit.score == pytest.approx(1.0, abs=8e-3)


def _codes(root, entries) -> dict:
    out = {}
    for e in entries:
        folder = root / e["name"]
        for i, row, sc in zip(np.load(folder / "ids.npy"), np.load(folder / "vectors.npy"),
                              np.load(folder / "scale.npy")):
            out[bytes(i)] = (row.tobytes(), float(sc))
    return out


def test_compaction_upgrades_a_full_old_segment_and_copies_int8_rows_as_they_are(tmp_path, monkeypatch):
    """A full float16 segment is rewritten as int8 by compaction (a full int8 one never is),
    around the model's one centre; int8 rows merged from small segments keep their codes and
    scales byte for byte (quantized once, not at every merge)."""
    monkeypatch.setattr(embedded, "SEGMENT_ROWS", 20)
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    records = make_records(30)
    unit = embedded.normalise(np.array([r.vector for r in records], np.float32))
    store.upsert("m", records[:20])
    _as_old_format(root, 2, unit)  # full (20 rows) and float16
    # Small int8 segments, as many as a tier merges (later ones around the first one's centre).
    for part in np.array_split(np.arange(20, 30), tiers.FANOUT):
        store.upsert("m", records[part[0]:part[-1] + 1])
    before = json.loads((root / MANIFEST).read_text())["segments"]
    small = _codes(root, [e for e in before if e.get("rows") == "int8"])
    store.compact()
    after = json.loads((root / MANIFEST).read_text())["segments"]
    assert all(e.get("rows") == "int8" for e in after) and sorted(e["count"] for e in after) == [10, 20]
    assert {e["name"] for e in after}.isdisjoint(e["name"] for e in before)
    centres = [np.load(root / e["name"] / "centre.npy") for e in after]
    assert np.array_equal(centres[0], centres[1])  # one centre for the model
    merged = _codes(root, [e for e in after if e["count"] == 10])
    assert merged == small
    store.compact()
    assert json.loads((root / MANIFEST).read_text())["segments"] == after  # nothing left to do
    for i in (3, 22, 28):
        hit = store.search("m", records[i].vector, limit=1)[0]
        assert hit.event_id == f"evt-{i:04d}" and hit.score == pytest.approx(1.0, abs=8e-3)


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
       st.sampled_from(["float32", "float16", "int8"]))
def test_best_rows_equals_a_scan_per_query_over_any_part_size(n, queries, part, seed, kind):
    """One pass for a batch (decoded or cast part by part) finds for each query the row and
    score a scan of `scores` (`int8_scores` for int8 rows) per query finds."""
    rng = np.random.default_rng(seed)
    rows = embedded.normalise(rng.normal(size=(n, 5)))
    extra: tuple = ()
    if kind == "float16":
        rows = embedded.to_float16(rows)
    elif kind == "int8":
        centre = embedded.normalise(rng.normal(size=(1, 5)))[0] * rng.uniform(0, 0.8)
        codes, scale = embedded.quantize(rows, centre)
        rows, extra = codes, (scale, centre)
    asked = embedded.normalise(rng.normal(size=(queries, 5)))
    saved = embedded._DECODE_ROWS, embedded._CAST_ROWS
    embedded._DECODE_ROWS = embedded._CAST_ROWS = part
    try:
        best, where = embedded.best_rows(rows, asked, *extra)
    finally:
        embedded._DECODE_ROWS, embedded._CAST_ROWS = saved
    for i, query in enumerate(asked):
        each = embedded.int8_scores(rows, *extra, query) if extra else scores(rows, query)
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


def test_one_write_of_short_and_long_ids_shares_one_centre(tmp_path):
    """A model's first write split into segments (short and long ids) quantizes every part
    around one centre, the mean of the whole batch; later writes keep it."""
    root = tmp_path / "v"
    store = EmbeddedStore(root)
    records = make_records(40)
    for i, record in enumerate(records):
        if i % 2:
            record.event_id = f"turn-codex-{i:08d}-c20f-4000-8000-9249b8d57e6b-{i}"
    store.upsert("m", records[:30])
    store.upsert("m", records[30:])
    entries = json.loads((root / MANIFEST).read_text())["segments"]
    assert len(entries) == 4
    centres = [np.load(root / e["name"] / "centre.npy") for e in entries]
    unit = embedded.normalise(np.array([r.vector for r in records[:30]], np.float32))
    assert np.allclose(centres[0], unit.mean(axis=0), atol=1e-6)
    assert all(np.array_equal(c, centres[0]) for c in centres)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 9000), dim=st.integers(1, 5), seed=st.integers(0, 2**31 - 1),
       dtype=st.sampled_from(["int8", "float16", "float32"]))
def test_rows_written_or_quantized_from_a_selection_are_those_of_the_gathered_rows(
        tmp_path_factory, n, dim, seed, dtype):
    """A commit's segment is written from the commit's rows where they are: vectors.npy from a
    row order in blocks (`_save_rows`) is byte for byte what `np.save` writes for the gathered
    rows, and `quantize(rows, centre, select)` gives the codes and scales of `rows[select]`,
    across block boundaries (4,096 rows) and for an empty selection."""
    from carto_core.semantic.embedded import _save, _save_rows, quantize

    rng = np.random.default_rng(seed)
    source = (rng.standard_normal((max(n, 1) + 3, dim)) * 40).astype(dtype)
    rows = rng.permutation(len(source))[:n]
    folder = tmp_path_factory.mktemp("rows")
    _save(folder / "whole.npy", source[rows])
    _save_rows(folder / "blocks.npy", source, rows)
    assert (folder / "blocks.npy").read_bytes() == (folder / "whole.npy").read_bytes()
    if dtype != "int8":
        unit = (source / np.maximum(np.linalg.norm(source.astype(np.float32), axis=1,
                                                   keepdims=True), 1e-3)).astype(dtype)
        centre = unit.astype(np.float32).mean(axis=0)
        codes, scale = quantize(unit, centre, rows)
        whole_codes, whole_scale = quantize(unit[rows], centre)
        assert np.array_equal(codes, whole_codes) and np.array_equal(scale, whole_scale)
