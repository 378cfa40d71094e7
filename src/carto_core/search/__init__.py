"""carto's search engine (DESIGN section 5). Import names from here; heavy modules (numpy, the
index) load only when a search actually runs.

    from carto_core.search import SearchEngine, SearchRequest, run_search

See `carto_core.search.api` for the records and plugin base classes.
"""

from __future__ import annotations

from carto_core.search.api import (  # noqa: F401  (light: no numpy at import)
    DEPTH,
    RRF_K,
    SEMANTIC,
    TRIM,
    Candidate,
    DecayContext,
    DecayPolicy,
    EmptyHomeError,
    Fused,
    Fusion,
    IndexStep,
    Ladder,
    LadderReport,
    Query,
    Ranker,
    Scope,
    SearchError,
    SearchHit,
    SearchRequest,
    SearchResult,
    SearchUsageError,
)


def __getattr__(name):
    if name == "run_search":  # the pipeline needs numpy: loaded when a search runs
        from carto_core.search.pipeline import run_search

        return run_search
    if name in ("SearchEngine", "warm_engine"):
        from carto_core.search import engine

        return getattr(engine, name)
    if name == "Telemetry":
        from carto_core.search.telemetry import Telemetry

        return Telemetry
    if name == "KeywordIndex":
        from carto_core.search.index import KeywordIndex

        return KeywordIndex
    raise AttributeError(name)
