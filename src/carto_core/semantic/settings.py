"""What the configuration selects for the semantic ladder, with where each value came from.

Config file (`[semantic]`), then environment overrides::

    [semantic]
    enabled = true            # CARTO_SEMANTIC=0 disables the ladder
    embedder = "minilm"       # CARTO_EMBEDDER; "wordllama" (static, the fallback when minilm
                              # is not installed), "lsa" (fitted on the home), "http" (a server)
    novelty_gate = 0.85       # CARTO_NOVELTY_GATE; "off" disables; never applied to turns
    gate_window = 65536       # CARTO_NOVELTY_GATE_WINDOW: the newest stored rows the gate
                              # compares a new document with ("all": the whole store)
    qdrant_url = ""           # CARTO_QDRANT_URL (+ CARTO_QDRANT_API_KEY): use a Qdrant server
    qdrant_path = ""          # CARTO_QDRANT_PATH: qdrant-client local mode in this folder
    collection = "carto"      # CARTO_QDRANT_COLLECTION
    min_score = 0.1           # CARTO_SEMANTIC_MIN_SCORE: weaker hits do not join the ladder
                              # (default: the embedder's own; wordllama 0.1, lsa 0.3)
    centre = 1.0              # CARTO_SEMANTIC_CENTRE: share of the home's mean vector taken off
                              # the query (default: the embedder's own; wordllama 1, others 0)
    evidence_floor = 0.35     # CARTO_SEMANTIC_EVIDENCE_FLOOR: the cosine from which a hit is
                              # evidence that a search found something (the relevance floor;
                              # default: the embedder's own measured one; minilm and wordllama 0.22)

    [semantic.lsa]
    dims = 256                # SVD components
    fit_sample = 50000        # documents the model is fitted on (evenly spaced sample)

    [semantic.http]
    url = "http://127.0.0.1:8890/v1/embeddings"   # CARTO_EMBED_URL; `/api/embed` = Ollama
    model = "mxbai-embed-large"                    # CARTO_EMBED_MODEL
    query_prefix = "Represent this sentence for retrieval: "   # CARTO_EMBED_QUERY_PREFIX
    timeout = 2.0                                  # CARTO_EMBED_TIMEOUT (seconds)
    api_key = ""                                   # CARTO_EMBED_API_KEY

With neither `qdrant_url` nor `qdrant_path`, vectors live in the embedded store under
`<home>/.carto/vectors/`.
"""

from __future__ import annotations

import os

from carto_core.util.records import NEW, Record

#: Upstream's PE_GATE_REJECT: a new document this close to an existing one is not indexed.
DEFAULT_GATE = 0.85
#: Past this many new documents a run is a backfill and the gate is not applied (its cost is
#: one exact search per document against the whole store; upstream's backfills ran ungated).
DEFAULT_GATE_MAX = 1000
#: Rows of the embedded store the gate compares a new document with: the newest segments, so a
#: keep-up run costs its new rows times this, not times the store (docs/performance.md,
#: "The keep-up step at a million events"). None: every stored row.
DEFAULT_GATE_WINDOW = 65536
DEFAULT_COLLECTION = "carto"

_FALSE = {"0", "false", "no", "off"}


def _gate(value: object) -> float | None:
    if value is None:
        return DEFAULT_GATE
    if isinstance(value, str):
        if value.strip().lower() in _FALSE | {"", "none"}:
            return None
        value = float(value)
    number = float(value)  # type: ignore[arg-type]
    return None if number >= 1.0 else number


def _window(value: object) -> int | None:
    if isinstance(value, str) and value.strip().lower() in {"all", "none", ""}:
        return None
    return None if value is None else max(1, int(value))  # type: ignore[arg-type]


class SemanticSettings(Record):
    """The `[semantic]` settings, resolved. A plain record (carto_core.util.records: no dataclass
    to generate on every cold search)."""

    _fields = ("enabled", "embedder", "novelty_gate", "gate_max", "gate_window", "qdrant_url",
               "qdrant_api_key", "qdrant_path", "collection", "min_score", "centre",
               "embedder_options", "origins", "evidence_floor")
    _factories = {"embedder_options": dict, "origins": dict}
    enabled: bool
    embedder: str
    novelty_gate: float | None
    gate_max: int
    gate_window: int | None
    qdrant_url: str
    qdrant_api_key: str
    qdrant_path: str
    collection: str
    #: Hits under this cosine do not join the ladder (upstream's API: score_threshold 0.3).
    #: None: the embedder's own `min_score`.
    min_score: float | None
    #: Share of the home's mean document vector taken off the query vector (centred queries,
    #: `SemanticSearcher.search`). None: the embedder's own `centre`.
    centre: float | None
    #: The cosine from which a hit is evidence that a search found something (the relevance
    #: floor, carto_core.search.floor). None: the embedder's own `evidence_floor`.
    evidence_floor: float | None
    #: Options for each embedder by name (`[semantic.<name>]` plus env overrides).
    embedder_options: dict[str, dict]
    origins: dict[str, str]

    def __init__(self, enabled: bool = True, embedder: str = "minilm",
                 novelty_gate: float | None = DEFAULT_GATE, gate_max: int = DEFAULT_GATE_MAX,
                 gate_window: int | None = DEFAULT_GATE_WINDOW,
                 qdrant_url: str = "", qdrant_api_key: str = "", qdrant_path: str = "",
                 collection: str = DEFAULT_COLLECTION, min_score: float | None = None,
                 centre: float | None = None, embedder_options: dict[str, dict] = NEW,
                 origins: dict[str, str] = NEW, evidence_floor: float | None = None):
        self.enabled = enabled
        self.embedder = embedder
        self.novelty_gate = novelty_gate
        self.gate_max = gate_max
        self.gate_window = gate_window
        self.qdrant_url = qdrant_url
        self.qdrant_api_key = qdrant_api_key
        self.qdrant_path = qdrant_path
        self.collection = collection
        self.min_score = min_score
        self.centre = centre
        self.evidence_floor = evidence_floor
        self.embedder_options = {} if embedder_options is NEW else embedder_options
        self.origins = {} if origins is NEW else origins

    @property
    def store_kind(self) -> str:
        return "qdrant" if (self.qdrant_url or self.qdrant_path) else "embedded"

    def options_for(self, name: str) -> dict:
        return dict(self.embedder_options.get(name, {}))

    @classmethod
    def load(cls, config=None, env: dict | None = None) -> "SemanticSettings":
        """Resolve from a `carto_core.model.config.Config` (loaded when None) and the environment."""
        if config is None:
            from carto_core.model.config import load_config

            config = load_config(env)
        env = dict(os.environ if env is None else env)
        section = config.section("semantic")
        settings = cls()
        origins = settings.origins

        def pick(key: str, var: str | None, default):
            if var and env.get(var) not in (None, ""):
                origins[key] = var
                return env[var]
            if key in section:
                origins[key] = "config file"
                return section[key]
            origins[key] = "default"
            return default

        enabled = pick("enabled", "CARTO_SEMANTIC", True)
        settings.enabled = not (isinstance(enabled, str) and enabled.strip().lower() in _FALSE) and enabled is not False
        settings.embedder = str(config.get("semantic.embedder") or "minilm")
        origins["embedder"] = config.lookup("semantic.embedder")[1]
        settings.novelty_gate = _gate(pick("novelty_gate", "CARTO_NOVELTY_GATE", DEFAULT_GATE))
        settings.gate_max = int(pick("gate_max", "CARTO_NOVELTY_GATE_MAX", DEFAULT_GATE_MAX))
        settings.gate_window = _window(pick("gate_window", "CARTO_NOVELTY_GATE_WINDOW",
                                            DEFAULT_GATE_WINDOW))
        settings.qdrant_url = str(pick("qdrant_url", "CARTO_QDRANT_URL", "") or "")
        settings.qdrant_api_key = str(pick("qdrant_api_key", "CARTO_QDRANT_API_KEY", "") or "")
        settings.qdrant_path = str(pick("qdrant_path", "CARTO_QDRANT_PATH", "") or "")
        settings.collection = str(pick("collection", "CARTO_QDRANT_COLLECTION", DEFAULT_COLLECTION))
        floor = pick("min_score", "CARTO_SEMANTIC_MIN_SCORE", None)
        settings.min_score = None if floor in (None, "") else float(floor)
        centre = pick("centre", "CARTO_SEMANTIC_CENTRE", None)
        settings.centre = None if centre in (None, "") else float(centre)
        evidence = pick("evidence_floor", "CARTO_SEMANTIC_EVIDENCE_FLOOR", None)
        settings.evidence_floor = None if evidence in (None, "") else float(evidence)
        options: dict[str, dict] = {}
        for name, value in section.items():
            if isinstance(value, dict):
                options[name] = dict(value)
        http = options.setdefault("http", {})
        for key, var in (("url", "CARTO_EMBED_URL"), ("model", "CARTO_EMBED_MODEL"),
                         ("query_prefix", "CARTO_EMBED_QUERY_PREFIX"),
                         ("timeout", "CARTO_EMBED_TIMEOUT"), ("api_key", "CARTO_EMBED_API_KEY")):
            if env.get(var) not in (None, ""):
                http[key] = env[var]
        minilm = options.setdefault("minilm", {})
        for key, var in (("model_file", "CARTO_MINILM_MODEL"), ("threads", "CARTO_MINILM_THREADS"),
                         ("rows", "CARTO_MINILM_ROWS"), ("cut_words", "CARTO_MINILM_CUT_WORDS")):
            if env.get(var) not in (None, ""):
                minilm[key] = env[var]
        lsa = options.setdefault("lsa", {})
        for key, var in (("dims", "CARTO_LSA_DIMS"), ("fit_sample", "CARTO_LSA_FIT_SAMPLE")):
            if env.get(var) not in (None, ""):
                lsa[key] = env[var]
        settings.embedder_options = options
        return settings
