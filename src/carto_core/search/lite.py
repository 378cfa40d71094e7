"""The search of `carto search` with the standard library alone, over the persisted index
(`IndexView`), for callers that must not import numpy (the UserPromptSubmit recall runs inside an
agent's prompt hook).

It is the same engine through the same contracts, not a look-alike: the configured analyzer,
rankers, fusion and decay policy are the registered classes themselves, found by name through
the plugin table (`plugin.table.class_target`) and loaded without their plugin package's
`__init__`; each ranker ranks through its stdlib method (`Ranker.rank_lite`) and the fusion fuses
through its own (`Fusion.fuse_lite`); the trim is the pipeline's (`search.api.trim`) and the decay
policy's `apply` is called as the pipeline calls it. A ranker with no stdlib method (the semantic
ladder: an embedder and numpy) is left out and named in `LiteResult.skipped` (its
`lite_opt_out` says why; `carto doctor` reports it).

`tests/search/test_lite.py` checks the order against `run_search` (keyword ladders only). The
view may be an `IndexView` or an `index_tail.TailedView` (the rows appended since the index was
saved, read as `carto search` reads them on open); a `prefix*` is not expanded, and the
pipeline's lift of the turn after a found question (`search.answers`) is not done here.
"""

from __future__ import annotations

import math
import time

from carto_core.search.index_view import IndexView


class LiteUnavailable(Exception):
    """The configured engine cannot run here (a class the plugin table does not know, or a
    fusion with no stdlib method)."""


class Components:
    """The analyzer, stdlib rankers, fusion and decay policy of the configured search."""

    def __init__(self, analyzer, rankers: list, fusion, decay, skipped: list[str], names: dict):
        self.analyzer = analyzer
        self.rankers = rankers
        self.fusion = fusion
        self.decay = decay
        #: Configured rankers left out, each with why ("name: reason").
        self.skipped = skipped
        self.names = names


def _load(kind: str, name: str, what: str):
    from carto_core.plugin.resolve import resolve
    from carto_core.plugin.table import class_target

    target = class_target(kind, name)
    if target is None:
        raise LiteUnavailable(f"{what} {name!r} is not in the plugin table yet (run any "
                              "`carto search` once)")
    try:
        return resolve(target, standalone=True)
    except (ImportError, AttributeError) as exc:
        raise LiteUnavailable(f"{what} {name!r} ({target}) cannot be loaded: {exc}") from None


def has_lite(cls) -> bool:
    """Whether a ranker or fusion class implements its stdlib method (`rank_lite`,
    `fuse_lite`) rather than inheriting its base's refusal (`lite_opt_out`)."""
    from carto_core.search.api import Fusion, Ranker

    for base, method in ((Ranker, "rank_lite"), (Fusion, "fuse_lite")):
        if isinstance(cls, type) and issubclass(cls, base):
            return getattr(cls, method) is not getattr(base, method)
    return False


def resolve_components(config=None) -> Components:
    """The configured search's pieces (config file and environment, as `carto search`)."""
    if config is None:
        from carto_core.model.config import load_config

        config = load_config()
    analyzer_name = str(config.get("search.analyzer") or "english")
    if analyzer_name == "upstream":
        from carto_core.search.tokens import UpstreamAnalyzer

        analyzer = UpstreamAnalyzer()
    else:
        analyzer = _load("analyzers", analyzer_name, "analyzer")()
    rankers, skipped = [], []
    for name in dict.fromkeys(config.get("search.rankers") or ["bm25"]):
        try:
            cls = _load("rankers", name, "ranker")
        except LiteUnavailable as exc:
            skipped.append(f"{name}: {exc}")
            continue
        if has_lite(cls):
            rankers.append(cls())
        else:
            skipped.append(f"{name}: {cls.lite_opt_out}")
    fusion_name = str(config.get("search.fusion"))
    decay_name = str(config.get("search.decay"))
    fusion_cls = _load("fusions", fusion_name, "fusion")
    if not has_lite(fusion_cls):
        raise LiteUnavailable(f"fusion {fusion_name!r}: {fusion_cls.lite_opt_out}")
    decay = _load("decay_policies", decay_name, "decay policy")()
    names = {"analyzer": analyzer_name, "fusion": fusion_name, "decay": decay_name,
             "rankers": [r.name for r in rankers]}
    return Components(analyzer, rankers, fusion_cls(), decay, skipped, names)


def recall_report(registries, config=None) -> dict:
    """What the prompt-time recall runs of the configured search (`carto doctor`): the rankers
    that take part, those left out with why, and whether the fusion can run without numpy."""
    if config is None:
        from carto_core.model.config import load_config

        config = load_config()
    taking, left_out = [], {}
    for name in dict.fromkeys(config.get("search.rankers") or ["bm25"]):
        cls = registries.rankers.get(name) if name in registries.rankers else None
        if cls is None:
            left_out[name] = "not installed"
        elif has_lite(cls):
            taking.append(name)
        else:
            left_out[name] = cls.lite_opt_out
    fusion = str(config.get("search.fusion"))
    cls = registries.fusions.get(fusion) if fusion in registries.fusions else None
    return {"rankers": taking, "left_out": left_out, "fusion": fusion,
            "fusion_ok": cls is not None and has_lite(cls),
            "fusion_reason": "" if cls is None or has_lite(cls) else cls.lite_opt_out}


class _Index:
    """The `engine.index` a decay policy reads (only `event_id`)."""

    def __init__(self, view: IndexView):
        self.event_id = view.event_id


class _Engine:
    """What a decay policy reads of the engine: its index and its analyzer."""

    def __init__(self, view: IndexView, analyzer=None):
        self.index = _Index(view)
        self.analyzer = analyzer


def idf(df: int, n_docs: int) -> float:
    """A term's corpus statistic as the recall gate weighs it: BM25's idf (Lucene's form,
    `ln(1 + (N - df + .5) / (df + .5))`), whatever the configured rankers."""
    return math.log1p((n_docs - df + 0.5) / (df + 0.5)) if n_docs else 0.0


class TermStats:
    """One query term: its postings and corpus statistics (the recall gate reads them)."""

    __slots__ = ("term", "df", "idf", "docs", "tfs", "dls")

    def __init__(self, term, df, idf, docs, tfs, dls):
        self.term, self.df, self.idf = term, df, idf
        self.docs, self.tfs, self.dls = docs, tfs, dls


class LiteResult:
    """The fused, decayed candidates (best first) and what the query was."""

    def __init__(self, query: str, terms: list[TermStats], missing: list[str], ranked: list,
                 all_token_matches: int | None, n_docs: int, skipped: list[str], ms: float):
        self.query = query
        self.terms = terms
        self.missing = missing
        self.ranked = ranked
        self.all_token_matches = all_token_matches
        self.n_docs = n_docs
        self.skipped = skipped
        self.ms = ms


def query_terms(components: Components, text: str) -> list[str]:
    return list(components.analyzer.query(text).terms)


def search(view: IndexView, components: Components, text: str, *, terms: list[str] | None = None,
           exclude_sessions: frozenset[str] = frozenset(), served_ids=(), now: float | None = None,
           accesses: dict | None = None) -> LiteResult:
    """Rank the index for `text` as `run_search` would (the rankers with a stdlib method),
    with documents of `exclude_sessions` and the `served_ids` out of scope. `terms` overrides
    the analysis."""
    from carto_core.search.api import (DEPTH, DecayContext, LiteScope, Query, best_first,
                                       ladder_signals, trim)
    from carto_core.search.decay_knobs import decay_parameters
    from carto_core.search.tokens import term_hash

    started = time.perf_counter()
    now = time.time() if now is None else now
    analyzed = components.analyzer.query(text)
    if terms is None:
        terms = list(analyzed.terms)
    n_alive, _ = view.stats()
    alive = view.cols["alive"]
    excluded = {code for code, sid in enumerate(view.strings["sessions"]) if sid in exclude_sessions}
    session_col = view.cols["session"]
    served = frozenset(served_ids)
    hidden = {doc for doc in map(view.index_of, served) if doc is not None}

    def allows(doc: int) -> bool:
        return alive[doc] and doc not in hidden and session_col[doc] not in excluded

    stats: list[TermStats] = []
    missing: list[str] = []
    for term in terms:
        postings = view.postings(term_hash(term))
        if postings is None:
            missing.append(term)
        else:
            stats.append(TermStats(term, len(postings[0]), idf(len(postings[0]), n_alive), *postings))
    query = Query(text, tuple(terms), (), bool(getattr(analyzed, "question", False)),
                  getattr(analyzed, "compounds", ()))
    scope = LiteScope(allows, served)
    ladders = [ladder for ranker in components.rankers
               for ladder in ranker.rank_lite(query, view, scope, depth=DEPTH)]
    fused, _ = trim(components.fusion.fuse_lite(ladders, view, query))
    # the decay context as the pipeline builds it from the ladders
    context = DecayContext(now=now, query=query, accesses=accesses or {}, engine=_Engine(view, components.analyzer),
                           **ladder_signals(ladders), **decay_parameters())
    records = components.decay.apply(fused, context)
    best_first(records)
    return LiteResult(text, stats, missing, records, context.all_token_matches, n_alive,
                      components.skipped, round((time.perf_counter() - started) * 1000, 3))
