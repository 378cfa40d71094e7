"""The keyword search of `carto search`, stdlib only, over the persisted index (`IndexView`).

For callers that must not import numpy (the UserPromptSubmit recall runs inside an agent's
prompt hook). It is the same engine, not a look-alike: the configured analyzer, keyword ranker,
fusion and decay policy are the registered classes themselves, found by name through the plugin
table (`plugin.table.class_target`) and loaded without their plugin package's `__init__`; this
module only replaces the numpy arithmetic the ranker and the fusion do, step for step:

1. terms: `analyzer.query(text).terms` (prefix queries are not expanded here);
2. ladders: BM25 with the ranker's own `k1`, `b` and `idf()` over every posting of every
   term, N and the average length of the whole corpus, the scope mask applied before each
   log's ladder is cut to depth 500 (ties: the lower document first), one ladder per log named
   by the ranker's `ladder_name`; the gate count is the number of in-scope documents whose own
   text holds every term;
3. fusion: the fusion's `k`, `ladder_weight`, `gated` (told the query), each keyword
   contribution weighed by the candidate's share of the query's idf mass (`coverage_power`)
   and the salience prior (`weigh`), one contribution per (ladder, event), then the
   pipeline's trim (`TRIM` of the top score);
4. decay: the decay policy's own `apply`, with the pipeline's knobs and the access ledger.

`tests/search/test_lite.py` checks the order against `run_search` (keyword ladders only).
Rankers that are not BM25 (the semantic ladder: an embedder and numpy) are left out and named
in `LiteResult.skipped`. Rows appended since the index was saved (its tail) are not seen, and
the pipeline's lift of the turn after a found question (`search.answers`) is not done here.
"""

from __future__ import annotations

import time

from carto_core.search.index_view import LOG_LABELS, TF_SCALE, IndexView

DEPTH = 500
#: The pipeline's constants (carto_core.search.api); equal, a test checks it.
RRF_K = 60
TRIM = 0.10
SALIENCE_MIN, SALIENCE_MAX, SALIENCE_DEFAULT = 0.05, 1.0, 0.5


class LiteUnavailable(Exception):
    """The configured engine cannot run here (a class the plugin table does not know)."""


class Components:
    """The analyzer, keyword rankers, fusion and decay policy of the configured search."""

    def __init__(self, analyzer, rankers: list, fusion, decay, skipped: list[str], names: dict):
        self.analyzer = analyzer
        self.rankers = rankers
        self.fusion = fusion
        self.decay = decay
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
        except LiteUnavailable:
            skipped.append(name)
            continue
        if all(hasattr(cls, attr) for attr in ("k1", "b", "idf", "ladder_name")):
            rankers.append(cls())
        else:
            skipped.append(name)  # not a BM25 ladder (it needs its own engine)
    fusion_name = str(config.get("search.fusion"))
    decay_name = str(config.get("search.decay"))
    fusion = _load("fusions", fusion_name, "fusion")()
    decay = _load("decay_policies", decay_name, "decay policy")()
    names = {"analyzer": analyzer_name, "fusion": fusion_name, "decay": decay_name,
             "rankers": [r.name for r in rankers]}
    return Components(analyzer, rankers, fusion, decay, skipped, names)


class _Ladder:
    """What a fusion's `ladder_weight`/`gated` read of a ladder."""

    __slots__ = ("name", "ranker", "indices", "scores", "holds", "all_token_matches", "coverage")

    def __init__(self, name, ranker, indices, scores, holds, all_token_matches, coverage):
        self.name, self.ranker = name, ranker
        self.indices, self.scores, self.holds = indices, scores, holds
        self.all_token_matches = all_token_matches
        #: Per candidate, the share of the query's (positive) idf mass it holds.
        self.coverage = coverage

    def __len__(self) -> int:
        return len(self.indices)


class _Index:
    """The `engine.index` a decay policy reads (only `event_id`)."""

    def __init__(self, view: IndexView):
        self.event_id = view.event_id


class _Engine:
    def __init__(self, view: IndexView):
        self.index = _Index(view)


class TermStats:
    """One query term as the ranker sees it."""

    __slots__ = ("term", "df", "idf", "docs", "tfs", "dls")

    def __init__(self, term, df, idf, docs, tfs, dls):
        self.term, self.df, self.idf = term, df, idf
        self.docs, self.tfs, self.dls = docs, tfs, dls


class LiteResult:
    """The fused, decayed candidates (best first) and what the query was."""

    def __init__(self, query: str, terms: list[TermStats], missing: list[str], ranked: list,
                 all_token_matches: int, n_docs: int, skipped: list[str], ms: float):
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
    """Rank the index for `text` as `run_search` would (keyword ladders), with documents of
    `exclude_sessions` and the `served_ids` out of scope. `terms` overrides the analysis."""
    from carto_core.search.api import DecayContext, Fused, Query
    from carto_core.search.decay_knobs import decay_parameters
    from carto_core.search.tokens import term_hash

    started = time.perf_counter()
    now = time.time() if now is None else now
    analyzed = components.analyzer.query(text)
    if terms is None:
        terms = list(analyzed.terms)
    n_alive, avgdl = view.stats()
    alive = view.cols["alive"]
    sessions = view.strings["sessions"]
    excluded_codes = {code for code, sid in enumerate(sessions) if sid in exclude_sessions}
    session_col = view.cols["session"]
    hidden_docs = set()
    for event_id in served_ids:
        doc = view.index_of(event_id)
        if doc is not None:
            hidden_docs.add(doc)

    def in_scope(doc: int) -> bool:
        return alive[doc] and doc not in hidden_docs and session_col[doc] not in excluded_codes

    found: list[tuple[str, tuple]] = []
    missing = []
    for term in terms:
        postings = view.postings(term_hash(term))
        if postings is None:
            missing.append(term)
        else:
            found.append((term, postings))
    source = view.cols["source"]
    ladders: list[_Ladder] = []
    stats: list[TermStats] = []
    all_matches = 0
    for ranker in components.rankers:
        stats = [TermStats(term, len(p[0]), ranker.idf(len(p[0]), n_alive), *p) for term, p in found]
        holders = _holders(stats) if stats and not missing else set()
        all_matches = sum(1 for doc in holders if in_scope(doc))
        scores = _bm25(stats, ranker.k1, ranker.b, avgdl)
        positive = [t for t in stats if t.idf > 0]
        # a query word no document holds still counts in the whole, as BM25Ranker counts it
        unheld = len(missing) * ranker.idf(0, n_alive)
        mass = sum(t.idf for t in positive) + unheld
        by_log: dict[int, list[tuple[float, int]]] = {}
        for doc, score in scores.items():
            if score > 0 and in_scope(doc):
                by_log.setdefault(source[doc], []).append((-score, doc))
        for code in sorted(by_log):
            top = sorted(by_log[code])[:DEPTH]
            indices = [doc for _, doc in top]
            ladders.append(_Ladder(ranker.ladder_name(LOG_LABELS[code]), ranker.name, indices,
                                   [-s for s, _ in top], [doc in holders for doc in indices],
                                   all_matches, _coverage(positive, mass, indices, unheld)))
    query = Query(text, tuple(terms), (), bool(getattr(analyzed, "question", False)))
    fused = _fuse(components.fusion, ladders, view, query)
    rarest = min((t.df for t in stats), default=None) if stats and not missing else None
    context = DecayContext(now=now, query=query, accesses=accesses or {},
                           all_token_matches=all_matches if ladders else None,
                           engine=_Engine(view), rarest_holders=rarest, **decay_parameters())
    records = [Fused(doc, score, [name], {name: rank}, held, salience, ts, score)
               for doc, score, name, rank, held, salience, ts in fused]
    records = components.decay.apply(records, context)
    records.sort(key=lambda f: f.index)
    records.sort(key=lambda f: f.score, reverse=True)
    return LiteResult(text, stats, missing, records, all_matches, n_alive, components.skipped,
                      round((time.perf_counter() - started) * 1000, 3))


def _holders(stats: list[TermStats]) -> set[int]:
    """Documents whose own text (tf >= TF_SCALE) holds every term."""
    ordered = sorted(stats, key=lambda s: s.df)
    first = ordered[0]
    held = {doc for doc, tf in zip(first.docs, first.tfs) if tf >= TF_SCALE}
    for term in ordered[1:]:
        if not held:
            break
        held = {doc for doc, tf in zip(term.docs, term.tfs) if tf >= TF_SCALE and doc in held}
    return held


def _coverage(positive: list[TermStats], mass: float, docs: list[int],
              unheld: float = 0.0) -> list[float]:
    """Per document, the share of the query's idf mass (its positive-idf terms and `unheld`,
    the idf of the words no document holds) it holds, as the BM25 ladder reports it (any
    posting counts, context included)."""
    if (len(positive) == 1 and not unheld) or not mass:
        return [1.0] * len(docs)
    import bisect

    out = []
    for doc in docs:
        held = 0.0
        for term in positive:
            i = bisect.bisect_left(term.docs, doc)
            if i < len(term.docs) and term.docs[i] == doc:
                held += term.idf
        out.append(held / mass)
    return out


def _bm25(stats: list[TermStats], k1: float, b: float, avgdl: float) -> dict[int, float]:
    """doc -> BM25 score over every posting of the terms (idf <= 0 terms add nothing)."""
    scores: dict[int, float] = {}
    base = k1 * (1.0 - b)
    per_length = k1 * b / (avgdl or 1.0)
    get = scores.get
    for term in stats:
        if term.idf <= 0:
            continue
        lift = term.idf * (k1 + 1.0)
        for doc, tf, dl in zip(term.docs, term.tfs, term.dls):
            t = tf / TF_SCALE
            scores[doc] = get(doc, 0.0) + lift * t / (t + base + per_length * dl)
    return scores


def _fuse(fusion, ladders: list[_Ladder], view: IndexView, query) -> list[tuple]:
    """(doc, score, ladder, rank, holds, salience, ts) after fusion and the trim, as the
    fusion's `fuse` computes them (its `k`, `ladder_weight`, `gated`, `coverage_power` and
    `weigh`)."""
    import inspect

    ladders = [ladder for ladder in ladders if len(ladder)]
    if hasattr(fusion, "gated"):
        takes_query = "query" in inspect.signature(fusion.gated).parameters
        ladders = fusion.gated(ladders, query) if takes_query else fusion.gated(ladders)
    if not ladders:
        return []
    k = getattr(fusion, "k", RRF_K)
    power = getattr(fusion, "coverage_power", 0.0)
    totals: dict[int, float] = {}
    first: dict[int, tuple[str, int, bool]] = {}
    held: dict[int, bool] = {}
    for ladder in ladders:
        weight = fusion.ladder_weight(ladder) if hasattr(fusion, "ladder_weight") else 1.0
        seen = set()
        cover = ladder.coverage if power else None
        for rank, (doc, holds) in enumerate(zip(ladder.indices, ladder.holds), 1):
            if doc in seen:
                continue
            seen.add(doc)
            contribution = weight / (k + rank)
            if cover is not None:
                contribution *= cover[rank - 1] ** power
            totals[doc] = totals.get(doc, 0.0) + contribution
            held[doc] = held.get(doc, False) or holds
            first.setdefault(doc, (ladder.name, rank, holds))
    salience_col = view.cols["salience"]
    ts_col = view.cols["ts"]
    weigh = getattr(fusion, "weigh", lambda s: s)
    out = []
    for doc, total in totals.items():
        salience = salience_col[doc]
        if salience != salience or salience == 0:
            salience = SALIENCE_DEFAULT
        else:
            salience = min(SALIENCE_MAX, max(SALIENCE_MIN, salience))
        ts = ts_col[doc]
        out.append((doc, total * weigh(salience), first[doc][0], first[doc][1], held[doc],
                    salience, None if ts != ts else ts))
    floor = max(score for _, score, *_ in out) * TRIM
    return [entry for entry in out if entry[1] >= floor]

