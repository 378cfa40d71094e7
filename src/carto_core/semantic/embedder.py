"""The base class of embedders (registered through `carto_register_embedders`) and their errors.

An embedder turns text into float vectors and names the model that made them: `model_tag`.
Every stored vector carries that tag and a query is only ever scored against vectors of the
selected embedder's tag, so vectors of another model (an older fit, another server model) are
never compared with a query they do not belong to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import numpy as np

    from carto_core.logio.home import Home


class EmbedderError(Exception):
    """An embedder that answered wrongly (a malformed reply, a vector of the wrong size)."""

    #: `index-errors.jsonl` stage (upstream's names).
    stage = "embedding_failed"


class EmbedderUnavailable(EmbedderError):
    """An embedder that cannot answer now: a server down or too slow, a model not fitted yet.
    `fix` names the command or setting that makes it available."""

    stage = "embedder_unavailable"

    def __init__(self, message: str, fix: str = ""):
        super().__init__(message)
        self.fix = fix


class EmbedderRefused(EmbedderUnavailable):
    """An embedder whose model is there but is not the one it was built for (a checksum that
    does not match): it refuses to run it. `carto doctor` lists it as a problem."""


class Embedder:
    """Subclass, set `name`, implement `model_tag`, `embed_documents` and `embed_query`.

    Constructed with the home (an embedder fitted on the corpus keeps its model under
    `home.state`) and its options (`[semantic.<name>]` in the config file, env overrides).
    Construction must be cheap and must not fail: problems surface from `check()` and the
    embed methods as :class:`EmbedderUnavailable`.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: True when the model is fitted on the home's corpus (`fit`) before it can embed.
    needs_fit: ClassVar[bool] = False
    #: Hits under this cosine do not join the ladder unless `[semantic] min_score` (or
    #: CARTO_SEMANTIC_MIN_SCORE) says otherwise: each model's scale differs.
    min_score: ClassVar[float] = 0.3
    #: Share of the home's mean document vector taken off each query vector (centred queries,
    #: see `SemanticSearcher.search`): a model whose vectors all lean one way (static word
    #: vectors do) otherwise ranks first the rows that are close to every query. 0: as is.
    #: A centred score is not a cosine: `min_score` is translated to its scale (`floor_for`).
    centre: ClassVar[float] = 0.0
    #: How much more the semantic ladder weighs in `rrf-prior` for the share of a query that
    #: no keyword candidate holds: its weight becomes `w * (1 + uncovered_lift * share)`.
    #: Worth it only for a model whose ladder beats the keyword side where that side is weak:
    #: measured for wordllama (1); lsa was worse with it (docs/ranking.md). 0: never lifted.
    uncovered_lift: ClassVar[float] = 0.0
    #: How far this model's scores, not only its ranks, order the first page: `rrf-prior`
    #: weighs each semantic contribution by (the row's score / the ladder's best) **
    #: closeness for `Fused.nearer`, which orders the page after the decay (carried on the
    #: ladder as `Ladder.closeness`). Worth it for a model whose cosines say how near a row
    #: is (measured for minilm: 1). 0: ranks alone.
    closeness: ClassVar[float] = 0.0
    #: The cosine from which a hit is evidence that a search found something (the relevance
    #: floor, carto_core.search.floor): a search whose best hit scores under it, with no
    #: keyword match covering the query, found nothing. None: never measured for this model,
    #: every hit is evidence.
    evidence_floor: ClassVar[float | None] = None
    #: From `evidence_floor` up to this cosine, a hit is evidence only when `alignment` of the
    #: query with the ladder's first `alignment_candidates` rows reaches `alignment_floor`
    #: (the relevance floor's second look, for the band where near and unrelated meet).
    #: None: no band, `evidence_floor` alone decides.
    evidence_band: ClassVar[float | None] = None
    alignment_floor: ClassVar[float] = 0.0
    alignment_candidates: ClassVar[int] = 5
    #: True: the query is embedded without its question and function words (the analyzer's
    #: `content_query`): a mean of static word vectors is otherwise pulled towards every row
    #: that also says "what did I ...". A model that reads the sentence keeps it whole.
    content_query: ClassVar[bool] = False
    #: A name the query writes with a capital (not as its first word) and that at least this
    #: share of the rows the embedder embeds hold is also asked without: the semantic ladder
    #: searches the unit sum of the question's vector and `name_weight` times the vector of
    #: the question without the name. A speaker's name on every line of a dialogue ("Maya:
    #: ...") makes a sentence encoder's nearest rows to a question naming her the rows naming
    #: her twice ("Maya: Maya has been so busy"), above the lines that answer it. The keyword
    #: ladders still weigh the name as asked. None: the question as asked.
    name_share: ClassVar[float | None] = None
    name_weight: ClassVar[float] = 1.0
    #: The embedder used instead when this one is not installed (`missing()` says why): the
    #: search and the index run with it and say so (`note`). "": none, this one is unavailable.
    fallback: ClassVar[str] = ""

    def __init__(self, home: "Home", options: dict | None = None):
        self.home = home
        self.options = dict(options or {})
        #: Set when this embedder stands in for another that is not installed: what and why.
        self.note = ""

    def missing(self) -> str:
        """Why this embedder is not installed here (with the command that installs it), ""
        when it is. Cheap: no model is loaded. Only an embedder with a `fallback` is asked."""
        return ""

    def embeds(self, source: str, row: dict) -> bool:
        """Whether an event (its log label and row) is worth a vector of this model; the
        others are left to the keyword ladders and counted as having nothing to embed."""
        return True

    @property
    def model_tag(self) -> str:
        """The tag stored with every vector this embedder makes (raises EmbedderUnavailable
        when it cannot be known yet, e.g. a model not fitted)."""
        raise NotImplementedError

    def check(self) -> None:
        """Raise EmbedderUnavailable when the embedder cannot answer; cheap (no network)."""

    def is_fitted(self) -> bool:
        return True

    def fit(self, texts: Sequence[str]) -> None:
        """Fit the model on the corpus' document texts (only when `needs_fit`)."""
        raise NotImplementedError(f"embedder {self.name!r} is not fitted on a corpus")

    def embed_documents(self, texts: Sequence[str]) -> "np.ndarray":
        """A float32 array (len(texts), dim)."""
        raise NotImplementedError

    def embed_query(self, text: str) -> "np.ndarray":
        """A float32 vector (dim,) for a search query (query prefixes applied here)."""
        raise NotImplementedError

    def alignment(self, query: str, words: set[str], texts: list[str]) -> float | None:
        """How well the query's `words` (the ones no document of the home holds) find a
        counterpart in the best of `texts` (the ladder's top rows), on the scale of
        `alignment_floor`; None: this model cannot tell (every hit in the band is evidence).
        Called only with an `evidence_band`, after `embed_query(query)`."""
        return None


def unknown_embedder_fix(registries=None) -> str:
    """The fix for an embedder name no plugin registers: the name, when some are registered;
    the package that registers them, when none is."""
    if registries is None:
        from carto_core.plugin.registry import EMBEDDER_HOOKS, get_registries

        registries = get_registries(hooks=EMBEDDER_HOOKS)
    names = registries.embedders.names()
    if not names:
        return "pip install carto-rankers"
    return ("set CARTO_EMBEDDER or [semantic] embedder in the config file to one of "
            + ", ".join(names))


def create_embedder(name: str, home: "Home", settings=None, registries=None) -> Embedder:
    """The registered embedder `name`, built with its options. Raises
    `carto_core.plugin.registries.UnknownNameError` listing the installed names."""
    if registries is None:
        from carto_core.plugin.registry import EMBEDDER_HOOKS, get_registries

        registries = get_registries(hooks=EMBEDDER_HOOKS)
    cls = registries.embedders.get(name)
    options = settings.options_for(name) if settings is not None else {}
    embedder = cls(home, options)
    if getattr(embedder, "fallback", "") and embedder.fallback != name:
        why = embedder.missing()
        if why:
            stand_in = create_embedder(embedder.fallback, home, settings, registries)
            stand_in.note = f"{name} is not installed: {why}; {embedder.fallback} answers instead"
            return stand_in
    return embedder
