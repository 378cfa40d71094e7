"""The keyword index as `carto search` sees it in a new process: the persisted generation
(`IndexView`) and the rows appended to the logs since it was saved (its *tail*), the tail
indexed here, in memory, with the standard library (the prompt-time recall runs inside the
agent's hook, where numpy is not imported).

    seen = with_tail(home, view, analyzer, max_bytes=..., deadline=...)
    # a TailedView, or a str saying why the tail cannot be read

Each appended row goes through the rules `KeywordIndex.refresh` applies: the logs read in the
fold's order (domain logs first, the changelog last), each row under its event id
(`event_id_of`), a row of an event already indexed taking its document over when
`carto_core.logio.fold.takes_over` says so (a turn that grew, a domain row after its changelog
copy: the old document is retired) and otherwise only adding its log to the event's `seen`
bits; its terms are the analyzer's of `tokens.row_text`, its columns `rowfields`'. So N, each
term's document frequency and the average length are those of the index `carto search` opens,
and the configured rankers rank in the same order (`tests/search/test_index_tail.py`).

A `TailedView` answers what an `IndexView` answers (`stats`, `postings`, `cols`, `strings`,
`event_id`, `index_of`, `row`, `string`, `meta`); the view under it may be None (a home whose
index was never saved: every row is tail). Not done here: session context
(`CARTO_CONTEXT_TERMS`: a tail row would need the last indexed row of its session, so the tail
is left unseen then, as before it was searched at all) and a tail row's `digest` (0: only a
rewrite's patch reads it).

Stdlib only.
"""

from __future__ import annotations

import os
import stat
import time
from array import array
from collections import Counter

from carto_core.logio.fold import LOAD_ORDER, takes_over
from carto_core.search.rowfields import (LOG_CODE, SESSION_CHAIN, StringCodes, context_terms,
                                         event_id_of, event_type, intent_code, resolved_str,
                                         salience)
from carto_core.search.index_view import COLUMNS, LOG_LABELS, TF_SCALE

#: Rows read between two looks at the deadline.
_CHECK_EVERY = 32


class TailedView:
    """An `IndexView` (or nothing) and the documents of its tail, read as one index."""

    def __init__(self, home, base, meta: dict, strings: dict, tail: "_Tail"):
        self.home = home
        self.base = base
        self.meta = meta
        self.strings = strings
        self.n_main = len(base) if base is not None else 0
        self.tail = tail
        self.cols = _Columns(self)
        self.generation = f"{base.generation if base is not None else ''}+{len(tail.ids)}"
        self._postings: dict[int, tuple | None] = {}
        self._stats: tuple[int, float] | None = None

    def __len__(self) -> int:
        return self.n_main + len(self.tail.ids)

    def stats(self) -> tuple[int, float]:
        """BM25's N and avgdl over both parts, retired documents left out (as
        `KeywordIndex._stats`: the same integer sum, so the same float)."""
        if self._stats is None:
            n_alive, total = self.base.totals() if self.base is not None else (0, 0)
            doclen = self.base.cols["doclen"] if self.base is not None else ()
            n_alive -= len(self.tail.killed)
            total -= sum(doclen[doc] for doc in self.tail.killed)
            for length, alive in zip(self.tail.cols["doclen"], self.tail.cols["alive"]):
                if alive:
                    n_alive += 1
                    total += length
            self._stats = (n_alive, total / n_alive / TF_SCALE if n_alive else 0.0)
        return self._stats

    def postings(self, term_hash: int):
        """(docs, tfs, dls) of a term over both parts (docs increasing), live documents only;
        None when no document holds it."""
        if term_hash not in self._postings:
            self._postings[term_hash] = self._join(term_hash)
        return self._postings[term_hash]

    def _join(self, term_hash: int):
        main = self.base.postings(term_hash) if self.base is not None else None
        if main is not None and self.tail.killed:
            main = _without(main, self.tail.killed)
        tail = self.tail.postings.get(term_hash)
        if tail is None:
            return main
        if main is None:
            return tail
        return tuple((a if isinstance(a, list) else a.tolist()) + b for a, b in zip(main, tail))

    def event_id(self, doc: int) -> str:
        if doc < self.n_main:
            return self.base.event_id(doc)
        return self.tail.ids[doc - self.n_main]

    def index_of(self, event_id: str) -> int | None:
        found = self.tail.live.get(event_id)
        if found is not None:
            return found
        if self.base is None:
            return None
        doc = self.base.index_of(event_id)
        return None if doc is None or doc in self.tail.killed else doc

    def string(self, table: str, doc: int) -> str:
        column = {"projects": "project", "types": "type", "sessions": "session"}[table]
        return self.strings[table][self.cols[column][doc]]

    def row(self, doc: int) -> dict:
        if doc < self.n_main:
            return self.base.row(doc)
        return self.tail.rows[doc - self.n_main]


class _Columns(dict):
    """Column name -> one array over both parts, made on first use (a copy of the mapped
    column and the tail's values: indexing it is as fast as the view's own), retired main
    documents marked dead and the tail's `seen` bits added."""

    def __init__(self, view: TailedView):
        super().__init__()
        self._view = view

    def __missing__(self, name: str):
        view = self._view
        base = view.base.cols[name] if view.base is not None else None
        code = base.format if base is not None else _TYPECODES[name]
        joined = array("B" if code == "?" else code)
        if base is not None:
            joined.frombytes(base.cast("B"))
        joined.extend(view.tail.cols[name])
        if name == "alive":
            for doc in view.tail.killed:
                joined[doc] = 0
        elif name == "seen":
            for doc, bits in view.tail.seen_more.items():
                joined[doc] |= bits
        self[name] = joined
        return joined


#: The columns' array codes when there is no persisted view (`index_build.COLUMNS`' dtypes).
_TYPECODES = {"ts": "d", "project": "i", "type": "i", "session": "i", "source": "b", "seen": "B",
              "salience": "f", "loc_off": "q", "loc_len": "i", "doclen": "i", "digest": "Q",
              "intent": "b", "alive": "B"}


def _without(postings: tuple, killed: set[int]) -> tuple:
    """A main-segment posting list without the documents the tail retired (untouched, and not
    copied, when it holds none of them)."""
    import bisect

    docs = postings[0]
    hit = False
    for doc in killed:
        i = bisect.bisect_left(docs, doc)
        if i < len(docs) and docs[i] == doc:
            hit = True
            break
    if not hit:
        return postings
    keep = [i for i, doc in enumerate(docs) if doc not in killed]
    if not keep:
        return None
    return tuple([part[i] for i in keep] for part in postings)


class _Tail:
    """The tail's documents (numbered after the main segment's), their postings by term hash,
    and what they changed in the main segment."""

    def __init__(self):
        self.ids: list[str] = []
        self.rows: list[dict] = []
        self.cols: dict[str, list] = {name: [] for name in COLUMNS}
        #: event id -> its live tail document.
        self.live: dict[str, int] = {}
        #: Main documents a tail row took over (retired).
        self.killed: set[int] = set()
        #: Main document -> log bits the tail's copies of it add to its `seen`.
        self.seen_more: dict[int, int] = {}
        #: term hash -> (docs, tfs, dls), filled by `finish`.
        self.postings: dict[int, tuple] = {}
        self._terms: dict[str, tuple[list, list]] = {}


class _Reader:
    """Adds the rows of the tail one by one, as `DocumentBuilder.add` does."""

    def __init__(self, base, strings: dict, analyzer):
        # imported when a tail is read (the hook path without one does not need them), once
        from carto_core.search.tokens import row_text
        from carto_core.util.timeparse import epoch_seconds

        self._row_text, self._epoch = row_text, epoch_seconds
        self.base = base
        self._code = StringCodes(strings).code
        self.analyzer = analyzer
        self.tail = _Tail()
        self.first = len(base) if base is not None else 0

    def add(self, label: str, row: dict, offset: int, length: int, lineno: int) -> None:
        tail, cols = self.tail, self.tail.cols
        event_id = event_id_of(row, label, lineno)
        code = LOG_CODE[label]
        bit = 1 << code
        own = tail.live.get(event_id)
        if own is not None:
            local = own - self.first
            if not takes_over(LOG_LABELS[cols["source"][local]], label):
                cols["seen"][local] |= bit
                return
            cols["alive"][local] = 0  # a newer row of this event: it replaces the document
            bit |= cols["seen"][local]
        elif self.base is not None:
            doc = self.base.index_of(event_id)
            if doc is not None and doc not in tail.killed:
                if not takes_over(LOG_LABELS[self.base.cols["source"][doc]], label):
                    tail.seen_more[doc] = tail.seen_more.get(doc, 0) | bit
                    return
                tail.killed.add(doc)
                bit |= self.base.cols["seen"][doc] | tail.seen_more.pop(doc, 0)
        self._document(label, code, row, offset, length, event_id, bit)

    def _document(self, label, code, row, offset, length, event_id, bit) -> None:
        tail, cols = self.tail, self.tail.cols
        doc = self.first + len(tail.ids)
        tail.ids.append(event_id)
        tail.rows.append(row)
        tail.live[event_id] = doc
        project = row.get("project")
        seconds = self._epoch(row.get("timestamp"))
        cols["ts"].append(float("nan") if seconds is None else seconds)
        cols["project"].append(self._code("projects", project if isinstance(project, str) else ""))
        cols["type"].append(self._code("types", event_type(row, event_id)))
        cols["session"].append(self._code("sessions", resolved_str(row, SESSION_CHAIN)))
        cols["source"].append(code)
        cols["seen"].append(bit)
        cols["salience"].append(salience(row.get("salience")))
        cols["loc_off"].append(offset)
        cols["loc_len"].append(length)
        cols["digest"].append(0)
        cols["intent"].append(intent_code(row, code))
        cols["alive"].append(1)
        tokens = self.analyzer.terms(self._row_text(row))
        cols["doclen"].append(len(tokens) * TF_SCALE)
        terms = tail._terms
        for term, count in Counter(tokens).items():
            found = terms.get(term)
            if found is None:
                found = terms[term] = ([], [])
            found[0].append(doc)
            found[1].append(count * TF_SCALE)

    def finish(self) -> _Tail:
        """The postings by term hash, documents a later row replaced left out."""
        from carto_core.search.tokens import term_hash

        tail = self.tail
        alive, doclen, first = tail.cols["alive"], tail.cols["doclen"], self.first
        for term, (docs, tfs) in tail._terms.items():
            if not all(alive[doc - first] for doc in docs):
                kept = [i for i, doc in enumerate(docs) if alive[doc - first]]
                if not kept:
                    continue
                docs, tfs = [docs[i] for i in kept], [tfs[i] for i in kept]
            tail.postings[term_hash(term)] = (docs, tfs, [doclen[doc - first] / TF_SCALE for doc in docs])
        tail._terms = {}
        return tail


def appended(home, base) -> tuple[str, dict[str, tuple[int, int]], int]:
    """("fresh" | "tail" | "stale", label -> (indexed end, lines) of each grown log, appended
    bytes): where each log's tail starts (a log the index never saw starts at 0)."""
    if base is not None:
        state, size = base.freshness()
        if state != "tail":
            return state, {}, size
    starts, total = {}, 0
    logs = base.logs if base is not None else {}
    for label in LOG_LABELS:
        known = logs.get(label) or {}
        end = int(known.get("end", 0) or 0) if known.get("exists") else 0
        try:
            st = os.stat(home.log(label))
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):  # a folder, a FIFO: no log (`reader.unreadable`)
            continue
        size = st.st_size
        if size > end:
            starts[label] = (end, int(known.get("lines", 0) or 0) if end else 0)
            total += size - end
    return ("tail" if total else "fresh"), starts, total


def stale_reason(home, base) -> str:
    """Why a saved index no longer matches the logs, in words: a byte count says nothing when a
    log was replaced (a restored or copied home has the same bytes under new inodes)."""
    for label in LOG_LABELS:
        known = (base.logs.get(label) if base is not None else None) or {}
        end = int(known.get("end", 0) or 0)
        if not known.get("exists") or not end:
            continue
        try:
            st = os.stat(home.log(label))
        except OSError:
            return f"the {label} log it indexed is gone"
        if (st.st_ino, st.st_dev) != (known.get("inode"), known.get("dev")):
            return (f"the {label} log was replaced under it (a new file of that name: a restored "
                    "or copied home, or a rewrite)")
        if st.st_size < end:
            return f"the {label} log is shorter than when it was indexed (truncated or rewritten)"
    return "a log was rewritten under it"


def with_tail(home, base, analyzer, *, max_bytes: int, deadline: float | None = None):
    """The index `base` (an `IndexView`, or None when none was saved) with its tail read: a
    `TailedView`, `base` itself when nothing was appended (or session context is on: the tail
    is not read then), or a str saying why not (a log rewritten under the index, more than
    `max_bytes` appended, `deadline` (`time.monotonic()`) passed while reading)."""
    from carto_core.logio.reader import ReadReport, iter_lines

    context = int(base.meta.get("context", 0) or 0) if base is not None else context_terms()
    state, starts, size = appended(home, base)
    if state == "stale":
        return f"keyword index stale: {stale_reason(home, base)}"
    if base is not None and (state == "fresh" or context):
        return base
    if size > max_bytes:
        if base is not None:
            return f"{size} bytes appended since the keyword index was saved, more than {max_bytes}"
        return f"no keyword index, and the logs hold {size} bytes, more than {max_bytes}"
    if context:
        return "no keyword index (session context on: the logs are not read here)"
    strings = {table: list(values) for table, values in base.strings.items()} if base is not None \
        else {"projects": [""], "types": [""], "sessions": [""]}
    reader = _Reader(base, strings, analyzer)
    count = 0
    for label in LOAD_ORDER:
        if label not in starts:
            continue
        start, lines = starts[label]
        path = home.log(label)
        for line in iter_lines(path, ReadReport(str(path)), start=start, start_lineno=lines):
            reader.add(label, line.row, line.offset, line.end - line.offset - 1, line.lineno)
            count += 1
            if deadline is not None and count % _CHECK_EVERY == 0 and time.monotonic() > deadline:
                return f"out of time reading the keyword index's tail ({count} rows read)"
    meta = base.meta if base is not None else {"analyzer": analyzer.signature, "context": 0}
    return TailedView(home, base, meta, strings, reader.finish())
