"""The embedded vector store: exact cosine over memory-mapped float32 arrays.

Layout under `<home>/.carto/vectors/`::

    manifest.json             {"format": 3, "serial": N, "segments": [{name, model, dim, count}]}
    seg-000007-1a2b3c/        one immutable segment (all rows of one model)
        vectors.npy           int8 (count, dim): each unit row's offset from the model's centre,
                              divided by the row's own scale (format 3); format 2 segments
                              (float16 unit rows) and format 1 (float32) are still read
        scale.npy             float32 (count,): the row's scale (its largest offset / 127)
        centre.npy            float32 (dim,): the model's centre (the mean of the first rows
                              the store was given), the same file in every segment of a model
        ids.npy               event ids, fixed-width UTF-8 bytes (as wide as the segment's
                              longest id: short and long ids go to segments of their own)
        idhash.npy            sorted 64-bit hashes of the ids, and idrow.npy the row of each:
                              "is this id stored?" without reading every id
        digest.npy            64-bit hash of the text each vector embeds (0: not known), so a
                              rewritten row whose text changed is embedded again
        project.npy           int32 code into projects.json per row (rows sorted by it)
        projects.json         the distinct project values of the segment
        ts.npy                int64 epoch milliseconds, MISSING_TS when the row has no time
    .lock                     writers only (flock); readers never take it

Readers take no lock: they read the manifest, map the segments it names and score. Segments
never change once written; a writer builds new segment folders, renames them into place, then
swaps the manifest atomically (`os.replace`). A reader holding an older manifest keeps its
mapped arrays (POSIX keeps unlinked files alive); one that opens a segment a writer has just
removed re-reads the manifest and tries again.

Rows of a segment are sorted by project, so a project filter is one contiguous slice per
matching project (a view, nothing copied); the time window narrows each slice to the rows in
range, which are gathered. The top-k is cut from one mat-vec over what passed: filters are
applied before top-k, never after it. A segment of `ivf.MIN_ROWS` rows or more is written with
inverted lists (`ivf`): rows grouped by list, then by project, so a query scores the contiguous
slices of the lists nearest to it (centroids.npy, listbounds.npy); smaller segments, and
filters that leave few rows, are scanned exactly.

Vectors are stored as int8 offsets from the model's centre, one scale a row (260 bytes a
256-dimension row: half of float16's 512, a quarter of float32's), and scored in float32: the
score of row r against unit query q is `centre.q + scale[r] * (codes[r] . q)`, a block of codes
cast to float32 and multiplied by BLAS. Centring spends the 8 bits on what tells rows apart
(wordllama's rows share a mean of norm 0.55). The score is within 3e-3 of the float32 cosine
(standard deviation 4e-4); recall against the exact float32 scan is measured in
docs/performance.md ("Vector rows as int8"). A whole-store scan reads half the bytes of float16
(a cold search faults in half the pages). A row's codes and scale do not depend on the segment
it is in, so a rewrite or a compaction copies them as they are: rows are quantized once.
float16 segments of format 2 are scored as before (decoded exactly, see `scores`), and
compaction rewrites them as int8.
Segments hold at most `SEGMENT_ROWS` rows; compaction merges small segments by size tiers
(`tiers`), never full ones, so an append rewrites about its own rows once per tier, not the
store and not the partial segment it lands beside.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import numpy as np

from carto_core.util.npymap import map_npy, release_rows
from carto_core.util.privatefiles import make_dir, make_dirs, open_private, write_text
from carto_core.semantic import gatebound, ivf, tiers
from carto_core.semantic.store import (
    DimensionMismatch,
    Hit,
    ModelInfo,
    StoreError,
    VectorRecord,
    VectorStore,
)

MANIFEST = "manifest.json"
FORMAT = 3
READABLE_FORMATS = (1, 2, 3)
MISSING_TS = np.iinfo(np.int64).min
#: More segments than this for one model and a write compacts (by tiers: what is not ripe
#: stays; the indexer also calls `compact()` at the end of a run).
MAX_SEGMENTS = 32
#: Rows of a full segment (32 MB of 256-dim float16): compaction leaves full ones alone.
SEGMENT_ROWS = 65536
#: Ids up to this many bytes are written to segments apart from longer ones: ids.npy is as wide
#: as a segment's longest id, and most ids are short (`evt-` + 12 hex = 16 bytes) while a
#: fifth are turn ids of 43-51 bytes; one width for both cost 30 bytes a vector (5 % of the
#: store, measured on the scale benchmark's generated year).
SHORT_ID = 24
#: float16 values this small are stored as 0 (below float16's normal range; the error is below
#: float16's own rounding of the larger components), so decoding needs no subnormal case.
_F16_TINY = np.float16(6.104e-05)
#: Rows decoded from float16 at a time (bounded scratch memory, cache-sized).
_DECODE_ROWS = 4096
#: A segment's sum of rows, and the rows read to estimate it where a segment lacks the file
#: (written before it existed): centred queries (`Segment.row_sum`).
ROW_SUM = "rowsum.npy"
CENTROID_SAMPLE = 4096
#: int8 rows cast to float32 and multiplied at a time. Small enough that OpenBLAS runs the
#: mat-vec on the calling thread: at 4,096 rows it woke its threads and a scan cost many times
#: the CPU (measured on a 2-core machine, docs/performance.md).
_CAST_ROWS = 1024
#: A model whose int8 rows take more than this many bytes is scanned releasing each block of
#: `_RELEASE_ROWS` rows once scored (`npymap.release_rows`): a cold search of a 1M-event store
#: otherwise holds every page of its rows (256 MB) at its peak. A smaller store keeps its
#: pages (a warm process then scans without faulting them in again).
RELEASE_ABOVE = 64 << 20
_RELEASE_ROWS = 16 * 1024
#: A search scores on more than one thread once this many rows pass its filters (below it a
#: thread's start costs more than it saves), on at most this many threads.
_THREADED_ROWS = 32768
_MAX_SCAN_THREADS = 4
#: `_kth_best`: scores sampled to find a floor under the k-th best, and how far below the
#: sample's own k-th the floor is put (in multiples of its expected rank).
_SAMPLE_ROWS = 4096
_SAMPLE_SLACK = 3.0
#: Multiply-adds of a matrix product from which a BLAS takes its blocked kernel for every
#: part of it (OpenBLAS' small-matrix path ends well below; `_same_product`).
_BLOCKED_PRODUCT = 1 << 21
#: The gate's pre-filter (`best_rows_above`) from this many (query, stored row) pairs: below
#: it, finding the basis costs more than the products it saves.
GATE_FILTER_PAIRS = 1 << 22
#: The largest int8 code: codes are symmetric (-127..127), so a row's scale is its largest
#: offset from the centre / 127.
_QMAX = 127


def _millis(moment: datetime | float | None) -> int:
    """Epoch milliseconds of a datetime or of epoch seconds (the indexer's bulk path)."""
    if moment is None:
        return int(MISSING_TS)
    seconds = moment if isinstance(moment, (int, float)) else moment.timestamp()
    return int(seconds * 1000)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _save(path: Path, array: np.ndarray) -> None:
    with open_private(path, "wb") as handle:
        np.save(handle, array, allow_pickle=False)
        handle.flush()
        os.fsync(handle.fileno())


def _save_rows(path: Path, source: np.ndarray, rows: np.ndarray) -> None:
    """`_save(path, source[rows])` (the same bytes) without holding `source[rows]`: the rows
    are gathered and written `_DECODE_ROWS` at a time (a segment's rows in project order)."""
    from numpy.lib import format as npy

    header = {"descr": npy.dtype_to_descr(source.dtype), "fortran_order": False,
              "shape": (len(rows),) + source.shape[1:]}
    with open_private(path, "wb") as handle:
        npy.write_array_header_1_0(handle, header)
        for start in range(0, len(rows), _DECODE_ROWS):
            handle.write(np.ascontiguousarray(source[rows[start:start + _DECODE_ROWS]]).data)
        handle.flush()
        os.fsync(handle.fileno())


def id_hashes(ids: np.ndarray) -> np.ndarray:
    """Stable 64-bit hash of each id (fixed-width bytes as stored in ids.npy)."""
    try:  # the C module: `hashlib` would load OpenSSL first
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover
        from hashlib import blake2b
    return np.fromiter((int.from_bytes(blake2b(bytes(i), digest_size=8).digest(), "little")
                        for i in ids.tolist()), np.uint64, len(ids))


def to_float16(vectors: np.ndarray) -> np.ndarray:
    """Unit rows as stored: float16, with values below float16's normal range set to 0."""
    out = np.asarray(vectors, dtype=np.float32).astype(np.float16)
    out[np.abs(out) < _F16_TINY] = 0
    return out


def quantize(rows: np.ndarray, centre: np.ndarray,
             select: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and float32 scales of unit `rows` (float32 or float16) around `centre`:
    `rows ~= centre + scale[:, None] * codes`, rounded to nearest; a block at a time (bounded
    scratch memory). `select`: only those rows, in that order (the codes of `rows[select]`,
    gathered a block at a time: a commit's rows are not copied out first)."""
    centre = np.asarray(centre, np.float32)
    count = len(rows) if select is None else len(select)
    codes = np.empty((count,) + rows.shape[1:], np.int8)
    scale = np.empty(count, np.float32)
    for start in range(0, count, _DECODE_ROWS):
        block = (rows[start:start + _DECODE_ROWS] if select is None
                 else rows[select[start:start + _DECODE_ROWS]])
        part = np.asarray(block, np.float32) - centre
        peak = np.abs(part).max(axis=1) if part.shape[1] else np.zeros(len(part), np.float32)
        step = peak / np.float32(_QMAX)
        part /= np.where(step > 0, step, np.float32(1.0))[:, None]
        np.rint(part, out=part)
        codes[start:start + len(part)] = part
        scale[start:start + len(part)] = step
    return codes, scale


def dequantize(codes: np.ndarray, scale: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """float32 rows of int8 `codes` (the inverse of `quantize`, up to its rounding)."""
    return (np.asarray(codes, np.float32) * np.asarray(scale, np.float32)[:, None]
            + np.asarray(centre, np.float32))


def stored_rows(vectors: np.ndarray, scale: np.ndarray | None, centre: np.ndarray | None,
                target: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(codes, scale, centre) of rows to write around the model's centre `target`: int8 rows
    already around it are kept as they are (never quantized twice); anything else (unit rows
    in float32 or float16, or int8 around another centre) is quantized around `target`, or,
    for a model's first rows (`target` None), around their own mean."""
    if vectors.dtype == np.int8:
        if target is None or np.array_equal(target, centre):
            return vectors, scale, centre
        vectors = dequantize(vectors, scale, centre)
    if target is None:
        target = (np.mean(vectors, axis=0, dtype=np.float32) if len(vectors)
                  else np.zeros(vectors.shape[1], np.float32))
    codes, scale = quantize(vectors, target)
    return codes, scale, np.asarray(target, np.float32)


def _cast(block: np.ndarray, size: int | None = None, scratch: np.ndarray | None = None):
    """(start, rows) over int8 `block` as float32, `size` rows at a time (`_CAST_ROWS` by
    default), in one reused scratch buffer (`scratch`, when it has room for `size` rows of
    the block's width: a scan passes one per thread rather than fault in a new one per slice)."""
    size = size or _CAST_ROWS
    if scratch is None or scratch.shape[0] < min(len(block), size) or scratch.shape[1] != block.shape[1]:
        scratch = np.empty((min(len(block), size), block.shape[1]), np.float32)
    for start in range(0, len(block), size):
        part = block[start:start + size]
        work = scratch[:len(part)]
        np.copyto(work, part)
        yield start, work


def int8_scores(codes: np.ndarray, scale: np.ndarray, centre: np.ndarray,
                query: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """float32 scores of int8 rows against `query`: `centre.q + scale * (codes . q)`
    (`scratch`: see `_cast`)."""
    query = np.asarray(query, np.float32)
    out = np.empty(len(codes), np.float32)
    for start, rows in _cast(codes, scratch=scratch):
        np.dot(rows, query, out=out[start:start + len(rows)])
    out *= scale
    out += np.float32(np.dot(np.asarray(centre, np.float32), query))
    return out


def scores(block: np.ndarray, query: np.ndarray) -> np.ndarray:
    """float32 dot product of each row of `block` (float32, or float16 as stored) with `query`.

    float16 rows are decoded exactly in blocks by integer operations: the 16 bits sign-extended
    to 32 and shifted left by 13 put the exponent and mantissa in float32's places, and clearing
    bits 28-30 (where a negative value's sign extension lands) leaves the float32 whose value is
    the float16's times 2**-112 (every stored value is 0 or normal, see `to_float16`); the query
    carries the 2**112."""
    if block.dtype != np.float16:
        return np.einsum("ij,j->i", block, query)
    scaled = (np.asarray(query, np.float32) * np.float32(2.0 ** 112)).astype(np.float32)
    out = np.empty(len(block), np.float32)
    for start, rows in _decoded(block):
        np.einsum("ij,j->i", rows, scaled, out=out[start:start + len(rows)])
    return out


def _decoded(block: np.ndarray):
    """(start, rows) over float16 `block` in parts of `_DECODE_ROWS`: rows as float32 of the
    stored values times 2**-112 (see `scores`), in one reused scratch buffer."""
    raw = block.view(np.int16)
    scratch = np.empty((min(len(raw), _DECODE_ROWS), raw.shape[1]), np.int32)
    for start in range(0, len(raw), _DECODE_ROWS):
        part = raw[start:start + _DECODE_ROWS]
        work = scratch[:len(part)]
        np.copyto(work, part)
        np.left_shift(work, 13, out=work)
        np.bitwise_and(work, np.int32(-0x70000001), out=work)  # 0x8FFFFFFF
        yield start, work.view(np.float32)


def best_rows(block: np.ndarray, queries: np.ndarray, scale: np.ndarray | None = None,
              centre: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For each row of `queries` (float32, unit rows), the best score against `block` (float32
    or float16 as stored, or int8 codes with their `scale` and `centre`) and the row holding
    it: the whole batch in one pass over the block, each part decoded once (a matrix product,
    not one scan per query)."""
    queries = np.asarray(queries, np.float32)
    best = np.full(len(queries), -np.inf, np.float32)
    where = np.full(len(queries), -1, np.int64)
    base = None
    if block.dtype == np.int8:
        # Each part's rows are scaled as they are cast (a part is smaller than a batch's
        # scores of it); centre.q is the same for every row of a query, so it is added to
        # the best score only, after the argmax.
        # Parts of `_DECODE_ROWS`, not `_CAST_ROWS`: a batch is a matrix product, and its
        # per-call cost (BLAS threads) is paid once per part (1,024-row parts cost 3x the CPU).
        parts = ((start, np.multiply(rows, scale[start:start + len(rows), None], out=rows))
                 for start, rows in _cast(block, _DECODE_ROWS))
        base = queries @ np.asarray(centre, np.float32)
    elif block.dtype == np.float16:
        parts = _decoded(block)
        queries = queries * np.float32(2.0 ** 112)
    else:
        parts = ((start, block[start:start + _DECODE_ROWS])
                 for start in range(0, len(block), _DECODE_ROWS))
    every = np.arange(len(queries))
    for start, rows in parts:
        got = queries @ rows.T  # (queries, rows): the argmax below runs along contiguous rows
        top = np.argmax(got, axis=1)
        score = got[every, top]
        better = score > best
        best[better] = score[better]
        where[better] = start + top[better]
    if base is not None:
        best[where >= 0] += base[where >= 0]
    return best, where


def best_rows_above(codes: np.ndarray, queries: np.ndarray, scale: np.ndarray, centre: np.ndarray,
                    above: float, directions: np.ndarray,
                    kept: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`best_rows` of int8 `codes` where its best score is above `above` (-inf and -1
    elsewhere), the same scores and rows to the bit, from fewer products: each part's rows
    are bounded on the basis `directions` first (`gatebound`), and only the queries with a
    row that may pass are multiplied by the part, by the product `best_rows` makes (the same
    parts, cast and scaled alike; `_same_product`). A query's best row over every part is
    in a part it may pass in whenever its score is above `above`, so it is found there.
    `kept`: a list that keeps each part's row terms for the next call with the same codes and
    directions (the gate asks once per embedding batch)."""
    queries = np.asarray(queries, np.float32)
    centre = np.asarray(centre, np.float32)
    best = np.full(len(queries), -np.inf, np.float32)
    where = np.full(len(queries), -1, np.int64)
    query_terms = gatebound.terms(queries, directions)
    kept = [] if kept is None else kept
    scratch = np.empty((min(len(codes), _DECODE_ROWS), codes.shape[1]), np.float32)

    def scaled(start: int) -> np.ndarray:  # the part as `best_rows` casts and scales it
        rows = scratch[:len(codes[start:start + _DECODE_ROWS])]
        np.copyto(rows, codes[start:start + len(rows)])
        return np.multiply(rows, scale[start:start + len(rows), None], out=rows)

    every, bounded, passed = np.arange(len(queries)), 0, 0
    for part, start in enumerate(range(0, len(codes), _DECODE_ROWS)):
        rows = None
        if bounded >= 2 and passed > bounded * len(queries) * gatebound.WORTH:
            asked = every  # the bound lets most through here: it no longer pays for itself
        else:
            if part == len(kept):
                rows = scaled(start)
                kept.append(gatebound.terms(rows + centre, directions))  # the stored vectors
            asked = np.flatnonzero(gatebound.may_pass(query_terms, kept[part], above).any(axis=1))
            bounded, passed = bounded + 1, passed + len(asked)
        if not asked.size:
            continue
        rows = scaled(start) if rows is None else rows
        got = _same_product(queries, asked, rows)
        top = np.argmax(got, axis=1)
        score = got[np.arange(len(asked)), top]
        better = score > best[asked]
        best[asked[better]] = score[better]
        where[asked[better]] = start + top[better]
    found = where >= 0
    best[found] += (queries @ centre)[found]  # as `best_rows` adds it: after the argmax
    found &= best > np.float32(above)
    best[~found], where[~found] = -np.inf, -1
    return best, where


def _same_product(queries: np.ndarray, asked: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """`(queries @ rows.T)[asked]`, each score the float32 sum the whole product gives it. A
    BLAS computes each score of a matrix product alike whatever the other rows, except in
    products too small for its blocked kernel (OpenBLAS' small-matrix path; one query row is
    a matrix-vector product), whose sums differ in the last bit: the asked rows are padded to
    `_BLOCKED_PRODUCT` multiply-adds, or the whole product is made when that is not smaller."""
    needed = max(2, -(-_BLOCKED_PRODUCT // max(1, rows.size)))
    if needed >= len(queries):
        return (queries @ rows.T)[asked]
    padded = asked if len(asked) >= needed else np.concatenate(
        [asked, np.full(needed - len(asked), asked[0])])
    return (queries[padded] @ rows.T)[:len(asked)]


def row_sum(block: np.ndarray, scale: np.ndarray | None = None,
            centre: np.ndarray | None = None) -> np.ndarray:
    """The float64 sum of the rows of `block` (float32; float16 as stored: decoded by integer
    operations as `scores` does, numpy's own float16 conversion is ten times slower; or int8
    codes with their `scale` and `centre`: count * centre + scale . codes)."""
    if block.dtype == np.int8:
        total = len(block) * np.asarray(centre, np.float64)
        for start, rows in _cast(block):
            total += np.asarray(scale[start:start + len(rows)], np.float64) @ rows
        return total
    if block.dtype != np.float16:
        return np.asarray(block, np.float64).sum(0)
    total = np.zeros(block.shape[1], np.float64)
    for _, rows in _decoded(block):
        total += rows.sum(0, dtype=np.float64)
    return total * 2.0 ** 112


def lists_of(block: np.ndarray, centroids: np.ndarray, scale: np.ndarray | None = None,
             centre: np.ndarray | None = None) -> np.ndarray:
    """The list of each row of float16 `block` (as stored), or of int8 codes with their
    `scale` and `centre`: its nearest centroid."""
    if block.dtype == np.int8:
        return best_rows(np.asarray(centroids, np.float32),
                         dequantize(block, scale, centre))[1].astype(np.int32)
    out = np.empty(len(block), np.int32)
    # The decoded rows carry a 2**-112 factor (see `scores`): the centroids carry the 2**112.
    scaled = (np.asarray(centroids, np.float32) * np.float32(2.0 ** 112)).T
    for start, rows in _decoded(block):
        out[start:start + len(rows)] = np.argmax(rows @ scaled, axis=1)
    return out


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero: they score 0 against anything)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vectors / norms).astype(np.float32, copy=False)


def scan_threads() -> int:
    """Threads a store search scores with: `CARTO_SCAN_THREADS` when set (at least 1), else the
    cores this process may run on (at most `_MAX_SCAN_THREADS`) less those busy right now with
    something else (`parallel.runnable_elsewhere`). A thread on a core another job holds only
    waits, and while it waits holding the interpreter lock the others wait too: with one other
    job on a 2-core machine, two threads made a cold search slower, not faster (measured,
    docs/performance.md "The scan on two threads, one BLAS thread")."""
    raw = os.environ.get("CARTO_SCAN_THREADS", "").strip()
    if raw:
        try:
            return max(1, int(raw))
        except ValueError:
            pass
    from carto_core.util.parallel import cores, runnable_elsewhere

    have = cores()
    return max(1, min(have, _MAX_SCAN_THREADS, have - runnable_elsewhere()))


def _split(tasks, rows_each: int):
    """`tasks` (number, segment, lo, hi, offsets) cut into pieces of about `rows_each` rows, in
    the same (segment, row) order, with the rank of each piece within its task; a slice is cut
    at multiples of `_CAST_ROWS` from its start, so every piece casts and multiplies the very
    parts the whole slice would (same scores, to the bit)."""
    step = max(_CAST_ROWS, -(-rows_each // _CAST_ROWS) * _CAST_ROWS)
    out, ranks = [], []
    for number, segment, lo, hi, offsets in tasks:
        if offsets is None:
            cuts = [(start, min(start + step, hi), None) for start in range(lo, hi, step)]
        else:
            cuts = [(lo, hi, offsets[start:start + step]) for start in range(0, len(offsets), step)]
        out.extend((number, segment, a, b, c) for a, b, c in cuts)
        ranks.extend(range(len(cuts)))
    return out, ranks


def _best_of(task, query: np.ndarray, limit: int, scratch: np.ndarray | None = None):
    """(scores, rows, segment numbers) of the task's rows that can be in the top `limit`,
    in row order: every row scoring at least the `limit`-th best, ties included, so which
    tied row survives never depends on how the rows were cut into tasks."""
    number, segment, lo, hi, offsets = task
    got = segment.scores(query, lo, hi, offsets, scratch)
    if limit < got.shape[0]:
        top = np.flatnonzero(got >= _kth_best(got, limit))
    else:
        top = np.arange(got.shape[0])
    rows = lo + (top if offsets is None else offsets[top])
    return got[top], rows, np.full(len(top), number, dtype=np.int32)


def _kth_best(got: np.ndarray, k: int) -> float:
    """The `k`-th largest of `got` (k < len(got)). A selection over every score is costly
    (docs/performance.md); most rows are far below the k-th, so a floor under it is read off an evenly
    spaced sample (the sample's `_SAMPLE_SLACK` x expected rank: a floor under the true k-th
    unless the sample is very unlike the rest), the rows above it selected exactly, and the
    whole selection run only when fewer than `k` rows clear the floor. Exact either way."""
    n = got.shape[0]
    if n >= 16 * k and n >= _SAMPLE_ROWS:
        sample = got[:: n // _SAMPLE_ROWS]
        rank = min(len(sample) - 1, int(_SAMPLE_SLACK * k * len(sample) / n) + 1)
        floor = np.partition(sample, len(sample) - 1 - rank)[len(sample) - 1 - rank]
        above = got[got >= floor]
        if len(above) >= k:
            return float(np.partition(above, len(above) - k)[len(above) - k])
    return float(np.partition(got, n - k)[n - k])


def scan(tasks, query: np.ndarray, limit: int):
    """The best rows of every task (see `_best_of`), in task order. Scored by `scan_threads()`
    threads once there are `_THREADED_ROWS` rows: casting int8 rows and BLAS's mat-vec release
    the GIL (the page faults of a cold process do not run in parallel), so a cold store search
    is faster on two idle cores (docs/performance.md, "The scan on two threads, one BLAS
    thread"). A part runs the same arithmetic on any thread, so the
    answer is the same with any number of threads."""
    total = sum(hi - lo if offsets is None else len(offsets) for _, _, lo, hi, offsets in tasks)
    threads = scan_threads() if total >= _THREADED_ROWS else 1
    width = tasks[0][1].dim

    def scratch() -> np.ndarray:
        return np.empty((_CAST_ROWS, width), np.float32)

    if threads == 1:
        mine = scratch()
        return [_best_of(task, query, limit, mine) for task in tasks]
    import threading

    pieces, ranks = _split(tasks, -(-total // (threads * 2)))
    out: list = [None] * len(pieces)
    failed: list[BaseException] = []
    # Threads take the first piece of every segment, then the second ones...: two threads
    # faulting in pages of the same mapped segment at once wait on each other (a cold scan on
    # two threads was no faster than on one), two segments at once do not.
    claim = iter(sorted(range(len(pieces)), key=lambda i: (ranks[i], i)))
    lock = threading.Lock()

    def work() -> None:
        mine = scratch()
        while not failed:
            with lock:
                index = next(claim, None)
            if index is None:
                return
            try:
                out[index] = _best_of(pieces[index], query, limit, mine)
            except BaseException as exc:  # raised again on the caller's thread
                failed.append(exc)

    helpers = [threading.Thread(target=work, daemon=True) for _ in range(threads - 1)]
    for helper in helpers:
        helper.start()
    work()
    for helper in helpers:
        helper.join()
    if failed:
        raise failed[0]
    return out


class Segment:
    """One immutable segment, memory-mapped."""

    def __init__(self, folder: Path, entry: dict):
        self.folder = folder
        self.name = entry["name"]
        self.model = entry["model"]
        self.dim = int(entry["dim"])
        self.count = int(entry["count"])
        self.vectors = map_npy(folder / "vectors.npy")
        # Format 3: int8 codes around the model's centre, a scale a row (see the module doc).
        self.quantized = self.vectors.dtype == np.int8
        if self.quantized:
            self.scale = map_npy(folder / "scale.npy")
            self.centre = map_npy(folder / "centre.npy")
        # map_npy: plain arrays over the maps, opened in a quarter of np.load's time (a cold
        # search opens every file of every segment; np.memmap's subclass also slows each item)
        self.ids = map_npy(folder / "ids.npy")
        self.project = map_npy(folder / "project.npy")
        self.ts = map_npy(folder / "ts.npy")
        self.projects: list[str] = json.loads((folder / "projects.json").read_text("utf-8"))
        # Inverted lists (`ivf`): rows grouped by list, then by project inside a list;
        # bounds[l * P + c] is the first row of list l and project code c (P projects).
        self.lists = int(entry.get("lists", 0))
        if self.lists:
            self.centroids = np.load(folder / "centroids.npy")
            self.bounds = np.load(folder / "listbounds.npy")
        self._hash_index: tuple[np.ndarray, np.ndarray] | None = None
        self._row_sum: np.ndarray | None = None
        #: Let go of the pages of the rows a search has scored (set by the store's search:
        #: see RELEASE_ABOVE).
        self.release = False
        try:
            self.digests = map_npy(folder / "digest.npy")
        except FileNotFoundError:  # format 1: no digests (0 = not known)
            self.digests = np.zeros(self.count, np.uint64)

    def row_sum(self) -> np.ndarray:
        """The sum of the segment's rows (float64, for centred queries): `rowsum.npy`, written
        with the segment. A segment written before it existed is estimated from at most
        `CENTROID_SAMPLE` evenly spaced rows scaled to the count (the mean of a few thousand
        unit rows is within about a thousandth of the exact one in each coordinate), never
        written back: readers do not write. Memoised: a segment never changes."""
        if self._row_sum is None:
            try:
                self._row_sum = map_npy(self.folder / ROW_SUM)
            except FileNotFoundError:
                step = max(1, -(-self.count // CENTROID_SAMPLE))
                sample = self.vectors[::step]
                scale = self.scale[::step] if self.quantized else None
                centre = self.centre if self.quantized else None
                self._row_sum = (row_sum(sample, scale, centre) * (self.count / len(sample))
                                 if len(sample) else np.zeros(self.dim))
        return self._row_sum

    def rows_of(self, ids: np.ndarray, wanted: np.ndarray | None = None) -> np.ndarray:
        """The row of each id (fixed-width bytes), -1 where the segment does not hold it.
        `wanted`: `id_hashes(ids)`, when the caller asks every segment about the same ids."""
        hashes, rows = self._hashes()
        out = np.full(len(ids), -1, np.int64)
        if not len(ids) or not len(hashes):
            return out
        wanted = id_hashes(ids) if wanted is None else wanted
        lo = np.searchsorted(hashes, wanted, "left")
        hi = np.searchsorted(hashes, wanted, "right")
        for i in np.flatnonzero(hi > lo).tolist():
            for slot in range(int(lo[i]), int(hi[i])):  # more than one only on a collision
                row = int(rows[slot])
                if self.ids[row] == ids[i]:
                    out[i] = row
                    break
        return out

    def _hashes(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted id hashes, the row of each): idhash.npy and idrow.npy, mapped once."""
        if self._hash_index is None:
            try:
                self._hash_index = (map_npy(self.folder / "idhash.npy"),
                                    map_npy(self.folder / "idrow.npy"))
            except FileNotFoundError:  # a format-1 segment: hash its ids once
                hashes = id_hashes(self.ids)
                order = np.argsort(hashes, kind="stable")
                self._hash_index = (hashes[order], order.astype(np.int32))
        return self._hash_index

    def row_hashes(self) -> np.ndarray:
        """`id_hashes` of every row's id, in row order, from the segment's hash index: a
        rewrite or a merge copies them rather than hash every id again."""
        hashes, rows = self._hashes()
        out = np.empty(self.count, np.uint64)
        out[np.asarray(rows)] = hashes
        return out

    def scores(self, query: np.ndarray, lo: int, hi: int, offsets: np.ndarray | None,
               scratch: np.ndarray | None = None) -> np.ndarray:
        """float32 scores against unit `query` of rows [lo, hi), or of `lo + offsets`
        (`scratch`: see `_cast`)."""
        rows = slice(lo, hi) if offsets is None else lo + offsets
        # A slice is a view of the map (no copy); offsets gather only the rows that passed.
        if not self.quantized:
            return scores(self.vectors[rows], query)
        if not self.release:
            return int8_scores(self.vectors[rows], self.scale[rows], self.centre, query, scratch)
        if offsets is not None:
            got = int8_scores(self.vectors[rows], self.scale[rows], self.centre, query, scratch)
            self._release(lo, hi)
            return got
        # Blocks of a multiple of `_CAST_ROWS` rows from `lo`: the parts cast and multiplied
        # are the ones a scan of the whole slice makes (the same scores, to the bit).
        out = np.empty(hi - lo, np.float32)
        for start in range(lo, hi, _RELEASE_ROWS):
            stop = min(hi, start + _RELEASE_ROWS)
            out[start - lo:stop - lo] = int8_scores(self.vectors[start:stop], self.scale[start:stop],
                                                    self.centre, query, scratch)
            self._release(start, stop)
        return out

    def _release(self, lo: int, hi: int) -> None:
        release_rows(self.vectors, lo, hi)
        release_rows(self.scale, lo, hi)

    def best_rows(self, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.quantized:
            return best_rows(self.vectors, queries, self.scale, self.centre)
        return best_rows(self.vectors, queries)

    def float_rows(self) -> np.ndarray:
        """Every row as float32 (approximately the unit rows it was given)."""
        if self.quantized:
            return dequantize(self.vectors, self.scale, self.centre)
        return np.asarray(self.vectors, np.float32)

    def id_list(self) -> list[str]:
        return [bytes(x).decode("utf-8", "replace") for x in self.ids]

    def blocks(self, projects: Sequence[str] | None, since: int | None, before: int | None,
               query: np.ndarray | None = None):
        """The rows passing the filters as (lo, hi, offsets) over contiguous slices: a sorted
        segment gives one slice per wanted project and the time window becomes offsets
        (relative to lo) within it; offsets None = the whole slice. A segment with lists and
        a `query` gives the slices of the lists the query probes, unless the filters leave
        fewer than `ivf.EXACT_BELOW` rows: then every row that passed."""
        if self.lists:
            return self._list_blocks(projects, since, before, query)
        if projects is None:
            spans = [(0, self.count)]
        else:
            wanted = set(projects)
            codes = [code for code, value in enumerate(self.projects) if value in wanted]
            if not codes:
                return []
            # Rows are sorted by project code (written so): one slice per project.
            column = self.project
            spans = [(int(np.searchsorted(column, code, "left")),
                      int(np.searchsorted(column, code, "right"))) for code in codes]
        out = []
        for lo, hi in spans:
            if hi <= lo:
                continue
            if since is None and before is None:
                out.append((lo, hi, None))
            else:
                out.append((lo, hi, self._window(since, before, lo, hi)))
        return out

    def _list_blocks(self, projects, since, before, query):
        width = len(self.projects)
        codes = (list(range(width)) if projects is None else
                 [code for code, value in enumerate(self.projects) if value in set(projects)])
        if not codes:
            return []
        bounds = self.bounds

        def spans(lists) -> list[tuple[int, int]]:
            out: list[tuple[int, int]] = []
            for number in lists.tolist():
                base = number * width
                parts = ([(int(bounds[base]), int(bounds[base + width]))] if len(codes) == width
                         else [(int(bounds[base + c]), int(bounds[base + c + 1])) for c in codes])
                for lo, hi in parts:
                    if hi <= lo:
                        continue
                    if out and out[-1][1] == lo:  # neighbouring slices read as one
                        out[-1] = (out[-1][0], hi)
                    else:
                        out.append((lo, hi))
            return out

        def windowed(parts):
            if since is None and before is None:
                return [(lo, hi, None) for lo, hi in parts]
            return [(lo, hi, self._window(since, before, lo, hi)) for lo, hi in parts]

        every = windowed(spans(np.arange(self.lists)))
        share = ivf.probe_share()
        if query is None or share >= 1.0:
            return every
        passed = sum(hi - lo if offsets is None else len(offsets) for lo, hi, offsets in every)
        if passed < ivf.EXACT_BELOW:
            return every
        return windowed(spans(ivf.probed(self.centroids, query, share)))

    def id_blocks(self, wanted: np.ndarray, projects: Sequence[str] | None, since: int | None,
                  before: int | None):
        """`blocks` for the rows of the `wanted` ids only: one block (0, count, offsets) of
        the rows that hold one of them and pass the project and time filters."""
        rows = self.rows_of(wanted)
        rows = np.unique(rows[rows >= 0])
        if not len(rows):
            return []
        keep = np.ones(len(rows), np.bool_)
        if projects is not None:
            codes = [code for code, value in enumerate(self.projects) if value in set(projects)]
            keep &= np.isin(np.asarray(self.project)[rows], codes)
        if since is not None or before is not None:
            ts = np.asarray(self.ts)[rows]
            keep &= ts != MISSING_TS
            if since is not None:
                keep &= ts >= since
            if before is not None:
                keep &= ts < before
        rows = rows[keep]
        return [(0, self.count, rows)] if len(rows) else []

    def _window(self, since, before, lo: int, hi: int) -> np.ndarray:
        """Offsets (relative to `lo`) of the rows of [lo, hi) inside the time window."""
        ts = self.ts[lo:hi]
        keep = ts != MISSING_TS
        if since is not None:
            keep &= ts >= since
        if before is not None:
            keep &= ts < before
        return np.flatnonzero(keep)

    def columns(self) -> dict:
        """Every column as an in-memory array (for rewrites and merges)."""
        return {
            "vectors": np.asarray(self.vectors), "ids": np.asarray(self.ids),
            "projects": [self.projects[c] for c in np.asarray(self.project)],
            "ts": np.asarray(self.ts), "digests": np.asarray(self.digests),
            "scale": np.asarray(self.scale) if self.quantized else None,
            "centre": self.centre if self.quantized else None,
        }


def _serial(segment: Segment) -> int:
    """The write serial in a segment's name (`seg-000007-1a2b3c`; past six digits the name
    grows, so names do not sort as numbers)."""
    try:
        return int(segment.name.split("-")[1])
    except (IndexError, ValueError):
        return -1


def newest_segments(segments: list[Segment], rows: int) -> list[Segment]:
    """The segments written last (by serial) holding at most `rows` rows between them, and at
    least the newest one: a scan of them reads at most max(`rows`, `SEGMENT_ROWS`) rows,
    whatever the store holds. Compaction writes its merged segment under a new serial, so the
    rows appended lately are in the newest segments (with the older rows they were merged
    with)."""
    out: list[Segment] = []
    total = 0
    for segment in sorted(segments, key=_serial, reverse=True):
        if out and total + segment.count > rows:
            break
        out.append(segment)
        total += segment.count
    return out


def _gate_basis(segments: list[Segment]) -> np.ndarray:
    """`gatebound.basis` of at most `gatebound.SAMPLE_ROWS` rows spread evenly over
    `segments` (their float rows)."""
    step = max(1, -(-sum(s.count for s in segments) // gatebound.SAMPLE_ROWS))
    sample = [dequantize(s.vectors[::step], s.scale[::step], s.centre) if s.quantized
              else np.asarray(s.vectors[::step], np.float32) for s in segments]
    return gatebound.basis(np.concatenate(sample))


class EmbeddedStore(VectorStore):
    kind = "embedded"
    stores_payload = False

    def __init__(self, root: os.PathLike | str):
        self.root = Path(root)
        self._key: tuple | None = None
        self._segments: list[Segment] = []
        #: The gate's basis and each segment's row terms, kept for the next batch asked about
        #: the same segments: (model, segment names), basis, {segment name: terms per part}.
        self._gate: tuple | None = None

    def describe(self) -> str:
        return f"embedded store at {self.root}"

    # ------------------------------------------------------------------ reading

    def _manifest_key(self):
        try:
            st = os.stat(self.root / MANIFEST)
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def _read_manifest(self) -> dict:
        from carto_core.util.safeio import NotRegularFile, read_text

        try:  # safeio: a FIFO in its place would hold a search or `carto index` in open()
            data = json.loads(read_text(self.root / MANIFEST))
        except FileNotFoundError:
            return {"format": FORMAT, "serial": 0, "segments": []}
        except NotRegularFile as exc:
            from carto_core.logio.notafile import pointer_problem

            found = pointer_problem(self.root / MANIFEST, "semantic")
            error = StoreError(found["problem"] if found else str(exc))
            error.fix, error.backs_off = (found["fix"] if found else ""), False
            raise error from None
        except ValueError as exc:
            raise StoreError(f"{self.root / MANIFEST} is not valid JSON ({exc}); "
                             "delete the vectors folder and run `carto index`") from None
        if data.get("format") not in READABLE_FORMATS:
            raise StoreError(f"{self.root / MANIFEST} has format {data.get('format')!r}, "
                             f"this carto reads {FORMAT}")
        return data

    def _snapshot(self) -> list[Segment]:
        """The current segments, re-read only when the manifest changed."""
        for _attempt in range(5):
            key = self._manifest_key()
            if key == self._key and key is not None:
                return self._segments
            manifest = self._read_manifest()
            try:
                segments = [Segment(self.root / e["name"], e) for e in manifest["segments"]]
            except FileNotFoundError:
                continue  # a writer swapped the manifest under us: read it again
            self._key, self._segments = key, segments
            return segments
        raise StoreError(f"{self.root}: segments keep disappearing under the reader")

    def _model_segments(self, model: str) -> list[Segment]:
        return [s for s in self._snapshot() if s.model == model]

    def search(self, model, vector, *, limit=500, projects=None, since=None, before=None,
               ids=None):
        segments = self._model_segments(model)
        if not segments or limit <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).ravel()
        dim = segments[0].dim
        if query.shape[0] != dim:
            raise DimensionMismatch(
                f"query vector has {query.shape[0]} dimensions, the stored vectors of model "
                f"{model!r} have {dim}")
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return []
        query = query / norm
        since_ms = _millis(since) if since is not None else None
        before_ms = _millis(before) if before is not None else None
        wanted = None
        if ids is not None:
            wanted = np.array([e.encode("utf-8") for e in ids]) if len(ids) else np.zeros(0, "S1")
        release = sum(s.count * s.dim for s in segments if s.quantized) > RELEASE_ABOVE
        tasks = []
        for number, segment in enumerate(segments):
            segment.release = release
            blocks = (segment.blocks(projects, since_ms, before_ms, query) if wanted is None
                      else segment.id_blocks(wanted, projects, since_ms, before_ms))
            for lo, hi, offsets in blocks:
                if offsets is not None and offsets.size == 0:
                    continue
                tasks.append((number, segment, lo, hi, offsets))
        if not tasks:
            return []
        parts = scan(tasks, query, limit)
        best = np.concatenate([p[0] for p in parts])
        rows = np.concatenate([p[1] for p in parts])
        segs = np.concatenate([p[2] for p in parts])
        # Parts come in the order the segments' rows were read and the sort is stable: equal
        # scores keep that order, whatever the threads.
        order = np.argsort(-best, kind="stable")[:limit]
        rows, segs, best = rows[order], segs[order], best[order]
        ids = np.empty(len(order), dtype=object)
        for number in sorted(set(segs.tolist())):  # one gather per segment, not one per hit
            mine = segs == number
            ids[mine] = segments[number].ids[rows[mine]].tolist()
            if release:  # each hit's id faulted in the 64 KiB around it: a few MB a segment
                release_rows(segments[number].ids, 0, segments[number].count)
        return [Hit(raw.decode("utf-8", "replace"), score)
                for raw, score in zip(ids.tolist(), best.tolist())]

    def centroid(self, model):
        segments = self._model_segments(model)
        total = sum(segment.count for segment in segments)
        if not total:
            return None
        return sum(segment.row_sum() for segment in segments) / total

    def nearest(self, model, vectors, *, newest=None, above=None):
        vectors = normalise(np.atleast_2d(np.asarray(vectors, np.float32)))
        out: list[Hit | None] = [None] * len(vectors)
        segments = self._model_segments(model)
        if newest is not None:
            segments = newest_segments(segments, newest)
        if not segments or not len(vectors):
            return out
        if vectors.shape[1] != segments[0].dim:
            raise DimensionMismatch(
                f"query vectors have {vectors.shape[1]} dimensions, the stored vectors of model "
                f"{model!r} have {segments[0].dim}")
        directions, kept = None, {}
        if above is not None and len(vectors) * sum(s.count for s in segments) >= GATE_FILTER_PAIRS:
            key = (model, tuple(s.name for s in segments))
            if self._gate is None or self._gate[0] != key:
                self._gate = (key, _gate_basis(segments), {})
            _, directions, kept = self._gate
        best = np.full(len(vectors), -np.inf, np.float32)
        seg = np.full(len(vectors), -1, np.int64)
        row = np.full(len(vectors), -1, np.int64)
        for number, segment in enumerate(segments):
            if directions is not None and segment.quantized:
                score, where = best_rows_above(segment.vectors, vectors, segment.scale,
                                               segment.centre, above, directions,
                                               kept.setdefault(segment.name, []))
            else:
                score, where = segment.best_rows(vectors)
            better = score > best
            best[better], seg[better], row[better] = score[better], number, where[better]
        zero = ~np.linalg.norm(vectors, axis=1).astype(bool)  # a zero query has no neighbour
        found = (seg >= 0) & ~zero
        if above is not None:
            found &= best > np.float32(above)
        for i in np.flatnonzero(found).tolist():
            raw = segments[int(seg[i])].ids[int(row[i])]
            out[i] = Hit(bytes(raw).decode("utf-8", "replace"), float(best[i]))
        return out

    def has(self, model, event_ids, digests=None):
        wanted = np.array([e.encode("utf-8") for e in event_ids]) if len(event_ids) else np.zeros(0, "S1")
        present = np.zeros(len(event_ids), np.bool_)
        hashes = id_hashes(wanted) if len(wanted) else None  # once, not once per segment
        for segment in self._model_segments(model):
            if not len(wanted):
                break
            rows = segment.rows_of(wanted, hashes)
            held = rows >= 0
            if digests is not None and held.any():
                stored = np.asarray(segment.digests)[rows[held]]
                asked = np.asarray(digests, np.uint64)[held]
                held[held] = (stored == 0) | (asked == 0) | (stored == asked)
            present |= held
        return present

    def id_batches(self, model):
        for segment in self._model_segments(model):
            yield segment.id_list()

    def delete(self, model, event_ids):
        if not len(event_ids):
            return 0
        ids = np.array([e.encode("utf-8") for e in event_ids])
        hashes = id_hashes(ids)
        gone = 0
        with self._write_lock():
            manifest = self._read_manifest()
            kept, removed = [], []
            for entry in manifest["segments"]:
                if entry["model"] != model:
                    kept.append(entry)
                    continue
                segment = Segment(self.root / entry["name"], entry)
                rows = segment.rows_of(ids, hashes)
                rows = rows[rows >= 0]
                if not len(rows):
                    kept.append(entry)
                    continue
                removed.append(entry["name"])
                gone += len(rows)
                if len(rows) < segment.count:
                    kept.append(self._rewrite_without(manifest, segment, rows))
            if removed:
                manifest["segments"] = kept
                self._write_manifest(manifest)
                self._remove(removed)
        return gone

    def _rewrite_without(self, manifest: dict, segment: "Segment", rows: np.ndarray,
                         target: np.ndarray | None = None) -> dict:
        keep = np.ones(segment.count, np.bool_)
        keep[rows] = False
        columns = segment.columns()
        scale = columns["scale"][keep] if columns["scale"] is not None else None
        return self._write_segment(
            manifest, segment.model, columns["vectors"][keep], columns["ids"][keep],
            [p for p, k in zip(columns["projects"], keep) if k], columns["ts"][keep],
            columns["digests"][keep], centroids=segment.centroids if segment.lists else None,
            scale=scale, centre=columns["centre"], target=target,
            hashes=segment.row_hashes()[keep])

    def ids(self, model):
        out: set[str] = set()
        for segment in self._model_segments(model):
            out.update(segment.id_list())
        return out

    def models(self):
        out: dict[str, ModelInfo] = {}
        for entry in self._read_manifest()["segments"]:
            info = out.setdefault(entry["model"], ModelInfo(entry["model"], 0, int(entry["dim"])))
            info.count += int(entry["count"])
        return out

    def projects(self, model):
        values: set[str] = set()
        for segment in self._model_segments(model):
            values.update(segment.projects)
        return sorted(v for v in values if v)

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _write_lock(self):
        import fcntl  # writers only: a search never locks (an extension module)

        make_dirs(self.root)
        with open_private(self.root / ".lock", "a+b") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _write_manifest(self, manifest: dict) -> None:
        # This writer's segments are int8 (format 3); older segments it keeps are read by
        # format 3 readers, and a carto that reads only format 2 refuses the store clearly.
        manifest["format"] = FORMAT
        tmp = self.root / f".{MANIFEST}.{os.getpid()}.{os.urandom(3).hex()}"
        with open_private(tmp, "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.root / MANIFEST)
        _fsync_dir(self.root)

    def _model_centre(self, manifest: dict, model: str) -> np.ndarray | None:
        """The centre the model's int8 rows are stored around (None: no int8 segment yet)."""
        for entry in manifest["segments"]:
            if entry["model"] == model and entry.get("rows") == "int8":
                try:
                    return np.load(self.root / entry["name"] / "centre.npy")
                except FileNotFoundError:
                    continue
        return None

    def _write_segment(self, manifest: dict, model: str, vectors: np.ndarray, ids: np.ndarray,
                       projects: list[str], ts: np.ndarray, digests: np.ndarray | None = None,
                       centroids: np.ndarray | None = None, scale: np.ndarray | None = None,
                       centre: np.ndarray | None = None, target: np.ndarray | None = None,
                       rows: np.ndarray | None = None, hashes: np.ndarray | None = None) -> dict:
        """Write one segment: unit rows (float32 or float16), or int8 codes with their `scale`
        and `centre` (a rewrite or a merge), stored as int8 around the model's centre. A
        segment of `ivf.MIN_ROWS` rows or more gets inverted lists: `centroids` when given (a
        rewrite of a segment without some of its rows keeps its lists), else trained on its
        rows. `target`: the model's centre, when the caller knows it (else read from the
        manifest). `rows`: the segment's rows of unit `vectors` (the other columns are the
        segment's already): quantized from where they are, not copied out first (a commit's
        copies were the peak of a first build). `hashes`: `id_hashes(ids)` when the caller
        has them (a merge carries each row's hash from its segment: ids are hashed once, when
        first written, not at every rewrite)."""
        if target is None:
            target = self._model_centre(manifest, model)
        if rows is not None and (vectors.dtype == np.int8 or target is None):
            vectors, rows = vectors[rows], None
        if rows is not None:
            stored, scale = quantize(vectors, target, rows)
            centre = np.asarray(target, np.float32)
        else:
            stored, scale, centre = stored_rows(vectors, scale, centre, target)
        manifest["serial"] = int(manifest.get("serial", 0)) + 1
        name = f"seg-{manifest['serial']:06d}-{os.urandom(3).hex()}"
        tmp = self.root / f".{name}.tmp"
        make_dir(tmp)
        distinct = sorted(set(projects))
        code = {value: number for number, value in enumerate(distinct)}
        codes = np.fromiter((code[p] for p in projects), dtype=np.int32, count=len(projects))
        lists = ivf.list_count(len(stored))
        if lists:
            if centroids is None:
                sample = ivf.sample_rows(len(stored))
                centroids = ivf.train(dequantize(stored[sample], scale[sample], centre), lists)
            lists = len(centroids)  # a rewrite keeps its lists, even a few rows smaller
            row_list = lists_of(stored, centroids, scale, centre)
            # Rows grouped by list, by project inside a list: a probe reads one slice per
            # list (per wanted project under a project filter).
            order = np.lexsort((codes, row_list))
            keys = row_list[order].astype(np.int64) * len(distinct) + codes[order]
            _save(tmp / "centroids.npy", np.asarray(centroids, np.float32))
            _save(tmp / "listbounds.npy", np.searchsorted(
                keys, np.arange(lists * len(distinct) + 1), "left").astype(np.int64))
        else:
            # Rows sorted by project: a project filter reads one contiguous slice per project.
            order = np.argsort(codes, kind="stable")
        _save_rows(tmp / "vectors.npy", stored, order)
        _save(tmp / "scale.npy", np.asarray(scale, np.float32)[order])
        _save(tmp / "centre.npy", np.asarray(centre, np.float32))
        # what a centred query takes the mean from
        _save(tmp / ROW_SUM, row_sum(stored, scale, centre))
        del stored
        ids = np.asarray(ids)[order]
        width = max(1, int(np.char.str_len(ids).max())) if len(ids) else 1
        ids = ids.astype(f"S{width}")  # as wide as its longest id, not the batch's
        _save(tmp / "ids.npy", ids)
        hashes = id_hashes(ids) if hashes is None else np.asarray(hashes, np.uint64)[order]
        by_hash = np.argsort(hashes, kind="stable")
        _save(tmp / "idhash.npy", hashes[by_hash])
        _save(tmp / "idrow.npy", by_hash.astype(np.int32))
        _save(tmp / "project.npy", codes[order])
        _save(tmp / "ts.npy", np.asarray(ts, dtype=np.int64)[order])
        digests = np.zeros(len(ids), np.uint64) if digests is None else np.asarray(digests, np.uint64)
        _save(tmp / "digest.npy", digests[order])
        write_text(tmp / "projects.json", json.dumps(distinct))
        _fsync_dir(tmp)
        os.rename(tmp, self.root / name)
        _fsync_dir(self.root)
        entry = {"name": name, "model": model, "dim": int(vectors.shape[1]),
                 "count": int(len(ids)), "id_width": width, "rows": "int8"}
        if lists:
            entry["lists"] = lists
        return entry

    def _remove(self, names: Sequence[str]) -> None:
        import shutil  # writers only: a search never removes (shutil brings bz2 and lzma)

        for name in names:
            shutil.rmtree(self.root / name, ignore_errors=True)

    def upsert(self, model, records):
        if not records:
            return 0
        latest: dict[str, VectorRecord] = {}
        for record in records:  # one vector per event id: the last one given wins
            latest.pop(record.event_id, None)
            latest[record.event_id] = record
        records = list(latest.values())
        try:
            vectors = np.asarray([np.asarray(r.vector, dtype=np.float32).ravel() for r in records],
                                 dtype=np.float32)
        except ValueError:
            raise DimensionMismatch(f"vectors of model {model!r} in one batch differ in size") from None
        return self.upsert_arrays(model, [r.event_id for r in records], vectors,
                                  [r.project or "" for r in records],
                                  [r.timestamp for r in records],
                                  digests=[r.digest for r in records])

    def upsert_arrays(self, model, event_ids, vectors, projects, timestamps, payloads=None,
                      digests=None):
        """`upsert` from columns (no record objects; the indexer's bulk path). Ids must be
        distinct; payloads are not stored by this store. float16 rows are taken as stored
        rows, unit length already (`to_float16(normalise(v))`); anything else is normalised."""
        if not len(event_ids):
            return 0
        vectors = np.asarray(vectors)
        if vectors.dtype != np.float16:
            vectors = normalise(vectors)
        if vectors.ndim != 2 or vectors.shape[1] == 0:
            raise DimensionMismatch(f"vectors of model {model!r} have no dimensions")
        ids = np.array([e.encode("utf-8") for e in event_ids])
        ts = np.array([_millis(t) for t in timestamps], dtype=np.int64)
        sums = (np.zeros(len(ids), np.uint64) if digests is None
                else np.array([int(d) for d in digests], dtype=np.uint64))
        with self._write_lock():
            manifest = self._read_manifest()
            mine = [e for e in manifest["segments"] if e["model"] == model]
            if mine and int(mine[0]["dim"]) != vectors.shape[1]:
                raise DimensionMismatch(
                    f"model {model!r} has {mine[0]['dim']}-dimensional vectors in {self.root}; "
                    f"this batch has {vectors.shape[1]}")
            removed: list[str] = []
            kept: list[dict] = []
            # Hashed once, not once per segment: a build commits a segment at a time and asks
            # every earlier one, so per segment this was O(store) per commit (7 % of a 1M
            # first build's CPU, growing with the store).
            wanted = id_hashes(ids)
            # One centre for every segment of the model: the one it has, or for its first
            # rows the mean of this whole batch (every part of it, and any rewrite, use it).
            target = self._model_centre(manifest, model)
            if target is None:
                target = np.mean(vectors, axis=0, dtype=np.float32)
            for entry in manifest["segments"]:
                if entry["model"] != model:
                    kept.append(entry)
                    continue
                segment = Segment(self.root / entry["name"], entry)
                stale = segment.rows_of(ids, wanted)
                stale = stale[stale >= 0]
                if not len(stale):
                    kept.append(entry)
                    continue
                # Copy-on-write: the segment without the rows this batch replaces.
                removed.append(entry["name"])
                if len(stale) < segment.count:
                    kept.append(self._rewrite_without(manifest, segment, stale, target))
            long = np.char.str_len(ids) > SHORT_ID
            for rows in (np.flatnonzero(~long), np.flatnonzero(long)):
                for start in range(0, len(rows), SEGMENT_ROWS):
                    part = rows[start:start + SEGMENT_ROWS]
                    kept.append(self._write_segment(
                        manifest, model, vectors, ids[part],
                        [projects[i] for i in part.tolist()], ts[part], sums[part],
                        target=target, rows=part, hashes=wanted[part]))
            manifest["segments"] = kept
            self._write_manifest(manifest)
            self._remove(removed)
            if sum(1 for e in kept if e["model"] == model) > MAX_SEGMENTS:
                self._compact_locked()
        return len(ids)

    def compact(self) -> None:
        with self._write_lock():
            self._compact_locked()

    def _compact_locked(self) -> None:
        """Merge each model's segments smaller than SEGMENT_ROWS by size tiers (`tiers`: a
        tier's segments are merged once it holds `tiers.FANOUT` of them, into full segments
        and at most one partial one), so a row is rewritten about once per tier, not at every
        write; full int8 segments stay as they are. Segments of an older format (float16 or
        float32 rows) are rewritten as int8, a segment at a time: `carto index` upgrades an
        old store as it goes."""
        manifest = self._read_manifest()
        small: dict[tuple, list[dict]] = {}
        groups: list[list[dict]] = []
        for entry in manifest["segments"]:
            if int(entry["count"]) < SEGMENT_ROWS:  # short and long ids stay apart (SHORT_ID)
                key = (entry["model"], int(entry.get("id_width", 0)) > SHORT_ID)
                small.setdefault(key, []).append(entry)
            elif entry.get("rows") != "int8":
                groups.append([entry])  # a full float16/float32 segment: rewritten as int8
        for entries in small.values():
            merged = tiers.plan([int(e["count"]) for e in entries], SEGMENT_ROWS)
            grouped = {i for group in merged for i in group}
            groups.extend([entries[i] for i in group] for group in merged)
            # A small segment not merged is left as it is, unless its rows are not int8 yet.
            groups.extend([e] for i, e in enumerate(entries)
                          if i not in grouped and e.get("rows") != "int8")
        if not groups:
            return
        merged = {e["name"] for g in groups for e in g}
        kept = [e for e in manifest["segments"] if e["name"] not in merged]
        centres: dict[str, np.ndarray] = {}
        for group in groups:
            model = group[0]["model"]
            target = centres.get(model)
            if target is None:
                target = self._model_centre(manifest, model)
            written, centres[model] = self._merge_group(manifest, group, target)
            kept.extend(written)
        manifest["segments"] = kept
        self._write_manifest(manifest)
        self._remove(sorted(merged))

    def _merge_group(self, manifest: dict, group: list[dict],
                     target: np.ndarray | None) -> tuple[list[dict], np.ndarray]:
        """Write the rows of `group`'s segments (in the manifest's order, which a write
        appends to) as segments of SEGMENT_ROWS rows and one of the rest, the rows written
        last in the last (partial) one; each output gathers
        only its own rows (bounded memory, whatever the group holds). Returns the entries
        written and the model's centre (a model's first int8 rows set it)."""
        segments = [Segment(self.root / e["name"], e) for e in group]
        columns = {id(s): s.columns() for s in segments}
        hashes = {id(s): s.row_hashes() for s in segments}
        total = sum(segment.count for segment in segments)
        written = []
        for start in range(0, total, SEGMENT_ROWS):
            end, offset, parts = min(total, start + SEGMENT_ROWS), 0, []
            for segment in segments:
                lo, hi = max(start - offset, 0), min(end - offset, segment.count)
                offset += segment.count
                if lo >= hi:
                    continue
                c = columns[id(segment)]
                codes, scale, target = stored_rows(
                    c["vectors"][lo:hi], None if c["scale"] is None else c["scale"][lo:hi],
                    c["centre"], target)
                parts.append((codes, scale, c["ids"][lo:hi], c["projects"][lo:hi],
                              c["ts"][lo:hi], c["digests"][lo:hi], hashes[id(segment)][lo:hi]))
            codes, scale, ids, projects, ts, digests, row_hashes = zip(*parts)
            written.append(self._write_segment(
                manifest, group[0]["model"], np.concatenate(codes), np.concatenate(ids),
                [p for part in projects for p in part], np.concatenate(ts),
                np.concatenate(digests), scale=np.concatenate(scale), centre=target,
                target=target, hashes=np.concatenate(row_hashes)))
        return written, target

    def drop_model(self, model):
        with self._write_lock():
            manifest = self._read_manifest()
            gone = [e for e in manifest["segments"] if e["model"] == model]
            if not gone:
                return 0
            manifest["segments"] = [e for e in manifest["segments"] if e["model"] != model]
            self._write_manifest(manifest)
            self._remove([e["name"] for e in gone])
        return sum(int(e["count"]) for e in gone)
