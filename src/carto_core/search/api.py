"""The search engine's public surface: records and base classes (`run_search`, the one entry
point, is `carto_core.search.pipeline.run_search`, also importable from `carto_core.search`).

Every front door - `carto search`, the explorer (`carto serve`), the MCP server, `carto eval` -
calls `run_search` with a :class:`SearchRequest`; there is no second copy of ranking
anywhere. A long-running caller keeps a warm :class:`~carto_core.search.engine.SearchEngine`
(corpus columns + keyword index in memory, refreshed when the logs grow) and passes it in::

    from carto_core.search import SearchEngine, SearchRequest, run_search

    engine = SearchEngine(home)                       # once
    result = run_search(SearchRequest(query="discount codes"), engine=engine)
    result.to_dict()                                  # the `--json` document

Pipeline (DESIGN section 5): scope (window, project family, served ids) -> ladders (each cut to
depth 500 *after* scope, with corpus-wide statistics) -> fusion (rrf) x salience -> 10 % trim ->
decay policy (default gated-exp) -> limit. Telemetry (served-log, access ledger, search-calls)
is written only when the caller passes a :class:`~carto_core.search.telemetry.Telemetry`.

Plugins extend it through one hook per kind:

- ``carto_register_rankers``: a :class:`Ranker` returns :class:`Ladder` objects over the
  engine's document indices. A ranker registered under the name ``semantic`` is the semantic
  ladder: it joins
  fusion whenever it is available (``--semantic/--no-semantic`` toggles it) and reports
  ``(False, reason)`` from :meth:`Ranker.status` when it cannot answer - keyword results are
  never held back by it. A ranker may contribute :class:`IndexStep` objects that
  ``carto index`` runs after the keyword step.
- ``carto_register_fusions``: a :class:`Fusion` combines ladders;
- ``carto_register_analyzers``: a :class:`~carto_core.search.tokens.Analyzer` makes the
  keyword index's terms;
- ``carto_register_decay_policies``: a :class:`DecayPolicy` reshapes fused scores.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from carto_core.util.exitcodes import ExitCode
from carto_core.util.records import NEW, FrozenRecord, Record

#: Why a search runs, recorded in its telemetry (`carto search --purpose`, the MCP search tool).
PURPOSES = ("manual", "remember", "focus", "feed", "eval", "audit")

if TYPE_CHECKING:  # numpy and the engine load only when a search runs
    import numpy as np

    from carto_core.model.project import ProjectScope
    from carto_core.search.engine import SearchEngine
    from carto_core.search.floor import FloorReport

#: Every ladder is cut to this many candidates, after the scope is applied.
DEPTH = 500
#: Reciprocal-rank-fusion constant.
RRF_K = 60
#: Results under this fraction of the top fused score are dropped, before any decay (`trim`).
TRIM = 0.10
#: Salience clamp and default (upstream).
SALIENCE_MIN, SALIENCE_MAX, SALIENCE_DEFAULT = 0.05, 1.0, 0.5
#: Name under which the semantic ladder registers (helper plugins: `carto_register_rankers`).
SEMANTIC = "semantic"

# The records below are plain classes (carto_core.util.records), not dataclasses: generating a
# dataclass' methods costs every cold `carto search` per class. Each `__init__` keeps
# the field order, defaults and keywords the dataclass had; `_fields` lists them.


class SearchError(Exception):
    """A search that cannot run; `code` is the exit code the CLI uses."""

    code: ExitCode = ExitCode.ERROR

    def __init__(self, message: str, code: ExitCode | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code


class SearchUsageError(SearchError):
    """The request is wrong (unknown ranker or decay, bad limit, no query): exit 2 / HTTP 400."""

    code = ExitCode.USAGE


class EmptyHomeError(SearchError):
    """The home holds no searched logs: exit 3 with how to ingest."""

    code = ExitCode.NOT_FOUND


# --------------------------------------------------------------------------- query and scope


class Query(FrozenRecord):
    """The query as rankers see it: raw text, its distinct terms in order (the index's
    analyzer made them), and `prefixes` (`deploy*` -> "deploy": every indexed term that
    starts with it counts as one term). Frozen, hashable."""

    __slots__ = _fields = ("text", "tokens", "prefixes", "question", "compounds")
    text: str
    tokens: tuple[str, ...]
    prefixes: tuple[str, ...]
    #: The analyzer read it as a question in one's own words ("what sport do I do now?"):
    #: its words are not the answer's words, so the semantic ladder always joins.
    question: bool
    #: The terms of each hyphenated word of the query, its whole first, then the parts that
    #: only it gave ("drain nodes follow-up": (followup, follow, up)). Every term is scored
    #: as any other; where words are counted (held against unheld, short queries) the
    #: compound is one word, held when rows hold its whole: whoever wrote "follow-up" wrote
    #: one word, and a row saying "up" does not hold it.
    compounds: tuple[tuple[str, ...], ...]

    def __init__(self, text: str, tokens: tuple[str, ...], prefixes: tuple[str, ...] = (),
                 question: bool = False, compounds: tuple[tuple[str, ...], ...] = ()):
        setattr_ = object.__setattr__
        setattr_(self, "text", text)
        setattr_(self, "tokens", tokens)
        setattr_(self, "prefixes", prefixes)
        setattr_(self, "question", question)
        setattr_(self, "compounds", compounds)

    @property
    def parts(self) -> frozenset[str]:
        """The terms that are only parts of a hyphenated word (not words of their own), of
        the compounds whose terms are all the query's (a short sha is a prefix instead)."""
        tokens = frozenset(self.tokens)
        return frozenset(term for compound in self.compounds if tokens.issuperset(compound)
                         for term in compound[1:])

    @property
    def words(self) -> int:
        """How many words the query has as its writer counts them: its terms and prefixes,
        a hyphenated word one."""
        return len(self.tokens) + len(self.prefixes) - len(self.parts)


class Scope(Record):
    """What a search may return, resolved against the engine's documents *before* any ladder
    is cut to depth. Rankers must honour it and must not let it change corpus statistics.

    ``mask`` is a boolean array over document indices (None: every live document).
    ``project_values`` are the exact project values present in the corpus that the project
    scope matches (for stores that filter by exact value, e.g. Qdrant). ``served_ids`` are
    the event ids delta serving hides. ``since``/``before`` are aware datetimes or None.
    """

    _fields = ("mask", "since", "before", "project", "project_values", "served_ids", "size",
               "intent")
    mask: "np.ndarray | None"
    since: datetime | None
    before: datetime | None
    project: "ProjectScope | None"
    project_values: tuple[str, ...]
    served_ids: frozenset[str]
    size: int
    #: A prompt-intent key (`carto_core.intents.INTENT_KEYS`): only prompts and turns whose
    #: prompt has it are in the mask. A store that cannot filter on it is given the ids
    #: (`Scope.ids(engine)`), so the filter holds in every ladder before its depth cut.
    intent: str | None

    def __init__(self, mask: "np.ndarray | None" = None, since: datetime | None = None,
                 before: datetime | None = None, project: "ProjectScope | None" = None,
                 project_values: tuple[str, ...] = (), served_ids: frozenset[str] = frozenset(),
                 size: int = 0, intent: str | None = None):
        self.mask = mask
        self.since = since
        self.before = before
        self.project = project
        self.project_values = project_values
        self.served_ids = served_ids
        self.size = size
        self.intent = intent

    def ids(self, engine) -> list[str]:
        """The event ids the mask allows (for stores that filter by id: small scopes only). The
        mask's own method, not numpy's module: the prompt recall imports this module's records."""
        if self.mask is None:
            return list(engine.event_ids)
        return [engine.index.event_id(int(i)) for i in self.mask.nonzero()[0]]

    @property
    def is_restricted(self) -> bool:
        return self.mask is not None

    def allows(self, index: int) -> bool:
        return self.mask is None or bool(self.mask[index])


class LiteScope(Scope):
    """The scope of a stdlib ranking (`Ranker.rank_lite`): no mask array, a predicate over
    document indices instead (the prompt recall leaves out the live session and served ids)."""

    def __init__(self, allows, served_ids: frozenset[str] = frozenset()):
        super().__init__(served_ids=served_ids)
        self.allows = allows


# --------------------------------------------------------------------------- ladders


class Candidate(FrozenRecord):
    """One entry of a ladder: a document index of the engine, its score, the gate flag."""

    __slots__ = _fields = ("index", "score", "holds_all_tokens")
    index: int
    score: float
    holds_all_tokens: bool

    def __init__(self, index: int, score: float, holds_all_tokens: bool = False):
        setattr_ = object.__setattr__
        setattr_(self, "index", index)
        setattr_(self, "score", score)
        setattr_(self, "holds_all_tokens", holds_all_tokens)


class Ladder(Record):
    """Ordered candidates (best first) from one ranker, within the scope, at most depth long.

    Arrays rather than objects: a ladder of 500 is built and fused on every query.
    ``all_token_matches`` is how many in-scope documents hold every query token (None when
    the ranker cannot tell); the gated decay policy reads it.
    """

    _fields = ("name", "indices", "scores", "holds_all", "ranker", "all_token_matches", "hidden",
               "reason", "coverage", "uncovered_lift", "rarest_holders", "evidence_floor",
               "unheld", "evidence_band", "confirm", "confirm_min", "apart", "together",
               "topic_holders", "unseen_types", "confirm_words", "closeness", "confirm_rows")
    _norepr = ("confirm",)
    name: str
    indices: "np.ndarray"
    scores: "np.ndarray"
    holds_all: "np.ndarray | None"
    ranker: str
    all_token_matches: int | None
    #: In-scope matches that delta serving hid (served ids); feeds the "suppressed" note.
    hidden: int
    #: Why an empty ladder is empty (reported in `ladders` of the --json document).
    reason: str
    #: Per candidate, the share (0..1] of the query it matches (a keyword ranker: the idf
    #: mass of the query terms the document holds); None: the ranker cannot tell.
    coverage: "np.ndarray | None"
    #: A semantic ladder: how much more it weighs, per unit of the query's share that no
    #: keyword candidate holds (the embedder's `uncovered_lift`; `rrf-prior` reads it).
    uncovered_lift: float
    #: A keyword ladder: how many documents of the corpus hold the query's rarest term (None:
    #: the ranker cannot tell). More than the lookup bound: every word of the query is
    #: generic by itself, whatever few documents hold them together (`gated-prior` reads it).
    rarest_holders: int | None
    #: A ladder whose scores say how relevant a candidate is (the semantic ladder): the score
    #: from which a candidate is evidence that the search found something (the relevance
    #: floor, `search.floor`); None: the ladder states none.
    evidence_floor: float | None
    #: A keyword ladder: how many query words no document of the corpus holds (a hyphenated
    #: word is one, held when documents hold its whole: `Query.compounds`). When some are,
    #: fewer than the held ones, `holds_all`, `all_token_matches` and `rarest_holders` are of
    #: the held words ("deploy staging recap", no row saying "recap", still has its full
    #: matches); the semantic gate reads it (the query as typed is not matched in full, so
    #: the semantic ladder joins and the relevance floor judges, counting no keyword match as
    #: evidence: "Beside a word no row holds, a keyword match is no evidence"), and the decay
    #: policy (docs/ranking.md, "A word no row holds").
    unheld: int
    #: A keyword ladder: how many query words the corpus holds, but never in one document
    #: with the query's *topic*, the largest set of its other words that documents do hold
    #: together ("rollout flags - how is it going?": rows say "going", none says it beside
    #: "rollout flags"). When some are, `holds_all`, `all_token_matches` are of the topic and
    #: `rarest_holders` of every held word; the semantic gate reads it as it reads `unheld`,
    #: and the decay policy (docs/ranking.md, "A topic and words apart from it").
    apart: int
    #: A keyword ladder: how many times more documents hold the words of its full matches
    #: together (every held word, or the topic's) than the words' frequencies predict (1:
    #: independent words); None: no full match, or fewer than two words. A question's words
    #: that meet less than by chance ("Maya" and "test": 0.2) are not one topic (the decay
    #: policy reads it).
    together: float | None
    #: A keyword ladder: the documents (increasing indices) holding the query's topic, its
    #: held words, or when no document holds them all the largest set of them documents hold
    #: together (whatever the words no document holds, unlike `holds_all`), when those words,
    #: at least two, go together more often than chance; None otherwise. Fusion reads it
    #: beside `unseen_types`.
    topic_holders: "np.ndarray | None"
    #: A semantic ladder: the codes of the row types (`index.strings["types"]`) its embedder
    #: never embeds (minilm's tool rows, left to the keyword ladders): rows this ladder can
    #: never hold, whatever the query.
    unseen_types: tuple[int, ...]
    #: Under this score (and from `evidence_floor`), a candidate is evidence only when the
    #: ladder confirms it: `confirm()` scores the match itself (minilm: how well the query's
    #: words the home never holds align with its top candidates' words) and must reach
    #: `confirm_min`; None from it: nothing to judge, evidence as before. None: no band.
    evidence_band: float | None
    confirm: "Callable[[], float | None] | None"
    confirm_min: float | None
    #: The words `confirm()` judged, set when it runs (minilm: the query's words no document
    #: holds), named in the floor's verdict.
    confirm_words: tuple[str, ...]
    #: The documents `confirm()` reads, best first, set by the floor before it asks: the
    #: ladder's conversation turns, when only they can be evidence under its band (records
    #: count from the band alone). None: its first rows, whatever they are.
    confirm_rows: "np.ndarray | None"
    #: A semantic ladder: how much its rows' scores, not only their ranks, order the first
    #: page (the embedder's `closeness`; `Fused.nearer`, `Fusion.closeness_page`). 0: ranks
    #: alone.
    closeness: float

    def __init__(self, name: str, indices: "np.ndarray", scores: "np.ndarray",
                 holds_all: "np.ndarray | None" = None, ranker: str = "",
                 all_token_matches: int | None = None, hidden: int = 0, reason: str = "",
                 coverage: "np.ndarray | None" = None, uncovered_lift: float = 0.0,
                 rarest_holders: int | None = None, evidence_floor: float | None = None,
                 unheld: int = 0, evidence_band: float | None = None,
                 confirm: "Callable[[], float | None] | None" = None,
                 confirm_min: float | None = None, apart: int = 0,
                 together: float | None = None, topic_holders: "np.ndarray | None" = None,
                 unseen_types: tuple[int, ...] = (), confirm_words: tuple[str, ...] = (),
                 closeness: float = 0.0, confirm_rows: "np.ndarray | None" = None):
        self.name = name
        self.indices = indices
        self.scores = scores
        self.holds_all = holds_all
        self.ranker = ranker
        self.all_token_matches = all_token_matches
        self.hidden = hidden
        self.reason = reason
        self.coverage = coverage
        self.uncovered_lift = uncovered_lift
        self.rarest_holders = rarest_holders
        self.evidence_floor = evidence_floor
        self.unheld = unheld
        self.evidence_band = evidence_band
        self.confirm = confirm
        self.confirm_min = confirm_min
        self.apart = apart
        self.together = together
        self.topic_holders = topic_holders
        self.unseen_types = unseen_types
        self.confirm_words = confirm_words
        self.closeness = closeness
        self.confirm_rows = confirm_rows

    def __len__(self) -> int:
        return int(len(self.indices))

    def candidates(self) -> Iterator[Candidate]:
        holds = self.holds_all
        for position in range(len(self.indices)):
            yield Candidate(
                int(self.indices[position]),
                float(self.scores[position]),
                bool(holds[position]) if holds is not None else False,
            )

    @classmethod
    def from_event_ids(
        cls,
        name: str,
        event_ids: list[str],
        scores: list[float],
        engine: "RankContext | SearchEngine",
        *,
        scope: Scope | None = None,
        depth: int = DEPTH,
        ranker: str = "",
    ) -> "Ladder":
        """Build a ladder from event ids (a vector store keyed by id): ids the corpus does not
        hold, or the scope excludes, are dropped; order is kept; cut to `depth`."""
        import numpy as np

        positions = engine.index_positions(list(event_ids))  # one vectorised lookup
        keep = positions >= 0
        if scope is not None and scope.mask is not None:
            keep[keep] = scope.mask[positions[keep]]
        chosen = np.flatnonzero(keep)[:depth]
        return cls(name, positions[chosen], np.asarray(scores, dtype=np.float64)[chosen],
                   None, ranker or name)


class SemanticState(Record):
    """What the semantic ladder did for a search: ``available`` (it ran), ``unavailable``
    (with the reason and, when there is one, the command that fixes it), ``disabled``
    (`--no-semantic`, `CARTO_SEMANTIC=0`, `[semantic] enabled = false`) or ``unchecked`` (the
    fusion gated its ladder out, so it was neither run nor asked whether it could answer)."""

    _fields = ("state", "reason", "fix", "not_embedded", "embedder", "note")
    state: str
    reason: str
    fix: str
    #: Events of the corpus with no vector of the embedder's model yet (None: not known, e.g.
    #: the ladder is off): what the keep-up job still has to embed.
    not_embedded: int | None
    #: The embedder that answers ("" when not known: the ladder was not asked).
    embedder: str
    #: Set when the configured embedder is not installed and another answers: which and why.
    note: str

    def __init__(self, state: str = "unavailable", reason: str = "", fix: str = "",
                 not_embedded: int | None = None, embedder: str = "", note: str = ""):
        self.state = state
        self.reason = reason
        self.fix = fix
        self.not_embedded = not_embedded
        self.embedder = embedder
        self.note = note

    def label(self) -> str:
        """One line for people (text output, messages): `available`, `disabled`, or
        `unavailable: <reason> (fix: <command>)`; its first word is always the state."""
        if self.state != "unavailable" or not self.reason:
            return self.state
        return f"unavailable: {self.reason}" + (f" (fix: {self.fix})" if self.fix else "")

    def to_dict(self) -> dict[str, str | int | None]:
        return {"state": self.state, "reason": self.reason, "fix": self.fix,
                "not_embedded": self.not_embedded, "embedder": self.embedder or None,
                "note": self.note or None}


class LadderUnavailable(Exception):
    """Raised by `Ranker.rank` when the ladder turns out unable to answer (an embedder that
    timed out, a dimension mismatch): the search goes on without it and reports `state`."""

    def __init__(self, state: SemanticState):
        super().__init__(state.label())
        self.state = state


class LadderReport(Record):
    """What one ranker did for a search (in `SearchResult.ladders`; `vars()` of it is its
    --json entry, so `__init__` sets the fields in their order)."""

    _fields = ("name", "ranker", "status", "reason", "candidates", "contributed", "ms")
    name: str
    ranker: str
    #: "ok", "empty" (nothing matched: `reason` says why), "gated" (not run: the fusion would
    #: drop its ladder for this query, `Fusion.gated`), "unavailable", "error"
    status: str
    reason: str
    candidates: int
    contributed: int  # results in the returned page that came from this ladder
    ms: float

    def __init__(self, name: str, ranker: str, status: str, reason: str = "",
                 candidates: int = 0, contributed: int = 0, ms: float = 0.0):
        self.name = name
        self.ranker = ranker
        self.status = status
        self.reason = reason
        self.candidates = candidates
        self.contributed = contributed
        self.ms = ms


# --------------------------------------------------------------------------- fused candidates


class Fused(Record):
    """One event after fusion; decay policies rewrite `score` and fill the decay fields.
    `sources` and `ranks` default to a new list and dict.

    A fusion fills `holds_all_tokens`, `salience` and `timestamp` from the ladders and the
    row (`fill_row_fields` does it), and sets `fused_score`: the decay policies read them.
    Left at their defaults (no row holds every word, salience 0.5, no time), age and the
    lookup gate reshape nothing, and every `--decay` ranks as `none` does."""

    __slots__ = _fields = ("index", "score", "sources", "ranks", "holds_all_tokens", "salience",
                           "timestamp", "fused_score", "decay", "boost", "reuse_count", "gated",
                           "nearer")
    _factories = {"sources": list, "ranks": dict}
    index: int
    score: float
    sources: list[str]
    ranks: dict[str, int]
    holds_all_tokens: bool
    salience: float
    #: Event time as epoch seconds, None when the row has no usable time.
    timestamp: float | None
    fused_score: float
    decay: float
    boost: float
    reuse_count: int
    gated: bool
    #: The fused score again with each semantic contribution weighed by how near the row is
    #: (`Ladder.closeness`); None when no ladder says. The page's order heeds it
    #: (`Fusion.closeness_page`).
    nearer: float | None

    def __init__(self, index: int, score: float, sources: list[str] = NEW,
                 ranks: dict[str, int] = NEW, holds_all_tokens: bool = False,
                 salience: float = SALIENCE_DEFAULT, timestamp: float | None = None,
                 fused_score: float = 0.0, decay: float = 1.0, boost: float = 1.0,
                 reuse_count: int = 0, gated: bool = False, nearer: float | None = None):
        self.index = index
        self.score = score
        self.sources = [] if sources is NEW else sources
        self.ranks = {} if ranks is NEW else ranks
        self.holds_all_tokens = holds_all_tokens
        self.salience = salience
        self.timestamp = timestamp
        self.fused_score = fused_score
        self.decay = decay
        self.boost = boost
        self.reuse_count = reuse_count
        self.gated = gated
        self.nearer = nearer


def row_salience(value: float) -> float:
    """A row's salience as fusion weighs it: clamped to SALIENCE_MIN..SALIENCE_MAX, and
    SALIENCE_DEFAULT when the row has none (NaN) or 0."""
    value = float(value)
    if value != value or value == 0:
        return SALIENCE_DEFAULT
    return min(SALIENCE_MAX, max(SALIENCE_MIN, value))


def fill_row_fields(candidates: list[Fused], ladders: list[Ladder], index) -> list[Fused]:
    """Give each candidate what the decay policies read of it, as the built-in fusions do:
    `holds_all_tokens` (some ladder of `ladders` flags it in `Ladder.holds_all`), `salience`
    (its row's, clamped to SALIENCE_MIN..SALIENCE_MAX; SALIENCE_DEFAULT when the row has none
    or 0) and `timestamp` (its row's epoch seconds; None when it has none). `index` is what
    the fusion was given: the engine in `fuse`, the view in `fuse_lite` (their columns are
    read, `index.cols` or `index.index.cols`). Standard library only, so `fuse_lite` may call
    it; returns `candidates`, changed in place."""
    cols = index.cols if hasattr(index, "cols") else index.index.cols
    salience_col, ts_col = cols["salience"], cols["ts"]
    held: set[int] = set()
    for ladder in ladders:
        if ladder.holds_all is not None:
            held.update(int(doc) for doc, flag in zip(ladder.indices, ladder.holds_all) if flag)
    for fused in candidates:
        fused.salience = row_salience(salience_col[fused.index])
        stamp = float(ts_col[fused.index])
        fused.timestamp = None if stamp != stamp else stamp
        fused.holds_all_tokens = fused.index in held
    return candidates


class DecayContext(Record):
    """What a decay policy may read: the clock, the query, the access ledger, the gate count."""

    _fields = ("now", "query", "accesses", "all_token_matches", "engine", "lambda_per_hour",
               "reuse_weight", "lookup_max", "lift", "prior_beta", "vague_lambda",
               "question_beta", "rarest_holders", "unheld_words", "apart_words", "together")
    now: float  # epoch seconds
    query: Query
    #: event_id -> epoch seconds of endorsing accesses (result_fetched rows excluded).
    accesses: dict[str, list[float]]
    #: Documents (in scope) holding every query token; None when no ladder could tell.
    all_token_matches: int | None
    engine: "SearchEngine"
    lambda_per_hour: float
    reuse_weight: float
    lookup_max: int
    lift: float
    #: gated-prior: an old memory keeps at least 1 / (1 + prior_beta) of its score.
    prior_beta: float
    #: gated-prior: the decay rate of vague queries and of queries asking for the latest state.
    vague_lambda: float
    #: gated-prior: the prior's beta for a question that does not ask for the latest state.
    question_beta: float
    #: Documents holding the query's rarest term (the keyword ladders'; None: not known).
    rarest_holders: int | None
    #: Query words no document holds (`Ladder.unheld`): the gate's count is of the others.
    unheld_words: int
    #: Query words held, but never beside the query's topic (`Ladder.apart`): the gate's count
    #: is of the topic.
    apart_words: int
    #: `Ladder.together` of the keyword ladders (the highest; None: none tells).
    together: float | None

    def __init__(self, now: float, query: Query, accesses: dict[str, list[float]],
                 all_token_matches: int | None, engine: "SearchEngine",
                 lambda_per_hour: float = 0.001, reuse_weight: float = 0.3, lookup_max: int = 10,
                 lift: float = 3.0, prior_beta: float = 0.25, vague_lambda: float = 0.2,
                 question_beta: float = 0.0, rarest_holders: int | None = None,
                 unheld_words: int = 0, apart_words: int = 0,
                 together: float | None = None):
        self.now = now
        self.query = query
        self.accesses = accesses
        self.all_token_matches = all_token_matches
        self.engine = engine
        self.lambda_per_hour = lambda_per_hour
        self.reuse_weight = reuse_weight
        self.lookup_max = lookup_max
        self.lift = lift
        self.prior_beta = prior_beta
        self.vague_lambda = vague_lambda
        self.question_beta = question_beta
        self.rarest_holders = rarest_holders
        self.unheld_words = unheld_words
        self.apart_words = apart_words
        self.together = together


def ladder_signals(ladders: list[Ladder]) -> dict:
    """What a `DecayContext` reads off the ladders, as keyword arguments: the largest gate
    count, the smallest count of the rarest word's holders, the most words unheld and held
    apart, the highest `together` (the search pipeline and the prompt-time recall build the
    context alike)."""
    gate_counts = [l.all_token_matches for l in ladders if l.all_token_matches is not None]
    rarest = [r for r in (getattr(l, "rarest_holders", None) for l in ladders) if r is not None]
    return {"all_token_matches": max(gate_counts) if gate_counts else None,
            "rarest_holders": min(rarest) if rarest else None,
            "unheld_words": max((l.unheld for l in ladders), default=0),
            "apart_words": max((l.apart for l in ladders), default=0),
            "together": max((l.together for l in ladders if l.together is not None),
                            default=None)}


# --------------------------------------------------------------------------- plugin bases


class LiteUnsupported(Exception):
    """A ranker or fusion with no stdlib method (`rank_lite`, `fuse_lite`): the prompt-time
    recall leaves it out, for the reason its `lite_opt_out` gives."""


def trim(fused: list[Fused]) -> tuple[list[Fused], float | None]:
    """The candidates at or above `TRIM` of the top fused score, and that floor (None: no
    candidate). The one place the trim is applied: after fusion, before decay, on every route
    (`carto search`, the prompt-time recall)."""
    if not fused:
        return fused, None
    floor = max(f.score for f in fused) * TRIM
    return [f for f in fused if f.score >= floor], floor


def best_first(fused: list) -> None:
    """Sort candidates in place by score, highest first, the lower document first among equal
    scores: two sorts on C-level keys (stable, so the second keeps the first's order among
    ties) beat one tuple-key sort. The one order after decay on every route."""
    fused.sort(key=attrgetter("index"))
    fused.sort(key=attrgetter("score"), reverse=True)


class IndexStep:
    """One step of `carto index`: builds or refreshes a derived index of the home."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def run(self, engine: "SearchEngine", *, rebuild: bool = False, progress=None) -> dict:
        """Do the work; return a JSON-able summary (counts, seconds). `progress(done, total)`
        may be called to drive a progress bar."""
        raise NotImplementedError


class EngineAttributeWarning(DeprecationWarning):
    """A ranker read something of the engine that `RankContext` does not offer."""


class RankContext:
    """What a ranker's `rank` reads of the search, and nothing else: the keyword index
    (`index`: postings, columns, rows, corpus statistics), the analyzer, the home, the
    registries (to build an embedder), the index `generation` (for warm state), the event ids
    and `index_positions`/`index_of` (event ids -> documents). The pipeline's own parts (the
    scope builder, fusion, decay, the access ledger, refresh) stay with the engine.

    A ranker written when `rank` received the whole `SearchEngine` still runs: any other
    attribute is read from the engine, with an `EngineAttributeWarning` (a DeprecationWarning)
    naming it; `RankerContract` fails a ranker that does."""

    __slots__ = ("_engine",)
    OFFERED = ("index", "analyzer", "home", "registries", "generation", "event_ids",
               "index_positions", "index_of")

    def __init__(self, engine: "SearchEngine"):
        self._engine = engine

    @property
    def index(self):
        return self._engine.index

    @property
    def analyzer(self):
        return self._engine.analyzer

    @property
    def home(self):
        return self._engine.home

    @property
    def registries(self):
        return self._engine.registries

    @property
    def generation(self) -> str:
        return self._engine.generation

    @property
    def event_ids(self) -> list[str]:
        return self._engine.event_ids

    def index_positions(self, event_ids: list[str]):
        return self._engine.index_positions(event_ids)

    def index_of(self, event_id: str) -> int | None:
        return self._engine.index_of(event_id)

    def __len__(self) -> int:
        return len(self._engine.index)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        import warnings

        warnings.warn(f"a ranker read engine.{name}, which RankContext does not offer "
                      f"({', '.join(self.OFFERED)}); it is read from the engine for now",
                      EngineAttributeWarning, stacklevel=2)
        return getattr(self._engine, name)


class Ranker:
    """A ladder producer. Subclasses set `name` and implement `rank`.

    One instance per engine: a ranker may keep warm state on `self` (loaded vectors) and
    should check freshness against `context.generation` in `rank`.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def status(self, engine: "SearchEngine") -> tuple[bool, str]:
        """(available, reason when not). Called before `rank`; must be cheap."""
        return True, ""

    def availability(self, engine: "SearchEngine") -> SemanticState:
        """`status` as a state with reason and fix (a ranker that can be switched off
        overrides this to say ``disabled``)."""
        ok, reason = self.status(engine)
        return SemanticState("available") if ok else SemanticState("unavailable", reason)

    def rank(self, query: Query, scope: Scope, context: RankContext, *,
             depth: int = DEPTH) -> list[Ladder]:
        """Ladders (one or several buckets) for the query, within `scope`, each <= depth.
        `context` is what the ranker may read of the search (`RankContext`)."""
        raise NotImplementedError

    def index_steps(self) -> list[IndexStep]:
        """Steps `carto index` runs for this ranker (a semantic ranker embeds here)."""
        return []

    #: Why the ranker takes no part in the prompt-time recall when it has no `rank_lite`
    #: (`carto doctor` names a configured ranker that opts out, with this reason).
    lite_opt_out: ClassVar[str] = "it has no stdlib ranking (rank_lite)"

    def rank_lite(self, query: Query, view, scope: Scope, *, depth: int = DEPTH) -> list[Ladder]:
        """`rank` with the standard library alone, for the prompt-time recall (it runs inside
        an agent's prompt hook: no numpy). `view` is the persisted keyword index
        (`carto_core.search.index_view.IndexView`: postings by term hash, the columns, corpus
        statistics), `scope` a `LiteScope`. The ladders hold Python lists where `rank`'s hold
        arrays, and the same documents in the same order. The class is imported on its own
        (its plugin package's `__init__` is not run), so its module imports no heavy library
        at its top. A ranker that cannot implements nothing here (and says why in
        `lite_opt_out`)."""
        raise LiteUnsupported(self.lite_opt_out)


class Fusion:
    """Combines ladders into one ranking. Subclasses set `name` and implement `fuse`.

    `fuse` returns one `Fused` per document of the ladders it uses, with its `sources`, its
    first rank in each (`ranks`), its `score` and `fused_score`, and what the decay policy
    reads of it: `holds_all_tokens`, `salience` and `timestamp` (`fill_row_fields`). A fusion
    that leaves these at their defaults switches every decay policy off without a word:
    nothing is old, nothing holds the whole query (`FusionContract` fails it)."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: > 0: after the decay, the pipeline orders the first `closeness_page` results again by
    #: `Fused.nearer` times what the decay made of each (its score over its fused score), and
    #: gives them the page's scores in that order: the page keeps its rows and its scores
    #: (`search.nearness`). 0: as decayed.
    closeness_page: ClassVar[int] = 0

    def fuse(self, ladders: list[Ladder], engine: "SearchEngine",
             query: Query | None = None) -> list[Fused]:
        """`query` (the analysed query, when the pipeline has one) may steer the fusion."""
        raise NotImplementedError

    def gated(self, ladders: list[Ladder], query: Query | None = None) -> list[Ladder]:
        """The ladders of `ladders` this fusion uses for `query`: all of them here. A fusion
        that gates a ladder out (`rrf` drops the semantic ladder when a document holds every
        word of a query that is not a question) says so here and applies it in `fuse`. The
        pipeline asks before it runs each ranker after the first, with an empty ladder of that
        ranker beside the ladders made so far, and does not run a ranker whose ladder would be
        dropped (its report says `gated`): what fusion throws away is not computed."""
        return ladders

    #: Why the fusion cannot serve the prompt-time recall when it has no `fuse_lite`.
    lite_opt_out: ClassVar[str] = "it has no stdlib fusion (fuse_lite)"

    def fuse_lite(self, ladders: list[Ladder], view, query: Query | None = None) -> list[Fused]:
        """`fuse` with the standard library alone over the ladders of `Ranker.rank_lite` and the
        persisted index's columns (`view.cols`), for the prompt-time recall."""
        raise LiteUnsupported(self.lite_opt_out)


class DecayPolicy:
    """Reshapes fused scores for age and reuse. Subclasses set `name`, implement `apply`."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def apply(self, candidates: list[Fused], context: DecayContext) -> list[Fused]:
        raise NotImplementedError


# --------------------------------------------------------------------------- request / result


#: The longest query a search reads (characters): the explorer's recall contract and MCP take
#: no more either. A longer one is cut (`bounded_query`), so every ladder (the analyzer, the
#: embedder's tokenizer and model) sees bounded text and any query is answered in bounded time;
#: the answer says so (`SearchResult.query_cut`).
QUERY_MAX_CHARS = 2048


def bounded_query(text: str) -> str:
    """`text`, or its first QUERY_MAX_CHARS characters cut at the last whitespace among them
    (a word is not cut in half) when it is longer."""
    if len(text) <= QUERY_MAX_CHARS:
        return text
    head = text[:QUERY_MAX_CHARS]
    if not text[QUERY_MAX_CHARS].isspace():
        space = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
        if space > QUERY_MAX_CHARS // 2:
            head = head[:space]
    return head


class SearchRequest(Record):
    """One search. `None` means "from the config file, else the default"."""

    _fields = ("query", "project", "since", "before", "limit", "rankers", "fusion", "decay",
               "semantic", "session_id", "all", "now", "depth", "include_rows", "facets",
               "explain", "collapse", "intent", "sessions")
    query: str
    project: str | None
    since: datetime | None
    before: datetime | None
    limit: int
    #: Ladder rankers by name (default: config `search.rankers`, i.e. ["bm25"]).
    rankers: list[str] | None
    fusion: str | None
    decay: str | None
    #: True: require the semantic ladder's attempt; False: leave it out; None: when available.
    semantic: bool | None
    #: Session whose already-served ids are hidden (delta serving); None/"" = no delta serving.
    session_id: str | None
    #: Show everything (no delta serving).
    all: bool
    #: Clock for decay and windows (tests, eval); None = now.
    now: datetime | None
    depth: int
    #: Also return each result's full log row under "row".
    include_rows: bool
    #: Facets over the top min(n, 500) fused results.
    facets: bool
    #: Also say why each result ranked where it did (`why` per hit, `explain` per call).
    explain: bool
    #: Fold results whose text is identical into the best-ranked one (its `duplicates`).
    collapse: bool
    #: Only prompts (and turns) of this prompt intent (`carto_core.intents.INTENT_KEYS`).
    intent: str | None
    #: Only events of these sessions (a tag filter's sessions: `carto_core.lenses.tags`); None: all.
    sessions: frozenset | None

    def __init__(self, query: str = "", project: str | None = None,
                 since: datetime | None = None, before: datetime | None = None,
                 limit: int = 15, rankers: list[str] | None = None, fusion: str | None = None,
                 decay: str | None = None, semantic: bool | None = None,
                 session_id: str | None = None, all: bool = False,
                 now: datetime | None = None, depth: int = DEPTH, include_rows: bool = False,
                 facets: bool = True, explain: bool = False, collapse: bool = True,
                 intent: str | None = None, sessions=None):
        self.query = query
        self.project = project
        self.since = since
        self.before = before
        self.limit = limit
        self.rankers = rankers
        self.fusion = fusion
        self.decay = decay
        self.semantic = semantic
        self.session_id = session_id
        self.all = all
        self.now = now
        self.depth = depth
        self.include_rows = include_rows
        self.facets = facets
        self.explain = explain
        self.collapse = collapse
        self.intent = intent
        self.sessions = sessions


class SearchHit(Record):
    """One result of a search (`to_dict`: its entry in the --json document's `results`)."""

    _fields = ("event_id", "timestamp", "sources", "type", "project", "summary", "score",
               "session_id", "transcript_path", "provider", "salience", "rank",
               "holds_all_tokens", "reuse_count", "gated", "row", "why", "duplicates",
               "prompt_intent")
    event_id: str
    timestamp: str | None
    sources: list[str]
    type: str
    project: str
    summary: str
    score: float
    session_id: str
    transcript_path: str
    provider: str
    salience: float
    rank: int
    holds_all_tokens: bool
    reuse_count: int
    gated: bool
    row: dict | None
    #: Why it ranked here (`SearchRequest.explain`): its rank in each ladder, the fused score,
    #: the decay factor, the boost and whether the lookup gate lifted it.
    why: dict | None
    #: Lower-ranked results with the same text folded into this one (SearchRequest.collapse).
    duplicates: int
    #: The prompt's intent (prompts and turns; None for every other row).
    prompt_intent: str | None

    def __init__(self, event_id: str, timestamp: str | None, sources: list[str], type: str,
                 project: str, summary: str, score: float, session_id: str,
                 transcript_path: str, provider: str = "", salience: float = SALIENCE_DEFAULT,
                 rank: int = 0, holds_all_tokens: bool = False, reuse_count: int = 0,
                 gated: bool = False, row: dict | None = None, why: dict | None = None,
                 duplicates: int = 0, prompt_intent: str | None = None):
        self.event_id = event_id
        self.timestamp = timestamp
        self.sources = sources
        self.type = type
        self.project = project
        self.summary = summary
        self.score = score
        self.session_id = session_id
        self.transcript_path = transcript_path
        self.provider = provider
        self.salience = salience
        self.rank = rank
        self.holds_all_tokens = holds_all_tokens
        self.reuse_count = reuse_count
        self.gated = gated
        self.row = row
        self.why = why
        self.duplicates = duplicates
        self.prompt_intent = prompt_intent

    def to_dict(self) -> dict[str, Any]:
        out = {
            "event_id": self.event_id, "timestamp": self.timestamp, "sources": self.sources,
            "type": self.type, "project": self.project, "summary": self.summary,
            "score": round(self.score, 8), "session_id": self.session_id,
            "transcript_path": self.transcript_path, "provider": self.provider,
            "salience": self.salience, "rank": self.rank,
            "holds_all_tokens": self.holds_all_tokens, "reuse_count": self.reuse_count,
            "decay_gated": self.gated, "duplicates": self.duplicates, "prompt_intent": self.prompt_intent,
        }
        if self.row is not None:
            out["row"] = self.row
        if self.why is not None:
            out["why"] = self.why
        return out


class SearchResult(Record):
    """What `run_search` returns (`to_dict`: the --json document)."""

    _fields = ("query", "results", "total", "facets", "ladders", "stages_ms", "semantic",
               "decay", "fusion", "suppressed", "session_id", "project", "since", "before",
               "index_generation", "call_id", "unknown_entities", "explain", "intent",
               "query_cut", "floor", "skipped_files")
    _factories = {"unknown_entities": list, "skipped_files": list}
    query: str
    results: list[SearchHit]
    #: Fused results after trim (before the limit).
    total: int
    facets: dict
    ladders: list[LadderReport]
    stages_ms: dict[str, float]
    semantic: SemanticState
    decay: str
    fusion: str
    #: Results hidden by delta serving.
    suppressed: int
    session_id: str
    project: str | None
    since: str | None
    before: str | None
    index_generation: str
    call_id: str
    #: Unknown id- or path-shaped tokens of a query that found nothing (knowledge gaps).
    unknown_entities: list[str]
    #: The call's decisions (`SearchRequest.explain`): fusion, trim, gate, decay knobs.
    explain: dict | None
    intent: str | None
    #: The length of the query as given when it was longer than QUERY_MAX_CHARS and cut
    #: (`query` is then what was searched); None otherwise.
    query_cut: int | None
    #: The relevance floor's verdict (`search.floor.FloorReport`; None: not judged).
    floor: "FloorReport | None"
    #: Files of the home the answer did without, `{path, why, left_out}`: a searched log that
    #: cannot be read (a folder in its place, ...), the access ledger, a telemetry log.
    skipped_files: list[dict]

    def __init__(self, query: str, results: list[SearchHit], total: int, facets: dict,
                 ladders: list[LadderReport], stages_ms: dict[str, float],
                 semantic: SemanticState, decay: str, fusion: str, suppressed: int = 0,
                 session_id: str = "", project: str | None = None, since: str | None = None,
                 before: str | None = None, index_generation: str = "", call_id: str = "",
                 unknown_entities: list[str] = NEW, explain: dict | None = None,
                 intent: str | None = None, query_cut: int | None = None,
                 floor: "FloorReport | None" = None, skipped_files: list[dict] = NEW):
        self.query = query
        self.results = results
        self.total = total
        self.facets = facets
        self.ladders = ladders
        self.stages_ms = stages_ms
        self.semantic = semantic
        self.decay = decay
        self.fusion = fusion
        self.suppressed = suppressed
        self.session_id = session_id
        self.project = project
        self.since = since
        self.before = before
        self.index_generation = index_generation
        self.call_id = call_id
        self.unknown_entities = [] if unknown_entities is NEW else unknown_entities
        self.explain = explain
        self.intent = intent
        self.query_cut = query_cut
        self.floor = floor
        self.skipped_files = [] if skipped_files is NEW else skipped_files

    @property
    def semantic_status(self) -> str:
        """`available`, `unavailable`, `disabled` or `unchecked` (the reason and fix:
        `semantic`)."""
        return self.semantic.state

    @property
    def contributing(self) -> list[str]:
        """Ladders with at least one result in the returned page."""
        return [ladder.name for ladder in self.ladders if ladder.contributed]

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "project": self.project,
            "since": self.since,
            "before": self.before,
            "intent": self.intent,
            "results": [hit.to_dict() for hit in self.results],
            "total": self.total,
            "facets": self.facets,
            "contributing_ladders": self.contributing,
            "ladders": [vars(ladder) for ladder in self.ladders],
            "semantic_status": self.semantic_status,
            "semantic": self.semantic.to_dict(),
            "fusion": self.fusion,
            "decay": self.decay,
            "floor": self.floor.to_dict() if self.floor is not None else None,
            "delta_serving": {"session_id": self.session_id or None, "suppressed": self.suppressed},
            "unknown_entities": self.unknown_entities,
            "index_generation": self.index_generation,
            "call_id": self.call_id or None,
            "stages_ms": self.stages_ms,
            **({"explain": self.explain} if self.explain is not None else {}),
            **({"query_cut": {"given_chars": self.query_cut, "searched_chars": len(self.query)}}
               if self.query_cut is not None else {}),
            **({"skipped_files": self.skipped_files} if self.skipped_files else {}),
        }
