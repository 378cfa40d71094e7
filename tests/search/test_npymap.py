"""`map_npy` answers what `np.load(path, mmap_mode="r")` does, as a read-only plain ndarray,
for every array numpy saves (its fast header path or, for the rest, np.load itself)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from carto_core.util import npymap
from carto_core.util.npymap import map_npy

DTYPES = st.sampled_from(["<i8", "<i4", "<u8", "<u4", "<f2", "<f4", "<f8", "|b1", "|u1", ">i4",
                          "|S3", "<U2"])


@settings(max_examples=60, deadline=None)
@given(dtype=DTYPES, shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
       data=st.data())
def test_map_npy_equals_np_load(tmp_path_factory, dtype, shape, data):
    array = data.draw(hnp.arrays(np.dtype(dtype), shape))
    path = tmp_path_factory.mktemp("npy") / "a.npy"
    np.save(path, array)
    mapped, loaded = map_npy(path), np.load(path, mmap_mode="r")
    assert type(mapped) is np.ndarray
    assert mapped.dtype == loaded.dtype and mapped.shape == loaded.shape
    assert np.array_equal(mapped, loaded, equal_nan=mapped.dtype.kind == "f")
    assert not mapped.flags.writeable


def test_the_fast_path_reads_the_headers_numpy_writes(tmp_path, monkeypatch):
    """The plain columns of the index never reach np.load (else the saving is gone)."""
    def refuse(path):
        raise AssertionError(f"fell back for {path}")

    monkeypatch.setattr(npymap, "_fallback", refuse)
    for i, array in enumerate([np.arange(200_000, dtype=np.int64), np.zeros(0, np.uint32),
                               np.ones((3, 256), np.float16), np.array(2.5),
                               np.array([b"ab", b"c"])]):
        np.save(tmp_path / f"{i}.npy", array)
        assert np.array_equal(map_npy(tmp_path / f"{i}.npy"), array)
    # the keyword index's streamed files (index_write.NpyWriter) pad the shape to patch it
    from carto_core.search.index_write import NpyWriter

    writer = NpyWriter(tmp_path / "grown.npy", np.int64)
    writer.write(np.arange(7))
    writer.close()
    assert b"'shape':  " in (tmp_path / "grown.npy").read_bytes()[:128]
    assert map_npy(tmp_path / "grown.npy").tolist() == list(range(7))


@pytest.mark.parametrize("array", [np.zeros(3, dtype=[("a", "<i4"), ("b", "<f8")]),
                                   np.asfortranarray(np.arange(6).reshape(2, 3))],
                         ids=["structured", "fortran"])
def test_other_layouts_go_to_np_load(tmp_path, array):
    np.save(tmp_path / "a.npy", array)
    mapped = map_npy(tmp_path / "a.npy")
    assert mapped.dtype == array.dtype and np.array_equal(mapped, array)


def test_a_truncated_file_is_refused(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(1000))
    data = (tmp_path / "a.npy").read_bytes()
    (tmp_path / "a.npy").write_bytes(data[:-8])
    with pytest.raises(ValueError):
        map_npy(tmp_path / "a.npy")
    (tmp_path / "b.npy").write_bytes(b"not numpy at all")
    with pytest.raises(ValueError):
        map_npy(tmp_path / "b.npy")


def test_opening_the_keyword_index_reads_no_file_through_np_load(tmp_path, monkeypatch):
    """The cold open maps every column and posting file with map_npy (a fallback to np.load
    here means a writer changed its header and the open lost its saving)."""
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search.index import KeywordIndex

    generate_home(tmp_path / "home", 200, seed=2)
    home = Home(tmp_path / "home")
    built = KeywordIndex.open(home)  # builds and saves a generation
    monkeypatch.setattr(npymap, "_fallback", lambda path: pytest.fail(f"np.load for {path}"))
    monkeypatch.setattr(np, "load", lambda *a, **k: pytest.fail("np.load called"))
    opened = KeywordIndex.open(home)
    assert opened.generation == built.generation and len(opened) == len(built) > 0
    assert opened.df(opened.analyzer.terms("commit")[0]) >= 0


@pytest.mark.parametrize("first_read", [11, 12, 64, 4096])
def test_a_header_longer_than_the_first_read_is_read_whole(tmp_path, monkeypatch, first_read):
    """The header comes with the first positioned read (4 KB) or, when longer, a second one."""
    monkeypatch.setattr(npymap, "_FIRST_READ", first_read)
    monkeypatch.setattr(npymap, "_fallback", lambda path: pytest.fail(f"fell back for {path}"))
    arrays = [np.arange(12, dtype=np.int32).reshape(3, 4), np.array([1.5, np.nan], "<f4"),
              np.array([b"abc", b"d"])]
    for i, array in enumerate(arrays):
        np.save(tmp_path / f"{i}.npy", array)
        mapped = map_npy(tmp_path / f"{i}.npy")
        assert mapped.dtype == array.dtype and mapped.shape == array.shape
        assert np.array_equal(mapped, array, equal_nan=array.dtype.kind == "f")


def test_a_version_2_header_padded_past_the_first_read(tmp_path):
    """numpy reads a 2.0 header of any length (4-byte size); so does map_npy, beyond 4 KB."""
    array = np.arange(10, dtype=np.int64)
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': (10,), }"
    header = (header + " " * (6000 - len(header)) + "\n").encode("latin1")
    pad = (-(12 + len(header))) % 64
    header = header[:-1] + b" " * pad + b"\n"
    raw = b"\x93NUMPY\x02\x00" + len(header).to_bytes(4, "little") + header + array.tobytes()
    (tmp_path / "long.npy").write_bytes(raw)
    assert np.array_equal(np.load(tmp_path / "long.npy"), array)
    assert map_npy(tmp_path / "long.npy").tolist() == array.tolist()
