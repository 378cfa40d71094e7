"""`run_index`: embed the home's events into the configured vector store.

Incremental and resumable by construction: the store is asked which event ids it already holds
for the current model, and only the others are embedded (batches of 512) and committed to the
store every 16k vectors, at the end, and before stopping on a failure. An interrupted run keeps
every committed vector; the next run picks up the rest. The logs stay the truth: vectors are derived and can be rebuilt at any time
(`carto index --rebuild`).

- The `lsa` embedder is fitted on the corpus on the first run (or with `refit=True`); every fit
  has its own model tag, so a refit re-embeds everything under the new tag, and vectors of other
  models are dropped only after a run that left nothing unembedded and failed nowhere.
- The novelty gate (upstream's prediction-error gate, default 0.85): a new document whose
  nearest stored vector of the same model is closer than the threshold is not indexed and is
  logged to `index-rejects.jsonl`. Never for turns or milestones; not for backfills (the first
  build, or a run of more than `gate_max` new documents), as upstream's backfills ran ungated.
- Failures are appended to `<home>/.carto/index-errors.jsonl` (`{timestamp, event_id, stage,
  outcome, error, model}`, upstream's stages). An unavailable embedder or store stops the run and
  starts a back-off (60 s, doubling to 1 h) recorded in `index-backoff.json`; a run inside the
  back-off window returns at once unless forced. Nothing is lost: unembedded events are
  embedded by a later run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from carto_core.appendlog import append_rows
from carto_core.redact import redacted
from carto_core.home import Home
from carto_core.reader import iter_lines
from carto_core.semantic.embedder import EmbedderError, EmbedderUnavailable, create_embedder
from carto_core.semantic.settings import SemanticSettings
from carto_core.semantic.store import (
    DimensionMismatch,
    StoreError,
    StoreUnavailable,
    VectorRecord,
    open_store,
)
from carto_core.semantic.text import document_text
from carto_core.timeparse import format_timestamp, parse_timestamp, utcnow

ERRORS_FILE = "index-errors.jsonl"
REJECTS_FILE = "index-rejects.jsonl"
BACKOFF_FILE = "index-backoff.json"
BACKOFF_BASE = 60.0
BACKOFF_MAX = 3600.0
#: Logs whose documents the novelty gate never drops (turns: every turn is a document of its
#: own; milestones: upstream exempted them).
GATE_EXEMPT = frozenset({"turns", "milestones"})


@dataclass
class IndexReport:
    embedder: str = ""
    model: str = ""
    store: str = ""
    corpus: int = 0
    already: int = 0
    todo: int = 0
    embedded: int = 0
    gated: int = 0
    no_text: int = 0
    failed: int = 0
    fitted: str = ""
    gate: float | None = None
    gate_active: bool = False
    dropped_models: dict = field(default_factory=dict)
    #: "ok", "disabled", "backing_off", "unavailable", "dimension_mismatch", "error"
    outcome: str = "ok"
    reason: str = ""
    fix: str = ""
    backoff_until: str | None = None
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.outcome == "ok" and self.failed == 0

    def to_dict(self) -> dict:
        out = asdict(self)
        out["complete"] = self.complete
        out["docs_per_second"] = round(self.embedded / self.seconds, 1) if self.seconds else None
        return out


def _row_source(event) -> str:
    """Upstream's Qdrant payload `source`: the row type, else milestone class."""
    row_type = event.row.get("type")
    if isinstance(row_type, str) and row_type:
        return row_type
    milestone = event.row.get("milestone")
    if milestone:
        return "milestones" if milestone == "session_wrapup" else "session_lifecycle"
    return event.source


def _record(event, text: str, vector) -> VectorRecord:
    payload = {"source": _row_source(event), "log": event.source, "summary": text,
               "session": event.session_id, "cwd": event.cwd, "provider": event.provider,
               "transcript_path": event.transcript_path}
    if event.salience is not None:
        payload["salience"] = event.salience
    if event.parent_event_id:
        payload["parent_event_id"] = event.parent_event_id
    return VectorRecord(event.event_id, vector, project=event.project or "",
                        timestamp=event.timestamp, payload=payload)


class Backoff:
    """The indexer's back-off after a service failure: `<home>/.carto/index-backoff.json`."""

    def __init__(self, home: Home):
        self.path = home.state_file(BACKOFF_FILE)

    def read(self) -> dict:
        try:
            return json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}

    def until(self) -> datetime | None:
        return parse_timestamp(self.read().get("until"))

    def fail(self, reason: str, now: datetime) -> datetime:
        failures = int(self.read().get("failures", 0)) + 1
        delay = min(BACKOFF_MAX, BACKOFF_BASE * 2 ** (failures - 1))
        until = now + timedelta(seconds=delay)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps({"failures": failures, "until": format_timestamp(until),
                                         "reason": reason}), "utf-8")
        return until

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def read_rejected(home: Home, model: str) -> set[str]:
    """Ids the gate already rejected under `model` (not offered to the gate again)."""
    out: set[str] = set()
    for line in iter_lines(home.state_file(REJECTS_FILE)):
        if line.row.get("model") == model and isinstance(line.row.get("event_id"), str):
            out.add(line.row["event_id"])
    return out


def run_index(
    home: Home,
    *,
    settings: SemanticSettings | None = None,
    corpus=None,
    reembed: bool = False,
    refit: bool = False,
    force: bool = False,
    limit: int | None = None,
    batch_size: int = 512,
    commit_every: int = 16384,
    progress: Callable[[int, int], None] | None = None,
    registries=None,
    now: datetime | None = None,
) -> IndexReport:
    """Embed what the store lacks; see the module docstring. Never raises for a service
    failure: the report says what happened and what fixes it."""
    started = time.perf_counter()
    settings = settings or SemanticSettings.load()
    report = IndexReport(embedder=settings.embedder, gate=settings.novelty_gate)
    now = now or utcnow()
    errors_path = home.state_file(ERRORS_FILE)

    def error(stage: str, message: str, event_id: str | None = None, outcome: str = "failed"):
        append_rows(errors_path, redacted([{"timestamp": format_timestamp(utcnow()), "event_id": event_id,
                                            "stage": stage, "outcome": outcome, "error": message,
                                            "model": report.model or None}]))

    def finish(outcome: str = "ok", reason: str = "", fix: str = "") -> IndexReport:
        report.outcome, report.reason, report.fix = outcome, reason, fix
        report.seconds = time.perf_counter() - started
        return report

    if not settings.enabled:
        return finish("disabled", "the semantic ladder is disabled (CARTO_SEMANTIC=0 or "
                      "[semantic] enabled = false)")
    backoff = Backoff(home)
    until = backoff.until()
    if until is not None and until > now and not force:
        report.backoff_until = format_timestamp(until)
        return finish("backing_off", f"backing off after a failure until {report.backoff_until} "
                      f"({backoff.read().get('reason', '')})", "carto index --force")
    if corpus is None:
        from carto_core.corpus import load_corpus

        corpus = load_corpus(home)
    report.corpus = len(corpus.events)
    docs = []
    for event in corpus.events:
        text = document_text(event)
        if text:
            docs.append((event, text))
        else:
            report.no_text += 1

    try:
        embedder = create_embedder(settings.embedder, home, settings, registries)
    except LookupError as exc:
        return finish("unavailable", str(exc), "pip install carto-rankers")
    try:
        if embedder.needs_fit and (refit or not embedder.is_fitted()):
            if not docs:
                return finish("unavailable", "nothing to fit the lsa model on: the home has no "
                              "events with text", "carto ingest")
            report.fitted = embedder.fit([text for _, text in docs])
        embedder.check()
        report.model = embedder.model_tag
    except EmbedderUnavailable as exc:
        error(exc.stage, str(exc))
        report.backoff_until = format_timestamp(backoff.fail(str(exc), now))
        return finish("unavailable", str(exc), exc.fix)

    try:
        store = open_store(home, settings)
        report.store = store.describe()
        if reembed:
            store.clear()
        present = store.ids(report.model)
    except StoreError as exc:
        error(exc.stage, str(exc))
        report.backoff_until = format_timestamp(backoff.fail(str(exc), now))
        return finish("unavailable", str(exc), getattr(exc, "fix", ""))
    try:
        rejected = read_rejected(home, report.model)
        todo = [(e, t) for e, t in docs if e.event_id not in present and e.event_id not in rejected]
        report.already = len(docs) - len(todo)
        if limit is not None:
            todo = todo[:limit]
        report.todo = len(todo)
        report.gate_active = bool(settings.novelty_gate is not None and present
                                  and len(todo) <= settings.gate_max)
        if progress:
            progress(0, len(todo))
        done = 0
        pending: list[VectorRecord] = []

        def commit() -> None:
            # Embedding runs in small batches (progress, bounded memory); the store takes them
            # in large ones: each embedded-store write is a new segment, and fewer, larger
            # segments cost less to write and to search.
            if pending:
                store.upsert(report.model, pending)
                report.embedded += len(pending)
                pending.clear()

        for start in range(0, len(todo), batch_size):
            batch = todo[start:start + batch_size]
            try:
                vectors = embedder.embed_documents([t for _, t in batch])
            except EmbedderUnavailable as exc:
                commit()  # what was embedded before the failure is kept
                error(exc.stage, str(exc))
                report.failed += len(todo) - done
                report.backoff_until = format_timestamp(backoff.fail(str(exc), now))
                return finish("unavailable", str(exc), exc.fix)
            except EmbedderError as exc:
                for event, _ in batch:
                    error(exc.stage, str(exc), event.event_id)
                report.failed += len(batch)
                done += len(batch)
                if progress:
                    progress(done, len(todo))
                continue
            records = []
            rejects = []
            for (event, text), vector in zip(batch, vectors):
                if report.gate_active and event.source not in GATE_EXEMPT:
                    hits = store.search(report.model, vector, limit=1)
                    if hits and hits[0].score > settings.novelty_gate:
                        rejects.append({
                            "timestamp": format_timestamp(utcnow()), "event_id": event.event_id,
                            "outcome": "gate_rejected", "source": _row_source(event),
                            "score": round(hits[0].score, 4), "threshold": settings.novelty_gate,
                            "nearest": hits[0].event_id, "model": report.model})
                        continue
                records.append(_record(event, text, vector))
            pending.extend(records)
            if rejects:
                append_rows(home.state_file(REJECTS_FILE), rejects)
            report.gated += len(rejects)
            done += len(batch)
            if len(pending) >= commit_every:
                commit()
            if progress:
                progress(done, len(todo))
        commit()
        store.compact()
        if report.failed == 0 and limit is None:
            for model, info in store.models().items():
                if model != report.model:
                    report.dropped_models[model] = store.drop_model(model)
    except DimensionMismatch as exc:
        error(exc.stage, str(exc))
        report.failed += report.todo - report.embedded - report.gated
        return finish("dimension_mismatch", str(exc), exc.fix)
    except StoreUnavailable as exc:
        error(exc.stage, str(exc))
        report.failed += report.todo - report.embedded - report.gated
        report.backoff_until = format_timestamp(backoff.fail(str(exc), now))
        return finish("unavailable", str(exc), exc.fix)
    except StoreError as exc:
        error(exc.stage, str(exc))
        report.failed += report.todo - report.embedded - report.gated
        return finish("error", str(exc), getattr(exc, "fix", ""))
    finally:
        store.close()
    backoff.clear()
    return finish()
