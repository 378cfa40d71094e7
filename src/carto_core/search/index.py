"""The persisted keyword index: document columns and posting lists in numpy arrays.

Layout under `<home>/.carto/search/`::

    CURRENT                 name of the live generation folder (swapped atomically)
    gen-<id>/meta.json      version, per-log read state (inode, end offset, line count,
                            boundary hash), string tables, counts of bad lines
    gen-<id>/ids.txt        event ids, one per document, in document order
    gen-<id>/*.npy          columns (time, project/type/session codes, own log, logs-seen
                            bitmask, salience, row location, length) and the postings (CSR:
                            sorted term hashes, offsets, doc indices, term frequencies)

Documents are the event_id-deduplicated rows of the six searched logs (a domain log's row wins
over its changelog copy, as in `corpus.load_corpus`). Columns are loaded memory-mapped, so
opening the index costs a few milliseconds instead of parsing every JSONL line; a query touches
only its own terms' postings.

Freshness: on open, each log is compared with the state the index was built from. Rows appended
since (the file grew, and the 4 KiB before the old end are unchanged) are read and indexed into
an in-memory *tail* segment; once the tail is large it is folded into the main segment and
persisted. A log that was rewritten (new inode, shorter, or different bytes before the old
end) makes a full rebuild. The index is a cache: deleting the folder loses nothing.
"""

from __future__ import annotations

import gc
import json
import os
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from carto_core.home import Home
from carto_core.logs import SEARCHED_LOGS
from carto_core.reader import ReadReport, boundary_hash
from carto_core.search.tokens import row_text, term_hash, tokenize

VERSION = 2
#: Log labels by code (the order of SEARCHED_LOGS); a document's own log is one of these.
LOG_LABELS: tuple[str, ...] = tuple(SEARCHED_LOGS)
LOG_CODE = {label: code for code, label in enumerate(LOG_LABELS)}
CHANGELOG = LOG_CODE["changelog"]
#: Domain logs first, the changelog last: a domain row wins the fold (upstream `_source`).
BUILD_ORDER: tuple[str, ...] = tuple(l for l in LOG_LABELS if l != "changelog") + ("changelog",)
#: Fold the tail into the main segment once it holds this many documents (or 2 % of main).
FOLD_MIN = 2000
FOLD_FRACTION = 0.02

_UNRESOLVED = frozenset({"", "unknown"})
_TYPE_CHAIN = ("type", "event", "milestone")
_SESSION_CHAIN = ("session_id", "session", "sessionId")

_COLUMNS = {
    "ts": np.float64, "project": np.int32, "type": np.int32, "session": np.int32,
    "source": np.int8, "seen": np.uint8, "salience": np.float32, "loc_off": np.int64,
    "loc_len": np.int32, "doclen": np.int32, "alive": np.bool_,
}


def _resolved_str(row: dict, chain: tuple[str, ...]) -> str:
    for key in chain:
        value = row.get(key)
        if value is None:
            continue
        if isinstance(value, str):
            if value.strip().lower() not in _UNRESOLVED:
                return value
        else:
            return str(value)
    return ""


def _salience(value) -> float:
    from carto_core.events import _salience as normalize  # one rule for every reader

    number = normalize(value)
    return float("nan") if number is None else number


_DAY_EPOCH: dict[str, float] = {}


def _epoch(value) -> float:
    from carto_core.timeparse import parse_timestamp

    if isinstance(value, str) and len(value) == 20 and value[19] == "Z" and value[10] == "T":
        # The canonical upstream form (most rows): the day's epoch from a cache plus the clock.
        day = _DAY_EPOCH.get(value[:10])
        if day is None:
            moment = parse_timestamp(value[:10] + "T00:00:00Z")
            day = _DAY_EPOCH[value[:10]] = moment.timestamp() if moment else float("nan")
        try:
            return day + int(value[11:13]) * 3600 + int(value[14:16]) * 60 + int(value[17:19])
        except ValueError:
            pass
    moment = parse_timestamp(value)
    return moment.timestamp() if moment is not None else float("nan")


class _Vocab(dict):
    """term -> id, assigning the next id on first sight."""

    def __missing__(self, term: str) -> int:
        tid = self[term] = len(self)
        return tid


# --------------------------------------------------------------------------- segments


@dataclass
class Segment:
    """Posting lists in CSR form: `terms` (sorted uint64 hashes), `offsets` (len V+1),
    `docs` (int32 document indices, increasing within a term), `tfs` (uint16), and `dls`
    (float32 length of each posting's document: contiguous next to its tf, so scoring a term
    reads two slices instead of gathering lengths from all over the corpus)."""

    terms: np.ndarray
    offsets: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray
    dls: np.ndarray | None = None

    @classmethod
    def empty(cls) -> "Segment":
        return cls(np.zeros(0, np.uint64), np.zeros(1, np.int64), np.zeros(0, np.int32),
                   np.zeros(0, np.uint16))

    @classmethod
    def from_postings(cls, term_ids: np.ndarray, docs: np.ndarray, tfs: np.ndarray,
                      hashes: np.ndarray) -> "Segment":
        """Build from parallel posting arrays; `hashes[term_id]` is each term's hash."""
        if len(docs) == 0:
            return cls.empty()
        keys = hashes[term_ids]
        order = np.lexsort((docs, keys))
        keys = keys[order]
        uniq, starts = np.unique(keys, return_index=True)
        offsets = np.empty(len(uniq) + 1, np.int64)
        offsets[:-1] = starts
        offsets[-1] = len(keys)
        return cls(uniq.astype(np.uint64), offsets, docs[order].astype(np.int32),
                   np.minimum(tfs[order], 65535).astype(np.uint16))

    def lookup(self, h: np.uint64) -> tuple[int, int]:
        """(start, end) of a term's postings; (0, 0) when absent."""
        terms = self.terms
        i = int(terms.searchsorted(h))
        if i < len(terms) and terms[i] == h:
            return int(self.offsets[i]), int(self.offsets[i + 1])
        return 0, 0

    def expanded_terms(self) -> np.ndarray:
        return np.repeat(self.terms, np.diff(self.offsets))

    def __len__(self) -> int:
        return int(len(self.docs))


# --------------------------------------------------------------------------- builder


class _Builder:
    """Accumulates documents and postings while logs are read (a full build or a tail)."""

    def __init__(self, index: "KeywordIndex | None" = None, first_doc: int = 0):
        self.first_doc = first_doc
        self.cols: dict[str, array] = {
            "ts": array("d"), "project": array("i"), "type": array("i"), "session": array("i"),
            "source": array("b"), "seen": array("B"), "salience": array("f"),
            "loc_off": array("q"), "loc_len": array("i"), "doclen": array("i"),
        }
        self.ids: list[str] = []
        self.strings: dict[str, list[str]] = (
            {k: list(v) for k, v in index.strings.items()} if index is not None
            else {"projects": [""], "types": [""], "sessions": [""]})
        self._codes = {k: {s: i for i, s in enumerate(v)} for k, v in self.strings.items()}
        self.vocab: dict[str, int] = _Vocab()
        self.p_term = array("i")
        self.p_doc = array("i")
        self.p_tf = array("i")
        #: event_id -> document index for documents this builder made.
        self.own: dict[str, int] = {}
        #: Updates to documents that already exist: index -> extra log bitmask.
        self.seen_updates: dict[int, int] = {}
        #: Existing documents replaced by a domain row that arrived after its changelog copy.
        self.killed: list[int] = []

    def _code(self, table: str, value: str) -> int:
        codes = self._codes[table]
        code = codes.get(value)
        if code is None:
            code = codes[value] = len(self.strings[table])
            self.strings[table].append(value)
        return code

    def add(self, label: str, row: dict, offset: int, length: int, lineno: int,
            lookup) -> None:
        event_id = row.get("event_id")
        if not isinstance(event_id, str) or event_id.strip().lower() in _UNRESOLVED:
            event_id = f"{label}-{lineno}"
        code = LOG_CODE[label]
        bit = 1 << code
        existing = self.own.get(event_id)
        if existing is not None:
            self.cols["seen"][existing - self.first_doc] |= bit
            return
        if lookup is not None:
            found = lookup(event_id)
            if found is not None:
                index, own_source = found
                if own_source == CHANGELOG and code != CHANGELOG:
                    # The domain row arrived after its changelog copy: it wins; the old
                    # document is retired and this row becomes the event.
                    self.killed.append(index)
                    bit |= 1 << CHANGELOG
                else:
                    self.seen_updates[index] = self.seen_updates.get(index, 0) | bit
                    return
        doc = self.first_doc + len(self.ids)
        self.own[event_id] = doc
        self.ids.append(event_id)
        etype = _resolved_str(row, _TYPE_CHAIN)
        if not etype and event_id.startswith("git-"):
            etype = "git_commit"
        project = row.get("project")
        cols = self.cols
        cols["ts"].append(_epoch(row.get("timestamp")))
        cols["project"].append(self._code("projects", project if isinstance(project, str) else ""))
        cols["type"].append(self._code("types", etype))
        cols["session"].append(self._code("sessions", _resolved_str(row, _SESSION_CHAIN)))
        cols["source"].append(code)
        cols["seen"].append(bit)
        cols["salience"].append(_salience(row.get("salience")))
        cols["loc_off"].append(offset)
        cols["loc_len"].append(length)
        tokens = tokenize(row_text(row))
        cols["doclen"].append(len(tokens))
        counts = Counter(tokens)
        vocab = self.vocab
        self.p_term.extend([vocab[token] for token in counts])
        self.p_doc.extend([doc] * len(counts))
        self.p_tf.extend(counts.values())

    def segment(self) -> Segment:
        hashes = np.fromiter((term_hash(t) for t in self.vocab), np.uint64, len(self.vocab))
        return Segment.from_postings(
            np.frombuffer(self.p_term, np.int32), np.frombuffer(self.p_doc, np.int32),
            np.frombuffer(self.p_tf, np.int32), hashes)

    def columns(self) -> dict[str, np.ndarray]:
        out = {name: np.frombuffer(values, _COLUMNS[name]).copy() if len(values) else
               np.zeros(0, _COLUMNS[name]) for name, values in self.cols.items()}
        out["alive"] = np.ones(len(self.ids), np.bool_)
        return out


def _read_log(path: Path, start: int, start_lineno: int, report: ReadReport):
    """Yield (row, offset, length, lineno) for complete lines from `start`."""
    from carto_core.jsonl import fast_loads_line
    from carto_core.reader import iter_lines

    for line in iter_lines(path, report, start=start, start_lineno=start_lineno,
                           loads=fast_loads_line):
        yield line.row, line.offset, line.end - line.offset - 1, line.lineno


def _boundary(path: Path, offset: int) -> str:
    return boundary_hash(path, offset) if offset > 0 else ""


def _log_state(path: Path, end: int, lines: int) -> dict:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return {"exists": False, "inode": 0, "dev": 0, "end": 0, "lines": 0, "hash": ""}
    return {"exists": True, "inode": st.st_ino, "dev": st.st_dev, "end": end, "lines": lines,
            "hash": _boundary(path, end)}


# --------------------------------------------------------------------------- the index


@dataclass
class KeywordIndex:
    """Documents + postings of one home, as loaded (main segment) plus the unsaved tail."""

    home: Home
    _ids: list[str] | None
    cols: dict[str, np.ndarray]
    strings: dict[str, list[str]]
    segments: list[Segment]
    logs: dict[str, dict]
    generation: str
    problems: dict[str, dict] = field(default_factory=dict)
    #: Documents indexed since the last persisted generation (the tail).
    tail_docs: int = 0
    _id_map: dict[str, int] | None = None
    _df_cache: dict[int, int] = field(default_factory=dict)
    n_alive: int = 0
    avgdl: float = 0.0
    #: Lazily read event ids: (bytes of ids.bin, offsets) until the full list is needed.
    _ids_blob: tuple | None = None
    #: Persisted id lookup (crc32 of each id, sorted, and the documents in that order), so
    #: that `index_of` needs neither the id list nor a dict of 200k entries.
    _id_hash: tuple | None = None
    _main_docs: int = 0
    _tail_map: dict = field(default_factory=dict)
    _tail_ids: list = field(default_factory=list)
    #: label -> (inode, size, mtime_ns, indexed end) of a log last found fresh: while the file
    #: is untouched, the next freshness check needs no read.
    _verified: dict = field(default_factory=dict)

    def _index_of_hashed(self, event_id: str) -> int | None:
        import zlib

        found = self._tail_map.get(event_id)
        if found is not None:
            return found
        hashes, docs = self._id_hash
        h = zlib.crc32(event_id.encode("utf-8"))
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

    # ---- opening

    @staticmethod
    def folder(home: Home) -> Path:
        return home.state / "search"

    @classmethod
    def open(cls, home: Home, *, refresh: bool = True, persist: bool = True,
             progress=None) -> "KeywordIndex":
        """Load the persisted index (building it when missing, stale or of another version)
        and pick up appended rows. `persist=False` never writes (a read-only home)."""
        index = cls.load(home)
        if index is None:
            return cls.build(home, persist=persist, progress=progress)
        if refresh:
            outcome = index.refresh()
            if outcome == "rebuild":
                return cls.build(home, persist=persist, progress=progress)
            if persist and index.tail_docs >= max(FOLD_MIN, FOLD_FRACTION * len(index)):
                index.fold()
                index.save()
        return index

    @classmethod
    def load(cls, home: Home) -> "KeywordIndex | None":
        base = cls.folder(home)
        try:
            current = (base / "CURRENT").read_text("utf-8").strip()
            folder = base / current
            meta = json.loads((folder / "meta.json").read_text("utf-8"))
            if meta.get("version") != VERSION:
                return None
            id_offsets = np.load(folder / "ids_off.npy", mmap_mode="r")
            id_data = np.memmap(folder / "ids.bin", np.uint8, "r") if id_offsets[-1] else b""
            # np.asarray: plain ndarray views of the maps (memmap's subclass dispatch is slow
            # on the small fancy-indexing operations a query does).
            cols = {name: np.asarray(np.load(folder / f"col_{name}.npy", mmap_mode="r"))
                    for name in _COLUMNS}
            # Columns that refresh may modify in place are loaded into memory (small).
            cols["seen"] = np.array(cols["seen"])
            cols["alive"] = np.array(cols["alive"])
            seg = Segment(*(np.asarray(np.load(folder / f"post_{n}.npy", mmap_mode="r"))
                            for n in ("terms", "offsets", "docs", "tfs", "dls")))
        except (OSError, ValueError, KeyError):
            return None
        if len(id_offsets) != len(cols["ts"]) + 1:
            return None
        index = cls(home, None, cols, meta["strings"], [seg], meta["logs"], current,
                    meta.get("problems", {}))
        index._ids_blob = (id_data, id_offsets)
        index._id_hash = (np.load(folder / "ids_hash.npy", mmap_mode="r"),
                          np.load(folder / "ids_hash_doc.npy", mmap_mode="r"))
        index._main_docs = len(index)
        index._stats()
        return index

    @classmethod
    def build(cls, home: Home, *, persist: bool = True, progress=None) -> "KeywordIndex":
        """Read every searched log and build the index from scratch."""
        builder = _Builder()
        logs: dict[str, dict] = {}
        problems: dict[str, dict] = {}
        collecting = gc.isenabled()
        gc.disable()  # millions of small objects and none of them cyclic
        try:
            for label in BUILD_ORDER:
                path = home.log(label)
                report = ReadReport(str(path))
                for row, offset, length, lineno in _read_log(path, 0, 0, report):
                    builder.add(label, row, offset, length, lineno, None)
                logs[label] = _log_state(path, report.end_offset, report.lines)
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
                    "", problems)
        index._stats()
        if persist:
            index.save()
        return index

    # ---- freshness

    def _lengths(self) -> None:
        """Fill each segment's per-posting document lengths (after a build, merge or tail)."""
        doclen = np.asarray(self.cols["doclen"], np.float32)
        for seg in self.segments:
            if seg.dls is None or len(seg.dls) != len(seg.docs):
                seg.dls = doclen[seg.docs]

    def _stats(self) -> None:
        self._lengths()
        alive = self.cols["alive"]
        self.n_alive = int(alive.sum())
        dl = self.cols["doclen"]
        self.avgdl = float(dl[alive].mean()) if self.n_alive else 0.0
        self._df_cache = {}
        self._id_map = None

    def stale_logs(self) -> dict[str, str]:
        """label -> "grown" | "rewritten" for logs that differ from the indexed state."""
        out = {}
        for label in LOG_LABELS:
            state = self.logs.get(label) or {"exists": False, "end": 0, "lines": 0}
            path = self.home.log(label)
            try:
                st = os.stat(path)
            except FileNotFoundError:
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
            if _boundary(path, end) != state["hash"]:
                out[label] = "rewritten"
            elif st.st_size > end:
                out[label] = "grown"
            else:
                self._verified[label] = seen
        return out

    def refresh(self) -> str:
        """Index rows appended since the last read. Returns "fresh", "grown" or "rebuild"
        (a log was rewritten: the caller rebuilds)."""
        stale = self.stale_logs()
        if not stale:
            return "fresh"
        if "rewritten" in stale.values():
            return "rebuild"
        first = len(self)
        builder = _Builder(self, first_doc=first)
        sources = self.cols["source"]

        def lookup(event_id: str):
            index = self.index_of(event_id)
            return None if index is None else (index, int(sources[index]))

        for label in BUILD_ORDER:
            if label not in stale:
                continue
            state = self.logs.get(label) or {}
            path = self.home.log(label)
            report = ReadReport(str(path))
            start, start_lines = state.get("end", 0), state.get("lines", 0)
            for row, offset, length, lineno in _read_log(path, start, start_lines, report):
                builder.add(label, row, offset, length, lineno, lookup)
            self.logs[label] = _log_state(path, report.end_offset, start_lines + report.lines)
            if report.problems:
                known = self.problems.setdefault(label, {"counts": {}, "examples": {}})
                for kind, count in report.problems.items():
                    known["counts"][kind] = known["counts"].get(kind, 0) + count
        self._apply(builder)
        return "grown"

    def _apply(self, builder: _Builder) -> None:
        seen = self.cols["seen"]
        for index, bits in builder.seen_updates.items():
            seen[index] |= bits
        if builder.killed:
            self.cols["alive"][builder.killed] = False
        if builder.ids:
            new = builder.columns()
            self.cols = {name: np.concatenate([np.asarray(self.cols[name]), new[name]])
                         for name in _COLUMNS}
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
                tail = _merge([self.segments[1], tail])
                self.segments[1] = tail
            else:
                self.segments.append(tail)
            self.tail_docs += len(builder.ids)
        self._stats()
        self.generation = self.generation.split("+")[0] + f"+{len(self.ids)}"

    def fold(self) -> None:
        """Merge the tail into the main segment and drop retired documents."""
        alive = np.asarray(self.cols["alive"])
        segment = _merge(self.segments)
        if not alive.all():
            remap = np.cumsum(alive) - 1
            keep = alive[segment.docs]
            terms = segment.expanded_terms()[keep]
            docs = remap[segment.docs[keep]].astype(np.int32)
            tfs = segment.tfs[keep]
            uniq, starts = np.unique(terms, return_index=True)
            offsets = np.append(starts, len(terms)).astype(np.int64)
            segment = Segment(uniq, offsets, docs, tfs)
            self.cols = {name: np.asarray(col)[alive] for name, col in self.cols.items()}
            self._ids = [event_id for event_id, ok in zip(self.ids, alive) if ok]
        else:
            self.cols = {name: np.asarray(col) for name, col in self.cols.items()}
        self.segments = [segment]
        self.tail_docs = 0
        self._id_hash, self._tail_map, self._main_docs = None, {}, 0
        self._stats()

    # ---- persistence

    def save(self) -> str:
        """Write a new generation folder (main segment = everything) and swap CURRENT."""
        if len(self.segments) > 1 or not np.asarray(self.cols["alive"]).all():
            self.fold()
        import uuid  # here, not at import: a search that only reads never pays for it

        base = self.folder(self.home)
        base.mkdir(parents=True, exist_ok=True)
        generation = f"gen-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}"
        folder = base / (generation + ".tmp")
        folder.mkdir()
        for name in _COLUMNS:
            np.save(folder / f"col_{name}.npy", np.ascontiguousarray(self.cols[name]))
        seg = self.segments[0]
        for name in ("terms", "offsets", "docs", "tfs", "dls"):
            np.save(folder / f"post_{name}.npy", np.ascontiguousarray(getattr(seg, name)))
        encoded = [(event_id + "\n").encode("utf-8") for event_id in self.ids]
        offsets = np.zeros(len(encoded) + 1, np.int64)
        if encoded:
            np.cumsum([len(e) for e in encoded], out=offsets[1:])
        np.save(folder / "ids_off.npy", offsets)
        import zlib

        crc = np.fromiter((zlib.crc32(e[:-1]) for e in encoded), np.uint32, len(encoded))
        order = np.argsort(crc, kind="stable")
        np.save(folder / "ids_hash.npy", crc[order])
        np.save(folder / "ids_hash_doc.npy", order.astype(np.int32))
        (folder / "ids.bin").write_bytes(b"".join(encoded))
        meta = {"version": VERSION, "documents": len(self.ids), "logs": self.logs,
                "strings": self.strings, "problems": self.problems,
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        (folder / "meta.json").write_text(json.dumps(meta), "utf-8")
        os.rename(folder, base / generation)
        pointer = base / f"CURRENT.{os.getpid()}.tmp"
        pointer.write_text(generation, "utf-8")
        os.replace(pointer, base / "CURRENT")
        previous = self.generation.split("+")[0]
        self.generation = generation
        self._prune(base, keep={generation, previous})
        return generation

    @staticmethod
    def _prune(base: Path, keep: set[str]) -> None:
        # Older generations go; the one just replaced stays for readers that still map it
        # (on POSIX a mapped file survives unlinking anyway).
        import shutil

        for entry in base.iterdir():
            if entry.is_dir() and entry.name not in keep and entry.name.startswith("gen-"):
                try:
                    age = time.time() - entry.stat().st_mtime
                except FileNotFoundError:
                    continue
                if age < (600 if entry.name.endswith(".tmp") else 60):
                    continue  # another process may be writing it, or about to point CURRENT at it
                shutil.rmtree(entry, ignore_errors=True)

    # ---- lookups

    def __len__(self) -> int:
        return int(len(self.cols["ts"]))

    def positions(self, event_ids: list[str]) -> np.ndarray:
        """Document index of each id (-1: not in the corpus, or retired), in one pass: one
        vectorised binary search over the persisted id hashes and a byte comparison per id,
        instead of a search and a decode per id (a semantic ladder maps 500 ids a query)."""
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
        alive = self.cols["alive"]
        tail = self._tail_map
        for position, raw in enumerate(encoded):
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
        """(docs, tfs, dls) slices of every segment for a token."""
        h = np.uint64(term_hash(token))
        out = []
        for seg in self.segments:
            start, end = seg.lookup(h)
            if end > start:
                out.append((seg.docs[start:end], seg.tfs[start:end], seg.dls[start:end]))
        return out

    def df(self, token: str) -> int:
        return sum(len(p[0]) for p in self.postings(token))

    def row(self, index: int) -> dict:
        """The log row a document was read from (read back from its log by offset)."""
        return self.rows([index])[0]

    def rows(self, indices: list[int]) -> list[dict]:
        """`row` of several documents, each log opened once (a result page reads ten)."""
        import orjson

        cols = self.cols
        out: list[dict] = [{} for _ in indices]
        by_log: dict[int, list[int]] = {}
        for position, index in enumerate(indices):
            by_log.setdefault(int(cols["source"][index]), []).append(position)
        for code, positions in by_log.items():
            with open(self.home.log(LOG_LABELS[code]), "rb") as handle:
                for position in positions:
                    index = indices[position]
                    handle.seek(int(cols["loc_off"][index]))
                    raw = handle.read(int(cols["loc_len"][index]))
                    try:
                        value = orjson.loads(raw)
                    except orjson.JSONDecodeError:
                        from carto_core.jsonl import loads_line

                        value, _ = loads_line(raw)
                    out[position] = value if isinstance(value, dict) else {}
        return out

    def seen_labels(self, index: int) -> list[str]:
        """Every log the event occurs in, its own log first."""
        own = int(self.cols["source"][index])
        bits = int(self.cols["seen"][index])
        return [LOG_LABELS[own]] + [l for c, l in enumerate(LOG_LABELS) if c != own and bits >> c & 1]


def _merge(segments: list[Segment]) -> Segment:
    segments = [s for s in segments if len(s)]
    if not segments:
        return Segment.empty()
    if len(segments) == 1:
        return segments[0]
    terms = np.concatenate([s.expanded_terms() for s in segments])
    docs = np.concatenate([np.asarray(s.docs) for s in segments])
    tfs = np.concatenate([np.asarray(s.tfs) for s in segments])
    order = np.lexsort((docs, terms))
    terms, docs, tfs = terms[order], docs[order], tfs[order]
    uniq, starts = np.unique(terms, return_index=True)
    offsets = np.append(starts, len(terms)).astype(np.int64)
    return Segment(uniq, offsets, docs.astype(np.int32), tfs)
