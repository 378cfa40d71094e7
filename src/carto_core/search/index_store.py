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
removes old generations no reader may still be pointing at. The index is a cache: deleting the
folder loses nothing.

`GenerationStore` is a part of `KeywordIndex` (carto_core.search.index), which carries the fields.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from carto_core.home import Home
from carto_core.search.index_build import COLUMNS
from carto_core.search.postings import Segment

VERSION = 6  # 3: analyzer signature, vocab.txt (prefixes); 4: session context, tf in 1/4 units;
#             5: a digest per document (rewritten logs are patched, not rebuilt); 6: intent column


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
        try:
            current = (base / "CURRENT").read_text("utf-8").strip()
            folder = base / current
            meta = json.loads((folder / "meta.json").read_text("utf-8"))
            if meta.get("version") != VERSION or meta.get("analyzer") != analyzer.signature:
                return None
            id_offsets = np.load(folder / "ids_off.npy", mmap_mode="r")
            id_data = np.memmap(folder / "ids.bin", np.uint8, "r") if id_offsets[-1] else b""
            # np.asarray: plain ndarray views of the maps (memmap's subclass dispatch is slow
            # on the small fancy-indexing operations a query does).
            cols = {name: np.asarray(np.load(folder / f"col_{name}.npy", mmap_mode="r"))
                    for name in COLUMNS}
            # Columns that refresh may modify in place are loaded into memory (small).
            cols["seen"] = np.array(cols["seen"])
            cols["alive"] = np.array(cols["alive"])
            seg = Segment(*(np.asarray(np.load(folder / f"post_{n}.npy", mmap_mode="r"))
                            for n in ("terms", "offsets", "docs", "tfs", "dls")))
        except (OSError, ValueError, KeyError):
            return None
        if len(id_offsets) != len(cols["ts"]) + 1:
            return None
        seg.words = folder / "vocab.txt"
        index = cls(home, None, cols, meta["strings"], [seg], meta["logs"], current,
                    meta.get("problems", {}), analyzer=analyzer, context=int(meta.get("context", 0)))
        index._ids_blob = (id_data, id_offsets)
        index._id_hash = (np.load(folder / "ids_hash.npy", mmap_mode="r"),
                          np.load(folder / "ids_hash_doc.npy", mmap_mode="r"))
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
        for column in COLUMNS:
            values = np.asarray(self.cols[column])
            np.save(folder / f"col_{column}.npy",
                    np.ascontiguousarray(values if everything else values[alive]))
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
                "strings": self.strings, "problems": self.problems,
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        publish(base, name, folder, meta)
        previous = self.generation.split("+")[0]
        self._prune(base, keep={name, previous})
        saved = type(self).load(self.home, analyzer=self.analyzer)
        if saved is None:  # pragma: no cover - what was just written does not read back
            raise OSError(f"{base / name}: the generation just written cannot be read")
        self.__dict__.update(saved.__dict__)
        return name

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
