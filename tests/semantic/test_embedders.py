"""The `lsa` and `http` embedders."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np
import pytest

from carto_core.logio.home import Home
from carto_core.semantic.embedder import EmbedderError, EmbedderUnavailable, create_embedder
from carto_core.semantic.settings import SemanticSettings

from .conftest import closed_port, paraphrase_rows


def texts():
    rows, _ = paraphrase_rows()
    return [r["summary"] for r in rows]


def lsa(tmp_path, **options):
    from carto_rankers.embedders.lsa import LsaEmbedder

    return LsaEmbedder(Home(tmp_path / "home"), {"dims": 8, **options})


def test_registered_by_name_and_built_with_options(tmp_path):
    settings = SemanticSettings.load(env={"CARTO_EMBED_URL": "http://127.0.0.1:9/v1/embeddings",
                                          "CARTO_EMBED_TIMEOUT": "0.5", "CARTO_LSA_DIMS": "16"})
    http = create_embedder("http", Home(tmp_path), settings)
    assert (type(http).__name__, http.url, http.timeout) == ("HttpEmbedder", "http://127.0.0.1:9/v1/embeddings", 0.5)
    assert create_embedder("lsa", Home(tmp_path), settings).dims == 16
    with pytest.raises(LookupError, match="accepted: http, lsa"):
        create_embedder("nope", Home(tmp_path), settings)


def test_lsa_unfitted_says_how_to_fit(tmp_path):
    embedder = lsa(tmp_path)
    assert not embedder.is_fitted()
    with pytest.raises(EmbedderUnavailable) as info:
        embedder.embed_query("login")
    assert info.value.fix == "carto index"


def test_lsa_without_scikit_learn_names_the_extra(tmp_path, monkeypatch):
    """A user install leaves scikit-learn out (the `lsa` extra): fitting says which extra."""
    for name in [m for m in sys.modules if m == "sklearn" or m.startswith("sklearn.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "sklearn", None)  # import sklearn -> ImportError
    with pytest.raises(EmbedderUnavailable) as info:
        lsa(tmp_path).fit(texts())
    assert info.value.fix == "pip install 'carto-rankers[lsa]'"
    assert "scikit-learn" in str(info.value)


def test_lsa_unfitted_without_scikit_learn_names_the_extra_not_carto_index(tmp_path, monkeypatch):
    """Asked before it was ever fitted on an install without the extra, it said "not fitted
    yet, fix: carto index", and `carto index` then said scikit-learn was missing: the search
    and `carto doctor` now say what stops it."""
    for name in [m for m in sys.modules if m == "sklearn" or m.startswith("sklearn.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "sklearn", None)
    with pytest.raises(EmbedderUnavailable) as info:
        lsa(tmp_path).embed_query("login")
    assert info.value.fix == "pip install 'carto-rankers[lsa]'"
    assert "scikit-learn" in str(info.value)


def test_lsa_numpy_projection_equals_scikit_learn(tmp_path):
    """The persisted arrays reproduce scikit-learn's transform, for queries (numpy alone) and
    for documents (sparse batches)."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    from carto_rankers.embedders.lsa import tokenize

    corpus = texts()
    embedder = lsa(tmp_path)
    tag = embedder.fit(corpus)
    assert tag.startswith("lsa-8-") and embedder.model_tag == tag
    vectorizer = TfidfVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None,
                                 sublinear_tf=True, dtype=np.float32)
    matrix = vectorizer.fit_transform(corpus)
    svd = TruncatedSVD(n_components=8, algorithm="randomized", n_iter=5, random_state=0).fit(matrix)
    probe = ["login credentials fix", "postgres table table migration", "nothing known here",
             corpus[5]]
    expected = svd.transform(vectorizer.transform(probe))
    documents = embedder.embed_documents(probe)
    assert documents.dtype == np.float32 and documents.shape == (4, 8)
    assert np.allclose(documents, expected, atol=1e-4)
    for text, row in zip(probe, expected):
        assert np.allclose(embedder.embed_query(text), row, atol=1e-4)
    assert not embedder.embed_query("zzz qqq").any()


def test_lsa_query_does_not_import_scikit_learn(tmp_path):
    lsa(tmp_path).fit(texts())
    code = (
        "import sys\n"
        "from carto_core.logio.home import Home\n"
        "from carto_core.semantic.settings import SemanticSettings\n"
        "from carto_core.semantic.embedder import create_embedder\n"
        f"e = create_embedder('lsa', Home({str(tmp_path / 'home')!r}), SemanticSettings.load())\n"
        "v = e.embed_query('login credentials')\n"
        "print(len(v), any(m == 'sklearn' or m.startswith('sklearn.') for m in sys.modules),"
        " 'qdrant_client' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["8", "False", "False"]


def test_lsa_refit_on_other_text_changes_the_tag(tmp_path):
    embedder = lsa(tmp_path)
    first = embedder.fit(texts())
    assert embedder.fit(texts()) == first  # same corpus, same fit, same tag
    second = embedder.fit(texts() + ["kubernetes helm chart values override"] * 3)
    assert second != first and embedder.model_tag == second
    folder = tmp_path / "home" / ".carto" / "embedders" / "lsa"
    assert (folder / "CURRENT").read_text().strip() == second
    assert not (folder / first).exists()


def test_lsa_refuses_a_corpus_too_small(tmp_path):
    with pytest.raises(EmbedderUnavailable, match="too small"):
        lsa(tmp_path).fit(["one"])


# --------------------------------------------------------------------------- http


def http(tmp_path, url, **options):
    from carto_rankers.embedders.http_embedder import HttpEmbedder

    return HttpEmbedder(Home(tmp_path), {"url": url, **options})


@pytest.mark.parametrize("flavour", ["openai", "ollama"])
def test_http_both_apis_in_order_with_prefix_and_key(tmp_path, embedding_server, flavour):
    server = embedding_server(flavour=flavour)
    embedder = http(tmp_path, server.url, model="m-small", query_prefix="Q: ", api_key="k-123",
                    batch=2)
    vectors = embedder.embed_documents(["alpha beta", "gamma", "alpha"])
    assert vectors.shape == (3, 16)
    assert np.allclose(vectors, [server.vector(t) for t in ["alpha beta", "gamma", "alpha"]])
    query = embedder.embed_query("gamma")
    assert np.allclose(query, server.vector("Q: gamma"))
    assert [r["input"] for r in server.requests] == [["alpha beta", "gamma"], ["alpha"], ["Q: gamma"]]
    assert {r["model"] for r in server.requests} == {"m-small"}
    assert server.headers[0]["Authorization"] == "Bearer k-123"
    assert embedder.model_tag == "http:m-small"


def test_http_hanging_server_times_out_with_the_reason(tmp_path, embedding_server):
    server = embedding_server("hang")
    embedder = http(tmp_path, server.url, timeout=0.3)
    started = time.monotonic()
    with pytest.raises(EmbedderUnavailable, match=r"did not answer within 0.3 s"):
        embedder.embed_query("anything")
    assert time.monotonic() - started < 5  # bounded by the timeout, not by the server


def test_http_server_error_and_refused_and_garbage(tmp_path, embedding_server):
    with pytest.raises(EmbedderUnavailable, match="HTTP 500: model not loaded"):
        http(tmp_path, embedding_server("error").url).embed_query("x")
    with pytest.raises(EmbedderUnavailable, match="not reachable"):
        http(tmp_path, f"http://127.0.0.1:{closed_port()}/v1/embeddings").embed_query("x")
    with pytest.raises(EmbedderError, match="unexpected reply") as info:
        http(tmp_path, embedding_server("garbage").url).embed_query("x")
    assert not isinstance(info.value, EmbedderUnavailable)
