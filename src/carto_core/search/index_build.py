"""Building the keyword index: documents and postings from the searched logs, either from
scratch (`IndexBuilding.build`) or from the rows appended since the indexed state (`refresh`,
into a tail segment that `fold` merges into the main one).

Documents are the event_id-deduplicated rows of the six searched logs, folded by the rule of
`carto_core.logio.fold` as in `corpus.load_corpus` (within a log the newest row wins: an older
document of the id is retired and the new row becomes the event; a domain row wins over its
changelog copy). Freshness: each log is compared with the
state the index was built from; rows appended since (the file grew, and the 4 KiB before the
old end are unchanged) are read into the tail; a log that was rewritten (new inode, shorter, or
different bytes before the old end) makes the caller rebuild.

Session context (BM25F-style, off unless CARTO_CONTEXT_TERMS=N): a conversational row (a turn
or a prompt) also indexes the first N terms of the row before it in the same session and log,
at a quarter of the weight of its own text, so an answer is found through the question that
preceded it. A
posting's tf is stored as `own * TF_SCALE + context` (context capped at TF_SCALE - 1), so the
scored tf is `tf / TF_SCALE` = own + context / 4 and a document *holds* a term (the lookup gate)
only when its own text does (`tf >= TF_SCALE`); `doclen` is kept in the same unit.

`IndexBuilding` is a part of `KeywordIndex` (carto_core.search.index), which carries the fields.
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from pathlib import Path

import numpy as np
import orjson

from carto_core.logio.fold import LOAD_ORDER, takes_over
from carto_core.logio.home import Home
from carto_core.logio.reader import ReadReport, boundary_hash, unreadable
from carto_core.search.postings import Segment, merge_segments
from carto_core.search.rowfields import (LOG_CODE, LOG_LABELS, SESSION_CHAIN, StringCodes,
                                         context_terms, event_id_of, event_type, intent_code,
                                         resolved_str)
from carto_core.search.rowfields import salience as row_salience
from carto_core.search.tokens import Analyzer, row_text, term_hash

try:  # per row of a build: the C function, without hashlib's constructor lookup
    from _blake2 import blake2b
except ImportError:  # pragma: no cover
    from hashlib import blake2b

CHANGELOG = LOG_CODE["changelog"]
#: Domain logs first, the changelog last: a domain row wins the fold (upstream `_source`).
BUILD_ORDER: tuple[str, ...] = LOAD_ORDER
#: Fold the tail into the main segment once it holds this many documents (or 2 % of main).

#: Context weight 1 / TF_SCALE; the logs whose rows get the row before them as context.
TF_SCALE = 4
CONTEXT_LOGS = frozenset({LOG_CODE["turns"], LOG_CODE["prompts"]})


def context_part(analyzer, row: dict, tokens: list[str], limit: int) -> list[str]:
    """The terms a row lends the next one as context: its text's, without its event id (an id
    must find its own row alone), at most `limit`. The id is the last DOC_FIELD a turn or a
    prompt has, so its terms end `tokens`."""
    event_id = row.get("event_id")
    if isinstance(event_id, str) and event_id:
        if row.get("milestone"):
            from carto_core.search.tokens import row_text

            tokens = analyzer.terms(row_text({k: v for k, v in row.items() if k != "event_id"}))
        else:
            tokens = tokens[:len(tokens) - len(analyzer.terms(event_id))]
    return tokens[:limit]


COLUMNS = {
    "ts": np.float64, "project": np.int32, "type": np.int32, "session": np.int32,
    "source": np.int8, "seen": np.uint8, "salience": np.float32, "loc_off": np.int64,
    "loc_len": np.int32, "doclen": np.int32, "digest": np.uint64, "intent": np.int8,
    "alive": np.bool_,
}


def row_digest(row: dict) -> int:
    """64-bit digest of a row as parsed: a rewritten log's row with the same digest indexes
    exactly as before (same text, same columns), so only its location is updated."""
    try:
        data = orjson.dumps(row)
    except TypeError:  # a value orjson refuses (a lone surrogate): compare its repr
        data = repr(row).encode("utf-8", "surrogatepass")
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "little")


def epoch_seconds(value):
    """`timeparse.epoch_seconds`, imported on the first call, which rebinds this name to it: a
    search opening a fresh index parses no timestamp, and `array` and `timeparse` were a visible
    part of its imports (docs/performance.md, "Cold path")."""
    global epoch_seconds
    from carto_core.util.timeparse import epoch_seconds as parse

    epoch_seconds = parse
    return parse(value)


def _epoch(value) -> float:
    """Epoch seconds of a row's timestamp (NaN when unusable): `timeparse.epoch_seconds`."""
    seconds = epoch_seconds(value)
    return float("nan") if seconds is None else seconds


class _Vocab(dict):
    """term -> id, assigning the next id on first sight."""

    def __missing__(self, term: str) -> int:
        tid = self[term] = len(self)
        return tid


def analyze_rows(analyzer: Analyzer, code: int, rows: list[dict], ids: list[str]) -> tuple:
    """What `DocumentBuilder.add_document` computes for each of `rows` (new documents of the
    log `code`, event ids `ids`) without session context, as arrays a worker process sends
    back whole: the per-row columns, the row's string values, and the postings with term ids
    local to these rows (`words` in first-sight order, so the builder numbering them in that
    order numbers every term as a row-by-row build would). A pure function of its input."""
    from array import array  # builds only (see `epoch_seconds`)

    ts, salience = array("d"), array("f")
    digest, intent, doclen = array("Q"), array("b"), array("i")
    # string values as numbers local to these rows (first-sight order, as the terms)
    projects, types, sessions = _Vocab(), _Vocab(), _Vocab()
    project_of, type_of, session_of = array("i"), array("i"), array("i")
    local: dict[str, int] = _Vocab()
    p_local, p_tf, p_count = array("i"), array("i"), array("i")
    terms = analyzer.terms
    for row, event_id in zip(rows, ids):
        etype = event_type(row, event_id)
        project = row.get("project")
        ts.append(_epoch(row.get("timestamp")))
        project_of.append(projects[project if isinstance(project, str) else ""])
        type_of.append(types[etype])
        session_of.append(sessions[resolved_str(row, SESSION_CHAIN)])
        salience.append(row_salience(row.get("salience")))
        digest.append(row_digest(row))
        intent.append(intent_code(row, code))
        tokens = terms(row_text(row))
        counts = Counter(tokens)
        doclen.append(len(tokens) * TF_SCALE)
        p_local.extend([local[token] for token in counts])
        p_tf.extend(counts.values())
        p_count.append(len(counts))
    words = list(local)
    memo = _HASHES
    if len(memo) > _HASHES_MAX:
        memo.clear()
    hashes = array("Q", [memo[word] for word in words])
    return (ts, salience, digest, intent, doclen, (list(projects), project_of),
            (list(types), type_of), (list(sessions), session_of), words, hashes,
            p_local, p_tf, p_count)


class _HashMemo(dict):
    def __missing__(self, term: str) -> int:
        value = self[term] = term_hash(term)
        return value


#: term -> its 64-bit hash, across the batches of a build (a word recurs in most of them).
_HASHES = _HashMemo()
_HASHES_MAX = 200_000


class DocumentBuilder:
    """Accumulates documents and postings while logs are read (a full build or a tail; a
    tail starts from `index`'s string tables)."""

    def __init__(self, index=None, first_doc: int = 0, analyzer: Analyzer | None = None,
                 context_lookup=None):
        self.context = index.context if index is not None else context_terms()
        #: (log code, session) -> the last row's terms (the next row's context).
        self.previous: dict[tuple[int, str], list[str]] = {}
        #: (log code, session) -> terms of the indexed row before the first one read here.
        self.context_lookup = context_lookup
        #: The analyzer: a pure function of the row's text (a streaming build calls it per row).
        self.analyzer = analyzer or (index.analyzer if index is not None else None) \
            or default_analyzer()
        self.strings: dict[str, list[str]] = (
            {k: list(v) for k, v in index.strings.items()} if index is not None
            else {"projects": [""], "types": [""], "sessions": [""]})
        self._code = StringCodes(self.strings).code
        self.reset(first_doc)

    def reset(self, first_doc: int) -> None:
        """Forget the documents and postings gathered (a streamed build wrote them out); the
        string tables and each session's context carry on."""
        from array import array  # builds only (see `epoch_seconds`)

        self.first_doc = first_doc
        self.cols: dict[str, array] = {
            "ts": array("d"), "project": array("i"), "type": array("i"), "session": array("i"),
            "source": array("b"), "seen": array("B"), "salience": array("f"),
            "loc_off": array("q"), "loc_len": array("i"), "doclen": array("i"),
            "digest": array("Q"), "intent": array("b"),
        }
        self.ids: list[str] = []
        self.vocab: dict[str, int] = _Vocab()
        self.p_term = array("i")
        self.p_doc = array("i")
        self.p_tf = array("i")
        #: Each term's hash by term number, when every term came through `add_analyzed`.
        self.term_hashes = array("Q")
        #: event_id -> document index for documents this builder made.
        self.own: dict[str, int] = {}
        #: Updates to documents that already exist: index -> extra log bitmask.
        self.seen_updates: dict[int, int] = {}
        #: Existing documents replaced by a newer row (`carto_core.logio.fold`): a domain row after
        #: its changelog copy, or a newer row of the same log (a turn that grew).
        self.killed: list[int] = []
        #: Documents this builder made and then replaced by a newer row of their id.
        self.own_killed: list[int] = []

    def add(self, label: str, row: dict, offset: int, length: int, lineno: int,
            lookup) -> None:
        event_id = event_id_of(row, label, lineno)
        code = LOG_CODE[label]
        bit = 1 << code
        existing = self.own.get(event_id)
        if existing is not None:
            local = existing - self.first_doc
            if not takes_over(LOG_LABELS[self.cols["source"][local]], label):
                self.cols["seen"][local] |= bit
                return
            # A newer row of the same log (or a domain row after its changelog copy): the
            # document this builder made is retired and this row becomes the event.
            self.own_killed.append(existing)
            bit |= self.cols["seen"][local]
        elif lookup is not None:
            found = lookup(event_id)
            if found is not None:
                index, own_source, seen_bits = found
                if takes_over(LOG_LABELS[own_source], label):
                    # The old document is retired and this row becomes the event.
                    self.killed.append(index)
                    bit |= seen_bits | self.seen_updates.pop(index, 0)
                else:
                    self.seen_updates[index] = self.seen_updates.get(index, 0) | bit
                    return
        doc = self.first_doc + len(self.ids)
        self.own[event_id] = doc
        self.add_document(label, row, offset, length, event_id, bit)

    def add_document(self, label: str, row: dict, offset: int, length: int, event_id: str,
                     bit: int) -> None:
        """Index `row` as the next document (the fold already decided it is a new event):
        its columns, its postings (with its session context), its id."""
        code = LOG_CODE[label]
        doc = self.first_doc + len(self.ids)
        self.ids.append(event_id)
        etype = event_type(row, event_id)
        project = row.get("project")
        cols = self.cols
        cols["ts"].append(_epoch(row.get("timestamp")))
        cols["project"].append(self._code("projects", project if isinstance(project, str) else ""))
        cols["type"].append(self._code("types", etype))
        cols["session"].append(self._code("sessions", resolved_str(row, SESSION_CHAIN)))
        cols["source"].append(code)
        cols["seen"].append(bit)
        cols["salience"].append(row_salience(row.get("salience")))
        cols["loc_off"].append(offset)
        cols["loc_len"].append(length)
        cols["digest"].append(row_digest(row))
        cols["intent"].append(intent_code(row, code))
        tokens = self.analyzer.terms(row_text(row))
        counts = Counter(tokens)
        context = None
        if self.context and code in CONTEXT_LOGS:
            session = resolved_str(row, SESSION_CHAIN)
            if session:
                key = (code, session)
                context = self.previous.get(key)
                if context is None and self.context_lookup is not None:
                    context = self.context_lookup(code, session)
                self.previous[key] = context_part(self.analyzer, row, tokens, self.context)
        vocab = self.vocab
        if context:
            scaled = {term: n * TF_SCALE for term, n in counts.items()}
            for term, n in Counter(context).items():
                scaled[term] = scaled.get(term, 0) + min(n, TF_SCALE - 1)
            cols["doclen"].append(len(tokens) * TF_SCALE + len(context))
            self.p_term.extend([vocab[token] for token in scaled])
            self.p_doc.extend([doc] * len(scaled))
            self.p_tf.extend(scaled.values())
            return
        cols["doclen"].append(len(tokens) * TF_SCALE)
        self.p_term.extend([vocab[token] for token in counts])
        self.p_doc.extend([doc] * len(counts))
        # without context every tf is scaled at the end, in one numpy multiply
        self.p_tf.extend([n * TF_SCALE for n in counts.values()] if self.context else counts.values())

    def add_analyzed(self, code: int, analyzed: tuple, ids: list[str], offsets: list[int],
                     lengths: list[int], masks: list[int]) -> None:
        """Add the documents `analyze_rows` made of new rows of the log `code` (their ids,
        line locations and `seen` masks from the fold): the same columns, postings and term
        numbers as `add_document` row by row, a batch at a time (no session context)."""
        assert not self.context, "session context needs the rows in order (add_document)"
        (ts, salience, digest, intent, doclen, projects, types, sessions, words, hashes,
         p_local, p_tf, p_count) = analyzed
        n = len(ids)
        if not n:
            return
        doc = self.first_doc + len(self.ids)
        self.ids.extend(ids)
        cols = self.cols
        code_of = self._code
        cols["ts"].extend(ts)
        for column, table, (values, local_codes) in (
                ("project", "projects", projects), ("type", "types", types),
                ("session", "sessions", sessions)):
            codes = np.fromiter([code_of(table, value) for value in values], np.int32,
                                len(values))
            cols[column].frombytes(codes[np.frombuffer(local_codes, np.int32)].tobytes())
        cols["source"].frombytes(bytes([code]) * n)
        cols["seen"].extend(masks)
        cols["salience"].extend(salience)
        cols["loc_off"].extend(offsets)
        cols["loc_len"].extend(lengths)
        cols["digest"].extend(digest)
        cols["intent"].extend(intent)
        cols["doclen"].extend(doclen)
        vocab = self.vocab
        # the batch's words in first-sight order: new ones get the next global numbers
        known = len(vocab)
        numbers = np.fromiter([vocab[word] for word in words], np.int32, len(words))
        if len(self.term_hashes) == known:  # the hash of every term numbered so far
            fresh = numbers >= known  # in order: numbered known, known + 1, ...
            self.term_hashes.frombytes(np.frombuffer(hashes, np.uint64)[fresh].tobytes())
        self.p_term.frombytes(numbers[np.frombuffer(p_local, np.int32)].tobytes())
        self.p_doc.frombytes(np.repeat(np.arange(doc, doc + n, dtype=np.int32),
                                       np.frombuffer(p_count, np.int32)).tobytes())
        self.p_tf.extend(p_tf)

    def segment(self) -> Segment:
        if len(self.term_hashes) == len(self.vocab):
            hashes = np.frombuffer(self.term_hashes, np.uint64) if self.vocab else \
                np.zeros(0, np.uint64)
        else:
            hashes = np.fromiter((term_hash(t) for t in self.vocab), np.uint64, len(self.vocab))
        tfs = np.frombuffer(self.p_tf, np.int32)
        segment = Segment.from_postings(
            np.frombuffer(self.p_term, np.int32), np.frombuffer(self.p_doc, np.int32),
            tfs if self.context else tfs * TF_SCALE, hashes)
        segment.words = sorted(self.vocab)
        return segment

    def columns(self) -> dict[str, np.ndarray]:
        out = {name: np.frombuffer(values, COLUMNS[name]).copy() if len(values) else
               np.zeros(0, COLUMNS[name]) for name, values in self.cols.items()}
        out["alive"] = np.ones(len(self.ids), np.bool_)
        if self.own_killed:
            out["alive"][np.asarray(self.own_killed, np.int64) - self.first_doc] = False
        return out


def default_analyzer() -> Analyzer:
    from carto_core.search.analysis import resolve_analyzer

    return resolve_analyzer()


def read_log(path: Path, start: int, start_lineno: int, report: ReadReport):
    """Yield (row, offset, length, lineno) for complete lines from `start`."""
    from carto_core.logio.jsonl import fast_loads_line
    from carto_core.logio.reader import iter_lines

    for line in iter_lines(path, report, start=start, start_lineno=start_lineno,
                           loads=fast_loads_line):
        yield line.row, line.offset, line.end - line.offset - 1, line.lineno


def boundary_at(path: Path, offset: int) -> str:
    return boundary_hash(path, offset) if offset > 0 else ""


#: The indexed state of a log that is not there, or that cannot be read (`reader.unreadable`:
#: a folder in its place, a FIFO, a symbolic link to nothing, permission denied). Such a log is
#: left out and the rest indexed; once it can be read, it is new rows like any appended ones.
ABSENT = {"exists": False, "inode": 0, "dev": 0, "end": 0, "lines": 0, "hash": ""}


def left_out(path: Path, label: str, skipped: dict[str, str], logs: dict | None = None) -> bool:
    """Whether the log `label` at `path` cannot be read (`reader.unreadable`): then
    `skipped[label]` says why and its state in `logs` is ABSENT."""
    why = unreadable(path)
    if why is None:
        return False
    skipped[label] = why
    if logs is not None:
        logs[label] = dict(ABSENT)
    return True


def log_state(path: Path, end: int, lines: int) -> dict:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return dict(ABSENT)
    return {"exists": True, "inode": st.st_ino, "dev": st.st_dev, "end": end, "lines": lines,
            "hash": boundary_at(path, end)}


class IndexBuilding:
    """Full builds, freshness checks and the tail of a `KeywordIndex`."""

    @classmethod
    def build_in_memory(cls, home: Home, *, progress=None, analyzer: Analyzer | None = None,
                        persist: bool = False):
        """The one-shot build: every document and posting in memory, then one segment."""
        builder = DocumentBuilder(analyzer=analyzer)
        context = builder.context
        logs: dict[str, dict] = {}
        problems: dict[str, dict] = {}
        skipped: dict[str, str] = {}
        collecting = gc.isenabled()
        gc.disable()  # millions of small objects and none of them cyclic
        try:
            for label in BUILD_ORDER:
                path = home.log(label)
                if left_out(path, label, skipped, logs):
                    continue
                report = ReadReport(str(path))
                for row, offset, length, lineno in read_log(path, 0, 0, report):
                    builder.add(label, row, offset, length, lineno, None)
                logs[label] = log_state(path, report.end_offset, report.lines)
                if report.problems:
                    problems[label] = {"counts": dict(report.problems), "examples": report.examples}
                if progress:
                    progress(len(builder.ids), None)
            segment = builder.segment()
            cols = builder.columns()
        finally:
            if collecting:
                gc.enable()
        index = cls(home, builder.ids, cols, builder.strings, [segment], logs,
                    "", problems, analyzer=builder.analyzer, context=context, skipped=skipped)
        index._stats()
        if persist:
            index.save()
        return index

    def _lengths(self) -> None:
        """Fill each segment's per-posting document lengths (after a build, merge or tail)."""
        # (an opened generation's segment has them: no 200k-row division a cold search)
        doclen = None
        for seg in self.segments:
            if seg.dls is None or len(seg.dls) != len(seg.docs):
                if doclen is None:
                    doclen = np.asarray(self.cols["doclen"], np.float32) / np.float32(TF_SCALE)
                seg.dls = doclen[seg.docs]

    def _stats(self) -> None:
        self._lengths()
        alive = self.cols["alive"]
        self.n_alive = int(np.count_nonzero(alive))
        dl = self.cols["doclen"]
        # every document alive (an opened generation): the same mean without the masked copy
        # (integer lengths: the float64 sum is exact, so the same value to the bit)
        live = dl if self.n_alive == len(alive) else dl[alive]
        self.avgdl = float(live.mean()) / TF_SCALE if self.n_alive else 0.0
        self._df_cache = {}
        self._id_map = None

    def stale_logs(self) -> dict[str, str]:
        """label -> "grown" | "rewritten" for logs that differ from the indexed state. A log
        that cannot be read counts as absent (`skipped` says why)."""
        out = {}
        self.skipped = {}
        for label in LOG_LABELS:
            state = self.logs.get(label) or {"exists": False, "end": 0, "lines": 0}
            path = self.home.log(label)
            try:
                st = None if left_out(path, label, self.skipped) else os.stat(path)
            except FileNotFoundError:
                st = None
            if st is None:
                if state.get("exists") and state.get("end", 0) > 0:
                    out[label] = "rewritten"
                continue
            end = state.get("end", 0)
            if not state.get("exists") or end == 0:
                if st.st_size > 0:
                    out[label] = "grown"
                continue
            if (st.st_ino, st.st_dev) != (state["inode"], state["dev"]) or st.st_size < end:
                out[label] = "rewritten"
                continue
            seen = (st.st_ino, st.st_size, st.st_mtime_ns, end)
            if self._verified.get(label) == seen:
                continue  # not written since its boundary was last checked (a server's query)
            if boundary_at(path, end) != state["hash"]:
                out[label] = "rewritten"
            elif st.st_size > end:
                out[label] = "grown"
            else:
                self._verified[label] = seen
        return out

    def refresh(self, forgotten=None) -> str:
        """Index rows appended since the last read. Returns "fresh", "grown", "patched" or
        "rebuild" (a log was rewritten in a way a patch cannot follow: the caller rebuilds).
        `forgotten`: see `patch_rewritten`."""
        stale = self.stale_logs()
        if not stale:
            return "fresh"
        rewritten = [label for label in BUILD_ORDER if stale.get(label) == "rewritten"]
        if rewritten:
            if not self.patch_rewritten(rewritten, forgotten):
                return "rebuild"
            stale = {label: why for label, why in stale.items() if why != "rewritten"}
            if not stale:
                return "patched"
        first = len(self)
        builder = DocumentBuilder(self, first_doc=first, context_lookup=self._last_terms)
        sources = self.cols["source"]

        seen_bits = self.cols["seen"]

        def lookup(event_id: str):
            index = self.index_of(event_id)
            return None if index is None else (index, int(sources[index]), int(seen_bits[index]))

        for label in BUILD_ORDER:
            if label not in stale:
                continue
            state = self.logs.get(label) or {}
            path = self.home.log(label)
            report = ReadReport(str(path))
            start, start_lines = state.get("end", 0), state.get("lines", 0)
            for row, offset, length, lineno in read_log(path, start, start_lines, report):
                builder.add(label, row, offset, length, lineno, lookup)
            self.logs[label] = log_state(path, report.end_offset, start_lines + report.lines)
            known = self.problems.get(label)
            if known is not None:
                # A torn last line was not consumed: this read saw it again (complete now, or
                # still torn and counted again), so the old count goes.
                known["counts"].pop("torn_line", None)
                known["examples"].pop("torn_line", None)
            if report.problems:
                known = self.problems.setdefault(label, {"counts": {}, "examples": {}})
                for kind, count in report.problems.items():
                    known["counts"][kind] = known["counts"].get(kind, 0) + count
                    examples = known["examples"].setdefault(kind, [])
                    examples.extend(report.examples.get(kind, [])[:max(0, 5 - len(examples))])
            if known is not None and not known["counts"]:
                del self.problems[label]
        self._apply(builder)
        return "grown"

    def patch_rewritten(self, labels: list[str], forgotten=None) -> bool:
        """Bring the index up to date with logs that were rewritten (the rewrite path, a
        repair, a redaction) without a rebuild: each is read again whole; a row whose digest
        is its document's keeps the document (only its location moves), a changed row replaces
        its document, a new row is a new document, a document whose row is gone is retired,
        and the log's bit in every `seen` mask is recomputed. Returns False (rebuild instead)
        when the answer depends on more than that log: session context is on (a changed row
        changes the next one's), a log is gone, or a vanished row's id lives on in another
        log (its row there would become the event). An id that repeats within the log (a
        turn written while open and again as it grew) is read at its newest row only, which
        wins (`carto_core.logio.fold`): such a log is read twice.

        `forgotten` (a container of event ids, `carto forget`'s) names events whose rows left
        every log: such a document is retired even when other logs held a copy (they no longer
        do), where a vanished row would otherwise mean a rebuild."""
        if self.context or any(label in self.skipped or not self.home.log(label).exists()
                               for label in labels):
            return False
        cols = self.cols
        for name in ("loc_off", "loc_len", "seen", "alive"):
            cols[name] = np.array(cols[name])  # written in place below (mapped ones are read-only)
        builder = DocumentBuilder(self, first_doc=len(self))
        for label in labels:
            code = LOG_CODE[label]
            bit = 1 << code
            n = len(self)
            source = np.asarray(cols["source"])
            digest = np.asarray(cols["digest"])
            alive = cols["alive"]
            held = np.zeros(n, np.bool_)  # documents this read found a row for
            path = self.home.log(label)
            report = ReadReport(str(path))
            for chunk in _newest_rows(path, label, report):
                firsts = np.flatnonzero(chunk.new)
                docs = self.positions([chunk.ids[i] for i in firsts])
                for i, doc in zip(firsts.tolist(), docs.tolist()):
                    line = chunk.lines[i]
                    length = line.end - line.offset - 1
                    if 0 <= doc < n:
                        if source[doc] == code and row_digest(line.row) == digest[doc]:
                            cols["loc_off"][doc], cols["loc_len"][doc] = line.offset, length
                            held[doc] = True
                            continue
                        if source[doc] != code and not (source[doc] == CHANGELOG and code != CHANGELOG):
                            held[doc] = True  # a copy of another log's event
                            continue
                        # Changed, or a domain row taking over its changelog copy's event.
                        others = int(cols["seen"][doc]) & ~bit
                        alive[doc] = False
                        builder.killed.append(doc)
                        builder.add_document(label, line.row, line.offset, length,
                                             chunk.ids[i], bit | others)
                    else:
                        builder.add_document(label, line.row, line.offset, length,
                                             chunk.ids[i], bit)
            own = (source == code) & alive
            gone = np.flatnonzero(own & ~held)
            if len(gone):
                copied = gone[(cols["seen"][gone] & ~np.uint8(bit)) != 0]
                if len(copied) and (forgotten is None or not all(
                        self.event_id(int(doc)) in forgotten for doc in copied)):
                    return False
            alive[gone] = False
            seen = cols["seen"]
            elsewhere = (source != code) & alive
            seen[elsewhere & ~held] &= np.uint8(~bit & 0xFF)
            seen[elsewhere & held] |= np.uint8(bit)
            self.logs[label] = log_state(path, report.end_offset, report.lines)
            self.problems.pop(label, None)
            if report.problems:
                self.problems[label] = {"counts": dict(report.problems), "examples": report.examples}
        builder.killed = []  # retired above already
        self._apply(builder)
        self.patched = True
        return True

    def _last_terms(self, code: int, session: str) -> list[str] | None:
        """The terms of the last indexed row of a session in a log (a tail's first row of
        that session takes them as its context)."""
        sessions = self.strings["sessions"]
        try:
            scode = sessions.index(session)
        except ValueError:
            return None
        cols = self.cols
        hits = np.flatnonzero((np.asarray(cols["session"]) == scode)
                              & (np.asarray(cols["source"]) == code) & np.asarray(cols["alive"]))
        if not len(hits):
            return None
        from carto_core.search.tokens import row_text

        row = self.row(int(hits[-1]))
        return context_part(self.analyzer, row, self.analyzer.terms(row_text(row)), self.context)

    def _apply(self, builder: DocumentBuilder) -> None:
        seen = self.cols["seen"]
        for index, bits in builder.seen_updates.items():
            seen[index] |= bits
        if builder.killed:
            self.cols["alive"][builder.killed] = False
        if builder.ids:
            new = builder.columns()
            self.cols = {name: np.concatenate([np.asarray(self.cols[name]), new[name]])
                         for name in COLUMNS}
            if self._id_hash is not None and self._id_map is None:
                # keep the hashed lookup: new ids go to the small tail map
                self._tail_map.update(builder.own)
            if self._ids is None:
                self._tail_ids.extend(builder.ids)
            else:
                self._ids.extend(builder.ids)
            self.strings = builder.strings
            tail = builder.segment()
            if len(self.segments) > 1:
                # Tail on tail: merge the two small segments (the main one stays mapped).
                tail = merge_segments([self.segments[1], tail])
                self.segments[1] = tail
            else:
                self.segments.append(tail)
            self.tail_docs += len(builder.ids)
        self._stats()
        # len(self), not len(self.ids): that decodes every indexed id
        self.generation = self.generation.split("+")[0] + f"+{len(self)}"

    def fold(self) -> None:
        """Merge the tail into the main segment and drop retired documents."""
        alive = np.asarray(self.cols["alive"])
        segment = merge_segments(self.segments)
        if not alive.all():
            remap = np.cumsum(alive) - 1
            keep = alive[segment.docs]
            terms = segment.expanded_terms()[keep]
            docs = remap[segment.docs[keep]].astype(np.int32)
            tfs = segment.tfs[keep]
            uniq, starts = np.unique(terms, return_index=True)
            offsets = np.append(starts, len(terms)).astype(np.int64)
            segment = Segment(uniq, offsets, docs, tfs, words=segment.words)
            self.cols = {name: np.asarray(col)[alive] for name, col in self.cols.items()}
            self._ids = [event_id for event_id, ok in zip(self.ids, alive) if ok]
        else:
            self.cols = {name: np.asarray(col) for name, col in self.cols.items()}
            # the id list whole: the lazy reader below (the saved ids, then the tail's) goes
            self._ids = self.ids
        self.segments = [segment]
        self.tail_docs = 0
        self._id_hash, self._tail_map, self._main_docs = None, {}, 0
        self._stats()


#: Chunks `_newest_rows` keeps from its first pass (a small log is not read twice).
_KEPT_CHUNKS = 2


def _newest_rows(path: Path, label: str, report: ReadReport):
    """The log's rows folded chunk by chunk (`carto_core.model.logstream.Fold`), an id that
    repeats read at its newest row only (within a log the row appended last is the event):
    every row of a chunk is new. A first pass finds the repeated ids and their last lines;
    a second yields the rows (a small log's are kept from the first)."""
    from carto_core.model.logstream import CHUNK_ROWS, Fold
    from carto_core.logio.jsonl import fast_loads_line
    from carto_core.logio.reader import iter_lines

    fold = Fold()
    last: dict[str, int] = {}
    chunks: list | None = []  # kept while small: a log without repeats is then read once
    for chunk in fold.chunks(path, label, report=report):
        again = np.flatnonzero(~chunk.new)
        for i in again.tolist():
            last[chunk.ids[i]] = chunk.lines[i].lineno
        if chunks is not None:
            chunks.append(chunk)
            if len(chunks) > _KEPT_CHUNKS:
                chunks = None
    if not last and chunks is not None:
        yield from chunks
        return
    del chunks
    if not last:
        yield from Fold().chunks(path, label, report=ReadReport(str(path)))
        return
    from carto_core.model.logstream import event_key

    fold, batch = Fold(), []
    for line in iter_lines(path, ReadReport(str(path)), loads=fast_loads_line):
        newest = last.get(event_key(line.row, label, line.lineno))
        if newest is not None and newest != line.lineno:
            continue  # an older row of an id that repeats: the newest wins
        batch.append(line)
        if len(batch) >= CHUNK_ROWS:
            yield fold.fold(label, batch)
            batch = []
    if batch:
        yield fold.fold(label, batch)
