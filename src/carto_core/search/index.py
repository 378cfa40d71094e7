"""The persisted keyword index: document columns and posting lists in numpy arrays.

`KeywordIndex` is one class in three parts, one module each: building and freshness
(`index_build.IndexBuilding`: full builds, appended rows into a tail, folding), the generation
store (`index_store.GenerationStore`: save, load, prune, the CURRENT swap; the on-disk layout is
described there) and, here, opening and the lookups a query makes (postings, ids, rows).

Opening costs a few milliseconds (columns are memory-mapped); a query touches only its own
terms' postings. On open, rows appended to the logs since the last generation are indexed into
an in-memory *tail* segment; once the tail is large it is folded into the main segment and
persisted. The index is a cache: deleting its folder loses nothing.
"""

from __future__ import annotations

import os

import numpy as np

from carto_core.logio.home import Home
from carto_core.util.npymap import backing_map, release_rows
from carto_core.util.records import NEW, Record
from carto_core.search.index_build import BUILD_ORDER, CHANGELOG, LOG_CODE, LOG_LABELS, IndexBuilding
from carto_core.search.index_store import VERSION, GenerationStore
from carto_core.search.postings import Segment
from carto_core.search.tokens import Analyzer, term_hash

__all__ = ["BUILD_ORDER", "CHANGELOG", "FOLD_FRACTION", "FOLD_MIN", "LOG_CODE", "LOG_LABELS",
           "VERSION", "KeywordIndex", "Segment"]

#: Fold the tail into the main segment once it holds this many documents (or 2 % of main).
FOLD_MIN = 2000
FOLD_FRACTION = 0.02
#: A `prefix*` query term stands for at most this many indexed terms (the most frequent).
PREFIX_EXPANSIONS = 128
#: A generation whose mapped files exceed this many bytes lets go of the pages a search read
#: at the end of each stage (`KeywordIndex.release_pages`); a smaller one keeps them, for a
#: warm process' next search.
RELEASE_ABOVE = 64 << 20
#: Ids `positions` looks up between two releases of the pages (in a large generation).
POSITIONS_CHUNK = 16


class KeywordIndex(Record, IndexBuilding, GenerationStore):
    """Documents + postings of one home, as loaded (main segment) plus the unsaved tail. A
    plain record (carto_core.util.records: no dataclass to generate on every cold search)."""

    _fields = ("home", "_ids", "cols", "strings", "segments", "logs", "generation", "problems",
               "tail_docs", "_id_map", "_df_cache", "n_alive", "avgdl", "_ids_blob", "_id_hash",
               "_main_docs", "_tail_map", "_tail_ids", "_verified", "analyzer", "context",
               "patched", "skipped")
    _factories = {"problems": dict, "_df_cache": dict, "_tail_map": dict, "_tail_ids": list,
                  "_verified": dict, "skipped": dict}
    home: Home
    _ids: list[str] | None
    cols: dict[str, np.ndarray]
    strings: dict[str, list[str]]
    segments: list[Segment]
    logs: dict[str, dict]
    generation: str
    problems: dict[str, dict]
    #: Documents indexed since the last persisted generation (the tail).
    tail_docs: int
    _id_map: dict[str, int] | None
    _df_cache: dict[int, int]
    n_alive: int
    avgdl: float
    #: Lazily read event ids: (bytes of ids.bin, offsets) until the full list is needed.
    _ids_blob: tuple | None
    #: Persisted id lookup (crc32 of each id, sorted, and the documents in that order), so
    #: that `index_of` needs neither the id list nor a dict of 200k entries.
    _id_hash: tuple | None
    _main_docs: int
    _tail_map: dict
    _tail_ids: list
    #: label -> (inode, size, mtime_ns, indexed end) of a log last found fresh: while the file
    #: is untouched, the next freshness check needs no read.
    _verified: dict
    #: The analyzer that made the terms (its signature is recorded with the index).
    analyzer: Analyzer | None
    #: Terms of the previous row indexed as session context (0: none; index_build).
    context: int
    #: A rewritten log was patched in (`patch_rewritten`) since the generation was loaded.
    patched: bool
    #: label -> why, for the searched logs that could not be read when the index was last
    #: built or checked (`index_build.left_out`): indexed as absent, the rest answers.
    skipped: dict
    #: What `open` did to hand this index out (a class default, not a field): "opened" (it
    #: was fresh), "built" (none was usable), "rebuilt" (a rewrite it could not patch),
    #: "grown" or "patched".
    opening = "opened"

    def __init__(self, home: Home, _ids: list[str] | None, cols: dict[str, np.ndarray],
                 strings: dict[str, list[str]], segments: list[Segment], logs: dict[str, dict],
                 generation: str, problems: dict[str, dict] = NEW, tail_docs: int = 0,
                 _id_map: dict[str, int] | None = None, _df_cache: dict[int, int] = NEW,
                 n_alive: int = 0, avgdl: float = 0.0, _ids_blob: tuple | None = None,
                 _id_hash: tuple | None = None, _main_docs: int = 0, _tail_map: dict = NEW,
                 _tail_ids: list = NEW, _verified: dict = NEW, analyzer: Analyzer | None = None,
                 context: int = 0, patched: bool = False, skipped: dict = NEW):
        self.home = home
        self._ids = _ids
        self.cols = cols
        self.strings = strings
        self.segments = segments
        self.logs = logs
        self.generation = generation
        self.problems = {} if problems is NEW else problems
        self.tail_docs = tail_docs
        self._id_map = _id_map
        self._df_cache = {} if _df_cache is NEW else _df_cache
        self.n_alive = n_alive
        self.avgdl = avgdl
        self._ids_blob = _ids_blob
        self._id_hash = _id_hash
        self._main_docs = _main_docs
        self._tail_map = {} if _tail_map is NEW else _tail_map
        self._tail_ids = [] if _tail_ids is NEW else _tail_ids
        self._verified = {} if _verified is NEW else _verified
        self.analyzer = analyzer
        self.context = context
        self.patched = patched
        self.skipped = {} if skipped is NEW else skipped

    def _index_of_hashed(self, event_id: str) -> int | None:
        import zlib

        found = self._tail_map.get(event_id)
        if found is not None:
            return found
        hashes, docs = self._id_hash
        # a numpy scalar: with a Python int numpy converts the whole table first (O(n) a
        # lookup, docs/performance.md)
        h = np.uint32(zlib.crc32(event_id.encode("utf-8")))
        lo = int(hashes.searchsorted(h, "left"))
        hi = int(hashes.searchsorted(h, "right"))
        alive = self.cols["alive"]
        for position in range(lo, hi):
            doc = int(docs[position])
            if self.event_id(doc) == event_id and alive[doc]:
                return doc
        return None

    @property
    def ids(self) -> list[str]:
        """Every document's event id (read on first use: most searches need only a page)."""
        if self._ids is None:
            data, _ = self._ids_blob
            text = bytes(data[:-1]).decode("utf-8") if len(data) else ""
            self._ids = (text.split("\n") if text else []) + self._tail_ids
            self._tail_ids = []
        return self._ids

    def event_id(self, index: int) -> str:
        if self._ids is not None:
            return self._ids[index]
        if index >= self._main_docs:
            return self._tail_ids[index - self._main_docs]
        data, offsets = self._ids_blob
        return bytes(data[int(offsets[index]):int(offsets[index + 1]) - 1]).decode("utf-8")

    def release_pages(self) -> None:
        """Let go of the pages of the generation's mapped files that this process has read
        (they stay in the page cache: touched again, they come back without a disk read), when
        the mapped files exceed `RELEASE_ABOVE` bytes. A search calls it at the end of each
        stage: each random read of a large column or id table maps the 64 KiB around it (the
        kernel's fault-around), and a cold search at 3M events held every stage's pages at its
        peak (docs/performance.md, "Cold search at 3M: the stages' pages let go")."""
        arrays = [a for a in self.cols.values()]
        for segment in self.segments:
            arrays += [segment.terms, segment.offsets, segment.docs, segment.tfs, segment.dls]
        arrays += list(self._ids_blob or ()) + list(self._id_hash or ())
        mapped = [a for a in arrays if isinstance(a, np.ndarray) and backing_map(a) is not None]
        if sum(a.nbytes for a in mapped) <= RELEASE_ABOVE:
            return
        for array in mapped:
            release_rows(array, 0, len(array))

    # ---- opening

    @classmethod
    def build(cls, home: Home, *, persist: bool = True, progress=None,
              analyzer: Analyzer | None = None) -> "KeywordIndex":
        """Read every searched log and build the index from scratch: streamed into a new
        generation (`index_stream`, bounded memory), or, for a home that may not be written
        (`persist=False`), in memory (`IndexBuilding.build_in_memory`)."""
        from carto_core.search.index_build import default_analyzer

        if progress is None:
            from carto_core.util.progress import working

            # A first search of a large home builds for minutes: a caller without its own bar
            # (`carto index` has one) says so on a terminal.
            with working("building the keyword index (once: later searches reuse it)", "events") as step:
                return cls.build(home, persist=persist, progress=step, analyzer=analyzer)
        if persist:
            from carto_core.search.index_stream import stream_build

            return stream_build(cls, home, analyzer=analyzer or default_analyzer(),
                                progress=progress)
        return cls.build_in_memory(home, progress=progress, analyzer=analyzer)

    @classmethod
    def open(cls, home: Home, *, refresh: bool = True, persist: bool = True,
             progress=None, analyzer: Analyzer | None = None) -> "KeywordIndex":
        """Load the persisted index (building it when missing, stale, of another version or
        made by another analyzer) and pick up appended rows. `persist=False` never writes (a
        read-only home)."""
        from carto_core.search.index_build import context_terms, default_analyzer

        analyzer = analyzer or default_analyzer()
        index = cls.load(home, analyzer=analyzer)
        if index is not None and index.context != context_terms():
            index = None  # another context setting: other postings
        if index is None:
            built = cls.build(home, persist=persist, progress=progress, analyzer=analyzer)
            built.opening = "built"
            return built
        if refresh:
            outcome = index.refresh()
            if outcome == "rebuild":
                built = cls.build(home, persist=persist, progress=progress, analyzer=analyzer)
                built.opening = "rebuilt"
                return built
            if persist and (index.patched
                            or index.tail_docs >= max(FOLD_MIN, FOLD_FRACTION * len(index))):
                index.save()  # the tail merged into a new generation
            index.opening = "opened" if outcome == "fresh" else outcome  # (save resets it)
        return index

    # ---- lookups

    def __len__(self) -> int:
        return int(len(self.cols["ts"]))

    def positions(self, event_ids: list[str]) -> np.ndarray:
        """Document index of each id (-1: not in the corpus, or retired), in one pass: one
        vectorised binary search over the persisted id hashes, and the ids whose hash is in
        the table once (all but a collision's) compared with their stored bytes in one
        gather, instead of a search and a decode per id (a semantic ladder maps hundreds of ids
        a query). In a large generation, `POSITIONS_CHUNK` ids at a time with the id tables'
        pages let go between (`release_pages`): each id's lookup maps the 64 KiB around each of
        its pages in four tables, and 500 ids held 72 MB at 3M events."""
        if len(event_ids) <= POSITIONS_CHUNK:
            return self._positions(event_ids)
        out = np.empty(len(event_ids), np.int64)
        for start in range(0, len(event_ids), POSITIONS_CHUNK):
            out[start:start + POSITIONS_CHUNK] = self._positions(event_ids[start:start + POSITIONS_CHUNK])
            self.release_pages()
        return out

    def _positions(self, event_ids: list[str]) -> np.ndarray:
        out = np.full(len(event_ids), -1, np.int64)
        if not event_ids:
            return out
        if self._id_hash is None or self._id_map is not None:
            for position, event_id in enumerate(event_ids):
                found = self.index_of(event_id)
                if found is not None:
                    out[position] = found
            return out
        import zlib

        encoded = [e.encode("utf-8") for e in event_ids]
        hashes, docs = self._id_hash
        hashes, docs = np.asarray(hashes), np.asarray(docs)
        wanted = np.fromiter((zlib.crc32(e) for e in encoded), np.uint32, len(encoded))
        lo = hashes.searchsorted(wanted, "left")
        hi = hashes.searchsorted(wanted, "right")
        data, offsets = self._ids_blob
        data, offsets = np.asarray(data), np.asarray(offsets)
        alive = np.asarray(self.cols["alive"])
        tail = self._tail_map
        lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
        # one stored id to compare with: the hash is in the table once, the id not empty
        # (a row of the tail may override a stored one: those go the slow way)
        single = (hi - lo == 1) & (lengths > 0)
        if tail:
            single &= np.fromiter((e not in tail for e in event_ids), np.bool_, len(event_ids))
        picked = np.flatnonzero(single)
        if len(picked):
            doc = docs[lo[picked]].astype(np.int64)
            start = offsets[doc].astype(np.int64)
            size = lengths[picked]
            fits = offsets[doc + 1].astype(np.int64) - 1 - start == size
            picked, doc, start, size = picked[fits], doc[fits], start[fits], size[fits]
            if len(picked):
                ends = np.cumsum(size)
                where = np.arange(int(ends[-1]), dtype=np.int64) + np.repeat(start - (ends - size), size)
                expected = np.frombuffer(b"".join([encoded[i] for i in picked.tolist()]), np.uint8)
                differs = np.logical_or.reduceat(data[where] != expected, ends - size)
                same = ~differs & alive[doc].astype(np.bool_)
                out[picked[same]] = doc[same]
        for position in np.flatnonzero(~single).tolist():
            raw = encoded[position]
            if tail:
                found = tail.get(event_ids[position])
                if found is not None:
                    out[position] = found
                    continue
            for slot in range(int(lo[position]), int(hi[position])):  # >1 only on a collision
                doc = int(docs[slot])
                start, end = int(offsets[doc]), int(offsets[doc + 1]) - 1
                if end - start == len(raw) and data[start:end].tobytes() == raw and alive[doc]:
                    out[position] = doc
                    break
        return out

    def index_of(self, event_id: str) -> int | None:
        if self._id_hash is not None and self._id_map is None:
            return self._index_of_hashed(event_id)
        if self._id_map is None:
            alive = self.cols["alive"]
            ids = self.ids
            mapping = dict(zip(ids, range(len(ids))))
            if not alive.all():
                for index in np.flatnonzero(~np.asarray(alive)):
                    # a retired document's id points at its replacement (added later)
                    if mapping.get(ids[index]) == index:
                        del mapping[ids[index]]
            self._id_map = mapping
        return self._id_map.get(event_id)

    def postings(self, token: str) -> list[tuple[np.ndarray, np.ndarray]]:
        """(docs, tfs, dls) slices of every segment for a token, live documents only: a
        document a newer row of its event replaced (a live turn that grew, until the tail is
        folded) has neither a document frequency nor a score."""
        h = np.uint64(term_hash(token))
        out = []
        alive = None if self.n_alive == len(self) else self.cols["alive"]
        for seg in self.segments:
            start, end = seg.lookup(h)
            if end > start:
                docs, tfs, dls = seg.docs[start:end], seg.tfs[start:end], seg.dls[start:end]
                if alive is not None:
                    keep = alive[docs]
                    if not keep.all():
                        docs, tfs, dls = docs[keep], tfs[keep], dls[keep]
                        if not len(docs):
                            continue
                out.append((docs, tfs, dls))
        return out

    def _words_starting(self, prefix: str):
        """The indexed terms starting with `prefix`, segment by segment (a term in several
        segments comes once from each), found by bisecting each segment's sorted words."""
        import bisect

        for seg in self.segments:
            words = seg.sorted_words()
            for word in words[bisect.bisect_left(words, prefix):]:
                if not word.startswith(prefix):
                    break
                yield word

    def holds_prefix(self, prefix: str) -> bool:
        """Whether some indexed term starts with `prefix` (the first found ends the look)."""
        return next(self._words_starting(prefix), None) is not None

    def prefix_terms(self, prefix: str, limit: int = PREFIX_EXPANSIONS) -> list[str]:
        """Indexed terms starting with `prefix` (every segment), the most frequent `limit`."""
        found = set(self._words_starting(prefix))
        if len(found) > limit:
            found = set(sorted(found, key=lambda w: (-self.df(w), w))[:limit])
        return sorted(found)

    def own_docs(self, token: str) -> np.ndarray:
        """Documents whose own text holds `token` (not only their session context)."""
        from carto_core.search.index_build import TF_SCALE

        parts = [docs[tfs >= TF_SCALE] for docs, tfs, _ in self.postings(token)]
        return np.concatenate(parts) if parts else np.zeros(0, np.int32)

    def df(self, token: str) -> int:
        return sum(len(p[0]) for p in self.postings(token))

    def row(self, index: int) -> dict:
        """The log row a document was read from (read back from its log by offset)."""
        return self.rows([index])[0]

    def rows(self, indices: list[int], known: dict[int, dict] | None = None) -> list[dict]:
        """`row` of several documents, each log opened once (a result page reads ten).
        `known`: the rows already read for this search, by document; only the others are read,
        and added to it (a question's page steps and its render read the same first rows)."""
        if known is not None:
            missing = [i for i in dict.fromkeys(indices) if i not in known]
            if missing:
                known.update(zip(missing, self.rows(missing)))
            return [known[i] for i in indices]
        import orjson

        cols = self.cols
        out: list[dict] = [{} for _ in indices]
        by_log: dict[int, list[int]] = {}
        for position, index in enumerate(indices):
            by_log.setdefault(int(cols["source"][index]), []).append(position)
        offsets, lengths = cols["loc_off"], cols["loc_len"]
        for code, positions in by_log.items():
            # One positioned read a row (`pread`: no seek, and no 8 KB buffer filled for a row
            # of a few hundred bytes, as a buffered file read would)
            fd = os.open(self.home.log(LOG_LABELS[code]), os.O_RDONLY)
            try:
                for position in positions:
                    index = indices[position]
                    raw = os.pread(fd, int(lengths[index]), int(offsets[index]))
                    try:
                        value = orjson.loads(raw)
                    except orjson.JSONDecodeError:
                        from carto_core.logio.jsonl import loads_line

                        value, _ = loads_line(raw)
                    out[position] = value if isinstance(value, dict) else {}
            finally:
                os.close(fd)
        return out

    def seen_labels(self, index: int) -> list[str]:
        """Every log the event occurs in, its own log first."""
        own = int(self.cols["source"][index])
        bits = int(self.cols["seen"][index])
        return [LOG_LABELS[own]] + [l for c, l in enumerate(LOG_LABELS) if c != own and bits >> c & 1]

