"""A read-only, stdlib-only view of the persisted keyword index (for the live hook path).

`carto search` opens the index as numpy arrays (`KeywordIndex`); importing numpy alone costs
several times a whole PostToolUse hook call, so the UserPromptSubmit recall reads the same
generation folder (`index_store` describes the layout) through `mmap` and `memoryview.cast`
instead: a column or a posting list is a typed view of the mapped file, nothing is copied,
and a term's postings are found by binary search over the sorted term hashes.

It never builds, refreshes or writes an index. `IndexView.open(home)` returns None when there
is no usable generation (none, another format version or analyzer, unreadable); `freshness()`
compares the indexed state of every searched log with the file as it is now: appended bytes
are the *tail* (rows a warm `KeywordIndex` would index on open; this view does not see them,
`index_tail.TailedView` adds them), a rewritten log makes the view stale.

`FORMAT_VERSION` must equal `index_store.VERSION` (a test fails when the format moves on
without this reader).
"""

from __future__ import annotations

import json
import mmap
import os
import stat
from pathlib import Path

from carto_core.util.lazyre import Lazy
from carto_core.logio.logs import SEARCHED_LOGS

FORMAT_VERSION = 8
#: A posting's tf is `own * TF_SCALE + context` (index_build); equal to index_build.TF_SCALE.
TF_SCALE = 4
#: npy dtype descr -> memoryview format (little-endian, as every index this machine wrote).
_FORMATS = {"<u8": "Q", "<i8": "q", "<i4": "i", "<u4": "I", "<u2": "H", "<i2": "h", "<f8": "d",
            "<f4": "f", "|b1": "?", "|u1": "B", "|i1": "b", "<f2": "e"}
#: Compiled on first use: a cold `carto search` imports this module for its constants only.
_HEADER = Lazy(rb"'descr':\s*'([^']+)'.*'fortran_order':\s*(True|False).*'shape':\s*\((\d*),?\)")
#: The logs searched, in the index's code order.
LOG_LABELS: tuple[str, ...] = tuple(SEARCHED_LOGS)
COLUMNS = ("ts", "project", "type", "session", "source", "seen", "salience", "loc_off",
           "loc_len", "doclen", "digest", "intent", "alive")


def read_current(base: Path) -> str:
    """The name of the generation `<base>/CURRENT` points at ("" when it is empty); OSError when
    it cannot be read, a FIFO or a folder in its place included (never waited on)."""
    from carto_core.util.safeio import read_text

    return read_text(base / "CURRENT").strip()


class _Mapped:
    """The files of one generation, mapped once each; kept alive while views of them live."""

    def __init__(self):
        self.maps: list[mmap.mmap] = []

    def array(self, path: Path) -> memoryview:
        """The data of a one-dimensional .npy file as a typed memoryview."""
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            head = handle.read(min(size, 4096))
            if head[:6] != b"\x93NUMPY":
                raise ValueError(f"{path.name}: not a .npy file")
            major = head[6]
            if major == 1:
                header_len, start = int.from_bytes(head[8:10], "little"), 10
            else:
                header_len, start = int.from_bytes(head[8:12], "little"), 12
            header = head[start:start + header_len]
            match = _HEADER.search(header)
            if match is None or match.group(2) != b"False":
                raise ValueError(f"{path.name}: unsupported .npy header")
            fmt = _FORMATS.get(match.group(1).decode())
            if fmt is None:
                raise ValueError(f"{path.name}: unsupported dtype {match.group(1)!r}")
            count = int(match.group(3) or 0)
            offset = start + header_len
            if count == 0:
                return memoryview(b"").cast("B").cast(fmt)
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self.maps.append(mapped)
        view = memoryview(mapped)[offset:]
        width = {"Q": 8, "q": 8, "d": 8, "i": 4, "I": 4, "f": 4, "H": 2, "h": 2, "e": 2}.get(fmt, 1)
        return view[:count * width].cast(fmt)

    def raw(self, path: Path) -> memoryview:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size == 0:
                return memoryview(b"")
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self.maps.append(mapped)
        return memoryview(mapped)


class IndexView:
    """One generation of a home's keyword index, read-only (see the module docstring)."""

    def __init__(self, home, folder: Path, meta: dict, cols: dict, postings: tuple,
                 ids: tuple, id_hash: tuple, mapped: _Mapped):
        self.home = home
        self.folder = folder
        self.generation = folder.name
        self.meta = meta
        self.cols = cols
        self.terms, self.offsets, self.docs, self.tfs, self.dls = postings
        self._ids_data, self._ids_off = ids
        self._hashes, self._hash_docs = id_hash
        self._mapped = mapped
        self.strings: dict[str, list[str]] = meta["strings"]
        self.logs: dict[str, dict] = meta.get("logs", {})
        self._stats: tuple[int, int] | None = None

    @classmethod
    def folder_of(cls, home) -> Path | None:
        base = home.state / "search"
        try:
            current = read_current(base)
        except OSError:
            return None
        return base / current if current else None

    @classmethod
    def open(cls, home, *, analyzer_signature: str | None = None, context: int | None = None):
        """The current generation, or None (no index, another version, another analyzer than
        `analyzer_signature` or another context setting than `context` when given, unreadable)."""
        for _ in range(3):
            folder = cls.folder_of(home)
            if folder is None:
                return None
            view = cls._open_folder(home, folder, analyzer_signature, context)
            if view is not None or cls.folder_of(home) == folder:
                return view
            # CURRENT moved while this generation was opened (a writer replaced and removed
            # it, index_store._prune): open the new one.
        return None

    @classmethod
    def _open_folder(cls, home, folder: Path, analyzer_signature: str | None, context: int | None):
        try:
            meta = json.loads((folder / "meta.json").read_text("utf-8"))
            if meta.get("version") != FORMAT_VERSION:
                return None
            if analyzer_signature is not None and meta.get("analyzer") != analyzer_signature:
                return None
            if context is not None and int(meta.get("context", 0)) != context:
                return None
            mapped = _Mapped()
            cols = {name: mapped.array(folder / f"col_{name}.npy") for name in COLUMNS}
            postings = tuple(mapped.array(folder / f"post_{name}.npy")
                             for name in ("terms", "offsets", "docs", "tfs", "dls"))
            ids = (mapped.raw(folder / "ids.bin"), mapped.array(folder / "ids_off.npy"))
            id_hash = (mapped.array(folder / "ids_hash.npy"), mapped.array(folder / "ids_hash_doc.npy"))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        n = len(cols["ts"])
        if len(ids[1]) != n + 1 or any(len(cols[name]) != n for name in COLUMNS) \
                or len(postings[1]) != len(postings[0]) + 1:
            return None
        return cls(home, folder, meta, cols, postings, ids, id_hash, mapped)

    # ---- documents

    def __len__(self) -> int:
        return len(self.cols["ts"])

    def totals(self) -> tuple[int, int]:
        """(live documents, the sum of their `doclen`): what BM25's N and avgdl are made of
        (an unsaved tail adds its own, `index_tail`)."""
        if self._stats is None:
            alive = self.cols["alive"]
            doclen = self.cols["doclen"]
            n_alive = bytes(alive.cast("B")).count(1)
            if n_alive == len(alive):
                total = sum(doclen)
            else:
                total = sum(length for length, ok in zip(doclen, alive) if ok)
            self._stats = (n_alive, total)
        return self._stats

    def stats(self) -> tuple[int, float]:
        """(live documents, their average length in terms): BM25's N and avgdl."""
        n_alive, total = self.totals()
        return n_alive, total / n_alive / TF_SCALE if n_alive else 0.0

    def event_id(self, doc: int) -> str:
        start, end = self._ids_off[doc], self._ids_off[doc + 1] - 1
        return bytes(self._ids_data[start:end]).decode("utf-8")

    def index_of(self, event_id: str) -> int | None:
        """The live document of an event id (None when the generation does not hold it)."""
        import bisect
        import zlib

        raw = event_id.encode("utf-8")
        h = zlib.crc32(raw)
        hashes = self._hashes
        lo = bisect.bisect_left(hashes, h)
        hi = bisect.bisect_right(hashes, h, lo)
        alive = self.cols["alive"]
        for slot in range(lo, hi):
            doc = self._hash_docs[slot]
            start, end = self._ids_off[doc], self._ids_off[doc + 1] - 1
            if bytes(self._ids_data[start:end]) == raw and alive[doc]:
                return doc
        return None

    def string(self, table: str, doc: int) -> str:
        """`projects`, `types` or `sessions` value of a document."""
        column = {"projects": "project", "types": "type", "sessions": "session"}[table]
        return self.strings[table][self.cols[column][doc]]

    def row(self, doc: int) -> dict:
        """The log row the document was read from (by its offset; {} when unreadable)."""
        label = LOG_LABELS[self.cols["source"][doc]]
        try:
            with open(self.home.log(label), "rb") as handle:
                handle.seek(self.cols["loc_off"][doc])
                raw = handle.read(self.cols["loc_len"][doc])
            value = json.loads(raw)
        except (OSError, ValueError):
            return {}
        return value if isinstance(value, dict) else {}

    # ---- postings

    def postings(self, term_hash: int) -> tuple[memoryview, memoryview, memoryview] | None:
        """(docs, tfs, dls) of a term (docs increasing), None when no document holds it."""
        import bisect  # here, not at the top: `carto search` imports this module for
        # TF_SCALE alone (carto_rankers.bm25), and bisect's import was a visible part of it

        terms = self.terms
        i = bisect.bisect_left(terms, term_hash)
        if i >= len(terms) or terms[i] != term_hash:
            return None
        start, end = self.offsets[i], self.offsets[i + 1]
        return self.docs[start:end], self.tfs[start:end], self.dls[start:end]

    # ---- freshness

    def freshness(self) -> tuple[str, int]:
        """("fresh" | "tail" | "stale", appended bytes): whether every searched log is as
        indexed, only grown (the tail, not seen by this view), or rewritten, truncated or
        replaced (the index must be rebuilt before anything it says can be trusted)."""
        from carto_core.logio.reader import boundary_hash

        appended = 0
        for label in LOG_LABELS:
            state = self.logs.get(label) or {"exists": False, "end": 0}
            path = self.home.log(label)
            try:
                st = os.stat(path)
            except OSError:
                st = None
            if st is None or not stat.S_ISREG(st.st_mode):  # absent, or no log (a folder, a FIFO)
                if state.get("exists") and state.get("end", 0) > 0:
                    return "stale", appended
                continue
            end = int(state.get("end", 0) or 0)
            if not state.get("exists") or end == 0:
                appended += st.st_size
                continue
            if (st.st_ino, st.st_dev) != (state.get("inode"), state.get("dev")) or st.st_size < end:
                return "stale", appended
            try:
                if boundary_hash(path, end) != state.get("hash"):
                    return "stale", appended
            except OSError:
                return "stale", appended
            appended += st.st_size - end
        return ("tail" if appended else "fresh"), appended

    def indexed_bytes(self) -> int:
        return sum(int((state or {}).get("end", 0) or 0) for state in self.logs.values())
