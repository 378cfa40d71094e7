"""The keyword index's generation store under `<home>/.carto/search/`::

    CURRENT                 name of the live generation folder (swapped atomically)
    gen-<id>/meta.json      version, per-log read state (inode, end offset, line count,
                            boundary hash), string tables, counts of bad lines
    gen-<id>/ids.bin        event ids, one per line, in document order (+ ids_off.npy offsets,
                            ids_hash*.npy: crc32 of each id, sorted, for lookups)
    gen-<id>/vocab.txt      the terms, sorted, one per line (`prefix*` queries)
    gen-<id>/*.npy          columns (time, project/type/session codes, own log, logs-seen
                            bitmask, salience, row location, length) and the postings (CSR:
                            sorted term hashes, offsets, doc indices, term frequencies, lengths)

`save` writes a new generation and swaps CURRENT, `load` maps the current one (columns are
memory-mapped, so opening costs a few milliseconds instead of parsing every JSONL line), `_prune`
removes the generation just superseded (and older ones): a reader holding it keeps its mapped
files, so the index takes its own size on disk at rest, not twice that. The index is a cache:
deleting the folder loses nothing.

`GenerationStore` is a part of `KeywordIndex` (carto_core.search.index), which carries the fields.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from carto_core.logio.home import Home
from carto_core.util.npymap import map_npy, save_npy
from carto_core.search.index_build import COLUMNS
from carto_core.search.index_view import read_current
from carto_core.search.postings import Segment

#: Times `load` tries when the generation it opens is replaced and removed meanwhile.
_OPEN_TRIES = 3
VERSION = 8  # 3: analyzer signature, vocab.txt (prefixes); 4: session context, tf in 1/4 units;
#             5: a digest per document (rewritten logs are patched, not rebuilt); 6: intent column;
#             7: `commit_hash` indexed (tokens.DOC_FIELDS); 8: a turn of work's bit in the
#             intent column (rowfields.WORKED)


class GenerationStore:
    """Persisting and loading a `KeywordIndex` as generation folders."""

    @staticmethod
    def folder(home: Home) -> Path:
        return home.state / "search"

    @classmethod
    def load(cls, home: Home, *, analyzer=None):
        """The current generation as a `cls` (the KeywordIndex), None when there is none or it
        is of another version, made by another analyzer than `analyzer` (default: the
        configured one), or unreadable."""
        from carto_core.search.index_build import default_analyzer

        analyzer = analyzer or default_analyzer()
        base = cls.folder(home)
        for _ in range(_OPEN_TRIES):
            try:
                current = read_current(base)
            except OSError:
                return None
            index = cls._load_generation(home, base, current, analyzer)
            if index is not None:
                return index
            try:
                moved = read_current(base) != current
            except OSError:
                return None
            if not moved:
                return None
            # A writer published a newer generation while this one was being opened and
            # removed the one it superseded: open the new one.
        return None

    @classmethod
    def _load_generation(cls, home: Home, base: Path, current: str, analyzer):
        """The generation folder `current` as a `cls`, None when unusable or gone."""
        from carto_core.search.postings import map_words

        try:
            folder = base / current
            meta = json.loads((folder / "meta.json").read_text("utf-8"))
            if meta.get("version") != VERSION or meta.get("analyzer") != analyzer.signature:
                return None
            # map_npy: the arrays np.load(..., mmap_mode="r") maps, as plain read-only
            # ndarrays (memmap's subclass dispatch is slow on the small fancy-indexing
            # operations a query does), without np.load's header parsing of each file.
            id_offsets = map_npy(folder / "ids_off.npy")
            id_data = np.memmap(folder / "ids.bin", np.uint8, "r") if id_offsets[-1] else b""
            cols = {name: map_npy(folder / f"col_{name}.npy") for name in COLUMNS}
            # Columns that refresh may modify in place are loaded into memory (small).
            cols["seen"] = np.array(cols["seen"])
            cols["alive"] = np.array(cols["alive"])
            seg = Segment(*(map_npy(folder / f"post_{n}.npy")
                            for n in ("terms", "offsets", "docs", "tfs", "dls")))
            # Mapped now, not read on first use: a newer generation removes this folder.
            seg.words = map_words(folder / "vocab.txt")
            id_hash = (map_npy(folder / "ids_hash.npy"), map_npy(folder / "ids_hash_doc.npy"))
        except (OSError, ValueError, KeyError):
            return None
        if len(id_offsets) != len(cols["ts"]) + 1:
            return None
        index = cls(home, None, cols, meta["strings"], [seg], meta["logs"], current,
                    meta.get("problems", {}), analyzer=analyzer, context=int(meta.get("context", 0)))
        index._ids_blob = (id_data, id_offsets)
        index._id_hash = id_hash
        index._main_docs = len(index)
        index._stats()
        return index

    def save(self) -> str:
        """Write a new generation folder (one segment: the main one, its tail, retired
        documents dropped) and swap CURRENT; the index then reads that generation. Streamed
        (`index_write`): the postings merge range by range of the term-hash space and the ids
        go out block by block, so saving a large index with a small tail costs a bounded
        amount of memory, not a copy of the index."""
        from carto_core.search.index_build import TF_SCALE
        from carto_core.search.index_write import IdWriter, merge_runs, new_generation, publish

        base = self.folder(self.home)
        name, folder = new_generation(base)
        alive = np.asarray(self.cols["alive"])
        everything = bool(alive.all())
        strings, remaps = self.strings, {}
        if not everything:
            strings, remaps = _live_strings(self.strings, self.cols, alive)
        for column in COLUMNS:
            values = np.asarray(self.cols[column])
            if not everything:
                values = values[alive]
                if column in remaps:
                    values = remaps[column][values]
            save_npy(folder / f"col_{column}.npy", np.ascontiguousarray(values))
        merge_runs(folder, self.segments, np.asarray(self.cols["doclen"]), TF_SCALE,
                   None if everything else alive)
        ids = IdWriter(folder)
        block = 1 << 16
        for start in range(0, len(self), block):
            stop = min(len(self), start + block)
            keep = range(start, stop) if everything else np.flatnonzero(alive[start:stop]) + start
            ids.write(self.event_id(int(doc)) for doc in keep)
        ids.close()
        meta = {"version": VERSION, "analyzer": self.analyzer.signature, "context": self.context,
                "documents": int(alive.sum()), "logs": self.logs,
                "strings": strings, "problems": self.problems,
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        self._prune(base, keep=name, superseded=publish(base, name, folder, meta))
        saved = type(self).load(self.home, analyzer=self.analyzer)
        if saved is None:  # pragma: no cover - what was just written does not read back
            raise OSError(f"{base / name}: the generation just written cannot be read")
        self.__dict__.update(saved.__dict__)
        return name

    @staticmethod
    def _prune(base: Path, keep: str, superseded: str = "") -> None:
        """Remove the generation CURRENT named before `keep` replaced it (`superseded`) and
        any other old one. A reader that has one open keeps it: every file of a generation is
        mapped when it is opened, and POSIX keeps an unlinked file's mapped pages; a reader
        opening it at that very moment finds CURRENT moved and opens the new one (`load`).
        Young folders stay: another process may have just moved one into place and be about
        to point CURRENT at it. A temporary folder (.tmp) goes as soon as its build is gone
        (its writer lock is free: `index_write.build_is_dead`) and stays while its writer
        holds it, whatever its age; one without a lock (an older carto's) after 10 minutes."""
        import shutil

        from carto_core.search.index_write import build_is_dead

        try:
            current = read_current(base)
        except OSError:
            current = keep
        for entry in base.iterdir():
            name = entry.name
            if not entry.is_dir() or not name.startswith("gen-") or name in (keep, current):
                continue
            if name.endswith(".tmp"):
                dead = build_is_dead(entry)
                if dead is False:
                    continue
                if dead is True:
                    shutil.rmtree(entry, ignore_errors=True)
                    continue
            if name != superseded:
                try:
                    age = time.time() - entry.stat().st_mtime
                except FileNotFoundError:
                    continue
                if age < (600 if name.endswith(".tmp") else 60):
                    continue
            shutil.rmtree(entry, ignore_errors=True)


#: The string tables of the document columns: column -> table in `strings`.
STRING_COLUMNS = {"project": "projects", "type": "types", "session": "sessions"}


def _live_strings(strings: dict, cols: dict, alive: np.ndarray) -> tuple[dict, dict]:
    """The string tables without the values no live document holds, and per column the map
    from old codes to new ones. A saved generation never keeps a retired document's project,
    type or session (a forgotten project's name must not outlive its rows); code 0 stays ""."""
    out, remaps = dict(strings), {}
    for column, table in STRING_COLUMNS.items():
        values = strings.get(table)
        if not values:
            continue
        used = np.unique(np.concatenate([[0], np.asarray(cols[column])[alive]])).astype(np.int64)
        if len(used) == len(values):
            continue
        remap = np.zeros(len(values), np.int32)
        remap[used] = np.arange(len(used), dtype=np.int32)
        out[table] = [values[int(code)] for code in used]
        remaps[column] = remap
    return out, remaps
