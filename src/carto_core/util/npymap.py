"""Open a `.npy` file as a read-only array over a memory map, for the cold search path.

`np.load(path, mmap_mode="r")` is slow for a small file (docs/performance.md): it parses the header with
`ast.literal_eval`, resolves the path and builds an `np.memmap` (a subclass whose dispatch also
slows the small fancy-indexing a query does). A cold `carto search` opens ~25 of them (the
keyword index's columns and postings, the query tokenizer's tables). `map_npy` reads the
header of the plain files numpy writes (a little-endian or native dtype string, C order, a
shape tuple, padded before the shape when the index's `NpyWriter` streamed it) with one regular expression and maps the data with `mmap`; anything else (a
structured or object dtype, Fortran order, an unknown format version) goes to `np.load`, so
the answer is the same array either way (tests/search/test_npymap.py).
"""

from __future__ import annotations

import mmap
import os
import re

import numpy as np

_MAGIC = b"\x93NUMPY"
_FIRST_READ = 4096
_HEADER = re.compile(
    r"""\{'descr': '([<>|=]?[a-zA-Z]\d*)', 'fortran_order': False, 'shape': *\(((?:\d+, ?)*\d*)\), *\}\s*\Z""")


def map_npy(path: "str | os.PathLike[str]") -> np.ndarray:
    """The array saved in `path`, read-only and memory-mapped (a plain ndarray)."""
    # One positioned read of the first 4 KB (a header is ~128 bytes) on a bare descriptor: a
    # buffered file object read the magic, sought back and read the header again, for each of
    # the dozens of files a cold semantic search opens (docs/performance.md).
    fd = os.open(path, os.O_RDONLY)
    try:
        head = os.pread(fd, _FIRST_READ, 0)
        if len(head) < 10 or not head.startswith(_MAGIC) or head[6] not in (1, 2, 3):
            return _fallback(path)
        if head[6] == 1:
            size, start = int.from_bytes(head[8:10], "little"), 10
        else:
            size, start = int.from_bytes(head[8:12], "little"), 12
        header = head[start:start + size]
        if len(header) < size:  # a header longer than the first read
            header = os.pread(fd, size, start)
        found = _HEADER.match(header.decode("latin1"))
        if found is None:
            return _fallback(path)
        dtype = np.dtype(found.group(1))
        if dtype.hasobject:
            return _fallback(path)
        shape = tuple(int(n) for n in found.group(2).replace(" ", "").split(",") if n)
        count = 1
        for n in shape:
            count *= n
        offset = start + size
        if count == 0:
            empty = np.empty(shape, dtype)
            empty.flags.writeable = False
            return empty
        data = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)
    if len(data) < offset + count * dtype.itemsize:
        raise ValueError(f"{path}: the file is shorter than its header says")
    return np.frombuffer(data, dtype, count, offset).reshape(shape)


def backing_map(array) -> "mmap.mmap | None":
    """The `mmap` an array's memory belongs to, or None for an array in ordinary memory: a
    few hops through ndarray views (`base`), the memoryview `np.frombuffer` keeps (`obj`)
    and `np.memmap`'s own map (`_mmap`)."""
    node, hops = array, 0
    while node is not None and hops < 8:
        if isinstance(node, mmap.mmap):
            return node
        if isinstance(node, memoryview):
            try:
                node = node.obj
            except ValueError:  # a released view
                return None
        else:
            node = getattr(node, "_mmap", None) or getattr(node, "base", None)
        hops += 1
    return None


def release_rows(array: np.ndarray, start: int, stop: int) -> None:
    """Let go of the pages holding rows [start, stop) of an array `map_npy` mapped: the kernel
    drops them from this process (they stay in the page cache and come back, without a disk
    read, on the next touch), so a scan of a large map holds the rows it is reading, not
    every row it has read. Only whole pages inside the rows go (a page shared with a row
    outside them stays); an array that is not a map is left alone."""
    node = backing_map(array)
    if node is None or stop <= start:
        return
    row = array.strides[0] if array.ndim else array.itemsize
    first = array.__array_interface__["data"][0] - np.frombuffer(node, np.uint8).ctypes.data
    page = mmap.PAGESIZE
    lo = -(-(first + start * row) // page) * page
    hi = (first + stop * row) // page * page
    if hi > lo:
        try:
            node.madvise(mmap.MADV_DONTNEED, lo, hi - lo)
        except (AttributeError, OSError, ValueError):  # not Linux, or the map is closed
            pass


def _fallback(path) -> np.ndarray:
    return np.asarray(np.load(path, mmap_mode="r"))


def save_npy(path: "str | os.PathLike[str]", array) -> None:
    """`np.save(path, array)` (no pickles) into a file only its owner can read
    (`carto_core.util.privatefiles`)."""
    from carto_core.util.privatefiles import open_private

    with open_private(path, "wb") as handle:
        np.save(handle, array, allow_pickle=False)
