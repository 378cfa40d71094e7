"""The one facts engine: `run_facts(request, home) -> envelope`.

The CLI (`carto facts`), the web server and the MCP server all call this function; none of them
re-implements a check. It validates the request against contract v1 (raising `FactsError` with
status 400 or 409), runs the named verb from the `fact_verbs` registry and wraps its facts in the
upstream envelope. It never writes a log row or a telemetry row; the one thing it may write is
its own cache, `<home>/.carto/facts/columns.bin` (derived state, see `facts/store.py`).

Columns come from, in this order: the corpus the caller passed (a warm server), else the
persisted cache (verbs with `columns_only = True`: census and tempo), else a corpus loaded now
(a plugin verb that needs Event objects, or `CARTO_FACTS_CACHE=0`).

Verbs are classes registered through `carto_register_fact_verbs`; each has a `name`, a
`needs_corpus` flag (delta reads log tails and does not need the corpus loaded) and
`run(corpus, request) -> dict`, where `request` is a `FactsRequest` whose `context` holds the
`home`, the columnar view (`columns`, when the corpus is loaded) and `now`.
"""

from __future__ import annotations

import hashlib
import os
import time
from datetime import datetime

from carto_core.facts.contract import (
    CONTRACT_VERSION,
    FactsError,
    FactsRequest,
    normalize_request,
    same_corpus,
)
from carto_core.logio.home import Home
from carto_core.logio.logs import SEARCHED_LOGS

BACKEND = "carto"


def corpus_root_of(home: Home) -> str:
    """The corpus root a home reports (and that cursors are issued for)."""
    return os.path.abspath(str(home.root))


def index_generation(home: Home) -> str:
    """A fingerprint of the logs' current state (size, mtime, inode of each): two answers with
    the same generation were computed over the same bytes."""
    digest = hashlib.sha1()
    for label in SEARCHED_LOGS:
        try:
            st = os.stat(home.log(label))
            digest.update(f"{label}:{st.st_size}:{st.st_mtime_ns}:{st.st_ino};".encode())
        except OSError:
            digest.update(f"{label}:-;".encode())
    return digest.hexdigest()[:16]


def fact_verbs() -> dict[str, type]:
    """Every registered verb. A cold process imports only the plugins that register verbs
    (`registry.get_registries(hooks=FACT_HOOKS)`), not every plugin."""
    from carto_core.plugin.registry import FACT_HOOKS, get_registries

    return dict(get_registries(hooks=FACT_HOOKS).fact_verbs.items())


def run_facts(
    raw_request: object,
    home: Home,
    corpus=None,
    *,
    now: datetime | None = None,
    verbs: dict[str, type] | None = None,
    on_cache=None,
    columns=None,
) -> dict:
    """Validate and answer one facts request against `home`.

    `corpus` may pass a corpus already loaded (a server keeps one warm; its columnar view is
    cached on it); otherwise columns come from the persisted cache when the verb needs nothing
    else, or the corpus is loaded. `on_cache(opened)` is called with what opening the cache did
    (`store.Opened`: state built/rebuilt/appended/fresh, ms). `columns`: the home's facts
    columns already opened and current (a server's), in place of a corpus: the caller passes
    them only for a verb that reads nothing else (`columns_only`; `serve.engines` decides).
    Raises FactsError.
    """
    started = time.perf_counter()
    verbs = verbs if verbs is not None else fact_verbs()
    request: FactsRequest = normalize_request(raw_request, list(verbs), now=now)
    root = corpus_root_of(home)
    if request.corpus_root and not same_corpus(request.corpus_root, root):
        raise FactsError(f"this service indexes {root}, not {request.corpus_root}", 409)
    verb = verbs[request.verb]()
    request.context.update(home=home, now=now, corpus_root=root)
    needs = getattr(verb, "needs_corpus", True)
    skipped = None  # label -> why, of the logs left out (they cannot be read)
    stages: dict[str, float] = {}
    if needs and corpus is None and columns is None:
        from carto_core.facts.store import cache_enabled, open_columns

        load_started = time.perf_counter()
        if getattr(verb, "columns_only", False) and cache_enabled():
            opened = open_columns(home)
            columns, skipped = opened.columns, opened.skipped
            if on_cache is not None:
                on_cache(opened)
        else:
            from carto_core.model.corpus import load_corpus

            corpus = load_corpus(home)
        stages["load"] = round((time.perf_counter() - load_started) * 1000, 2)
    scan_started = time.perf_counter()
    if needs and columns is None and corpus is not None:
        from carto_core.facts.columns import columns_for

        columns = columns_for(corpus)
    if columns is not None:
        request.context["columns"] = columns
    facts = verb.run(corpus, request)
    scan_ms = (time.perf_counter() - scan_started) * 1000
    size = columns.n if columns is not None else (len(corpus) if corpus is not None else None)
    if skipped is None:
        from carto_core.model.corpus import unreadable_logs

        # a verb reading the logs itself (delta, tokens) reads them as absent, as the corpus does
        skipped = getattr(corpus, "skipped", None)
        if skipped is None:
            skipped = unreadable_logs(home, SEARCHED_LOGS)
    envelope = {
        "contract_version": CONTRACT_VERSION,
        "backend": BACKEND,
        "verb": request.verb,
        "call_id": request.call_id,
        "corpus_root": root,
        "index_generation": index_generation(home),
        "corpus_events": size,
        "indexed_docs": size,
        "window": {"since": request.since or None, "before": request.before or None},
        "project": request.project or None,
        "facts": facts,
        "stages_ms": {**stages, "scan": round(scan_ms, 2),
                      "total": round((time.perf_counter() - started) * 1000, 2)},
    }
    if skipped:
        from carto_core.model.corpus import skipped_files

        envelope["skipped_files"] = skipped_files(home, skipped, "its events are not counted")
    return envelope


def health(home: Home, *, events: int | None = None) -> dict:
    """`GET /api/facts/health` body; `events`: how many events the home holds."""
    return {
        "status": "ok",
        "contract_version": CONTRACT_VERSION,
        "backend": BACKEND,
        "corpus_root": corpus_root_of(home),
        "verbs": sorted(fact_verbs()),
        "events": events,
        "index_generation": index_generation(home),
    }
