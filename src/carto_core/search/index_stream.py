"""The keyword index built by streaming the logs: memory bounded whatever their size.

The logs are read in 4 MiB blocks and folded by event_id chunk by chunk (`logstream.Fold` with
the rule of `carto_core.fold`, as `corpus.load_corpus`: within a log the newest row of an id
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
import shutil
import time
from array import array

import numpy as np

from carto_core.fold import takes_over
from carto_core.home import Home
from carto_core.logstream import Fold
from carto_core.reader import ReadReport
from carto_core.search.index_build import (
    BUILD_ORDER, COLUMNS, LOG_CODE, LOG_LABELS, TF_SCALE, DocumentBuilder, log_state,
)
from carto_core.search.index_write import IdWriter, NpyWriter, merge_runs, new_generation, publish
from carto_core.search.postings import Segment

#: Postings a run holds before it is written (about 6 MB of builder arrays; sorting a run
#: takes about 5x that for a moment). Measured at 1M events (docs/performance.md, "Keyword
#: build memory"): 1.5M postings a run, 16k-row chunks and a 400k-word analyzer memo peaked
#: at 530 MB; 500k, 4k rows and 100k words at about half that, for the same CPU time.
RUN_POSTINGS = 500_000
#: Rows folded at a time: a chunk's parsed rows are alive together (about 100 B a row plus
#: its text).
CHUNK_ROWS = 4096
_STREAMED = [name for name in COLUMNS if name not in ("seen", "doclen", "alive")]


def stream_build(cls, home: Home, *, analyzer, progress=None, rows: int | None = None,
                 run_postings: int | None = None):
    """Build and publish a generation of `cls` (the KeywordIndex) from every log; returns it
    opened from disk. `rows` and `run_postings` override the chunk and run sizes (tests)."""
    from carto_core.search.index_store import VERSION

    base = cls.folder(home)
    name, folder = new_generation(base)
    run_limit = run_postings or RUN_POSTINGS
    builder = DocumentBuilder(analyzer=analyzer)
    seen = bytearray()
    source = bytearray()  # each written document's log code (the fold rule asks it)

    def newer_row(held: int, label: str, line) -> bool:
        # `held` numbers a written document, one of the builder's, or a row of the chunk
        # being numbered (not added yet: the same log).
        first = builder.first_doc
        if held < first:
            code = source[held]
        elif held - first < len(builder.ids):
            code = builder.cols["source"][held - first]
        else:
            return True
        return takes_over(LOG_LABELS[code], label)

    fold = Fold(takes_over=newer_row)
    doclen = array("i")
    retired: set[int] = set()
    writers = {column: NpyWriter(folder / f"col_{column}.npy", COLUMNS[column])
               for column in _STREAMED}
    ids = IdWriter(folder)
    runs: list[Segment] = []
    logs: dict[str, dict] = {}
    problems: dict[str, dict] = {}

    def flush() -> None:
        if not builder.ids:
            return
        cols = builder.columns()
        for column, writer in writers.items():
            writer.write(cols[column])
        seen.extend(cols["seen"].tobytes())
        source.extend(cols["source"].astype(np.uint8).tobytes())
        doclen.frombytes(cols["doclen"].astype(np.int32).tobytes())
        ids.write(builder.ids)
        runs.append(_write_run(folder / "runs" / str(len(runs)), builder.segment()))
        builder.reset(first_doc=len(doclen))

    collecting = gc.isenabled()
    gc.disable()  # many small objects, none cyclic
    try:
        for label in BUILD_ORDER:
            path = home.log(label)
            report = ReadReport(str(path))
            bit = 1 << LOG_CODE[label]
            for chunk in fold.chunks(path, label, report=report, rows=rows or CHUNK_ROWS):
                news, numbers, chunk_ids = chunk.new.tolist(), chunk.numbers.tolist(), chunk.ids
                replaced = chunk.replaced
                run_seen = builder.cols["seen"]
                for i, line in enumerate(chunk.lines):
                    if news[i]:
                        mask = bit
                        old = replaced.get(numbers[i])
                        if old is not None:  # a newer row took the event over: its logs carry on
                            first = builder.first_doc
                            mask |= seen[old] if old < first else run_seen[old - first]
                        builder.add_document(label, line.row, line.offset,
                                             line.end - line.offset - 1, chunk_ids[i], mask)
                        continue
                    doc = numbers[i]
                    if doc >= builder.first_doc:
                        run_seen[doc - builder.first_doc] |= bit
                    else:
                        seen[doc] |= bit
                retired.update(chunk.retired)
                if len(builder.p_doc) >= run_limit:
                    flush()
                    run_seen = builder.cols["seen"]
            logs[label] = log_state(path, report.end_offset, report.lines)
            if report.problems:
                problems[label] = {"counts": dict(report.problems), "examples": report.examples}
            if progress:
                progress(len(doclen) + len(builder.ids), None)
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
    np.save(folder / "col_seen.npy", np.frombuffer(bytes(seen), np.uint8) if n else np.zeros(0, np.uint8))
    np.save(folder / "col_doclen.npy", lengths)
    np.save(folder / "col_alive.npy", alive)
    if retired:
        _drop_retired(folder, alive)
    meta = {"version": VERSION, "analyzer": analyzer.signature, "context": builder.context,
            "documents": int(alive.sum()), "logs": logs, "strings": builder.strings,
            "problems": problems, "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    cls._prune(base, keep=name, superseded=publish(base, name, folder, meta))
    return cls.load(home, analyzer=analyzer)


def _write_run(folder, segment: Segment) -> Segment:
    """A run on disk, memory-mapped back (its words in a file): the builder's memory goes."""
    folder.mkdir(parents=True)
    for part in ("terms", "offsets", "docs", "tfs"):
        np.save(folder / f"{part}.npy", getattr(segment, part))
    (folder / "words.txt").write_text("\n".join(segment.sorted_words()), "utf-8")
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
