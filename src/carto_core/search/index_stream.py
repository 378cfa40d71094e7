"""The keyword index built by streaming the logs: memory bounded whatever their size.

The logs are read in 4 MiB blocks and folded by event_id chunk by chunk (`logstream.Fold` with
the rule of `carto_core.logio.fold`, as `corpus.load_corpus`: within a log the newest row of an id
wins and the older document is retired; across logs the domain row wins over its changelog
copy, which adds its log to the event's `seen` mask). Each new row goes through the same
`DocumentBuilder.add_document` a one-shot build uses (the analyzer is called per row, a pure
function of its text), and whenever the builder holds `RUN_POSTINGS` postings its documents
are written out: the columns appended to their `.npy` files, the ids to `ids.bin`, the
postings as a sorted *run* (a CSR segment) on disk. At the end the runs are merged range by
range of the term-hash space (`index_write.merge_runs`) into the generation's postings and
vocabulary, and the generation is published. What stays in memory is per document a few bytes
(the `seen` mask, the length, the id table's 16-byte entry), per session its context
terms, and one run.
"""

from __future__ import annotations

import gc
import os
import pickle
import shutil
import time
from array import array
from collections import deque
from functools import partial

import numpy as np

from carto_core.util import parallel
from carto_core.logio.fold import takes_over
from carto_core.logio.home import Home
from carto_core.model.logstream import Fold
from carto_core.logio.reader import ReadReport
from carto_core.search.index_build import (
    BUILD_ORDER, COLUMNS, LOG_CODE, LOG_LABELS, TF_SCALE, DocumentBuilder, analyze_rows,
    left_out, log_state,
)
from carto_core.search.index_write import IdWriter, NpyWriter, merge_runs, new_generation, publish
from carto_core.util.parallel import ordered_pool
from carto_core.search.postings import Segment
from carto_core.util.npymap import save_npy
from carto_core.util.privatefiles import make_dirs, write_text

#: Postings a run holds before it is written (a few MB of builder arrays; sorting a run takes
#: several times that for a moment). Chosen by measurement (docs/performance.md, "Keyword
#: build memory"): larger runs, chunks and memo raised the peak RSS for the same CPU time.
RUN_POSTINGS = 500_000
#: Rows folded at a time: a chunk's parsed rows are alive together (about 100 B a row plus
#: its text).
CHUNK_ROWS = 4096
_STREAMED = [name for name in COLUMNS if name not in ("seen", "doclen", "alive")]


#: Below this many bytes of logs a build runs in this process whatever `jobs()` allows:
#: starting worker interpreters costs more than they save on a small home.
PARALLEL_MIN_BYTES = 32 << 20


def stream_build(cls, home: Home, *, analyzer, progress=None, rows: int | None = None,
                 run_postings: int | None = None, jobs: int | None = None,
                 min_bytes: int | None = None):
    """Build and publish a generation of `cls` (the KeywordIndex) from every log; returns it
    opened from disk. `rows` and `run_postings` override the chunk and run sizes (tests);
    `jobs` (else CARTO_JOBS, else the spare cores: `carto_core.util.parallel.jobs`) and
    `min_bytes` (else PARALLEL_MIN_BYTES) decide how many worker processes analyze rows.

    The fold (which row is an event's, its `seen` mask) runs here in log order; each chunk's
    new rows go to `analyze_rows` (in a worker, or here with one job) and come back in
    submission order to `DocumentBuilder.add_analyzed`, so the generation is byte for byte
    the same whatever the number of workers. With session context on, rows are added one by
    one here (a row's context is the previous row's terms)."""
    from carto_core.search.index_store import VERSION

    base = cls.folder(home)
    name, folder = new_generation(base)
    run_limit = run_postings or RUN_POSTINGS
    builder = DocumentBuilder(analyzer=analyzer)
    workers = _workers(home, analyzer, builder.context, jobs, min_bytes)
    seen = bytearray()  # every document's `seen` mask, kept up to date by the fold
    source = bytearray()  # every document's log code (the fold rule asks it)

    def newer_row(held: int, label: str, line) -> bool:
        # `held` numbers a folded document, or a row of the chunk being numbered (not
        # counted yet: the same log)
        if held < len(source):
            return takes_over(LOG_LABELS[source[held]], label)
        return True

    fold = Fold(takes_over=newer_row)
    doclen = array("i")
    retired: set[int] = set()
    writers = {column: NpyWriter(folder / f"col_{column}.npy", COLUMNS[column])
               for column in _STREAMED}
    ids = IdWriter(folder)
    runs: list[Segment] = []
    logs: dict[str, dict] = {}
    problems: dict[str, dict] = {}
    skipped: dict[str, str] = {}

    def flush() -> None:
        if not builder.ids:
            return
        cols = builder.columns()
        for column, writer in writers.items():
            writer.write(cols[column])
        doclen.frombytes(cols["doclen"].astype(np.int32).tobytes())
        ids.write(builder.ids)
        runs.append(_write_run(folder / "runs" / str(len(runs)), builder.segment()))
        builder.reset(first_doc=len(doclen))

    pending: deque = deque()  # (result handle, what add_analyzed needs besides it), in order

    def apply_oldest() -> None:
        handle, (code, chunk_ids, offsets, lengths, masks) = pending.popleft()
        builder.add_analyzed(code, handle.get(), chunk_ids, offsets, lengths, masks)
        if len(builder.p_doc) >= run_limit:
            flush()

    collecting = gc.isenabled()
    gc.disable()  # many small objects, none cyclic
    try:
        with ordered_pool(workers, _start_worker, (type(analyzer), analyzer.signature)) as pool:
            task = _analyze if workers > 1 else partial(analyze_rows, analyzer)
            window = 2 * workers
            for label in BUILD_ORDER:
                path = home.log(label)
                if left_out(path, label, skipped, logs):
                    continue
                report = ReadReport(str(path))
                code = LOG_CODE[label]
                bit = 1 << code
                for chunk in fold.chunks(path, label, report=report, rows=rows or CHUNK_ROWS):
                    lines, chunk_ids, replaced = chunk.lines, chunk.ids, chunk.replaced
                    if progress:
                        progress(len(seen), None)
                    firsts = np.flatnonzero(chunk.new).tolist()
                    if replaced:
                        masks = []
                        for number in chunk.numbers[firsts].tolist():
                            old = replaced.get(number)
                            # a newer row took the event over: the logs of its row carry on
                            masks.append(bit if old is None else bit | seen[old])
                            seen.append(masks[-1])  # a later row of the chunk may take it over
                    else:
                        masks = [bit] * len(firsts)
                        seen.extend(bytes(masks))
                    again = chunk.numbers[~chunk.new]
                    if len(again):  # rows of events folded already: their log joins `seen`
                        view = np.frombuffer(seen, np.uint8)
                        np.bitwise_or.at(view, again, np.uint8(bit))
                        del view  # (a bytearray with a view cannot grow)
                    new_lines = [lines[i] for i in firsts]
                    new_rows = [line.row for line in new_lines]
                    new_ids = [chunk_ids[i] for i in firsts]
                    offsets = [line.offset for line in new_lines]
                    lengths = [line.end - line.offset - 1 for line in new_lines]
                    source.extend(bytes([code]) * len(new_rows))
                    retired.update(chunk.retired)
                    if builder.context:
                        for row, event_id, offset, length, mask in zip(
                                new_rows, new_ids, offsets, lengths, masks):
                            builder.add_document(label, row, offset, length, event_id, mask)
                        if len(builder.p_doc) >= run_limit:
                            flush()
                        continue
                    pending.append((pool.submit(task, code, new_rows, new_ids),
                                    (code, new_ids, offsets, lengths, masks)))
                    while len(pending) > window:
                        apply_oldest()
                logs[label] = log_state(path, report.end_offset, report.lines)
                if report.problems:
                    problems[label] = {"counts": dict(report.problems), "examples": report.examples}
                if progress:
                    progress(len(seen), None)
            while pending:
                apply_oldest()
        flush()
    finally:
        if collecting:
            gc.enable()
    for writer in writers.values():
        writer.close()
    ids.close()
    n = len(doclen)
    lengths = np.frombuffer(doclen, np.int32) if n else np.zeros(0, np.int32)
    alive = np.ones(n, np.bool_)
    if retired:
        alive[sorted(retired)] = False
    merge_runs(folder, runs, lengths, TF_SCALE, alive)
    del runs
    shutil.rmtree(folder / "runs", ignore_errors=True)
    save_npy(folder / "col_seen.npy", np.frombuffer(bytes(seen), np.uint8) if n else np.zeros(0, np.uint8))
    save_npy(folder / "col_doclen.npy", lengths)
    save_npy(folder / "col_alive.npy", alive)
    if retired:
        _drop_retired(folder, alive)
    meta = {"version": VERSION, "analyzer": analyzer.signature, "context": builder.context,
            "documents": int(alive.sum()), "logs": logs, "strings": builder.strings,
            "problems": problems, "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    cls._prune(base, keep=name, superseded=publish(base, name, folder, meta))
    index = cls.load(home, analyzer=analyzer)
    if index is not None:
        index.skipped = skipped
    return index


def _workers(home: Home, analyzer, context: int, jobs: int | None,
             min_bytes: int | None) -> int:
    """Worker processes for this build: one (this process) with session context on, for a
    small home, or for an analyzer a fresh process cannot make by its class; else
    `parallel.jobs(jobs)`."""
    if context:
        return 1
    size = 0
    for label in BUILD_ORDER:
        try:
            size += os.stat(home.log(label)).st_size
        except OSError:
            pass
    if size < (PARALLEL_MIN_BYTES if min_bytes is None else min_bytes):
        return 1
    try:
        pickle.dumps(type(analyzer))
    except Exception:  # a class defined where a fresh interpreter cannot import it
        return 1
    return parallel.jobs(jobs)


_WORKER_ANALYZER = None


def _start_worker(cls, signature: str) -> None:
    global _WORKER_ANALYZER
    analyzer = cls()
    if analyzer.signature != signature:
        raise RuntimeError(f"a worker's analyzer is {analyzer.signature}, not {signature}")
    _WORKER_ANALYZER = analyzer
    gc.disable()  # as in the parent: many small objects, none cyclic


def _analyze(code: int, rows: list[dict], ids: list[str]) -> tuple:
    return analyze_rows(_WORKER_ANALYZER, code, rows, ids)


def _write_run(folder, segment: Segment) -> Segment:
    """A run on disk, memory-mapped back (its words in a file): the builder's memory goes."""
    make_dirs(folder)
    for part in ("terms", "offsets", "docs", "tfs"):
        save_npy(folder / f"{part}.npy", getattr(segment, part))
    write_text(folder / "words.txt", "\n".join(segment.sorted_words()))
    loaded = [np.load(folder / f"{part}.npy", mmap_mode="r")
              for part in ("terms", "offsets", "docs", "tfs")]
    return Segment(*loaded, words=folder / "words.txt")


def _drop_retired(folder, alive: np.ndarray) -> None:
    """Columns and ids without the documents a later row took over (postings already are),
    a block at a time: neither a whole column nor the id list is ever in memory."""
    from carto_core.search.index_write import npy_blocks

    for column in COLUMNS:
        path = folder / f"col_{column}.npy"
        kept = folder / f"col_{column}.kept"
        writer, start = NpyWriter(kept, COLUMNS[column]), 0
        for values in npy_blocks(path):
            writer.write(values[alive[start:start + len(values)]])
            start += len(values)
        writer.close()
        os.replace(kept, path)
    os.replace(folder / "ids.bin", folder / "ids.bin.old")
    os.replace(folder / "ids_off.npy", folder / "ids_off.old")
    writer = IdWriter(folder)
    with open(folder / "ids.bin.old", "rb") as blob:
        first = 0  # the document the block starts at
        last_end = 0
        leading = True
        for ends in npy_blocks(folder / "ids_off.old"):
            if leading:
                ends, leading = ends[1:], False  # the offsets start with a 0
            if not len(ends):
                continue
            starts = np.concatenate([[last_end], ends[:-1]])
            data = np.frombuffer(blob.read(int(ends[-1] - last_end)), np.uint8)
            keep = alive[first:first + len(ends)]
            lengths = (ends - starts)[keep]
            writer.write_encoded(data[np.repeat(keep, ends - starts)].tobytes(), np.cumsum(lengths))
            first += len(ends)
            last_end = int(ends[-1])
    writer.close()
    os.remove(folder / "ids.bin.old")
    os.remove(folder / "ids_off.old")
