"""`SemanticSearcher`: the semantic ladder's status and its scoped query, for rankers.

Status is one of three states, and says why when it is not available:

- ``disabled``: switched off (`CARTO_SEMANTIC=0`, `[semantic] enabled = false`, or the caller
  asked for keyword only);
- ``unavailable``: an embedder not installed, not fitted, down or slow; a store that refuses or
  is locked; no vectors of the current model (with the count of vectors of other models and the
  command that re-embeds them); a dimension mismatch;
- ``available``: vectors of the current model exist and the pieces answered.

A search never waits on this ladder beyond the embedder's timeout, and its failures never take
the keyword ladders down: the caller reports the reason and fuses what it has.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from carto_core.util.records import Record
from carto_core.semantic.embedder import Embedder, EmbedderError, EmbedderUnavailable, create_embedder, unknown_embedder_fix
from carto_core.semantic.settings import SemanticSettings
from carto_core.semantic.store import DimensionMismatch, Hit, StoreError, VectorStore
from carto_core.semantic.stores import open_store

if TYPE_CHECKING:
    from carto_core.logio.home import Home


class SemanticStatus(Record):
    """Whether the semantic ladder can answer, and why not. A plain record
    (carto_core.util.records: no dataclass to generate on every cold search)."""

    _fields = ("state", "reason", "fix", "embedder", "model", "store", "vectors", "other_models",
               "note")
    state: str  # "available", "unavailable", "disabled"
    reason: str
    fix: str
    embedder: str
    model: str
    store: str
    vectors: int
    other_models: dict | None
    #: The configured embedder is not installed and another answers: which and why ("").
    note: str

    def __init__(self, state: str, reason: str = "", fix: str = "", embedder: str = "",
                 model: str = "", store: str = "", vectors: int = 0,
                 other_models: dict | None = None, note: str = ""):
        self.state = state
        self.reason = reason
        self.fix = fix
        self.embedder = embedder
        self.model = model
        self.store = store
        self.vectors = vectors
        self.other_models = other_models
        self.note = note

    @property
    def available(self) -> bool:
        return self.state == "available"

    def label(self) -> str:
        """One line for messages: `available`, `disabled`, or `unavailable: <reason> (fix:
        <command>)` (search JSON carries the state and the parts apart)."""
        if self.state == "available" or not self.reason:
            return self.state
        return f"{self.state}: {self.reason}" + (f" (fix: {self.fix})" if self.fix else "")

    def explain(self) -> str:
        """The reason with its fix, without the state (callers prefix their own): `disabled
        (...)` for a switched-off ladder, else `<reason> (fix: <command>)`."""
        if self.state == "disabled":
            return f"disabled ({self.reason})" if self.reason else "disabled"
        return self.reason + (f" (fix: {self.fix})" if self.fix else "")


class SemanticFailure(Exception):
    """A semantic query that could not run; `status` says why."""

    def __init__(self, status: SemanticStatus):
        super().__init__(status.label())
        self.status = status


class SemanticSearcher:
    """Embedder + store for one home. Keep one per process (a server keeps it warm)."""

    def __init__(self, home: "Home", settings: SemanticSettings | None = None, registries=None):
        self.home = home
        self.settings = settings or SemanticSettings.load()
        self._registries = registries
        self._embedder: Embedder | None = None
        self._store: VectorStore | None = None
        self._status: SemanticStatus | None = None
        #: Whether the last search's query was centred (the store had a centroid), and the
        #: (shift, norm) that turn a cosine into that query's centred scale (`floor_for`).
        self.centred = False
        self._scale = (0.0, 1.0)

    def _unavailable(self, reason: str, fix: str = "", **extra) -> SemanticStatus:
        embedder = self._embedder
        return SemanticStatus("unavailable", reason, fix,
                              embedder=getattr(embedder, "name", "") or self.settings.embedder,
                              note=getattr(embedder, "note", ""), **extra)

    def status(self, *, refresh: bool = False) -> SemanticStatus:
        if self._status is not None and not refresh:
            return self._status
        self._status = self._compute_status()
        return self._status

    @property
    def embedder(self) -> Embedder | None:
        """The embedder in use, once the status has been computed."""
        return self._embedder

    def _compute_status(self) -> SemanticStatus:
        settings = self.settings
        if not settings.enabled:
            return SemanticStatus("disabled", "switched off by CARTO_SEMANTIC=0 or [semantic] "
                                  "enabled = false", embedder=settings.embedder)
        try:
            embedder = self._embedder or create_embedder(settings.embedder, self.home, settings,
                                                         self._registries)
        except LookupError as exc:
            return self._unavailable(str(exc), unknown_embedder_fix(self._registries))
        self._embedder = embedder
        try:
            embedder.check()
            model = embedder.model_tag
        except EmbedderUnavailable as exc:
            return self._unavailable(str(exc), exc.fix)
        try:
            store = self._store or open_store(self.home, settings)
            self._store = store
            count = store.count(model)
            # Only a store without vectors of this model is asked about the others (listing
            # every model may scan a local Qdrant collection).
            models = store.models() if count == 0 else {}
        except StoreError as exc:
            return self._unavailable(str(exc), getattr(exc, "fix", ""), model=model)
        others = {tag: info.count for tag, info in models.items() if tag != model}
        if count == 0:
            if others:
                total = sum(others.values())
                names = ", ".join(sorted(others))
                return self._unavailable(
                    f"the embedder's model is {model} but the {store.kind} store holds {total} "
                    f"vectors of another model ({names}), never scored against it",
                    "carto index", model=model, store=store.describe(), other_models=others)
            from carto_core.semantic.pending import read_state

            state = read_state(self.home)
            if (state.get("model") == model and int(state.get("events") or 0) > 0
                    and int(state.get("no_text") or 0) >= int(state["events"])
                    and not _grown_since(self.home, state)):
                # `carto index` ran and found nothing of a kind this embedder embeds (a home of
                # tool rows alone): naming it as the fix would send a person round in a circle
                name = getattr(embedder, "name", "") or settings.embedder
                return self._unavailable(
                    f"nothing in this home is of a kind {name} embeds: the last `carto index` "
                    f"left all {state['events']} events to the keyword index (tool rows, or rows "
                    "with no text)", "", model=model, store=store.describe())
            return self._unavailable(f"no vectors of model {model} yet", "carto index",
                                     model=model, store=store.describe())
        return SemanticStatus("available", embedder=getattr(embedder, "name", "") or settings.embedder,
                              model=model, store=store.describe(), vectors=count,
                              note=getattr(embedder, "note", ""))

    def search(self, query: str, *, limit: int = 500, projects=None,
               since: datetime | None = None, before: datetime | None = None,
               ids=None, centre: float = 0.0, blend: str | None = None,
               blend_weight: float = 1.0) -> list[Hit]:
        """Hits best first; raises SemanticFailure (with the reason) when the ladder cannot
        answer. `projects` are exact project values (None: no project filter); `ids` the only
        event ids wanted (None: any).

        `centre` > 0: the query is centred (`centred` says whether it was), its unit vector
        minus `centre` times the mean of the model's stored vectors (`VectorStore.centroid`),
        so a row scores q.d - centre * m.d (over the centred query's norm): what it shares
        with this query beyond what every row shares with the home's average. Static word vectors all lean one way, and without it
        the rows nearest that common direction (generic replies, code rows of rare words) top
        every question (docs/ranking.md, "Centred queries"). A store without a centroid
        scores the query as it is.

        `blend`: a second text whose unit vector, times `blend_weight`, is added to the
        query's before the search (the query without a name every row holds:
        `Embedder.name_share`)."""
        status = self.status()
        if not status.available:
            raise SemanticFailure(status)
        assert self._embedder is not None and self._store is not None
        try:
            vector = self._embedder.embed_query(query)
            if blend:
                vector = _blended(vector, self._embedder.embed_query(blend), blend_weight)
            self.centred = False
            if centre:
                vector = self._centred(status.model, vector, centre)
            if ids is None:
                return self._store.search(status.model, vector, limit=limit, projects=projects,
                                          since=since, before=before)
            import inspect

            if "ids" in inspect.signature(self._store.search).parameters:
                return self._store.search(status.model, vector, limit=limit, projects=projects,
                                          since=since, before=before, ids=ids)
            wanted = set(ids)  # a store without the id filter: ask for more, keep the wanted
            hits = self._store.search(status.model, vector, limit=limit * 4 + len(wanted),
                                      projects=projects, since=since, before=before)
            return [h for h in hits if h.event_id in wanted][:limit]
        except EmbedderUnavailable as exc:
            failed = self._unavailable(str(exc), exc.fix, model=status.model, store=status.store)
        except EmbedderError as exc:
            failed = self._unavailable(f"the embedder failed: {exc}", "", model=status.model)
        except DimensionMismatch as exc:
            failed = self._unavailable(f"dimension mismatch: {exc}", exc.fix, model=status.model,
                                       store=status.store)
        except StoreError as exc:
            failed = self._unavailable(str(exc), getattr(exc, "fix", ""), model=status.model,
                                       store=status.store)
        self._status = failed
        raise SemanticFailure(failed)

    def query_vector(self, text: str, *, analyzer=None, model: str | None = None):
        """(vector, floor): `text` as the semantic ladder sends it to a store (without its
        question words for an embedder that reads words, not sentences; centred on this home's
        mean vector when the embedder asks for it and the store has one) and the ladder's
        cosine floor on that vector's scale. For a store that is not this home's (the team
        server's): it needs the embedder, not vectors here. `model`: raise SemanticFailure
        unless the embedder makes that model."""
        settings = self.settings
        if not settings.enabled:
            raise SemanticFailure(SemanticStatus("disabled", "switched off by CARTO_SEMANTIC=0 or "
                                                 "[semantic] enabled = false", embedder=settings.embedder))
        try:
            embedder = self._embedder or create_embedder(settings.embedder, self.home, settings,
                                                         self._registries)
            self._embedder = embedder
            embedder.check()
            tag = embedder.model_tag
        except LookupError as exc:
            raise SemanticFailure(self._unavailable(str(exc), unknown_embedder_fix(self._registries))) from None
        except EmbedderUnavailable as exc:
            raise SemanticFailure(self._unavailable(str(exc), exc.fix)) from None
        if model is not None and tag != model:
            raise SemanticFailure(self._unavailable(
                f"this machine's embedder makes {tag}, not {model}", model=tag))
        if analyzer is not None and getattr(embedder, "content_query", False):
            text = analyzer.content_query(text)
        try:
            vector = embedder.embed_query(text)
        except EmbedderError as exc:
            raise SemanticFailure(self._unavailable(f"the embedder failed: {exc}", model=tag)) from None
        self.centred = False
        centre = settings.centre if settings.centre is not None else getattr(embedder, "centre", 0.0)
        if centre:
            try:
                self._store = self._store or open_store(self.home, settings)
                vector = self._centred(tag, vector, centre)
            except StoreError:
                pass  # no mean to take off: the query as embedded
        floor = settings.min_score if settings.min_score is not None else getattr(embedder, "min_score", 0.3)
        return vector, self.floor_for(floor)

    def _centred(self, model: str, vector, centre: float):
        import numpy as np

        mean = self._store.centroid(model)
        vector = np.asarray(vector, np.float32).ravel()
        norm = float(np.linalg.norm(vector))
        if mean is None or norm == 0.0 or mean.shape != vector.shape:
            return vector  # the store cannot say, or the dimension check is the store's
        mean = np.asarray(mean, np.float32)
        centred = vector / norm - np.float32(centre) * mean
        self.centred = True
        self._scale = (centre * float(mean @ mean), float(np.linalg.norm(centred)) or 1.0)
        return centred

    def evidence_floors(self) -> tuple[float | None, float | None]:
        """(evidence floor, band) of the relevance floor on the last query's scale: the
        settings' `evidence_floor` or the embedder's, and the embedder's `evidence_band`
        ((None, None): never measured for this model, every hit is evidence; a floor and no
        band: the floor alone decides)."""
        evidence = self.settings.evidence_floor
        if evidence is None:
            evidence = getattr(self.embedder, "evidence_floor", None)
        if evidence is None:
            return None, None
        band = getattr(self.embedder, "evidence_band", None)
        return (self.floor_for(float(evidence)),
                None if band is None else self.floor_for(float(band)))

    def floor_for(self, cosine: float) -> float:
        """A cosine floor on the last search's scale: as it is for a query as embedded; for a
        centred one, the centred score of a row with that cosine and the home's average
        closeness to the mean (m.d averages |m|^2 over the rows), (cosine - centre |m|^2) /
        |q - centre m|. A model's floor keeps meaning what it meant: a query about nothing
        in the home still finds few rows, not the whole depth."""
        if not self.centred:
            return cosine
        shift, norm = self._scale
        return (cosine - shift) / norm

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


def _blended(vector, other, weight: float):
    """The unit sum of two query vectors' unit vectors, the second times `weight`."""
    import numpy as np

    first = np.asarray(vector, np.float32).ravel()
    second = np.asarray(other, np.float32).ravel()
    total = first / (np.linalg.norm(first) or 1.0) + np.float32(weight) * second / (
        np.linalg.norm(second) or 1.0)
    return total / (np.linalg.norm(total) or 1.0)


def _grown_since(home, state: dict) -> bool:
    """Whether a log is no longer as the indexer's last complete run left it (grown, or
    rewritten: rows it has not read, which `carto index` may embed), by the state it recorded
    (`logio.logstate.log_status`, as the indexer's own plan reads it)."""
    from carto_core.logio.logstate import log_status

    return any(log_status(home.log(label), seen) != "fresh"
               for label, seen in (state.get("logs") or {}).items())
