"""`lsa`: TF-IDF + truncated SVD fitted on the home's own corpus. Offline, no model download.

Fitting (`carto index`, first run or `--refit`) uses scikit-learn. What the fitted model needs
to embed is then persisted as plain arrays under `<home>/.carto/embedders/lsa/<tag>/`:

    terms.npy        the vocabulary, sorted (ASCII bytes: tokens are `[a-z0-9]+`)
    idf.npy          float32 idf per term (same order)
    projection.npy   float32 (terms, dims): the SVD components, transposed, rows per term
    meta.json        tag, dims, documents and terms fitted on, sublinear_tf, when

and `CURRENT` names the tag in use (replaced atomically). Embedding a query loads those arrays
memory-mapped and projects with numpy alone: scikit-learn's text module costs about a second to
import, which a search must not pay. Tokens are the keyword ladder's: lowercase, split on
`[^a-z0-9]+`.

The tag (`lsa-<dims>-<digest of the arrays>`) changes with every refit; vectors of an older
fit are never scored against a newer model's query, and `carto index` re-embeds them.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from carto_core.api import (
    Embedder, EmbedderError, EmbedderUnavailable, format_timestamp, make_dir, make_dirs, save_npy,
    utcnow, write_text,
)

TOKEN = re.compile(r"[a-z0-9]+")
#: Tokens longer than this are ids, hashes and paths run together: not vocabulary.
MAX_TOKEN = 40
DEFAULT_DIMS = 256
#: Why the lsa embedder cannot answer on an install without its extra, and the fix.
NO_SKLEARN = "the lsa embedder fits with scikit-learn, which is not installed"
SKLEARN_FIX = "pip install 'carto-rankers[lsa]'"
DEFAULT_FIT_SAMPLE = 50_000
DEFAULT_MAX_FEATURES = 100_000


def tokenize(text: str) -> list[str]:
    return [t for t in TOKEN.findall(text.lower()) if len(t) <= MAX_TOKEN]


class LsaModel:
    """The persisted arrays of one fit, memory-mapped."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.meta = json.loads((folder / "meta.json").read_text("utf-8"))
        self.tag: str = self.meta["tag"]
        self.terms = np.load(folder / "terms.npy", mmap_mode="r")
        self.idf = np.load(folder / "idf.npy", mmap_mode="r")
        self.projection = np.load(folder / "projection.npy", mmap_mode="r")
        self.sublinear = bool(self.meta.get("sublinear_tf", True))
        self._lookup: dict[str, int] | None = None

    @property
    def dims(self) -> int:
        return int(self.projection.shape[1])

    def weights(self, tokens: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(term indices, l2-normalised tf-idf weights) of one text, as TfidfVectorizer would
        weigh it: binary search of the distinct tokens in the sorted vocabulary."""
        counts = Counter(tokens)
        if not counts or len(self.terms) == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        distinct = list(counts)
        wanted = np.array([t.encode("ascii") for t in distinct])
        positions = np.minimum(np.searchsorted(self.terms, wanted), len(self.terms) - 1)
        found = self.terms[positions] == wanted
        index = positions[found].astype(np.int64)
        tf = np.array([counts[t] for t, ok in zip(distinct, found) if ok], dtype=np.float32)
        if index.size == 0:
            return index, tf
        if self.sublinear:
            tf = 1.0 + np.log(tf)
        w = tf * np.asarray(self.idf[index], dtype=np.float32)
        norm = float(np.linalg.norm(w))
        return index, (w / norm if norm else w)

    def project(self, tokens: Sequence[str]) -> np.ndarray:
        index, w = self.weights(tokens)
        if index.size == 0:
            return np.zeros(self.dims, dtype=np.float32)
        return (w @ np.asarray(self.projection[index], dtype=np.float32)).astype(np.float32)

    def lookup(self) -> dict[str, int]:
        if self._lookup is None:
            self._lookup = {t.decode("ascii"): i for i, t in enumerate(self.terms.tolist())}
        return self._lookup


class LsaEmbedder(Embedder):
    name = "lsa"
    description = "TF-IDF + truncated SVD fitted on this home's corpus (offline; the default)"
    needs_fit = True

    def __init__(self, home, options=None):
        super().__init__(home, options)
        self.dims = int(self.options.get("dims", DEFAULT_DIMS))
        self.fit_sample = int(self.options.get("fit_sample", DEFAULT_FIT_SAMPLE))
        self.max_features = int(self.options.get("max_features", DEFAULT_MAX_FEATURES))
        self._model: LsaModel | None = None

    @property
    def folder(self) -> Path:
        return self.home.state / "embedders" / "lsa"

    def _current(self) -> LsaModel:
        if self._model is not None:
            return self._model
        try:
            tag = (self.folder / "CURRENT").read_text("utf-8").strip()
            self._model = LsaModel(self.folder / tag)
        except (OSError, ValueError, KeyError):
            import importlib.util

            if importlib.util.find_spec("sklearn") is None:  # `carto index` could not fit it
                raise EmbedderUnavailable(NO_SKLEARN, fix=SKLEARN_FIX) from None
            raise EmbedderUnavailable(
                "the lsa model is not fitted on this home yet", fix="carto index") from None
        return self._model

    def is_fitted(self) -> bool:
        try:
            self._current()
        except EmbedderUnavailable:
            return False
        return True

    def check(self) -> None:
        self._current()

    @property
    def model_tag(self) -> str:
        return self._current().tag

    # ------------------------------------------------------------------ fitting

    def fit(self, texts: Sequence[str]) -> str:
        """Fit on `texts` (an evenly spaced sample of at most `fit_sample`), persist the arrays,
        make the fit current; returns the new tag."""
        try:
            from sklearn.decomposition import TruncatedSVD
            from sklearn.feature_extraction.text import TfidfVectorizer
        except ImportError:  # a user install leaves it out: the `lsa` extra
            raise EmbedderUnavailable(NO_SKLEARN, fix=SKLEARN_FIX) from None

        texts = [t for t in texts if t]
        if len(texts) > self.fit_sample:
            step = len(texts) / self.fit_sample
            texts = [texts[int(i * step)] for i in range(self.fit_sample)]
        vectorizer = TfidfVectorizer(
            tokenizer=tokenize, lowercase=False, token_pattern=None, sublinear_tf=True,
            min_df=2 if len(texts) >= 1000 else 1, max_features=self.max_features,
            dtype=np.float32)
        try:
            matrix = vectorizer.fit_transform(texts)
        except ValueError as exc:  # empty vocabulary
            raise EmbedderUnavailable(f"cannot fit lsa: {exc}", fix="carto ingest") from None
        dims = min(self.dims, matrix.shape[0] - 1, matrix.shape[1] - 1)
        if dims < 2:
            raise EmbedderUnavailable(
                f"cannot fit lsa on {matrix.shape[0]} documents and {matrix.shape[1]} terms: "
                "the corpus is too small", fix="carto ingest")
        svd = TruncatedSVD(n_components=dims, algorithm="randomized", n_iter=5, random_state=0)
        # As many BLAS threads as the machine has cores to spare (CARTO_JOBS / --jobs): on a
        # busy machine spinning threads make the SVD several times slower, not faster.
        from carto_core.api import blas_threads, jobs

        with blas_threads(jobs()):
            svd.fit(matrix)
        vocabulary = vectorizer.vocabulary_
        terms = sorted(vocabulary)
        columns = np.array([vocabulary[t] for t in terms], dtype=np.int64)
        terms_array = np.array([t.encode("ascii") for t in terms])
        idf = vectorizer.idf_.astype(np.float32)[columns]
        projection = np.ascontiguousarray(svd.components_.T[columns], dtype=np.float32)
        import hashlib
        import secrets
        import shutil

        digest = hashlib.sha256(terms_array.tobytes() + projection.tobytes()).hexdigest()[:10]
        tag = f"lsa-{dims}-{digest}"
        meta = {"tag": tag, "dims": dims, "documents": int(matrix.shape[0]),
                "terms": len(terms), "sublinear_tf": True,
                "explained_variance": float(svd.explained_variance_ratio_.sum()),
                "fitted_at": format_timestamp(utcnow())}
        make_dirs(self.folder)
        target = self.folder / tag
        if not target.exists():
            tmp = self.folder / f".{tag}.{secrets.token_hex(3)}"
            make_dir(tmp)
            save_npy(tmp / "terms.npy", terms_array)
            save_npy(tmp / "idf.npy", idf)
            save_npy(tmp / "projection.npy", projection)
            write_text(tmp / "meta.json", json.dumps(meta, indent=1))
            os.rename(tmp, target)
        current = self.folder / f".CURRENT.{secrets.token_hex(3)}"
        write_text(current, tag + "\n")
        os.replace(current, self.folder / "CURRENT")
        self._prune(keep={tag})
        self._model = None
        return tag

    def _prune(self, keep: set[str]) -> None:
        """Remove older fits (their vectors are re-embedded by `carto index`)."""
        import shutil

        for child in self.folder.iterdir():
            if child.is_dir() and not child.name.startswith(".") and child.name not in keep:
                shutil.rmtree(child, ignore_errors=True)

    # ------------------------------------------------------------------ embedding

    def embed_query(self, text: str) -> np.ndarray:
        return self._current().project(tokenize(text))

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        model = self._current()
        lookup = model.lookup()
        idf = np.asarray(model.idf, dtype=np.float32)
        indptr = [0]
        indices: list[int] = []
        data: list[float] = []
        for text in texts:
            counts = Counter(t for t in tokenize(text) if t in lookup)
            for term, count in counts.items():
                indices.append(lookup[term])
                data.append(count)
            indptr.append(len(indices))
        if not indices:
            return np.zeros((len(texts), model.dims), dtype=np.float32)
        from scipy.sparse import csr_matrix

        cols = np.asarray(indices, dtype=np.int64)
        tf = np.asarray(data, dtype=np.float32)
        if model.sublinear:
            tf = 1.0 + np.log(tf)
        weights = tf * idf[cols]
        matrix = csr_matrix((weights, cols, np.asarray(indptr)), shape=(len(texts), len(idf)))
        norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        matrix = csr_matrix(matrix.multiply(1.0 / norms[:, None]))
        out = matrix @ np.asarray(model.projection)
        if not isinstance(out, np.ndarray):
            raise EmbedderError("lsa projection did not produce an array")
        return out.astype(np.float32)
