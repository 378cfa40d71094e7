"""The embedded vector store: exact cosine over memory-mapped float32 arrays.

Layout under `<home>/.carto/vectors/`::

    manifest.json             {"format": 1, "serial": N, "segments": [{name, model, dim, count}]}
    seg-000007-1a2b3c/        one immutable segment (all rows of one model)
        vectors.npy           float32 (count, dim), rows L2-normalised (dot = cosine)
        ids.npy               event ids, fixed-width UTF-8 bytes
        project.npy           int32 code into projects.json per row (rows sorted by it)
        projects.json         the distinct project values of the segment
        ts.npy                int64 epoch milliseconds, MISSING_TS when the row has no time
    .lock                     writers only (flock); readers never take it

Readers take no lock: they read the manifest, map the segments it names and score. Segments
never change once written; a writer builds new segment folders, renames them into place, then
swaps the manifest atomically (`os.replace`). A reader holding an older manifest keeps its
mapped arrays (POSIX keeps unlinked files alive); one that opens a segment a writer has just
removed re-reads the manifest and tries again.

Rows of a segment are sorted by project, so a project filter is one contiguous slice per
matching project (a view, nothing copied); the time window narrows each slice to the rows in
range, which are gathered. The exact top-k is cut from one mat-vec over what passed: filters are
applied before top-k, never after it.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
from collections.abc import Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import numpy as np

from carto_core.semantic.store import (
    DimensionMismatch,
    Hit,
    ModelInfo,
    StoreError,
    VectorRecord,
    VectorStore,
)

MANIFEST = "manifest.json"
FORMAT = 1
MISSING_TS = np.iinfo(np.int64).min
#: More segments than this for one model and a write merges them (the indexer also calls
#: `compact()` at the end of a run).
MAX_SEGMENTS = 32


def _millis(moment: datetime | None) -> int:
    if moment is None:
        return int(MISSING_TS)
    return int(moment.timestamp() * 1000)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _save(path: Path, array: np.ndarray) -> None:
    with open(path, "wb") as handle:
        np.save(handle, array, allow_pickle=False)
        handle.flush()
        os.fsync(handle.fileno())


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero: they score 0 against anything)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vectors / norms).astype(np.float32, copy=False)


class Segment:
    """One immutable segment, memory-mapped."""

    def __init__(self, folder: Path, entry: dict):
        self.folder = folder
        self.name = entry["name"]
        self.model = entry["model"]
        self.dim = int(entry["dim"])
        self.count = int(entry["count"])
        self.vectors = np.load(folder / "vectors.npy", mmap_mode="r")
        # np.asarray: a plain view of the map (memmap's subclass makes each item access slow)
        self.ids = np.asarray(np.load(folder / "ids.npy", mmap_mode="r"))
        self.project = np.load(folder / "project.npy", mmap_mode="r")
        self.ts = np.load(folder / "ts.npy", mmap_mode="r")
        self.projects: list[str] = json.loads((folder / "projects.json").read_text("utf-8"))

    def id_list(self) -> list[str]:
        return [bytes(x).decode("utf-8", "replace") for x in self.ids]

    def blocks(self, projects: Sequence[str] | None, since: int | None, before: int | None):
        """The rows passing the filters as (lo, hi, offsets) over contiguous slices: a sorted
        segment gives one slice per wanted project and the time window becomes offsets
        (relative to lo) within it; offsets None = the whole slice."""
        if projects is None:
            spans = [(0, self.count)]
        else:
            wanted = set(projects)
            codes = [code for code, value in enumerate(self.projects) if value in wanted]
            if not codes:
                return []
            # Rows are sorted by project code (written so): one slice per project.
            column = self.project
            spans = [(int(np.searchsorted(column, code, "left")),
                      int(np.searchsorted(column, code, "right"))) for code in codes]
        out = []
        for lo, hi in spans:
            if hi <= lo:
                continue
            if since is None and before is None:
                out.append((lo, hi, None))
            else:
                out.append((lo, hi, self._window(since, before, lo, hi)))
        return out

    def _window(self, since, before, lo: int, hi: int) -> np.ndarray:
        """Offsets (relative to `lo`) of the rows of [lo, hi) inside the time window."""
        ts = self.ts[lo:hi]
        keep = ts != MISSING_TS
        if since is not None:
            keep &= ts >= since
        if before is not None:
            keep &= ts < before
        return np.flatnonzero(keep)

    def columns(self) -> dict:
        """Every column as an in-memory array (for rewrites and merges)."""
        return {
            "vectors": np.asarray(self.vectors), "ids": np.asarray(self.ids),
            "projects": [self.projects[c] for c in np.asarray(self.project)],
            "ts": np.asarray(self.ts),
        }


class EmbeddedStore(VectorStore):
    kind = "embedded"

    def __init__(self, root: os.PathLike | str):
        self.root = Path(root)
        self._key: tuple | None = None
        self._segments: list[Segment] = []

    def describe(self) -> str:
        return f"embedded store at {self.root}"

    # ------------------------------------------------------------------ reading

    def _manifest_key(self):
        try:
            st = os.stat(self.root / MANIFEST)
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def _read_manifest(self) -> dict:
        try:
            data = json.loads((self.root / MANIFEST).read_text("utf-8"))
        except FileNotFoundError:
            return {"format": FORMAT, "serial": 0, "segments": []}
        except ValueError as exc:
            raise StoreError(f"{self.root / MANIFEST} is not valid JSON ({exc}); "
                             "delete the vectors folder and run `carto index`") from None
        if data.get("format") != FORMAT:
            raise StoreError(f"{self.root / MANIFEST} has format {data.get('format')!r}, "
                             f"this carto reads {FORMAT}")
        return data

    def _snapshot(self) -> list[Segment]:
        """The current segments, re-read only when the manifest changed."""
        for _attempt in range(5):
            key = self._manifest_key()
            if key == self._key and key is not None:
                return self._segments
            manifest = self._read_manifest()
            try:
                segments = [Segment(self.root / e["name"], e) for e in manifest["segments"]]
            except FileNotFoundError:
                continue  # a writer swapped the manifest under us: read it again
            self._key, self._segments = key, segments
            return segments
        raise StoreError(f"{self.root}: segments keep disappearing under the reader")

    def _model_segments(self, model: str) -> list[Segment]:
        return [s for s in self._snapshot() if s.model == model]

    def search(self, model, vector, *, limit=500, projects=None, since=None, before=None):
        segments = self._model_segments(model)
        if not segments or limit <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).ravel()
        dim = segments[0].dim
        if query.shape[0] != dim:
            raise DimensionMismatch(
                f"query vector has {query.shape[0]} dimensions, the stored vectors of model "
                f"{model!r} have {dim}")
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return []
        query = query / norm
        since_ms = _millis(since) if since is not None else None
        before_ms = _millis(before) if before is not None else None
        parts_scores, parts_rows, parts_seg = [], [], []
        for number, segment in enumerate(segments):
            for lo, hi, offsets in segment.blocks(projects, since_ms, before_ms):
                if offsets is None:
                    block = segment.vectors[lo:hi]  # a view: no copy
                else:
                    if offsets.size == 0:
                        continue
                    block = segment.vectors[lo + offsets]
                # einsum, not BLAS: a mat-vec this size is memory-bound, and BLAS threads
                # waking on a busy 2-core machine cost milliseconds (measured: 8 ms vs 0.03 ms
                # for 2k rows).
                scores = np.einsum("ij,j->i", block, query)
                k = min(limit, scores.shape[0])
                top = np.argpartition(-scores, k - 1)[:k] if k < scores.shape[0] else np.arange(k)
                parts_scores.append(scores[top])
                parts_rows.append(lo + (top if offsets is None else offsets[top]))
                parts_seg.append(np.full(k, number, dtype=np.int32))
        if not parts_scores:
            return []
        scores = np.concatenate(parts_scores)
        rows = np.concatenate(parts_rows)
        segs = np.concatenate(parts_seg)
        order = np.argsort(-scores, kind="stable")[:limit]
        rows, segs, scores = rows[order], segs[order], scores[order]
        ids = np.empty(len(order), dtype=object)
        for number in sorted(set(segs.tolist())):  # one gather per segment, not one per hit
            mine = segs == number
            ids[mine] = segments[number].ids[rows[mine]].tolist()
        return [Hit(raw.decode("utf-8", "replace"), score)
                for raw, score in zip(ids.tolist(), scores.tolist())]

    def ids(self, model):
        out: set[str] = set()
        for segment in self._model_segments(model):
            out.update(segment.id_list())
        return out

    def models(self):
        out: dict[str, ModelInfo] = {}
        for entry in self._read_manifest()["segments"]:
            info = out.setdefault(entry["model"], ModelInfo(entry["model"], 0, int(entry["dim"])))
            info.count += int(entry["count"])
        return out

    def projects(self, model):
        values: set[str] = set()
        for segment in self._model_segments(model):
            values.update(segment.projects)
        return sorted(v for v in values if v)

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _write_lock(self):
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "a+b") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _write_manifest(self, manifest: dict) -> None:
        tmp = self.root / f".{MANIFEST}.{os.getpid()}.{secrets.token_hex(3)}"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.root / MANIFEST)
        _fsync_dir(self.root)

    def _write_segment(self, manifest: dict, model: str, vectors: np.ndarray, ids: np.ndarray,
                       projects: list[str], ts: np.ndarray) -> dict:
        manifest["serial"] = int(manifest.get("serial", 0)) + 1
        name = f"seg-{manifest['serial']:06d}-{secrets.token_hex(3)}"
        tmp = self.root / f".{name}.tmp"
        tmp.mkdir(parents=True)
        distinct = sorted(set(projects))
        code = {value: number for number, value in enumerate(distinct)}
        codes = np.fromiter((code[p] for p in projects), dtype=np.int32, count=len(projects))
        # Rows sorted by project: a project filter reads one contiguous slice per project.
        order = np.argsort(codes, kind="stable")
        _save(tmp / "vectors.npy", np.ascontiguousarray(np.asarray(vectors, dtype=np.float32)[order]))
        _save(tmp / "ids.npy", np.asarray(ids)[order])
        _save(tmp / "project.npy", codes[order])
        _save(tmp / "ts.npy", np.asarray(ts, dtype=np.int64)[order])
        (tmp / "projects.json").write_text(json.dumps(distinct), "utf-8")
        _fsync_dir(tmp)
        os.rename(tmp, self.root / name)
        _fsync_dir(self.root)
        return {"name": name, "model": model, "dim": int(vectors.shape[1]), "count": int(len(ids))}

    def _remove(self, names: Sequence[str]) -> None:
        for name in names:
            shutil.rmtree(self.root / name, ignore_errors=True)

    def upsert(self, model, records):
        if not records:
            return 0
        latest: dict[str, VectorRecord] = {}
        for record in records:  # one vector per event id: the last one given wins
            latest.pop(record.event_id, None)
            latest[record.event_id] = record
        records = list(latest.values())
        try:
            vectors = np.asarray([np.asarray(r.vector, dtype=np.float32).ravel() for r in records],
                                 dtype=np.float32)
        except ValueError:
            raise DimensionMismatch(f"vectors of model {model!r} in one batch differ in size") from None
        if vectors.ndim != 2 or vectors.shape[1] == 0:
            raise DimensionMismatch(f"vectors of model {model!r} have no dimensions")
        ids = np.array([r.event_id.encode("utf-8") for r in records])
        with self._write_lock():
            manifest = self._read_manifest()
            mine = [e for e in manifest["segments"] if e["model"] == model]
            if mine and int(mine[0]["dim"]) != vectors.shape[1]:
                raise DimensionMismatch(
                    f"model {model!r} has {mine[0]['dim']}-dimensional vectors in {self.root}; "
                    f"this batch has {vectors.shape[1]}")
            removed: list[str] = []
            kept: list[dict] = []
            for entry in manifest["segments"]:
                if entry["model"] != model:
                    kept.append(entry)
                    continue
                segment = Segment(self.root / entry["name"], entry)
                stale = np.isin(np.asarray(segment.ids), ids)
                if not stale.any():
                    kept.append(entry)
                    continue
                # Copy-on-write: the segment without the rows this batch replaces.
                removed.append(entry["name"])
                if stale.all():
                    continue
                columns = segment.columns()
                keep = ~stale
                kept.append(self._write_segment(
                    manifest, model, columns["vectors"][keep], columns["ids"][keep],
                    [p for p, k in zip(columns["projects"], keep) if k], columns["ts"][keep]))
            kept.append(self._write_segment(
                manifest, model, normalise(vectors), ids, [r.project or "" for r in records],
                np.array([_millis(r.timestamp) for r in records], dtype=np.int64)))
            manifest["segments"] = kept
            self._write_manifest(manifest)
            self._remove(removed)
            if sum(1 for e in kept if e["model"] == model) > MAX_SEGMENTS:
                self._compact_locked()
        return len(records)

    def compact(self) -> None:
        with self._write_lock():
            self._compact_locked()

    def _compact_locked(self) -> None:
        manifest = self._read_manifest()
        by_model: dict[str, list[dict]] = {}
        for entry in manifest["segments"]:
            by_model.setdefault(entry["model"], []).append(entry)
        if all(len(entries) <= 1 for entries in by_model.values()):
            return
        kept: list[dict] = []
        removed: list[str] = []
        for model, entries in by_model.items():
            if len(entries) == 1:
                kept.extend(entries)
                continue
            columns = [Segment(self.root / e["name"], e).columns() for e in entries]
            kept.append(self._write_segment(
                manifest, model,
                np.concatenate([c["vectors"] for c in columns]),
                np.concatenate([c["ids"] for c in columns]),
                [p for c in columns for p in c["projects"]],
                np.concatenate([c["ts"] for c in columns])))
            removed.extend(e["name"] for e in entries)
        manifest["segments"] = kept
        self._write_manifest(manifest)
        self._remove(removed)

    def drop_model(self, model):
        with self._write_lock():
            manifest = self._read_manifest()
            gone = [e for e in manifest["segments"] if e["model"] == model]
            if not gone:
                return 0
            manifest["segments"] = [e for e in manifest["segments"] if e["model"] != model]
            self._write_manifest(manifest)
            self._remove([e["name"] for e in gone])
        return sum(int(e["count"]) for e in gone)
