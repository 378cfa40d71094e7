"""Writing a keyword-index generation from parts that never have to be in memory at once.

A streamed build (`index_stream`) and the fold of a large tail both end here: columns arrive in
blocks and go straight to their `.npy` files (`NpyWriter`, the header patched with the final
length), event ids go to `ids.bin` as they come, and the posting lists of several sorted
*runs* (segments whose documents follow one another: a build's chunks, or the main segment and
its tail) are merged by ranges of the term-hash space: each range takes its slice of every run
(the runs are sorted by hash, so a slice is a binary search away), concatenates them in run
order, which keeps each term's documents increasing, and stable-sorts by hash. A range holds
about `RANGE_POSTINGS` postings whatever the size of the index, so the merge's memory is
bounded; a retired document's postings are dropped and the others renumbered on the way.
The layout written is `index_store`'s, byte for byte what `GenerationStore.save` writes.
"""

from __future__ import annotations

import heapq
import json
import os
import time
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from carto_core.search.index_view import read_current
from carto_core.search.postings import Segment, iter_words
from carto_core.util.npymap import save_npy
from carto_core.util.privatefiles import make_dir, make_dirs, open_fd, open_private, write_text

#: Postings merged at a time (about 70 MB of scratch arrays).
RANGE_POSTINGS = 1_000_000
#: Values read at a time when a written file is filtered (`npy_blocks`).
BLOCK_VALUES = 1 << 18


def npy_blocks(path: Path, block: int | None = None) -> Iterator[np.ndarray]:
    """The values of a 1-d `.npy` file, `block` at a time, read rather than mapped: a mapped
    file's pages count in the process's RSS for as long as the mapping lives."""
    block = block or BLOCK_VALUES
    with open(path, "rb") as handle:
        version = np.lib.format.read_magic(handle)
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, _, dtype = read_header(handle)
        left = int(shape[0]) if shape else 0
        while left > 0:
            values = np.fromfile(handle, dtype, min(block, left))
            if not len(values):
                raise ValueError(f"{path}: shorter than its header says")
            left -= len(values)
            yield values


def drop_pages(*arrays) -> None:
    """Let go of the pages this process has touched in memory-mapped arrays (read-only maps:
    the kernel drops them from the process, they stay in the page cache and come back on the
    next touch). A merge that walks large mapped runs range by range calls it once it has
    copied a run's slice out, so its RSS holds that slice, not every run's touched pages.
    Plain arrays are left alone."""
    import mmap

    from carto_core.util.npymap import backing_map

    for array in arrays:
        node = backing_map(array)
        if node is not None:
            try:
                node.madvise(mmap.MADV_DONTNEED)
            except (AttributeError, OSError, ValueError):  # closed, or not Linux
                pass


class NpyWriter:
    """A 1-d `.npy` file written block by block; `close` writes the final length."""

    _SHAPE_WIDTH = 20

    def __init__(self, path: Path, dtype):
        self.path, self.dtype, self.count = path, np.dtype(dtype), 0
        self.handle = open_private(path, "wb")
        self.handle.write(self._header(0))

    def _header(self, count: int) -> bytes:
        shape = f"({count},)".rjust(self._SHAPE_WIDTH + 3)
        text = f"{{'descr': {self.dtype.descr[0][1]!r}, 'fortran_order': False, 'shape': {shape}, }}"
        # magic + version 1.0 + 2-byte length + text, padded with spaces to a multiple of 64
        size = 10 + len(text) + 1
        text += " " * ((64 - size % 64) % 64) + "\n"
        return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text.encode("latin1")

    def write(self, values) -> None:
        values = np.ascontiguousarray(values, dtype=self.dtype)
        self.handle.write(values.tobytes())
        self.count += len(values)

    def close(self) -> None:
        self.handle.seek(0)
        self.handle.write(self._header(self.count))
        self.handle.close()


def merged_words(sources: Iterable) -> Iterator[str]:
    """The distinct words of several sorted word lists (`postings.iter_words` sources)."""
    last = None
    for word in heapq.merge(*(iter_words(s) for s in sources)):
        if word != last:
            yield word
            last = word


def merge_runs(folder: Path, runs: list[Segment], doclen: np.ndarray, tf_scale: int,
               alive: np.ndarray | None = None) -> int:
    """Write post_{terms,offsets,docs,tfs,dls}.npy and vocab.txt in `folder` from `runs`
    (document numbers of run i all below those of run i+1). `alive` (None: all) drops retired
    documents and renumbers the rest. Returns the number of postings written."""
    runs = [run for run in runs if len(run)]
    total = sum(len(run) for run in runs)
    remap = None
    if alive is not None and not alive.all():
        remap = (np.cumsum(alive) - 1).astype(np.int32)
    ranges = max(1, -(-total // RANGE_POSTINGS))
    bounds = [int(k * (1 << 64) // ranges) for k in range(ranges)] + [1 << 64]
    writers = {name: NpyWriter(folder / f"post_{name}.npy", dtype) for name, dtype in (
        ("terms", np.uint64), ("offsets", np.int64), ("docs", np.int32), ("tfs", np.uint16),
        ("dls", np.float32))}
    written = 0
    scale = np.float32(tf_scale)
    kept_terms: list[np.ndarray] = []  # with retired documents, some words may lose every posting
    # Where every range starts in each run, found once: one vectorised search a run instead of
    # two per run and range (ranges x runs grows with the square of the corpus).
    starts_of = np.array(bounds[:-1], np.uint64)
    cuts = [np.append(run.terms.searchsorted(starts_of, "left"), len(run.terms)).tolist()
            for run in runs]
    for k in range(ranges):
        parts_terms, parts_docs, parts_tfs = [], [], []
        for run, cut in zip(runs, cuts):
            terms = run.terms
            a, b = cut[k], cut[k + 1]
            if b > a:
                offsets = np.array(run.offsets[a:b + 1])
                parts_terms.append(np.repeat(np.asarray(terms[a:b]), np.diff(offsets)))
                parts_docs.append(np.array(run.docs[offsets[0]:offsets[-1]]))
                parts_tfs.append(np.array(run.tfs[offsets[0]:offsets[-1]]))
            # Copied out: let its pages go now, not after the range. Each binary search maps
            # 64 KiB around every page it probes (the kernel's fault-around); kept for a whole
            # range, that was a large share of a big build's peak (docs/performance.md).
            drop_pages(run.terms, run.offsets, run.docs, run.tfs)
        if not parts_terms:
            continue
        terms = np.concatenate(parts_terms)
        docs = np.concatenate(parts_docs)
        tfs = np.concatenate(parts_tfs)
        del parts_terms, parts_docs, parts_tfs
        if len(runs) > 1:
            order = np.argsort(terms, kind="stable")  # run order kept: documents increase
            terms, docs, tfs = terms[order], docs[order], tfs[order]
            del order
        if remap is not None:
            keep = alive[docs]
            terms, docs, tfs = terms[keep], docs[keep], tfs[keep]
        dls = doclen[docs].astype(np.float32) / scale
        if remap is not None:
            docs = remap[docs]
        uniq, starts = np.unique(terms, return_index=True)
        if remap is not None:
            kept_terms.append(uniq)
        writers["terms"].write(uniq)
        writers["offsets"].write(starts.astype(np.int64) + written)
        writers["docs"].write(docs)
        writers["tfs"].write(tfs)
        writers["dls"].write(dls)
        written += len(docs)
        del terms, docs, tfs, dls, uniq, starts
    writers["offsets"].write(np.array([written], np.int64))
    for writer in writers.values():
        writer.close()
    words = merged_words(run.words if run.words is not None else [] for run in runs)
    if remap is not None:
        live = np.concatenate(kept_terms) if kept_terms else np.zeros(0, np.uint64)
        words = _live_words(words, live)
    with open_private(folder / "vocab.txt", "w", encoding="utf-8") as handle:
        first = True
        for word in words:
            handle.write(word if first else "\n" + word)
            first = False
    return written


def _live_words(words: Iterator[str], live: np.ndarray, block: int = 1 << 16) -> Iterator[str]:
    """The words whose hash is in `live` (sorted), checked a block at a time (one vectorised
    search a block, not one numpy call a word: 3 s of a 200k build's profile). A block's
    hashes are searched and compared in sorted order: in the order of the words they are
    random, and each search a walk of cache misses through `live` once it outgrows the caches,
    so the cost per word grew with the corpus (docs/performance.md, "merge_runs")."""
    from itertools import islice

    from carto_core.search.tokens import term_hash

    while batch := list(islice(words, block)):
        if not len(live):
            return
        hashes = np.fromiter(map(term_hash, batch), np.uint64, len(batch))
        order = np.argsort(hashes)
        ordered = hashes[order]
        at = np.minimum(live.searchsorted(ordered), len(live) - 1)
        found = np.empty(len(hashes), np.bool_)
        found[order] = live[at] == ordered
        yield from (word for word, ok in zip(batch, found.tolist()) if ok)


class IdWriter:
    """ids.bin, ids_off.npy and the sorted CRC-32 lookup (ids_hash*.npy), ids given in
    document order, a block at a time."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.blob = open_private(folder / "ids.bin", "wb")
        self.offsets = NpyWriter(folder / "ids_off.npy", np.int64)
        self.offsets.write(np.zeros(1, np.int64))
        self.end = 0
        self.crcs: list[np.ndarray] = []

    def write(self, ids: Iterable[str]) -> None:
        encoded = [(event_id + "\n").encode("utf-8") for event_id in ids]
        if not encoded:
            return
        self.blob.write(b"".join(encoded))
        ends = np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded))) + self.end
        self.offsets.write(ends)
        self.end = int(ends[-1])
        self.crcs.append(np.fromiter((zlib.crc32(e[:-1]) for e in encoded), np.uint32, len(encoded)))

    def write_encoded(self, blob: bytes, ends: np.ndarray) -> None:
        """Ids already as ids.bin bytes, `ends` their end offsets within `blob`."""
        if not len(ends):
            return
        self.blob.write(blob)
        self.offsets.write(np.asarray(ends, np.int64) + self.end)
        starts = np.concatenate([[0], np.asarray(ends[:-1], np.int64)])
        view = memoryview(blob)
        self.crcs.append(np.fromiter((zlib.crc32(view[s:e - 1]) for s, e in zip(starts.tolist(),
                                      np.asarray(ends).tolist())), np.uint32, len(ends)))
        self.end += int(ends[-1])

    def close(self) -> None:
        self.blob.close()
        self.offsets.close()
        crc = np.concatenate(self.crcs) if self.crcs else np.zeros(0, np.uint32)
        order = np.argsort(crc, kind="stable")
        save_npy(self.folder / "ids_hash.npy", crc[order])
        save_npy(self.folder / "ids_hash_doc.npy", order.astype(np.int32))


#: Held (flock) by the process writing a temporary generation folder, for as long as it
#: writes: a folder whose lock anyone can take is a dead build's, removed by the next one.
WRITER_LOCK = ".writer.lock"
#: temporary folder -> the descriptor holding its lock, in this process.
_WRITING: dict[str, int] = {}


def new_generation(base: Path) -> tuple[str, Path]:
    """A fresh generation name and its temporary folder under `base`, locked for this build
    (released by `publish`; `GenerationStore._prune` removes the folders of builds that died)."""
    import fcntl
    import uuid

    make_dirs(base)
    name = f"gen-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}"
    folder = base / (name + ".tmp")
    make_dir(folder)
    fd = open_fd(folder / WRITER_LOCK, os.O_WRONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # a filesystem without flock: no lock file, the age rule keeps it
        os.unlink(folder / WRITER_LOCK)
        os.close(fd)
    else:
        _WRITING[str(folder)] = fd
    return name, folder


def build_is_dead(folder: Path) -> bool | None:
    """True when `folder` (a temporary generation) was left by a build that is gone (its
    writer lock can be taken), False while its writer holds it, None when it has no lock (a
    folder an older carto wrote, or one a build made a moment ago: the caller's age rule)."""
    import fcntl

    try:
        fd = os.open(folder / WRITER_LOCK, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError:
        return False
    try:
        # A new open file description: held by another one (this process's too), it refuses.
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def _release(folder: Path) -> None:
    fd = _WRITING.pop(str(folder), None)
    if fd is None:
        return
    try:
        os.unlink(folder / WRITER_LOCK)  # the published generation carries no lock file
    except OSError:
        pass
    os.close(fd)


def publish(base: Path, name: str, folder: Path, meta: dict) -> str:
    """Write meta.json, move the folder into place and point CURRENT at it. Returns the
    generation CURRENT named before ("" for none): superseded now."""
    write_text(folder / "meta.json", json.dumps(meta))
    _release(folder)
    os.rename(folder, base / name)
    try:
        previous = read_current(base)
    except OSError:
        previous = ""
    # Named for this thread, not only this process: a server's threads refresh the index
    # side by side, and two writing one CURRENT.<pid>.tmp lost the race's rename (FileNotFound).
    import threading

    pointer = base / f"CURRENT.{os.getpid()}.{threading.get_ident()}.tmp"
    write_text(pointer, name)
    try:
        os.replace(pointer, base / "CURRENT")
    except OSError as exc:
        # Nothing points at the new generation: it and the pointer go (else each search left
        # one more of each). A folder in CURRENT's place is said as `carto doctor` says it.
        import shutil

        from carto_core.logio.notafile import pointer_refusal

        pointer.unlink(missing_ok=True)
        shutil.rmtree(base / name, ignore_errors=True)
        if isinstance(exc, IsADirectoryError):
            raise (pointer_refusal(base / "CURRENT", "keyword")
                   or IsADirectoryError(exc.errno, exc.strerror, os.fspath(base / "CURRENT"))) from None
        raise
    return previous if previous != name else ""
