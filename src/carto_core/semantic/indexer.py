"""`run_index`: embed the home's events into the configured vector store.

Streaming, incremental and resumable:

- the logs are read chunk by chunk and folded by event_id (`carto_core.model.logstream`), never
  loaded whole; events are embedded in batches of 512 and committed to the store every 64k
  vectors, at the end, and before stopping on a failure;
- a run that embedded everything records how far it read each log (`logstate`: offset, line
  count, boundary hashes) with the model and the store in `<home>/.carto/semantic-index.json`.
  The next run compares the logs with it: nothing new costs that comparison and nothing else;
  appended rows are read from the recorded offsets (the tail only); a rewritten or truncated
  log is read again whole, and only its events the store lacks are embedded (a rewrite that
  changed a few rows embeds those, not the home). Another model, another store, a store that
  lost vectors, `--rebuild`, or a run that failed or stopped early: every log is read, and
  the store is asked which ids it holds;
- an interrupted run keeps every committed vector; the next run picks up the rest. The logs
  stay the truth: vectors are derived and can be rebuilt at any time (`carto index --rebuild`).

- The `lsa` embedder is fitted on the first run (or with `refit=True`) on a uniform sample of at
  most `fit_sample` document texts drawn while streaming (reservoir sampling, seeded: the same
  logs give the same fit), so fitting memory does not grow with the home; every fit has its own
  model tag, so a refit re-embeds everything under the new tag, and vectors of other
  models are dropped only after a run that left nothing unembedded and failed nowhere.
- The novelty gate (upstream's prediction-error gate, default 0.85): a new document whose
  nearest stored vector of the same model is closer than the threshold is not indexed and is
  logged to `index-rejects.jsonl`. The embedded store compares it with its newest
  `gate_window` rows (65,536), not every row: a run's cost follows what it appends, not what
  the store holds; a twin only older than that is not found, and the document is indexed. Never for turns or milestones; not for backfills (the first
  build, or a run of more than `gate_max` new documents), as upstream's backfills ran ungated.
- Failures are appended to `<home>/.carto/index-errors.jsonl` (`{timestamp, event_id, stage,
  outcome, error, model}`, upstream's stages). An unavailable embedder or store stops the run and
  starts a back-off (60 s, doubling to 1 h) recorded in `index-backoff.json` for the embedder
  and store that failed; a run of those inside the back-off window returns at once unless
  forced. Nothing is lost: unembedded events are
  embedded by a later run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

import numpy as np

from carto_core.util import heap
from carto_core.logio.appendlog import append_rows
from carto_core.privacy.redact import redacted
from carto_core.logio.home import Home
from carto_core.logio.logs import FOLD_ORDER
from carto_core.logio.logstate import identity, log_state, log_status
from carto_core.logio.reader import open_log, unreadable
from carto_core.semantic.embedder import EmbedderError, EmbedderUnavailable, create_embedder, unknown_embedder_fix
from carto_core.semantic.pending import (  # noqa: F401  (read side, re-exported)
    REJECTS_FILE,
    STATE_FILE,
    STATE_VERSION,
    not_embedded,
    read_rejected,
    read_state,
)
from carto_core.semantic.settings import SemanticSettings
from carto_core.semantic.store import (
    DimensionMismatch,
    StoreError,
    StoreUnavailable,
    VectorRecord,
)
from carto_core.semantic.stores import open_store
from carto_core.semantic.text import document_text, row_document_text, text_digest
from carto_core.util.parallel import blas_threads
from carto_core.util.privatefiles import make_dirs, write_text
from carto_core.util.timeparse import epoch_seconds, format_timestamp, parse_timestamp, utcnow

ERRORS_FILE = "index-errors.jsonl"
BACKOFF_FILE = "index-backoff.json"
#: Vectors per store write (one embedded-store segment: 32 MB of 256-dim float16).
COMMIT_EVERY = 65536
#: Texts a fit draws when the embedder does not say (lsa says `fit_sample`).
DEFAULT_FIT_SAMPLE = 50_000
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
    #: Of `no_text`: events with text that this embedder leaves to the keyword ladders
    #: (`Embedder.embeds`: minilm does not embed tool rows).
    keyword_only: int = 0
    failed: int = 0
    #: Set when the configured embedder is not installed and another embedded instead.
    note: str = ""
    fitted: str = ""
    gate: float | None = None
    gate_active: bool = False
    dropped_models: dict = field(default_factory=dict)
    #: Vectors deleted because their event is in no log any more (after a truncation).
    removed: int = 0
    #: "ok", "disabled", "backing_off", "unavailable", "dimension_mismatch", "error"
    outcome: str = "ok"
    reason: str = ""
    fix: str = ""
    backoff_until: str | None = None
    seconds: float = 0.0
    #: The logs left out because they cannot be read (`{path, why, left_out}`, as `carto
    #: search --json` lists them); absent from `to_dict` when none was.
    skipped_files: list = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.outcome == "ok" and self.failed == 0

    def to_dict(self) -> dict:
        out = asdict(self)
        if not out["skipped_files"]:
            del out["skipped_files"]
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
    """The indexer's back-off after a service failure: `<home>/.carto/index-backoff.json`.
    `key` names what failed (the embedder and the store): a back-off another one recorded
    (the `lsa` tried once without its extra, a Qdrant server since unset) does not hold
    this one back."""

    def __init__(self, home: Home, key: str = ""):
        self.path = home.state_file(BACKOFF_FILE)
        self.key = key

    def read(self) -> dict:
        try:
            recorded = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(recorded, dict) or (self.key and recorded.get("for", self.key) != self.key):
            return {}  # a back-off recorded for another embedder or store (no key: any)
        return recorded

    def until(self) -> datetime | None:
        return parse_timestamp(self.read().get("until"))

    def fail(self, reason: str, now: datetime) -> datetime:
        failures = int(self.read().get("failures", 0)) + 1
        delay = min(BACKOFF_MAX, BACKOFF_BASE * 2 ** (failures - 1))
        until = now + timedelta(seconds=delay)
        make_dirs(self.path.parent)
        write_text(self.path, json.dumps({"failures": failures, "until": format_timestamp(until),
                                          "reason": reason, "for": self.key}))
        return until

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def backoff_key(settings: SemanticSettings) -> str:
    """What a back-off is recorded for: the embedder and the store it wrote to."""
    return f"{settings.embedder} into {settings.store_kind}"


# --------------------------------------------------------------------------- what was read


def _state_path(home: Home):
    return home.state_file(STATE_FILE)


def _write_state(home: Home, state: dict) -> None:
    import os

    path = _state_path(home)
    make_dirs(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    write_text(tmp, json.dumps(state))
    os.replace(tmp, path)


def forget_state(home: Home) -> None:
    _state_path(home).unlink(missing_ok=True)


@dataclass
class _Plan:
    """Which bytes of which logs a run reads: label -> (start offset, start line)."""

    starts: dict[str, tuple[int, int]]
    tail: bool  # only the rows appended since a complete run are read
    reasons: dict = field(default_factory=dict)


def _plan(home: Home, previous: dict, model: str, store, reembed: bool) -> _Plan:
    """Read the tails of grown logs after a complete run of the same model and store; read
    every log otherwise (a log rewritten or truncated included: the store is then asked which
    ids it holds, so only what the rewrite changed or added is embedded, and the counts stay
    exact)."""
    full = _Plan({label: (0, 0) for label in FOLD_ORDER}, tail=False)
    if reembed or not previous:
        return full
    if previous.get("model") != model or previous.get("store") != store.describe():
        full.reasons["state"] = "another model or store"
        return full
    if store.count(model) != previous.get("vectors"):
        full.reasons["state"] = "the store's vectors changed since the last run"
        return full
    starts: dict[str, tuple[int, int]] = {}
    for label in FOLD_ORDER:
        recorded = (previous.get("logs") or {}).get(label)
        status = log_status(home.log(label), recorded)
        if status == "stale":
            full.reasons[label] = "rewritten or truncated"
            return full
        if status == "grown":
            starts[label] = (recorded.get("end", 0), recorded.get("lines", 0)) if recorded else (0, 0)
    return _Plan(starts, tail=True)


# --------------------------------------------------------------------------- the events


class _Doc:
    """What the indexer needs of an event: its id, log and row; the `Event` is built only for
    a store that keeps payloads (Qdrant), not for every row of a bulk build."""

    __slots__ = ("event_id", "source", "row", "_event", "replaces")

    def __init__(self, event_id: str, source: str, row: dict, event=None):
        self.event_id, self.source, self.row, self._event = event_id, source, row, event
        self.replaces = False  # a newer row of an event already met in this run

    @classmethod
    def of(cls, event) -> "_Doc":
        return cls(event.event_id, event.source, event.row, event)

    @property
    def event(self):
        if self._event is None:
            from carto_core.model.events import Event

            self._event = Event.from_row(self.row, self.source, fallback_id=self.event_id)
        return self._event

    @property
    def project(self) -> str:
        if self._event is not None:
            return self._event.project
        value = self.row.get("project")
        return "" if value is None else value if value.__class__ is str else str(value)

    @property
    def timestamp(self):
        """Epoch seconds (None when unusable), or the Event's datetime once it is built."""
        if self._event is not None:
            return self._event.timestamp
        return epoch_seconds(self.row.get("timestamp"))


def _fold_events(home: Home, starts: dict[str, tuple[int, int]], states: dict | None = None,
                 fold=None):
    """(doc, text) of every event first seen in the given byte ranges, in fold order; events
    without text come with text "". `states` receives each log's state after it was read;
    `fold` (a `logstream.Fold`) keeps every id seen."""
    from carto_core.model.logstream import Fold
    from carto_core.logio.reader import ReadReport

    from carto_core.logio.fold import NumberedLogs

    numbered = NumberedLogs()  # the fold rule: a newer row of the same log takes its event over
    fold = fold if fold is not None else Fold()
    fold.takes_over = numbered.takes_over
    for label in FOLD_ORDER:
        if label not in starts:
            continue
        path = home.log(label)
        if unreadable(path):
            # Read as an absent log (the run's report names it): once it can be read, its
            # rows are those of a log that appeared.
            if states is not None:
                states[label] = log_state(path, 0, 0, {"exists": False})
            continue
        before = identity(path)
        start, lineno = starts[label]
        report = ReadReport(str(path))
        for chunk in fold.chunks(path, label, start=start, start_lineno=lineno, report=report):
            lines, ids = chunk.lines, chunk.ids
            new = np.flatnonzero(chunk.new).tolist()
            numbered.record(label, len(new))
            # A row a later row of this chunk took over is not embedded (its text is not the
            # event's); one taken over by a later chunk was, and its vector is replaced then.
            gone = set(chunk.retired)
            for i in new:
                number = int(chunk.numbers[i])
                if number in gone:
                    continue
                row = lines[i].row
                doc = _Doc(ids[i], label, row)
                # The newer row of an event this run met before: counted once, embedded anew.
                earlier = chunk.replaced.get(number)
                doc.replaces = earlier is not None and earlier not in gone
                yield doc, row_document_text(row, ids[i])
        if states is not None:
            states[label] = log_state(path, report.end_offset, lineno + report.lines, before)


def _sample_lines(home: Home, size: int, seed: int = 0) -> list[str]:
    """Texts of a uniform sample of at most `size` rows of every log, for a fit: lines are
    sampled as bytes (reservoir sampling, seeded) and only the sampled ones are decoded, so
    the sample costs a scan for newlines, not a parse of the home. Ids met twice in the sample
    (a changelog copy of a sampled row) count once; a row and its copy that are not both
    drawn weigh a text twice, which a fit sample tolerates."""
    import random

    from carto_core.logio.jsonl import fast_loads_line
    from carto_core.model.logstream import event_key
    from carto_core.logio.reader import READ_BLOCK

    rng = random.Random(seed)
    sample: list[tuple[str, int, bytes]] = []
    seen = 0
    for label in FOLD_ORDER:
        if unreadable(home.log(label)):
            continue  # left out as an absent log (the run's report names it)
        try:
            handle = open_log(home.log(label))
        except FileNotFoundError:
            continue
        with handle:
            rest = b""
            lineno = 0
            while block := handle.read(READ_BLOCK):
                lines = (rest + block).split(b"\n")
                rest = lines.pop()
                for raw in lines:
                    lineno += 1
                    if not raw:
                        continue
                    seen += 1
                    if len(sample) < size:
                        sample.append((label, lineno, raw))
                    else:
                        slot = rng.randrange(seen)
                        if slot < size:
                            sample[slot] = (label, lineno, raw)
    texts: list[str] = []
    taken: set[str] = set()
    for label, lineno, raw in sample:
        row, problem = fast_loads_line(raw)
        if problem == "malformed_json" or not isinstance(row, dict):
            continue
        event_id = event_key(row, label, lineno)
        if event_id in taken:
            continue
        taken.add(event_id)
        text = row_document_text(row, event_id)
        if text:
            texts.append(text)
    return texts


def _sample_texts(docs, size: int, seed: int = 0) -> list[str]:
    """A uniform sample of at most `size` texts of (doc, text) pairs (reservoir sampling)."""
    import random

    rng = random.Random(seed)
    sample: list[str] = []
    seen = 0
    for _doc, text in docs:
        if not text:
            continue
        seen += 1
        if len(sample) < size:
            sample.append(text)
        else:
            slot = rng.randrange(seen)
            if slot < size:
                sample[slot] = text
    return sample


class _Run:
    """What every stage of one `run_index` call shares: the home, its settings, the report, the
    clock, the error log and the back-off; `finish` closes the report."""

    def __init__(self, home: Home, settings: SemanticSettings, corpus, now: datetime):
        self.home, self.settings, self.corpus, self.now = home, settings, corpus, now
        self.started = time.perf_counter()
        self.report = IndexReport(embedder=settings.embedder, gate=settings.novelty_gate)
        self.errors_path = home.state_file(ERRORS_FILE)
        self.backoff = Backoff(home, backoff_key(settings))
        self.fold = None  # the fold of the logs read (`_embed_new`), which the sweep reads

    def error(self, stage: str, message: str, event_id: str | None = None,
              outcome: str = "failed") -> None:
        append_rows(self.errors_path, redacted([{
            "timestamp": format_timestamp(utcnow()), "event_id": event_id, "stage": stage,
            "outcome": outcome, "error": message, "model": self.report.model or None}]))

    def finish(self, outcome: str = "ok", reason: str = "", fix: str = "") -> IndexReport:
        report = self.report
        report.outcome, report.reason, report.fix = outcome, reason, fix
        report.seconds = time.perf_counter() - self.started
        return report

    def back_off(self, reason: str) -> None:
        """A failed service: the back-off window starts (or doubles), the report says until when."""
        self.report.backoff_until = format_timestamp(self.backoff.fail(reason, self.now))

    def events(self, starts, states=None, fold=None):
        if self.corpus is not None:
            return ((_Doc.of(event), document_text(event)) for event in self.corpus.events)
        return _fold_events(self.home, starts, states, fold)


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
    commit_every: int = COMMIT_EVERY,
    progress: Callable[[int, int | None], None] | None = None,
    registries=None,
    now: datetime | None = None,
) -> IndexReport:
    """Embed what the store lacks; see the module docstring. Never raises for a service
    failure: the report says what happened and what fixes it. `corpus` (a loaded corpus, for
    tests and small tools) replaces reading the logs; such a run records no state.

    The stages: the gates (disabled, backing off), the embedder made ready (fitted, checked),
    the store opened and the run planned against the recorded state, the new documents
    embedded batch by batch, and the close (sweep, compact, other models dropped, state
    recorded).

    On one BLAS thread (a fit raises it again): the gate's and the store's products are one
    part of the rows at a time, and a second OpenBLAS thread mostly spins between them, on
    the CPU the run is charged (docs/performance.md, "The gate's exact pre-filter")."""
    with blas_threads(1):
        return _run_index(home, settings, corpus, reembed, refit, force, limit, batch_size,
                          commit_every, progress, registries, now)


def _run_index(home, settings, corpus, reembed, refit, force, limit, batch_size, commit_every,
               progress, registries, now) -> IndexReport:
    run = _Run(home, settings or SemanticSettings.load(), corpus, now or utcnow())
    report = run.report
    if not run.settings.enabled:
        return run.finish("disabled", "the semantic ladder is disabled (CARTO_SEMANTIC=0 or "
                          "[semantic] enabled = false)")
    until = run.backoff.until()
    if until is not None and until > run.now and not force:
        report.backoff_until = format_timestamp(until)
        return run.finish("backing_off", f"backing off after a failure until "
                          f"{report.backoff_until} ({run.backoff.read().get('reason', '')})",
                          "carto index --force")
    if corpus is None:
        from carto_core.model.corpus import skipped_files, unreadable_logs

        report.skipped_files = skipped_files(home, unreadable_logs(home, FOLD_ORDER),
                                             "its events are not embedded")
    embedder = _ready_embedder(run, registries, refit)
    if isinstance(embedder, IndexReport):
        return embedder
    opened = _open_plan(run, reembed)
    if isinstance(opened, IndexReport):
        return opened
    store, previous, plan, check_store = opened
    states: dict[str, dict] = {}
    try:
        stopped = _embed_new(run, embedder, store, plan, states, check_store, limit,
                             batch_size, commit_every, progress)
        if stopped is not None:
            return stopped
        _close_run(run, store, plan, previous, states, check_store, limit)
    except DimensionMismatch as exc:
        run.error(exc.stage, str(exc))
        report.failed += report.todo - report.embedded - report.gated
        return run.finish("dimension_mismatch", str(exc), exc.fix)
    except StoreUnavailable as exc:
        run.error(exc.stage, str(exc))
        report.failed += report.todo - report.embedded - report.gated
        run.back_off(str(exc))
        return run.finish("unavailable", str(exc), exc.fix)
    except StoreError as exc:
        run.error(exc.stage, str(exc))
        report.failed += report.todo - report.embedded - report.gated
        return run.finish("error", str(exc), getattr(exc, "fix", ""))
    finally:
        store.close()
    run.backoff.clear()
    return run.finish()


def _ready_embedder(run: _Run, registries, refit: bool):
    """The configured embedder, fitted when it needs a fit and checked; or the closed report
    of a run that cannot embed (no such embedder, nothing to fit on, the service down)."""
    report = run.report
    try:
        embedder = create_embedder(run.settings.embedder, run.home, run.settings, registries)
    except LookupError as exc:
        return run.finish("unavailable", str(exc), unknown_embedder_fix(registries))
    try:
        if embedder.needs_fit and (refit or not embedder.is_fitted()):
            size = int(getattr(embedder, "fit_sample", 0) or DEFAULT_FIT_SAMPLE)
            texts = (_sample_texts(run.events({}), size) if run.corpus is not None
                     else _sample_lines(run.home, size))
            if not texts:
                return run.finish("unavailable", "nothing to fit the lsa model on: the home has "
                                  "no events with text", "carto ingest")
            report.fitted = embedder.fit(texts)
            del texts
        report.embedder = getattr(embedder, "name", "") or run.settings.embedder
        report.note = getattr(embedder, "note", "")
        embedder.check()
        report.model = embedder.model_tag
    except EmbedderUnavailable as exc:
        run.error(exc.stage, str(exc))
        run.back_off(str(exc))
        return run.finish("unavailable", str(exc), exc.fix)
    return embedder


def _open_plan(run: _Run, reembed: bool):
    """(store, recorded state, plan, whether the store already holds vectors of the model); or
    the closed report of a run with nothing new since a complete one, or whose store failed."""
    report, home = run.report, run.home
    try:
        store = open_store(home, run.settings)
        report.store = store.describe()
        if reembed:
            forget_state(home)
            store.clear()
        previous = {} if run.corpus is not None else read_state(home)
        plan = _plan(home, previous, report.model, store, reembed or report.fitted != "")
        if plan.tail and not plan.starts:
            # Nothing new since a complete run: the state says it all.
            report.corpus = int(previous.get("events", 0))
            report.no_text = int(previous.get("no_text", 0))
            report.keyword_only = int(previous.get("keyword_only", 0))
            report.already = report.corpus - report.no_text
            store.close()
            run.backoff.clear()
            return run.finish()
        return store, previous, plan, store.count(report.model) > 0
    except StoreError as exc:
        run.error(exc.stage, str(exc))
        if getattr(exc, "backs_off", True):
            run.back_off(str(exc))
        return run.finish("unavailable", str(exc), getattr(exc, "fix", ""))


def _embed_new(run: _Run, embedder, store, plan: _Plan, states: dict, check_store: bool,
               limit: int | None, batch_size: int, commit_every: int, progress):
    """Embed the documents the store lacks, batch by batch through the novelty gate, and
    commit them; None, or the closed report of a run the embedder stopped (what was embedded
    before is kept). `states` receives how far each log was read."""
    report, settings = run.report, run.settings
    rejected = read_rejected(run.home, report.model)
    pending = _Pending(store, report, commit_every)
    from carto_core.model.logstream import Fold

    run.fold = Fold()
    candidates = _candidates(run.events(plan.starts, states, run.fold), store, report, rejected,
                             check_store, batch_size, limit, count_present=not plan.tail,
                             embeds=getattr(embedder, "embeds", None))
    # The novelty gate judges small increments only: a run that brings more than
    # `gate_max` new documents is a backfill and runs ungated (upstream's backfills did).
    head: list = []
    if settings.novelty_gate is not None and check_store:
        for item in candidates:
            head.append(item)
            if len(head) > settings.gate_max:
                break
        report.gate_active = len(head) <= settings.gate_max
    stream = _chain(head, candidates)
    if progress:
        progress(0, len(head) if report.gate_active else None)
    done = 0
    for batch in _batches(stream, batch_size):
        try:
            vectors = embedder.embed_documents([t for _, t, _ in batch])
        except EmbedderUnavailable as exc:
            pending.commit()  # what was embedded before the failure is kept
            run.error(exc.stage, str(exc))
            report.failed += len(batch) + sum(1 for _ in stream)
            run.back_off(str(exc))
            return run.finish("unavailable", str(exc), exc.fix)
        except EmbedderError as exc:
            for doc, _, _ in batch:
                run.error(exc.stage, str(exc), doc.event_id)
            report.failed += len(batch)
            done += len(batch)
            if progress:
                progress(done, None)
            continue
        keep, rejects = _novelty_gate(batch, vectors, store, report, settings)
        pending.add([batch[i][0] for i in keep], [batch[i][1] for i in keep],
                    np.asarray(vectors)[keep], [batch[i][2] for i in keep])
        if rejects:
            append_rows(run.home.state_file(REJECTS_FILE), rejects)
        report.gated += len(rejects)
        done += len(batch)
        if progress:
            progress(done, len(head) if report.gate_active else None)
    pending.commit()
    return None


def _close_run(run: _Run, store, plan: _Plan, previous: dict, states: dict, check_store: bool,
               limit: int | None) -> None:
    """After the last batch: a complete full read sweeps the vectors of events gone from the
    logs, the store is compacted, a complete run drops other models' vectors and records the
    state; the report's counts take in what an earlier run already embedded."""
    report = run.report
    complete = report.failed == 0 and limit is None
    if complete and check_store and not plan.tail and run.corpus is None:
        report.removed = _sweep(store, report.model, run.fold)
    store.compact()
    if complete:
        for model, info in store.models().items():
            if model != report.model:
                report.dropped_models[model] = store.drop_model(model)
    report.corpus += int(previous.get("events", 0)) if plan.tail else 0
    report.no_text += int(previous.get("no_text", 0)) if plan.tail else 0
    report.keyword_only += int(previous.get("keyword_only", 0)) if plan.tail else 0
    report.already = report.corpus - report.no_text - report.todo
    if complete and run.corpus is None:
        _record_run(run.home, report, store, previous, states, plan.tail)


def _novelty_gate(batch: list, vectors, store, report: IndexReport, settings) -> tuple[list[int], list[dict]]:
    """(rows of `batch` to keep, reject records) under the novelty gate: a row whose nearest
    stored vector of the model is closer than the threshold is rejected. The store is asked
    for every gated row of the batch at once: one pass per batch, not one per row
    (docs/performance.md, "Figures that were comments"), and the embedded store's pass reads
    only its newest `gate_window` rows: a twin older than that is not looked for, and the new
    document is indexed (the gate errs towards keeping)."""
    gated = ([row for row, (doc, _, _) in enumerate(batch) if doc.source not in GATE_EXEMPT]
             if report.gate_active else [])
    nearest = dict(zip(gated, store.nearest(report.model, np.asarray(vectors)[gated],
                                            newest=settings.gate_window,
                                            above=settings.novelty_gate) if gated else []))
    keep, rejects = [], []
    for row, (doc, _, _) in enumerate(batch):
        hit = nearest.get(row)
        if hit is not None and hit.score > settings.novelty_gate:
            rejects.append({
                "timestamp": format_timestamp(utcnow()), "event_id": doc.event_id,
                "outcome": "gate_rejected", "source": _row_source(doc),
                "score": round(hit.score, 4), "threshold": settings.novelty_gate,
                "nearest": hit.event_id, "model": report.model})
            continue
        keep.append(row)
    return keep, rejects


def _record_run(home: Home, report: IndexReport, store, previous: dict, states: dict, tail: bool) -> None:
    """A run that embedded everything records how far it read each log, with the model and the
    store (the next run reads only what was appended since)."""
    logs = dict(previous.get("logs") or {}) if tail else {}
    logs.update(states)
    _write_state(home, {"version": STATE_VERSION, "model": report.model, "store": report.store,
                        "logs": logs, "events": report.corpus, "no_text": report.no_text,
                        "keyword_only": report.keyword_only,
                        "vectors": store.count(report.model),
                        "written_at": format_timestamp(utcnow())})


def _chain(head: list, rest):
    yield from head
    yield from rest


def _batches(items, size: int):
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _candidates(events, store, report: IndexReport, rejected: set[str], check_store: bool,
                batch_size: int, limit: int | None, *, count_present: bool = True,
                embeds=None):
    """(event, text) of the events to embed: with text, not in the store for the model, not
    rejected by the gate before; counts every event into `report` on the way (corpus, no_text,
    todo). The store is asked about a batch of ids at a time. A tail run does not count events
    the store already holds (a row repeating an event of an earlier run is no new event)."""
    wanted = 0
    for batch in _batches(events, batch_size * 4):
        texted = []
        for event, text in batch:
            again = event.replaces
            report.corpus += 0 if again else 1
            if text and embeds is not None and not embeds(event.source, event.row):
                text = ""  # left to the keyword ladders: nothing to embed for this model
                report.keyword_only += 0 if again else 1
            if text:
                texted.append((event, text))
            elif not again:
                report.no_text += 1
        digests = {event.event_id: text_digest(text) for event, text in texted}
        if check_store and texted:
            # Held with the same text: nothing to do; a row whose text changed (rewritten, or
            # a turn written again as it grew) is embedded again. A tail run sees only new
            # rows, not the one that won an id before: a changelog row there never wins over
            # it (domain logs fold first), so it is only asked about (digest 0).
            present = store.has(report.model, [event.event_id for event, _ in texted],
                                [0 if not count_present and event.source == "changelog"
                                 else digests[event.event_id] for event, _ in texted])
            if not count_present:  # held already, with whatever text: no new event
                counted = [e.event_id for e, _ in texted if not e.replaces]
                report.corpus -= int(store.has(report.model, counted).sum())
            texted = [pair for pair, held in zip(texted, present.tolist()) if not held]
        for event, text in texted:
            if event.event_id in rejected:
                continue
            if limit is not None and wanted >= limit:
                continue  # still counted above: the report says what a full run would do
            wanted += 1
            report.todo += 1
            yield event, text, digests.get(event.event_id, 0)


def _sweep(store, model: str, fold) -> int:
    """Delete the vectors of events no longer in any log (a truncated or rewritten log lost
    them): every stored id is looked up in the ids this run's full read folded."""
    from carto_core.logio.eventids import fingerprints

    gone: list[str] = []
    for ids in store.id_batches(model):
        if ids:
            found = fold.table.find(*fingerprints(ids))
            gone.extend(i for i, number in zip(ids, found.tolist()) if number < 0)
    return store.delete(model, gone) if gone else 0


class _Pending:
    """Vectors waiting for the store, committed every `commit_every` (one store segment).
    For a store of float16 rows (the embedded one) each batch is normalised and narrowed on
    arrival, so a commit holds 64k float16 rows (32 MB at 256 dimensions), not float32 copies.
    The rows go into one buffer allocated once and reused by every commit: a list of batches
    concatenated at each commit held the commit's rows twice, at the build's peak."""

    def __init__(self, store, report: IndexReport, commit_every: int):
        self.store, self.report, self.commit_every = store, report, commit_every
        self.payloads = store.stores_payload
        self.narrow = getattr(store, "kind", "") == "embedded"
        self.buffer: np.ndarray | None = None
        self.clear()

    def clear(self) -> None:
        self.ids: list[str] = []
        self.filled = 0
        self.projects: list[str] = []
        self.times: list = []
        self.payload: list[dict] = []
        self.digests: list[int] = []
        self.where: dict[str, int] = {}  # id -> its entry (a newer row replaces it)
        self.dropped: set[int] = set()

    def add(self, docs: list, texts: list[str], vectors, digests: list[int]) -> None:
        """One embedded batch (rows the gate let through)."""
        if not docs:
            return
        vectors = np.asarray(vectors, np.float32)
        if self.narrow:
            from carto_core.semantic.embedded import normalise, to_float16

            vectors = to_float16(normalise(vectors))
        self._keep(vectors)
        for doc, text, vector, digest in zip(docs, texts, vectors, digests):
            earlier = self.where.get(doc.event_id)
            if earlier is not None:  # a newer row of an event still pending: it replaces it
                self.dropped.add(earlier)
            self.where[doc.event_id] = len(self.ids)
            self.ids.append(doc.event_id)
            self.digests.append(digest)
            if self.payloads:
                record = _record(doc.event, text, vector)
                self.projects.append(record.project)
                self.times.append(record.timestamp)
                self.payload.append(record.payload)
            else:
                self.projects.append(doc.project or "")
                self.times.append(doc.timestamp)
        if len(self.ids) >= self.commit_every:
            self.commit()

    def _keep(self, vectors: np.ndarray) -> None:
        """Copy a batch's rows into the buffer (grown when a commit runs over, or the rows
        change width or type: the buffer takes what the batch is)."""
        end = self.filled + len(vectors)
        buffer = self.buffer
        if (buffer is None or buffer.dtype != vectors.dtype or buffer.shape[1:] != vectors.shape[1:]
                or end > len(buffer)):
            if buffer is not None and (buffer.dtype != vectors.dtype
                                       or buffer.shape[1:] != vectors.shape[1:]):
                if self.filled:  # (never within one run: one model, one width)
                    raise DimensionMismatch("vectors of one run differ in size or type")
                buffer = None
            grown = np.empty((max(end, self.commit_every),) + vectors.shape[1:], vectors.dtype)
            if buffer is not None:
                grown[:self.filled] = buffer[:self.filled]
            self.buffer = buffer = grown
        buffer[self.filled:end] = vectors
        self.filled = end

    def commit(self) -> None:
        # Embedding runs in small batches (progress, bounded memory); the store takes them
        # in large ones: each embedded-store write is a new segment, and fewer, larger
        # segments cost less to write and to search.
        if not self.ids:
            return
        # The embedded store writes the rows out before it returns: it gets a view of the
        # buffer; another store may keep what it is given: it gets its own copy.
        vectors = self.buffer[:self.filled] if self.narrow else self.buffer[:self.filled].copy()
        ids, projects, times, payload, digests = (self.ids, self.projects, self.times,
                                                  self.payload, self.digests)
        if self.dropped:
            keep = [i for i in range(len(ids)) if i not in self.dropped]
            vectors = vectors[keep]
            ids, projects, times, digests = ([values[i] for i in keep] for values in
                                             (ids, projects, times, digests))
            payload = [payload[i] for i in keep] if self.payloads else payload
        self.store.upsert_arrays(self.report.model, ids, vectors, projects, times,
                                 payload if self.payloads else None, digests)
        self.report.embedded += len(ids)
        self.clear()
        heap.release()  # the commit's lists and the batches' rows and texts freed since the last
