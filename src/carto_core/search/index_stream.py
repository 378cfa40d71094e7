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
(the `seen` mask, the length, the id table's 20-byte fingerprint), per session its context
terms, and one run.
"""

from __future__ import annotations

import gc
import shutil
import time
from array import array

import numpy as np

from carto_core.fold import takes_over
from carto_core.home import Home
from carto_core.logstream import CHUNK_ROWS, Fold
from carto_core.reader import ReadReport
from carto_core.search.index_build import (
    BUILD_ORDER, COLUMNS, LOG_CODE, LOG_LABELS, TF_SCALE, DocumentBuilder, log_state,
)
from carto_core.search.index_write import IdWriter, NpyWriter, merge_runs, new_generation, publish
from carto_core.search.postings import Segment

#: Postings a run holds before it is written (about 20 MB of builder arrays; sorting a run
#: takes about 5x that for a moment).
RUN_POSTINGS = 1_500_000
_STREAMED = [name for name in COLUMNS if name not in ("seen", "doclen", "alive")]


def stream_build(cls, home: Home, *, analyzer, progress=None, rows: int | None = None,
                 run_postings: int | None = None):
    """Build and publish a generation of `cls` (the KeywordIndex) from every log; returns it
    opened from disk. `rows` and `run_postings` override the chunk and run sizes (tests)."""
    from carto_core.search.index_store import VERSION

    base = cls.folder(home)
    try:
        previous = (base / "CURRENT").read_text("utf-8").strip()
    except OSError:
        previous = ""
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
    publish(base, name, folder, meta)
    cls._prune(base, keep={name, previous})
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
    """Columns and ids without the documents a later row took over (postings already are)."""
    for column in COLUMNS:
        values = np.load(folder / f"col_{column}.npy")
        np.save(folder / f"col_{column}.npy", values[alive])
    offsets = np.load(folder / "ids_off.npy")
    blob = (folder / "ids.bin").read_bytes()
    kept = [blob[offsets[i]:offsets[i + 1] - 1].decode("utf-8") for i in np.flatnonzero(alive)]
    writer = IdWriter(folder)
    writer.write(kept)
    writer.close()
