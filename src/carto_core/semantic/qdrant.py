"""The Qdrant vector store: a server (`CARTO_QDRANT_URL`, `CARTO_QDRANT_API_KEY`) or
qdrant-client's local mode in a folder (`CARTO_QDRANT_PATH`).

Imported only when Qdrant is configured: `qdrant_client` costs ~0.8 s to import, and local mode
locks its folder against every other process (a second `carto search` would fail to open it),
so the embedded store is the default and local mode suits tests and one-process use only.
Local mode also evaluates filters in Python point by point (seconds at 200k points): use a
server at scale.

Upstream compatibility (reference/cartographer.md section 7): one collection (default
`carto`, `CARTO_QDRANT_COLLECTION`), cosine distance, a `keyword` payload index on `project`
and a `datetime` index on `timestamp`, point id = int of the first 13 hex digits of
sha256(event_id), project scope sent as a `should` of exact matches. carto adds a `model`
payload field (keyword index) so that vectors of another model are never scored; the point id
derives from the event id alone, so an event holds one vector, of the last model that embedded it.

Fit for a server:

- an upsert is sent in batches cut by the bytes of their JSON (`MAX_REQUEST_BYTES`, 8 MiB, a
  quarter of Qdrant's default `max_request_size_mb` of 32; `CARTO_QDRANT_MAX_REQUEST_MB`), never
  as one request of a whole commit (65,536 points of 256 dimensions are ~339 MiB of JSON);
- writes wait up to `WRITE_TIMEOUT` (60 s, `CARTO_QDRANT_WRITE_TIMEOUT`) for the server; a
  query asks the server to answer within the store's `timeout` (5 s);
- a call that failed on the way (the connection, a timeout, a 5xx, a 429) is tried again, up to
  `RETRIES` more times with a doubling pause; a 4xx is the caller's and never retried. An upsert
  and a query are idempotent (a point's id is its event's), so a retry never duplicates.

Tested against qdrant-client's local mode (the same client calls, batches measured with the
same serialisation the client sends); no Qdrant server can be installed here, so a server's
own limits, its timeouts and its 5xx answers are exercised through a client that fails on
purpose, not against a real server (docs/semantic.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from carto_core.semantic.store import (
    DimensionMismatch,
    Hit,
    ModelInfo,
    StoreError,
    StoreUnavailable,
    VectorStore,
)
from carto_core.semantic.text import point_id
from carto_core.util.timeparse import format_timestamp

LOCAL_MODE_FIX = ("local mode serves one process at a time: use a Qdrant server "
                  "(CARTO_QDRANT_URL) or the embedded store (unset CARTO_QDRANT_PATH)")
#: Bytes of JSON one upsert request carries at most (Qdrant refuses more than 32 MiB by default).
MAX_REQUEST_BYTES = 8 << 20
WRITE_TIMEOUT = 60.0
RETRIES = 3
RETRY_PAUSE = 0.5


def _number(name: str, default: float) -> float:
    import os

    try:
        value = float(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if value > 0 else default


def transient(exc: Exception) -> bool:
    """A failure on the way (worth trying again), not the caller's (a 4xx other than 429)."""
    status = getattr(exc, "status_code", None)
    if status is not None:
        return int(status) == 429 or int(status) >= 500
    name = type(exc).__name__
    return any(word in name for word in ("Timeout", "Connect", "ResponseHandling", "Transport",
                                         "RemoteProtocol", "ReadError", "WriteError", "Network"))


def point_bytes(point: dict) -> int:
    """The bytes of one point in the upsert's JSON body (`{"points": [...]}`), plus its comma."""
    import orjson

    return len(orjson.dumps(point)) + 1


def batches_by_bytes(points: list[dict], limit: int) -> list[list[dict]]:
    """Consecutive batches whose JSON stays under `limit` bytes (a point larger than the limit
    alone goes in a batch of its own: the server says whether it takes it)."""
    envelope = len('{"points":[]}')
    out: list[list[dict]] = []
    current: list[dict] = []
    size = envelope
    for point in points:
        cost = point_bytes(point)
        if current and size + cost > limit:
            out.append(current)
            current, size = [], envelope
        current.append(point)
        size += cost
    if current:
        out.append(current)
    return out


class QdrantStore(VectorStore):
    kind = "qdrant"

    def __init__(self, *, url: str | None = None, api_key: str | None = None,
                 path: str | None = None, collection: str = "carto", timeout: float = 5.0,
                 write_timeout: float | None = None, max_request_bytes: int | None = None,
                 retries: int = RETRIES, pause: float = RETRY_PAUSE):
        if not url and not path:
            raise ValueError("QdrantStore needs a url or a path")
        self.url, self.path, self.collection = url, path, collection
        self._dim: int | None = None
        self.timeout = timeout
        self.write_timeout = write_timeout or _number("CARTO_QDRANT_WRITE_TIMEOUT", WRITE_TIMEOUT)
        if max_request_bytes is None:
            max_request_bytes = int(_number("CARTO_QDRANT_MAX_REQUEST_MB", MAX_REQUEST_BYTES / (1 << 20))
                                    * (1 << 20))
        self.max_request_bytes = int(max_request_bytes)
        self.retries, self.pause = max(0, retries), pause
        #: Calls tried again after a transient failure (for reports and tests).
        self.retried = 0
        try:
            from qdrant_client import QdrantClient, models
        except ImportError:
            raise StoreUnavailable(
                "Qdrant is configured but qdrant-client is not installed",
                fix="pip install 'carto-rankers[qdrant]'") from None
        self._m = models
        try:
            if path:
                self.client = QdrantClient(path=path)
            else:
                # The HTTP timeout is the writes' (a large batch takes a while to index);
                # queries ask the server to answer within `timeout` themselves.
                self.client = QdrantClient(url=url, api_key=api_key or None,
                                           timeout=max(1, int(round(max(timeout, self.write_timeout)))),
                                           check_compatibility=False)
        except Exception as exc:  # local mode: the folder is locked by another process
            fix = LOCAL_MODE_FIX if path else "check CARTO_QDRANT_URL and that the server runs"
            raise StoreUnavailable(f"cannot open {self.describe()}: {exc}", fix=fix) from None

    def describe(self) -> str:
        where = self.url or f"local folder {self.path}"
        return f"Qdrant collection {self.collection!r} at {where}"

    def _call(self, what: str, function, *args, **kwargs):
        """Run one client call, again after a transient failure (`transient`: up to `retries`
        more times, the pause doubling); anything the transport or server raises in the end
        becomes a StoreError that says what failed (a refusing server must never take a search
        down)."""
        import time

        pause = self.pause
        for attempt in range(self.retries + 1):
            try:
                return function(*args, **kwargs)
            except StoreError:
                raise
            except Exception as exc:
                if attempt < self.retries and transient(exc):
                    self.retried += 1
                    time.sleep(pause)
                    pause *= 2
                    continue
                name = type(exc).__name__
                status = getattr(exc, "status_code", None)
                if status is not None and 400 <= int(status) < 500 and int(status) != 429:
                    raise StoreError(f"{self.describe()}: {what} rejected ({status}): {exc}") from None
                tries = f" after {attempt + 1} tries" if attempt else ""
                raise StoreUnavailable(f"{self.describe()} refused {what}{tries}: {name}: {exc}",
                                       fix="check CARTO_QDRANT_URL and that the server runs") from None

    # ------------------------------------------------------------------ collection

    def _collection_dim(self) -> int | None:
        if self._dim is not None:
            return self._dim
        exists = self._call("collection_exists", self.client.collection_exists, self.collection)
        if not exists:
            return None
        info = self._call("get_collection", self.client.get_collection, self.collection)
        vectors = info.config.params.vectors
        size = getattr(vectors, "size", None)
        if size is None and isinstance(vectors, dict) and vectors:
            size = next(iter(vectors.values())).size
        self._dim = int(size) if size is not None else None
        return self._dim

    def ensure_collection(self, dim: int) -> None:
        """Create the collection and its payload indexes, or check the size of an existing one."""
        current = self._collection_dim()
        if current is None:
            m = self._m
            self._call("create_collection", self.client.create_collection, self.collection,
                       vectors_config=m.VectorParams(size=dim, distance=m.Distance.COSINE))
            import warnings

            for field_name, schema in (("project", m.PayloadSchemaType.KEYWORD),
                                       ("timestamp", m.PayloadSchemaType.DATETIME),
                                       ("model", m.PayloadSchemaType.KEYWORD)):
                with warnings.catch_warnings():
                    # Local mode ignores payload indexes and says so; a server builds them.
                    warnings.simplefilter("ignore", UserWarning)
                    self._call("create_payload_index", self.client.create_payload_index,
                               self.collection, field_name=field_name, field_schema=schema)
            self._dim = dim
        elif current != dim:
            raise DimensionMismatch(
                f"{self.describe()} holds {current}-dimensional vectors; the embedder gives {dim}")

    # ------------------------------------------------------------------ filters

    def _filter(self, model: str, projects: Sequence[str] | None = None, since=None, before=None,
                ids: Sequence[str] | None = None):
        m = self._m
        must = [m.FieldCondition(key="model", match=m.MatchValue(value=model))]
        if ids is not None:  # point ids of the event ids (a prompt-intent scope)
            must.append(m.HasIdCondition(has_id=[point_id(e) for e in ids]))
        if projects is not None:
            must.append(m.Filter(should=[
                m.FieldCondition(key="project", match=m.MatchValue(value=value))
                for value in projects]))
        if since is not None or before is not None:
            must.append(m.FieldCondition(key="timestamp", range=m.DatetimeRange(
                gte=since, lt=before)))
        return m.Filter(must=must)

    # ------------------------------------------------------------------ contract

    def upsert(self, model, records):
        if not records:
            return 0
        import numpy as np

        vectors = [np.asarray(r.vector, dtype=np.float32).ravel() for r in records]
        dims = {v.shape[0] for v in vectors}
        if len(dims) != 1:
            raise DimensionMismatch(f"vectors of model {model!r} in one batch differ in size")
        self.ensure_collection(dims.pop())
        points = []
        for record, vector in zip(records, vectors):
            payload = dict(record.payload)
            payload.update({
                "event_id": record.event_id, "project": record.project or "",
                "model": model,
            })
            if record.digest:
                payload["digest"] = str(record.digest)
            if record.timestamp is not None:
                payload["timestamp"] = format_timestamp(record.timestamp)
            points.append({"id": point_id(record.event_id), "vector": vector.tolist(), "payload": payload})
        for batch in batches_by_bytes(points, self.max_request_bytes):
            self._call("upsert", self.client.upsert, self.collection,
                       points=[self._m.PointStruct(**point) for point in batch], wait=True)
        return len(points)

    def search(self, model, vector, *, limit=500, projects=None, since=None, before=None,
               ids=None):
        import numpy as np

        query = np.asarray(vector, dtype=np.float32).ravel()
        dim = self._collection_dim()
        if dim is None or limit <= 0:
            return []
        if projects is not None and not projects:
            return []
        if ids is not None and not ids:
            return []
        if query.shape[0] != dim:
            raise DimensionMismatch(
                f"query vector has {query.shape[0]} dimensions, {self.describe()} holds {dim}")
        response = self._call(
            "query_points", self.client.query_points, self.collection, query=query.tolist(),
            query_filter=self._filter(model, projects, since, before, ids), limit=limit,
            with_payload=["event_id"], **self._server_timeout())
        return [Hit(str((p.payload or {}).get("event_id", "")), float(p.score))
                for p in response.points]

    def _server_timeout(self) -> dict:
        """A query's server-side deadline (a server only: local mode takes no timeout)."""
        return {"timeout": max(1, int(round(self.timeout)))} if self.url else {}

    def _scroll(self, model: str, fields: list[str]):
        if self._collection_dim() is None:
            return
        offset = None
        while True:
            points, offset = self._call(
                "scroll", self.client.scroll, self.collection,
                scroll_filter=self._filter(model), limit=1000, offset=offset,
                with_payload=fields, with_vectors=False)
            for point in points:
                yield point.payload or {}
            if offset is None:
                return

    def ids(self, model):
        return {str(p.get("event_id")) for p in self._scroll(model, ["event_id"])}

    def has(self, model, event_ids, digests=None):
        """Points fetched by id (one point per event id), not a scroll of the collection."""
        import numpy as np

        present = np.zeros(len(event_ids), np.bool_)
        if not event_ids or self._collection_dim() is None:
            return present
        wanted = {point_id(e): i for i, e in enumerate(event_ids)}
        points = self._call("retrieve", self.client.retrieve, self.collection,
                            ids=list(wanted), with_payload=["event_id", "model", "digest"],
                            with_vectors=False)
        for point in points:
            payload = point.payload or {}
            i = wanted.get(point.id)
            if i is None or payload.get("model") != model or payload.get("event_id") != event_ids[i]:
                continue
            stored = payload.get("digest")
            present[i] = (digests is None or not stored or not int(digests[i])
                          or stored == str(int(digests[i])))
        return present

    def id_batches(self, model):
        batch: list[str] = []
        for payload in self._scroll(model, ["event_id"]):
            batch.append(str(payload.get("event_id")))
            if len(batch) >= 1000:
                yield batch
                batch = []
        if batch:
            yield batch

    def delete(self, model, event_ids):
        if not len(event_ids) or self._collection_dim() is None:
            return 0
        held = self.has(model, list(event_ids))
        doomed = [point_id(e) for e, ok in zip(event_ids, held.tolist()) if ok]
        if doomed:
            self._call("delete", self.client.delete, self.collection,
                       points_selector=self._m.PointIdsList(points=doomed), wait=True)
        return len(doomed)

    def projects(self, model):
        return sorted({str(p.get("project")) for p in self._scroll(model, ["project"])
                       if p.get("project")})

    def models(self):
        dim = self._collection_dim()
        if dim is None:
            return {}
        counts: dict[str, int] = {}
        try:
            facets = self.client.facet(self.collection, key="model", limit=1000, exact=True)
            for hit in facets.hits:
                counts[str(hit.value)] = int(hit.count)
        except Exception:
            # Local mode has no facet API: count by scrolling (small collections only).
            offset = None
            while True:
                points, offset = self._call(
                    "scroll", self.client.scroll, self.collection, limit=1000, offset=offset,
                    with_payload=["model"], with_vectors=False)
                for point in points:
                    tag = str((point.payload or {}).get("model", ""))
                    counts[tag] = counts.get(tag, 0) + 1
                if offset is None:
                    break
        return {tag: ModelInfo(tag, count, dim) for tag, count in counts.items()}

    def count(self, model):
        if self._collection_dim() is None:
            return 0
        return int(self._call("count", self.client.count, self.collection,
                              count_filter=self._filter(model), exact=True).count)

    def drop_model(self, model):
        count = self.count(model)
        if count:
            self._call("delete", self.client.delete, self.collection,
                       points_selector=self._m.FilterSelector(filter=self._filter(model)),
                       wait=True)
        return int(count)

    def clear(self) -> None:
        """Delete the collection (a re-embed with another dimension needs a new one)."""
        if self._collection_dim() is not None:
            self._call("delete_collection", self.client.delete_collection, self.collection)
        self._dim = None

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:
            pass
