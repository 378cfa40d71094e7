"""Contract kit for embedders (`carto_core.semantic.embedder.Embedder`).

    from carto_core.api import EmbedderContract

    class TestMyEmbedder(EmbedderContract):
        @pytest.fixture
        def embedder(self, carto_contract_home):
            return MyEmbedder(carto_contract_home)

PYTEST_DONT_REWRITE: every assertion carries its own message.
"""

from __future__ import annotations

import pytest

TEXTS = [
    "fix the flaky login test in the auth service",
    "Ran: npm test -- --grep parser",
    "deploy the billing worker to staging",
    "why does the cart round line totals with Decimal quantize",
    "Modified: src/cart.py",
    "the tokenizer drops accents before lowercasing",
    "migrate the ledger schema and backfill the new column",
    "what did we decide about the cache eviction policy",
]


class EmbedderContract:
    """The embedder rules; provide an `embedder` fixture (an available embedder: `check()`
    passes)."""

    @pytest.fixture
    def embedder(self):
        raise NotImplementedError("define an `embedder` fixture returning the embedder under test")

    def _ready(self, embedder):
        if embedder.needs_fit and not embedder.is_fitted():
            embedder.fit(TEXTS * 4)
        return embedder

    def test_embedder_names_its_model(self, embedder):
        tag = self._ready(embedder).model_tag
        assert isinstance(tag, str) and tag.strip(), f"model_tag must be a non-empty string, got {tag!r}"
        assert embedder.model_tag == tag, "model_tag changes between reads"

    def test_embedder_documents_are_one_finite_row_each(self, embedder):
        import numpy as np

        vectors = np.asarray(self._ready(embedder).embed_documents(TEXTS))
        assert vectors.ndim == 2 and vectors.shape[0] == len(TEXTS), \
            f"embed_documents gave shape {vectors.shape} for {len(TEXTS)} texts"
        assert vectors.shape[1] > 0 and np.isfinite(vectors).all(), "a document vector is empty or not finite"

    def test_embedder_query_lives_in_the_documents_space(self, embedder):
        import numpy as np

        embedder = self._ready(embedder)
        documents = np.asarray(embedder.embed_documents(TEXTS[:2]))
        query = np.asarray(embedder.embed_query(TEXTS[0]))
        assert query.shape == (documents.shape[1],), \
            f"embed_query gave shape {query.shape}; documents are {documents.shape[1]}-d"
        assert np.isfinite(query).all(), "the query vector is not finite"

    def test_embedder_is_deterministic(self, embedder):
        import numpy as np

        embedder = self._ready(embedder)
        first = np.asarray(embedder.embed_documents(TEXTS))
        assert np.allclose(first, np.asarray(embedder.embed_documents(TEXTS)), atol=1e-6), \
            "the same texts embed differently on a second call"
        assert np.allclose(np.asarray(embedder.embed_query(TEXTS[3])),
                           np.asarray(embedder.embed_query(TEXTS[3])), atol=1e-6), \
            "the same query embeds differently on a second call"
