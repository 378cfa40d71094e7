"""The one search pipeline behind `run_search` (DESIGN section 5).

scope -> ladders (cut to depth after scope) -> fusion x salience -> 10 % trim -> decay -> the
first results ordered by nearness (`search.nearness`) and, for a question asking how things are
now, by what the turns say (`search.current`) -> for a question, answers lent and formulas put
under the rest (`search.answers`) -> a question's first fifty ordered by learned trees
(`search.learned`; `CARTO_SEARCH_ORDER=rules` leaves the rules' order) -> page.
"""

from __future__ import annotations

import copy
import os
import time
from collections import Counter
from operator import itemgetter
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import numpy as np

from carto_core.util.lazyre import Lazy
from carto_core.search.api import (
    QUERY_MAX_CHARS,
    SEMANTIC,
    RankContext,
    TRIM,
    DecayContext,
    EmptyHomeError,
    Fused,
    Ladder,
    LadderReport,
    LadderUnavailable,
    Query,
    SearchError,
    SearchHit,
    SearchRequest,
    SearchResult,
    SearchUsageError,
    SemanticState,
    best_first,
    bounded_query,
    ladder_signals,
    trim,
)

from carto_core.search.answers import formulas_last, lend_answers, turn_codes
from carto_core.search.current import current_first
from carto_core.search.learned import (POOL as LEARNED_POOL, on as learned_on,
                                       order as learned_order)
from carto_core.search.nearness import nearest_first
from carto_core.search.floor import (RECORDS_COUNTED, judge, record_band, switched_off,
                                     unheld_names, unheld_words)

if TYPE_CHECKING:
    from carto_core.search.engine import SearchEngine
    from carto_core.search.telemetry import Telemetry
from carto_core.search.decay_knobs import decay_parameters, hours_since, reuse_boost  # noqa: F401

FACET_WINDOW = 500
_TEXT_CHAIN = ("summary", "description", "prompt", "url", "query", "event_id", "milestone")


def _names_left_out(request: SearchRequest) -> bool:
    """Whether the request leaves a ranker, fusion or decay name to the config file."""
    return request.rankers is None or request.fusion is None or request.decay is None


def resolve_names(request: SearchRequest, engine, config=None) -> tuple[list[str], str, str]:
    """(ladder ranker names, fusion name, decay name), validated against the registries;
    `config` (a loaded `Config`; loaded here when None) is read when the request leaves a name
    out (`_names_left_out`)."""
    if config is None and _names_left_out(request):
        from carto_core.model.config import load_config

        config = load_config()
    rankers = list(request.rankers) if request.rankers else list(config.get("search.rankers"))
    fusion = request.fusion or str(config.get("search.fusion"))
    decay = request.decay or str(config.get("search.decay"))
    ladders = engine.registries.rankers.names()
    fusions = engine.registries.fusions.names()
    for name in rankers:
        if name not in ladders:
            raise SearchUsageError(
                f"unknown ranker {name!r}; accepted: {', '.join(ladders) or '(none installed)'}")
    if fusion not in fusions:
        raise SearchUsageError(
            f"unknown fusion {fusion!r}; accepted: {', '.join(fusions) or '(none installed)'}")
    policies = engine.registries.decay_policies.names()
    if decay not in policies:
        raise SearchUsageError(
            f"unknown decay policy {decay!r}; accepted: {', '.join(policies) or '(none installed)'}")
    rankers = list(dict.fromkeys(rankers))
    if request.semantic is False:
        rankers = [n for n in rankers if n != SEMANTIC]
    elif SEMANTIC not in rankers and (SEMANTIC in ladders or request.semantic):
        rankers.append(SEMANTIC)
    return rankers, fusion, decay


_OFF = frozenset({"0", "false", "no", "off"})
NO_SEMANTIC_RANKER = "no semantic ranker is installed"


def _switched_off(config) -> bool:
    """Whether the semantic ladder is switched off (`CARTO_SEMANTIC=0`, else `[semantic]
    enabled = false`: the precedence of `SemanticSettings`), read without the semantic modules."""
    value: object = os.environ.get("CARTO_SEMANTIC", "")
    if value == "":
        if config is None:
            from carto_core.model.config import load_config

            config = load_config()
        value = config.section("semantic").get("enabled", True)
    if isinstance(value, str):
        return value.strip().lower() in _OFF
    return value is False


def floor_off(config) -> bool:
    """Whether the relevance floor is switched off (`CARTO_SEARCH_FLOOR=0`, else `[search]
    floor = false`), reading the config file only when the variable is not set."""
    if config is None and not os.environ.get("CARTO_SEARCH_FLOOR"):
        from carto_core.model.config import load_config

        try:
            config = load_config()
        except Exception:  # an unreadable config file: the names' resolution reports it
            return False
    return switched_off(config)


def _asks_first(name: str, request: SearchRequest, config) -> bool:
    """Whether the ranker `name` of a gated ladder is still asked whether it could answer: the
    semantic ranker of a search that insists on it (`--semantic`: it says why it cannot) or
    that has it switched off (`disabled`, as any other search of that home says)."""
    if name != SEMANTIC:
        return False
    try:
        return bool(request.semantic) or _switched_off(config)
    except Exception:  # an unreadable config file: the ranker's own check reports it
        return True


def _semantic_default(request: SearchRequest, engine) -> SemanticState:
    """The semantic state before (or without) the semantic ranker's own answer."""
    if request.semantic is False:
        return SemanticState("disabled", "--no-semantic: keyword ladders only")
    if os.environ.get("CARTO_SEMANTIC", "").strip().lower() in _OFF:
        return SemanticState("disabled", "switched off by CARTO_SEMANTIC=0")
    if SEMANTIC not in engine.registries.rankers:
        return SemanticState("unavailable", NO_SEMANTIC_RANKER, "pip install carto-rankers")
    return SemanticState("unavailable", "the semantic ranker was not run")


GATED_REASON = ("not run: the fusion gates this ladder out for this query (a document holds "
                "every query word)")
#: `semantic.state` of a search whose semantic ladder was gated out: the ranker was neither
#: run nor asked whether it could answer (that cost a cold lookup the semantic modules'
#: imports, the embedder's check, the store's count, the pending count).
UNCHECKED = "unchecked"
UNCHECKED_REASON = ("not checked: the fusion gates the semantic ladder out for this query (a "
                    "document holds every query word)")


def _gated_out(fusion, ladders: list[Ladder], name: str, query: Query) -> bool:
    """Whether `fusion` would drop the ladder of ranker `name` beside `ladders`: asked with an
    empty ladder of it (`Fusion.gated`; a fusion without `gated` drops nothing). The semantic
    ladder of a lookup is the case: a cold search then skips the whole vector scan."""
    gated = getattr(fusion, "gated", None)
    if gated is None:
        return False
    probe = Ladder(name, np.zeros(0, np.int64), np.zeros(0, np.float64), ranker=name)
    kept = gated(ladders + [probe], query) if _takes_query(gated) else gated(ladders + [probe])
    return not any(ladder is probe for ladder in kept)


#: A commit sha: 7 to 40 hex digits (git's shortest default abbreviation is 7). The whole 40
#: is asked as a prefix too (a term starts with itself), so one that no row holds is named by
#: the floor as a short one is.
SHA_MIN, SHA_MAX = 7, 40
_HEX = "0123456789abcdef"


def short_shas(terms: tuple[str, ...], prefixes: tuple[str, ...]) -> tuple[tuple, tuple]:
    """(terms, prefixes) with each sha term moved to the prefixes: commit rows hold the 40
    characters (`commit_hash`, an indexed field), so `fdb21e0` finds its commit as `fdb21e0*` does (a row holding the short
    form itself still matches: a term starts with itself)."""
    short = [t for t in terms if SHA_MIN <= len(t) <= SHA_MAX and not t.strip(_HEX)]
    if not short:
        return terms, prefixes
    return (tuple(t for t in terms if t not in short),
            tuple(dict.fromkeys((*prefixes, *short))))


def no_word_message(text: str, analyzer: str) -> str:
    """Why a query gave no term to look up, and what to type instead."""
    if text.strip() and not any(ch.isalnum() for ch in text):
        return (f"the query {text.strip()!r} holds no letter or digit: the index keeps words "
                "(letters and digits of any script), not emoji or symbols, so nothing could "
                "match it; search for the words around it instead")
    if text.strip():
        return (f"no word of the query {text.strip()!r} is one the {analyzer!r} analyzer "
                "indexes; give a query with at least one such word (the english and unicode "
                "analyzers read every script), or --project NAME alone to orient on a project")
    return ("give a query with at least one word (or --project NAME alone to orient on a "
            "project)")


def has_logs(engine) -> bool:
    return any(path.is_file() and path.stat().st_size > 0
               for path in engine.home.searched_logs().values())


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


class _Laps:
    """Each stage's wall time in ms (`SearchResult.stages_ms`), the clock started here."""

    def __init__(self):
        self.stages: dict[str, float] = {}
        self.clock = time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        self.stages[name] = round((now - self.clock) * 1000, 3)
        self.clock = now


class _Plan:
    """What resolving a request gives the later stages: the request (its query bounded), the
    config file when it was read, the ladder rankers, fusion and decay names, the analysed
    query and the query's length as given, whether the relevance floor judges and whether the
    learned order is switched on."""

    __slots__ = ("request", "config", "rankers", "fusion_name", "decay_name", "query", "given",
                 "floor", "learned")

    def __init__(self, request, config, rankers, fusion_name, decay_name, query, given, floor,
                 learned=False):
        self.request, self.config = request, config
        self.rankers, self.fusion_name, self.decay_name = rankers, fusion_name, decay_name
        self.query, self.given, self.floor, self.learned = query, given, floor, learned


class _Made:
    """What the ladder stage made: the ladders to fuse and the fusion that will, a report per
    ladder (or ranker that gave none), the semantic state, the served documents delta serving
    hid, and the evidence floors the ladders stated (the relevance floor's)."""

    __slots__ = ("fusion", "ladders", "reports", "semantic", "hidden", "stated")

    def __init__(self, fusion, semantic: SemanticState):
        self.fusion, self.semantic = fusion, semantic
        self.ladders: list[Ladder] = []
        self.reports: list[LadderReport] = []
        self.hidden = 0
        self.stated: list[float] = []


def _holding(engine, query):
    """For the relevance floor: how many of the query's words some documents hold in their own
    text (the postings of its terms, read only when a record reaches the band; a hyphenated
    word by its parts), every one for a prompt: a person's words, answering a vague question
    in other words as a turn does ("What have I told you about my relatives?", "my aunt is
    planning grandpa's ninetieth")."""
    from carto_core.search.index import LOG_CODE

    terms = list(dict.fromkeys(query.tokens))
    wholes = {compound[0] for compound in query.compounds}
    words = [term for term in terms if term not in wholes] or terms

    def holding(indices):
        indices = np.asarray(indices, np.int64)
        said = np.asarray(engine.index.cols["source"])[indices] == LOG_CODE.get("prompts", -1)
        held = np.zeros(len(indices), np.int64)
        for term in words:
            held += np.isin(indices, engine.index.own_docs(term))
        held[said] = max(len(words), 1)
        return held

    return holding


def _needed(engine, query):
    """For the relevance floor: how many of the query's words a record must hold, asked when
    one reaches the band: two when the query holds a word no row holds (a hyphenated word
    whose parts rows hold is not one) and two words the home holds, else one."""

    def needed() -> int:
        df = engine.index.df
        terms = list(dict.fromkeys(query.tokens))
        held = {term for term in terms if df(term)}
        wholes = {compound[0] for compound in query.compounds}
        # a hyphenated word no row holds whole is judged by its parts, words of the query too
        if all(term in held or term in wholes for term in terms):
            return 1
        return max(1, min(2, len(held - wholes)))

    return needed


def execute(request: SearchRequest, engine, telemetry=None) -> SearchResult:
    """One search, stage by stage (`stages_ms` times each): resolve (names, bounded and
    analysed query), load (the index refreshed), scope, ladders (each ranker's, cut to depth
    after the scope), fusion, trim (and the relevance floor), decay (and answers lent to a
    question), render (the page, facets, phantoms)."""
    started = time.time()
    lap = _Laps()
    plan = _resolve(request, engine)
    request, query = plan.request, plan.query
    lap("resolve")
    if engine.auto_refresh:
        engine.refresh()
    else:
        engine.ensure_loaded()
    lap("load")
    scope, session_id = _scope(request, engine)
    _let_go(engine)
    lap("scope")
    made = _ladders(plan, engine, scope)
    lap("ladders")
    conversation, records = _conversation(engine), _records(engine, scope.mask)
    fusing = records_set_aside(made.ladders, conversation, records)
    if _takes_query(type(made.fusion).fuse):
        fused = made.fusion.fuse(fusing, engine, query=query)
    else:  # a fusion written before `fuse` was given the query
        fused = made.fusion.fuse(fusing, engine)
    lap("fusion")
    _let_go(engine)
    fused = gaps_left_out(engine, fused, request.query)
    candidates = len(fused)
    fused, floor = trim(fused)
    verdict = judge(made.ladders, len(fused), made.stated, enabled=plan.floor,
                    conversation=conversation, records=records,
                    unheld_words=lambda: unheld_words(request.query, engine.analyzer,
                                                      engine.index.df),
                    unmatched=unmatched_prefixes(query, engine.index),
                    holding=_holding(engine, query), worked=_worked(engine),
                    needed=_needed(engine, query),
                    named=lambda: unheld_names(request.query, engine.analyzer,
                                               engine.index.df))
    if not verdict.found:
        fused = []  # nothing is evidence: the search found nothing (exit 3), and says why
    if not fused and not verdict.unheld_words:
        # whatever emptied the page, the words the home never holds are what to ask again
        # without ("No row holds kubernetes, helm.")
        verdict.unheld_words = unheld_words(request.query, engine.analyzer, engine.index.df)
    lap("trim")
    read: dict[int, dict] = {}  # rows read back from the logs, shared by the steps below
    fused, context, params = _decay(plan, engine, made.ladders, fused, scope, read)
    _let_go(engine)
    lap("decay")
    reorder = (plan.learned and plan.query.question
               and any(ladder.ranker == SEMANTIC for ladder in made.ladders))
    hits, facets, unknown = _render(request, engine, fused, made.reports, read, reorder)
    lap("render")
    result = SearchResult(
        query=request.query, results=hits, total=len(fused), facets=facets, ladders=made.reports,
        stages_ms=lap.stages, semantic=made.semantic, decay=plan.decay_name,
        fusion=plan.fusion_name, suppressed=made.hidden, session_id=session_id,
        project=request.project,
        since=_iso(request.since.timestamp()) if request.since else None,
        before=_iso(request.before.timestamp()) if request.before else None,
        index_generation=engine.generation,
        call_id=telemetry.call_id if telemetry is not None else "",
        unknown_entities=unknown, intent=request.intent, floor=verdict,
        query_cut=plan.given if plan.given > QUERY_MAX_CHARS else None,
        explain=_explain(plan.fusion_name, plan.decay_name, candidates, floor, len(fused),
                         context, params, made.ladders, fused) if request.explain else None,
        skipped_files=engine.skipped_files(),
    )
    if telemetry is not None:
        telemetry.record_search(request, result, started, time.time())
        result.skipped_files += telemetry.skipped
    return result


def unmatched_prefixes(query: Query, index) -> list[str]:
    """The query's prefixes that no indexed word starts with, as typed: `deploy*`, or a
    short sha without its star."""
    typed = query.text.lower()
    return [f"{prefix}*" if f"{prefix}*" in typed else prefix for prefix in query.prefixes
            if not index.holds_prefix(prefix)]


def records_set_aside(ladders: list[Ladder], conversation, records=None) -> list[Ladder]:
    """The ladders fusion ranks: a ladder with an evidence band (minilm's) without the records
    it holds under the band (rows that are no turn of a conversation: `conversation`), which
    are no evidence either (`floor.judge`); on a home of few records (`records`, the count a
    ladder can hold), under `floor.record_band` (on one of many, the band still: the rise over
    it judges whether the search found anything). A ladder is dropped when nothing is left. A
    record a keyword ladder holds stays a candidate through that ladder (docs/ranking.md,
    "Records under the band are no candidates")."""
    out = []
    for ladder in ladders:
        band = ladder.evidence_band
        if band is None or not len(ladder):
            out.append(ladder)
            continue
        band = min(band, record_band(ladder, records))
        keep = np.asarray(conversation(ladder.indices), bool) | (np.asarray(ladder.scores) >= band)
        if keep.all():
            out.append(ladder)
            continue
        if not keep.any():
            continue
        kept = copy.copy(ladder)
        for name in ("indices", "scores", "holds_all", "coverage"):
            values = getattr(ladder, name)
            if values is not None:
                setattr(kept, name, np.asarray(values)[keep])
        out.append(kept)
    return out


def _conversation(engine):
    """Which of a ladder's documents are turns of a conversation (the floor judges only them
    under a ladder's band)."""
    codes = np.asarray(sorted(turn_codes()))
    source = engine.index.cols["source"]
    return lambda indices: np.isin(np.asarray(source)[np.asarray(indices, np.int64)], codes)


def _worked(engine):
    """Which of a ladder's documents are turns in which the agent worked (the `intent`
    column's `WORKED` bit): the floor judges them as records of that work."""
    from carto_core.search.rowfields import WORKED

    intent = engine.index.cols["intent"]
    return lambda indices: (np.asarray(intent)[np.asarray(indices, np.int64)] & WORKED) != 0


def _records(engine, mask=None):
    """How many records (rows that are no turn of a conversation, or a turn of work: `_worked`;
    of a type the ladder's embedder embeds) a ladder can hold within the search's scope (`mask`,
    None: the whole home), counted up to `floor.RECORDS_COUNTED` (past it the record band no longer moves):
    a slice at a time, so a home of many records is told after its first slice. The scope's:
    its records are the ladder's only candidates, so an unrelated question's nearest record
    is the nearest of those (`search --project` of fifty commits in a home of thousands of
    rows is judged as a home of fifty is)."""
    from carto_core.search.rowfields import WORKED

    codes = np.asarray(sorted(turn_codes()))
    index = engine.index
    counted: dict[tuple, int] = {}

    def count(ladder) -> int:
        unseen = tuple(ladder.unseen_types)
        if unseen not in counted:
            # a scope's rows by position: a narrow scope of a large home reads its own rows
            where = None if mask is None else np.flatnonzero(mask)
            rows = len(index) if where is None else len(where)
            source, types, intent = index.cols["source"], index.cols["type"], index.cols["intent"]
            alive = None if index.n_alive == len(index) else index.cols["alive"]
            held = 0
            for start in range(0, rows, _SLICE):
                cut = slice(start, start + _SLICE) if where is None else where[start:start + _SLICE]
                kept = ~np.isin(source[cut], codes) | ((np.asarray(intent[cut]) & WORKED) != 0)
                if unseen:
                    kept &= ~np.isin(types[cut], unseen)
                if alive is not None:
                    kept &= np.asarray(alive[cut], bool)
                held += int(np.count_nonzero(kept))
                if held >= RECORDS_COUNTED:
                    break
            counted[unseen] = held
        return counted[unseen]

    return count


_SLICE = 4096


def _resolve(request: SearchRequest, engine) -> _Plan:
    """The request checked (limit, intent), its names resolved (`resolve_names`), its query
    bounded and analysed; a usage error for a query with no word, EmptyHomeError for a home
    with no searched log."""
    if request.limit is None or request.limit < 1:
        raise SearchUsageError("--limit must be a whole number of at least 1")
    if request.intent is not None:
        from carto_core.intents import KEY_SET, unknown_key_message

        if request.intent not in KEY_SET:
            raise SearchUsageError(unknown_key_message(request.intent))
    config = None  # loaded when a name is left out, or to see whether semantic is switched off
    if _names_left_out(request):
        from carto_core.model.config import load_config

        config = load_config()
    rankers, fusion_name, decay_name = resolve_names(request, engine, config)
    try:
        floor = not floor_off(config)
        learned = learned_on()
    except ValueError as exc:  # refused before answering, as an unknown decay policy is
        raise SearchUsageError(str(exc)) from None
    given = len(request.query or "")
    if given > QUERY_MAX_CHARS:
        # Every ladder, the telemetry and the answer see the bounded query (a copy: the
        # caller's request is left as it was).
        request = copy.copy(request)
        request.query = bounded_query(request.query)
    analyzed = engine.analyzer.query(request.query or "")
    terms, prefixes = short_shas(analyzed.terms, analyzed.prefixes)
    query = Query(request.query or "", terms, prefixes, analyzed.question, analyzed.compounds)
    if not query.tokens and not query.prefixes:
        raise SearchUsageError(no_word_message(request.query or "", engine.analyzer.name))
    if not has_logs(engine):
        from carto_core.model.corpus import none_readable

        damaged = none_readable(engine.home, engine.home.searched_logs())
        if damaged:  # not an empty home: one whose logs cannot be read
            raise SearchError(damaged)
        raise EmptyHomeError(
            f"no searched logs in {engine.home.root}; record some with `carto install` (live "
            "hooks) or backfill history with `carto ingest`")
    return _Plan(request, config, rankers, fusion_name, decay_name, query, given, floor, learned)


def _scope(request: SearchRequest, engine):
    """(the scope: window, project, prompt intent, sessions, served ids; the session whose
    served ids delta serving hides, "" for none)."""
    project_scope = None
    if request.project:
        from carto_core.model.project import ProjectScope

        project_scope = ProjectScope.parse(request.project)
    served: frozenset[str] = frozenset()
    session_id = request.session_id or ""
    if session_id and not request.all:
        from carto_core.search.telemetry import read_served

        served = frozenset(read_served(engine.home, session_id))
    scope = engine.scope(since=request.since, before=request.before, project=project_scope,
                         served_ids=served, intent=request.intent, sessions=request.sessions)
    return scope, session_id


def _let_go(engine) -> None:
    """Between stages: the pages of the index this search has read so far, let go
    (`KeywordIndex.release_pages`; a small index keeps them). The next stage reads what it
    needs again from the page cache: the peak is then the largest stage, not their sum."""
    release = getattr(engine, "release_pages", None)
    if release is not None:
        release()


def _ladders(plan: _Plan, engine, scope) -> _Made:
    """Every ranker of the plan asked in turn (`_ask`), with what the rankers may read of the
    search (`RankContext`)."""
    made = _Made(engine.fusion(plan.fusion_name), _semantic_default(plan.request, engine))
    context = RankContext(engine)
    for name in plan.rankers:
        _ask(name, plan, engine, scope, context, made)
        _let_go(engine)
    return made


def _ask(name: str, plan: _Plan, engine, scope, context: RankContext, made: _Made) -> None:
    """Ranker `name`'s ladders into `made`, or a report of why it gave none (not installed,
    gated out by the fusion, unavailable, failed, empty); the semantic state follows the
    semantic ranker's answer."""
    t0 = time.perf_counter()
    request, query = plan.request, plan.query
    if name == SEMANTIC and made.semantic.reason == NO_SEMANTIC_RANKER:
        made.reports.append(LadderReport(name, name, "unavailable", made.semantic.reason))
        return  # asked for with --semantic, but no semantic ranker is installed
    # A ladder the fusion would drop is not computed, and its ranker is not even asked
    # whether it could answer (reported `unchecked`), unless the search insists on the
    # semantic ladder (`--semantic`: say why it cannot answer) or it is switched off (say
    # `disabled`, as a question's search does).
    gated = bool(made.ladders) and _gated_out(made.fusion, made.ladders, name, query)
    if gated and not _asks_first(name, request, plan.config):
        made.reports.append(LadderReport(name, name, "gated", GATED_REASON))
        if name == SEMANTIC:
            made.semantic = SemanticState(UNCHECKED, UNCHECKED_REASON)
        return
    try:
        ranker = engine.ranker(name)
        state = ranker.availability(engine)
    except Exception as exc:  # a broken plugin must not cost the keyword results
        state, ranker = SemanticState("unavailable", f"{type(exc).__name__}: {exc}"), None
    if state.state != "available" or gated:  # unavailable says so before gated does
        if state.state != "available":
            reason = state.reason if state.state != "disabled" else f"disabled ({state.reason})"
            made.reports.append(LadderReport(name, name, "unavailable", reason))
        else:
            made.reports.append(LadderReport(name, name, "gated", GATED_REASON))
        if name == SEMANTIC:
            made.semantic = state
        return
    try:
        produced = ranker.rank(query, scope, context, depth=request.depth)
    except LadderUnavailable as exc:
        made.reports.append(LadderReport(name, name, "error", exc.state.label()))
        if name == SEMANTIC:
            made.semantic = exc.state
        return
    except Exception as exc:
        made.reports.append(LadderReport(name, name, "error", f"{type(exc).__name__}: {exc}"))
        if name == SEMANTIC:
            made.semantic = SemanticState("unavailable", f"the query failed: {type(exc).__name__}: {exc}")
        return
    ms = round((time.perf_counter() - t0) * 1000, 3)
    if not produced:
        made.reports.append(LadderReport(name, name, "empty", "the ranker found no candidate",
                                         ms=ms))
    for ladder in produced:
        ladder.ranker = ladder.ranker or name
        made.hidden += ladder.hidden
        if ladder.evidence_floor is not None:  # even empty: the floor then judges the rest
            made.stated.append(ladder.evidence_floor)
        if not len(ladder):
            # nothing to fuse; say why (and it may carry the delta-serving count)
            made.reports.append(LadderReport(ladder.name, name, "empty",
                                             ladder.reason or "no candidate", 0, 0, ms))
            continue
        made.ladders.append(ladder)
        made.reports.append(LadderReport(ladder.name, name, "ok", "", len(ladder), 0, ms))
    if name == SEMANTIC:
        made.semantic = state


def _decay(plan: _Plan, engine, ladders: list[Ladder], fused: list[Fused], scope,
           read: dict | None = None):
    """(the candidates decayed and ordered best first, answers lent to a question; the decay
    context; the decay knobs). `read`: the rows the steps read, by document, for the page."""
    request, query = plan.request, plan.query
    now_dt = request.now or datetime.now(timezone.utc)
    params = decay_parameters()
    context = DecayContext(now=now_dt.timestamp(), query=query, accesses=engine.accesses(),
                           engine=engine, **ladder_signals(ladders), **params)
    fused = engine.decay_policy(plan.decay_name).apply(fused, context)
    best_first(fused)
    page = engine.fusion(plan.fusion_name).closeness_page
    if page:
        fused = nearest_first(fused, page)
    if engine.analyzer.asks_how_things_are_now(query.text):
        fused = current_first(engine, fused, read=read)
    if query.question and fused:
        fused = formulas_last(engine, lend_answers(engine, fused, scope, query.text, read),
                              read)
    return fused, context, params


def _render(request: SearchRequest, engine, fused: list[Fused], reports: list[LadderReport],
            read: dict | None = None, reorder: bool = False):
    """(the page's hits, the facets, the phantom entities of a search that found nothing); each
    report learns how many of the page its ladder contributed. `read`: the rows the steps
    before read already, by document. `reorder`: the first `search.learned.POOL` are ordered by
    the learned trees first (unless the lookup gate lifted the first), then the page is cut."""
    # a first result the lookup gate lifted is the newest row holding every word: the rules'
    # answer to "what's new with X", which the trees, fitted on other questions, would move
    reorder = reorder and bool(fused) and not fused[0].gated
    limit = max(request.limit, LEARNED_POOL) if reorder else request.limit
    if request.collapse:
        page, rows, folded = _collapse(engine, fused, limit, read)
    else:
        page = fused[:limit]
        rows, folded = engine.index.rows([f.index for f in page], read), [0] * len(page)
    hits = [_hit(engine, f, row, rank, request.include_rows)
            for rank, (f, row) in enumerate(zip(page, rows), 1)]
    if reorder:
        pool = min(len(hits), LEARNED_POOL)
        described = [{"id": h.event_id, "score": h.score, "type": h.type, "ts": h.timestamp,
                      "text": h.summary, "why": _why(f), "dup": n}
                     for h, f, n in zip(hits[:pool], page, folded)]
        places = learned_order(request.query, described) + list(range(pool, len(hits)))
        places = places[: request.limit]
        page, hits, folded = ([page[i] for i in places], [hits[i] for i in places],
                              [folded[i] for i in places])
        for rank, hit in enumerate(hits, 1):
            hit.rank = rank
    _let_go(engine)
    if request.explain:
        for hit, f in zip(hits, page):
            hit.why = _why(f)
    for hit, count in zip(hits, folded):
        hit.duplicates = count
    for report in reports:
        report.contributed = sum(1 for f in page if report.name in f.sources)
    facets = _facets(engine, fused[:FACET_WINDOW]) if request.facets else {}
    unknown = _unknown_entities(engine, request.query) if not hits else []
    return hits, facets, unknown


def _why(f: Fused) -> dict:
    """Why one result ranked where it did: the pieces its final score is the product of."""
    return {"ranks": dict(f.ranks), "sources": list(f.sources),
            "fused_score": round(f.fused_score, 8), "decay": round(f.decay, 6),
            "boost": round(f.boost, 6), "gated": f.gated, "holds_all_tokens": f.holds_all_tokens,
            "reuse_count": f.reuse_count, "salience": round(f.salience, 4),
            "score": round(f.score, 8)}


def _explain(fusion: str, decay: str, candidates: int, floor: float | None, kept: int,
             context: DecayContext, params: dict, ladders: list, fused: list) -> dict:
    """The call's decisions: how many candidates fusion made, what the trim kept, what the
    lookup gate counted, and the decay policy with its knobs."""
    matches = context.all_token_matches
    return {
        "fusion": fusion,
        "candidates": candidates,
        "trim": {"ratio": TRIM, "floor": round(floor, 8) if floor is not None else None,
                 "kept": kept, "dropped": candidates - kept},
        # what the policy decided, read off the candidates it marked (policies differ in
        # their rule; the count and the bound are what they all read)
        "gate": {"all_token_matches": matches, "lookup_max": params.get("lookup_max"),
                 "gated": sum(1 for f in fused if f.gated),
                 # what the policy weighs beside the count: query words no row holds, words
                 # held only apart from the query's topic, how much the matched words go
                 # together against chance (docs/ranking.md)
                 "rarest_holders": context.rarest_holders, "unheld_words": context.unheld_words,
                 "apart_words": context.apart_words,
                 "together": round(context.together, 4) if context.together is not None else None},
        "decay": {"policy": decay, **params},
        "ladders": {ladder.name: len(ladder) for ladder in ladders},
    }


def _collapse(engine, fused: list[Fused], limit: int,
              read: dict | None = None) -> tuple[list[Fused], list[dict], list[int]]:
    """The page, with rows whose text repeats a better-ranked one's folded into it: ten copies
    of one chit-chat line ("Morning! Coffee first...") held the ten places of a question
    whose answer ranked 46th. Rows are read a batch at a time: exactly `limit` when nothing
    repeats (the page costs what it did), then twice what is still missing or twice the batch
    before, whichever is more: a page of the semantic ladder alone can fold ~500 rows into a
    few, and batches of the few still missing read them in many rounds, each opening the logs
    again (docs/performance.md)."""
    page: list[Fused] = []
    rows: list[dict] = []
    folded: list[int] = []
    first_of: dict[str, int] = {}
    start, want = 0, limit
    while len(page) < limit and start < len(fused):
        batch = fused[start:start + want]
        start += len(batch)
        for f, row in zip(batch, engine.index.rows([f.index for f in batch], read)):
            # a lookup's matches stay apart: each may be the one item the query names
            text = "" if f.gated else _summary(row)
            at = first_of.get(text) if text else None
            if at is not None:
                folded[at] += 1
                continue
            if text:
                first_of[text] = len(page)
            page.append(f)
            rows.append(row)
            folded.append(0)
            if len(page) == limit:
                break
        want = max(2 * (limit - len(page)), 2 * len(batch))
    return page, rows, folded


def _takes_query(function) -> bool:
    """Whether `function` (a fusion's `fuse` or `gated`) has a `query` parameter: one written
    before the pipeline passed the query is still called without it."""
    code = getattr(function, "__code__", None)
    return code is not None and "query" in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]


def _summary(row: dict) -> str:
    for key in _TEXT_CHAIN:
        value = row.get(key)
        if value is None:
            continue
        text = value if isinstance(value, str) else str(value)
        if text.strip().lower() not in ("", "unknown"):
            if "\n" in text or "\r" in text or "\t" in text:
                text = " ".join(text.replace("\r", " ").replace("\t", " ").split("\n"))
            return text
    return ""


def _hit(engine, f: Fused, row: dict, rank: int, include_row: bool) -> SearchHit:
    index = engine.index
    ts = row.get("timestamp")
    if not isinstance(ts, str):
        ts = _iso(f.timestamp) if f.timestamp is not None else None
    project = row.get("project")
    return SearchHit(
        event_id=index.event_id(f.index),
        timestamp=ts,
        sources=list(f.sources),
        type=index.strings["types"][int(index.cols["type"][f.index])],
        project=project if isinstance(project, str) else "",
        summary=_summary(row),
        score=float(f.score),
        session_id=index.strings["sessions"][int(index.cols["session"][f.index])],
        transcript_path=str(row.get("transcript_path") or ""),
        provider=str(row.get("provider") or ""),
        salience=round(f.salience, 4),
        rank=rank,
        holds_all_tokens=f.holds_all_tokens,
        reuse_count=f.reuse_count,
        gated=f.gated,
        row=row if include_row else None,
        prompt_intent=_intent_label(index, f.index),
    )


def _intent_label(index, position: int) -> str | None:
    from carto_core.intents import INTENT_KEYS
    from carto_core.search.rowfields import INTENT_BITS

    code = int(index.cols["intent"][position]) & INTENT_BITS
    return INTENT_KEYS[code - 1] if code else None


def _top(counter: Counter, n: int) -> dict:
    # most_common(n)'s documented equivalent (ties in first-seen order); most_common(n)
    # imports heapq, which every cold search would pay for a few dozen counts
    return dict(sorted(counter.items(), key=itemgetter(1), reverse=True)[:n])


def _facets(engine, fused: list[Fused]) -> dict:
    if not fused:
        return {}
    index = engine.index
    positions = np.fromiter((f.index for f in fused), np.int64, len(fused))
    projects = index.strings["projects"]
    types = index.strings["types"]
    pc = Counter(projects[c] for c in np.asarray(index.cols["project"])[positions].tolist())
    pc.pop("", None)
    tc = Counter(types[c] for c in np.asarray(index.cols["type"])[positions].tolist())
    tc.pop("", None)
    sc = Counter([source for f in fused for source in f.sources])  # one count, not 500 updates
    from carto_core.intents import INTENT_KEYS
    from carto_core.search.rowfields import INTENT_BITS

    codes = np.asarray(index.cols["intent"])[positions] & INTENT_BITS
    ic = Counter(INTENT_KEYS[c - 1] for c in codes.tolist() if c)
    stamps = [f.timestamp for f in fused if f.timestamp is not None]
    months: Counter = Counter()
    days: Counter = Counter()
    for day_number, count in Counter(int(stamp // 86400) for stamp in stamps).items():
        day = _iso(day_number * 86400)[:10]  # one strftime per distinct day
        days[day] += count
        months[day[:7]] += count
    return {
        "window": len(fused),
        "projects": _top(pc, 8), "projects_more": max(0, len(pc) - 8),
        "types": _top(tc, 8), "types_more": max(0, len(tc) - 8),
        "sources": _top(sc, 10),
        "intents": _top(ic, len(INTENT_KEYS)),
        "span": [_iso(min(stamps))[:10], _iso(max(stamps))[:10]] if stamps else None,
        "months": dict(sorted(months.items(), reverse=True)[:6]),
        "months_older": max(0, len(months) - 6),
        "days": dict(sorted(days.items(), reverse=True)[:7]),
    }


#: Compiled on first use (these three: only a search that found nothing looks for phantoms).
_ID_SHAPED = Lazy(r"^(?:evt|git|turn|hermes)-[A-Za-z0-9_-]+$")
_PATH_SHAPED = Lazy(r"^[\w./~-]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,7}$")
_VERSION = Lazy(r"^v?\d+(?:\.\d+)+$")


#: The row type of a search's record of finding nothing (`Telemetry.record_gap`).
GAP_TYPE = "knowledge_gap"


def _named_entities(text: str) -> list[str]:
    """The id- and path-shaped words of a query, as phantom detection reads them."""
    out = []
    for raw in text.split():
        word = raw.strip("'\"`,;:()[]{}<>")
        if word and (_ID_SHAPED.match(word) or (_PATH_SHAPED.match(word) and not _VERSION.match(word)
                                                and not word.lower().endswith(".md"))):
            out.append(word)
    return out


def gaps_left_out(engine, fused: list[Fused], query: str) -> list[Fused]:
    """`fused` without the knowledge gaps that name an id or path this query names: a search
    that found nothing for `evt-8ecb303` wrote "Knowledge gap: 'evt-8ecb303' returned no
    results", and that record is no answer when the same thing is asked again (it made the
    second search exit 0 with it as its only result). A gap stays findable by its other words
    ("knowledge gap", the question's topic), and a query naming no id or path is untouched."""
    types = engine.index.strings.get("types") or []
    if GAP_TYPE not in types or not fused:
        return fused
    named = [word.lower() for word in _named_entities(query)]
    if not named:
        return fused
    code = types.index(GAP_TYPE)
    column = engine.index.cols["type"]
    gaps = [f.index for f in fused if int(column[f.index]) == code]
    if not gaps:
        return fused
    said = {doc: str(row.get("summary") or "").lower()
            for doc, row in zip(gaps, engine.index.rows(gaps))}
    return [f for f in fused if not (f.index in said and any(word in said[f.index] for word in named))]


def _unknown_entities(engine, text: str) -> list[str]:
    """Id- or path-shaped tokens of the query that no log holds (phantom detection)."""
    tokenize = engine.analyzer.terms
    out = []
    for word in _named_entities(text):
        if _ID_SHAPED.match(word):
            if engine.index_of(word) is None:
                out.append(word)
        elif any(engine.index.df(token) == 0 for token in tokenize(word)):
            out.append(word)
    return list(dict.fromkeys(out))


def run_search(
    request: SearchRequest,
    *,
    home=None,
    engine: "SearchEngine | None" = None,
    telemetry: "Telemetry | None" = None,
) -> SearchResult:
    """Run one search. Give a warm `engine` (servers) or a `home` (a cold engine is opened
    and refreshed); with neither, the current home. `telemetry` records served rows and the
    search-call row for its session; without it nothing is written."""
    if engine is None:
        from carto_core.search.engine import SearchEngine

        if home is None:
            from carto_core.logio.home import current_home

            home = current_home()
        engine = SearchEngine(home)
    return execute(request, engine, telemetry)
