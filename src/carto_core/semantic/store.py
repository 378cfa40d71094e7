"""The vector-store interface every store implements, its records and its errors.

One contract (tests/semantic/test_store_contract.py runs it against every store):

- `upsert(model, records)` stores vectors under a model tag; a record whose event_id is
  already stored for that model replaces it (one vector per (model, event_id)).
- `search(model, vector, limit=, projects=, since=, before=)` returns hits best first by
  cosine similarity (within 8e-3 of the exact cosine: a store may keep quantized vectors; the
  embedded one keeps int8 rows, within 3e-3 on 256-dimension rows), scoring only vectors of
  `model`, with the project filter (exact values)
  and the time window applied *before* the top `limit` is cut. Rows without a timestamp are
  dropped whenever a window is active.
- a vector whose dimension differs from what the store holds for the model raises
  :class:`DimensionMismatch`; a store that cannot be reached raises :class:`StoreUnavailable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from carto_core.util.records import NEW, FrozenRecord, Record

if TYPE_CHECKING:
    import numpy as np

    from carto_core.logio.home import Home


class StoreError(Exception):
    """A vector store failure. `stage` is the `index-errors.jsonl` stage name; `backs_off`:
    whether the indexer waits before it tries the store again (False for a fault of the home's
    own files, which waits for a person, not for time: `carto index` after the fix runs)."""

    stage = "store_failed"
    fix = ""
    backs_off = True


class StoreUnavailable(StoreError):
    """The store cannot be reached or opened (Qdrant refusing, a locked local folder)."""

    stage = "qdrant_unavailable"

    def __init__(self, message: str, fix: str = ""):
        super().__init__(message)
        self.fix = fix


class DimensionMismatch(StoreError):
    """A vector whose size differs from the stored vectors of its model (or collection)."""

    stage = "dimension_mismatch"

    def __init__(self, message: str, fix: str = "carto index --step semantic --rebuild"):
        super().__init__(message)
        self.fix = fix


class VectorRecord(Record):
    """One vector to store: the event it embeds, its filter columns and display payload.

    This module's records are plain records (carto_core.util.records: no dataclass to generate on
    every cold search)."""

    _fields = ("event_id", "vector", "project", "timestamp", "payload", "digest")
    _factories = {"payload": dict}
    event_id: str
    vector: "np.ndarray | Sequence[float]"
    project: str
    timestamp: datetime | None
    #: Extra payload (upstream's Qdrant payload fields: source, summary, session, ...).
    payload: dict
    #: `text.text_digest` of the text the vector embeds (0: not known).
    digest: int

    def __init__(self, event_id: str, vector: "np.ndarray | Sequence[float]", project: str = "",
                 timestamp: datetime | None = None, payload: dict = NEW, digest: int = 0):
        self.event_id = event_id
        self.vector = vector
        self.project = project
        self.timestamp = timestamp
        self.payload = {} if payload is NEW else payload
        self.digest = digest


class Hit(FrozenRecord):
    _fields = ("event_id", "score")
    event_id: str
    score: float

    def __init__(self, event_id: str, score: float):
        setattr_ = object.__setattr__
        setattr_(self, "event_id", event_id)
        setattr_(self, "score", score)


class ModelInfo(Record):
    _fields = ("model", "count", "dim")
    model: str
    count: int
    dim: int

    def __init__(self, model: str, count: int, dim: int):
        self.model = model
        self.count = count
        self.dim = dim


class VectorStore:
    """Subclasses set `kind` and implement every method below."""

    kind: ClassVar[str] = ""
    #: False for a store that keeps no payload (the indexer then builds none).
    stores_payload: ClassVar[bool] = True

    def describe(self) -> str:
        """Where the vectors are, for status lines."""
        return self.kind

    def upsert(self, model: str, records: Sequence[VectorRecord]) -> int:
        raise NotImplementedError

    def search(self, model: str, vector, *, limit: int = 500, projects: Sequence[str] | None = None,
               since: datetime | None = None, before: datetime | None = None,
               ids: Sequence[str] | None = None) -> list[Hit]:
        """The `limit` nearest vectors of `model` within the filters, best first. `ids`, when
        given, restricts the search to those event ids before the cut (a filter the store has
        no column for, such as a prompt intent: the keyword index resolves it to ids). A store
        whose `search` takes no `ids` is asked for more and filtered after (less exact)."""
        raise NotImplementedError

    def nearest(self, model: str, vectors, *, newest: int | None = None,
                above: float | None = None) -> list[Hit | None]:
        """For each of `vectors`, its nearest stored vector of `model` (None when the store has
        none): the novelty gate's question for a whole batch. `newest`: a store that scans its
        rows may look only at about that many of the rows written last (the gate's bounded
        window); a store with an index of its own (this default: one search per vector) looks
        at all of them. `above`: only a nearest vector scoring above it is reported (None
        otherwise), so a store may skip the rows that cannot (the embedded store's exact
        pre-filter). Stores that can answer it in one pass override this."""
        out: list[Hit | None] = []
        for vector in vectors:
            hits = self.search(model, vector, limit=1)
            hit = hits[0] if hits else None
            out.append(hit if hit is None or above is None or hit.score > above else None)
        return out

    def upsert_arrays(self, model: str, event_ids: Sequence[str], vectors, projects: Sequence[str],
                      timestamps: Sequence[datetime | None], payloads: Sequence[dict] | None = None,
                      digests: Sequence[int] | None = None) -> int:
        """`upsert` from columns (distinct ids); stores override it to skip the records."""
        payloads = payloads if payloads is not None else [{}] * len(event_ids)
        digests = digests if digests is not None else [0] * len(event_ids)
        return self.upsert(model, [VectorRecord(e, v, project=p, timestamp=t, payload=d, digest=g)
                                   for e, v, p, t, d, g in zip(event_ids, vectors, projects,
                                                               timestamps, payloads, digests)])

    def has(self, model: str, event_ids: Sequence[str], digests: Sequence[int] | None = None) -> "np.ndarray":
        """Which of `event_ids` hold a vector of `model` (a bool array); with `digests`, only
        those whose vector embeds that text (a digest of 0, asked or stored, matches). Stores
        override it with a lookup that does not list every id."""
        import numpy as np

        present = self.ids(model)
        return np.fromiter((e in present for e in event_ids), np.bool_, len(event_ids))

    def id_batches(self, model: str):
        """Every stored id of `model`, in lists (a store's segments or pages)."""
        yield sorted(self.ids(model))

    def delete(self, model: str, event_ids: Sequence[str]) -> int:
        """Delete the vectors of these ids under `model`; returns how many went."""
        raise NotImplementedError

    def ids(self, model: str) -> set[str]:
        """Event ids stored for `model`."""
        raise NotImplementedError

    def models(self) -> dict[str, ModelInfo]:
        """Every model tag present, with its vector count and dimension."""
        raise NotImplementedError

    def centroid(self, model: str) -> "np.ndarray | None":
        """The mean of `model`'s stored vectors (float32, not normalised), or None when the
        store cannot say cheaply: the semantic ladder then scores the query as it is (see
        `SemanticSearcher.search`'s `centre`)."""
        return None

    def count(self, model: str) -> int:
        """How many vectors `model` has (cheap: status calls it on every search)."""
        info = self.models().get(model)
        return info.count if info else 0

    def projects(self, model: str) -> list[str]:
        """The exact project values present among `model`'s vectors."""
        raise NotImplementedError

    def drop_model(self, model: str) -> int:
        """Delete every vector of `model`; returns how many went."""
        raise NotImplementedError

    def clear(self) -> None:
        """Delete every vector of every model (a re-embed starts from nothing)."""
        for model in list(self.models()):
            self.drop_model(model)

    def compact(self) -> None:
        """Merge what incremental writes left scattered (no-op where nothing to do)."""

    def close(self) -> None:
        pass


def resolve_projects(scope, values: Sequence[str]) -> list[str]:
    """The exact project values among `values` that a `ProjectScope` (substring, families)
    matches: stores filter by exact value (upstream: a `should` of matches)."""
    return sorted(v for v in set(values) if v and scope.matches(v))


def vectors_dir(home: "Home"):
    return home.state / "vectors"
