"""The wordllama embedder: offline (no socket is ever opened), the query path's BPE and
memory-mapped weights give wordllama's own vectors, and a query imports neither wordllama nor
tokenizers."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.logio.home import Home
from carto_rankers.embedders import wordllama_embedder as wl

@pytest.fixture
def no_network(monkeypatch):
    """Any connection attempt fails the test (and is recorded)."""
    attempts = []

    def refuse(self, address, *args, **kwargs):
        attempts.append(address)
        raise AssertionError(f"network touched: {address}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: refuse(None, a))
    # huggingface_hub, if it were reached, honours these as well
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return attempts


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return wl.WordLlamaEmbedder(Home(tmp_path_factory.mktemp("wl")))


TEXTS = ["What pet did my family adopt?", "東京に住んでいます", "deploy_the-service now!!  double",
         "", "Ünïcödé ë 🎉 emoji", "a", "batch_batch_lock parseConfig src/cart/tax.py"]


def test_loads_from_the_wheel_without_the_network(embedder, no_network, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.cache/wordllama to fall back on
    fresh = wl.WordLlamaEmbedder(Home(tmp_path / "home"))
    fresh.check()
    docs = fresh.embed_documents(TEXTS)
    query = np.stack([fresh.embed_query(t) for t in TEXTS])
    assert docs.shape == (len(TEXTS), 256) and docs.dtype == np.float32
    assert no_network == []
    np.testing.assert_allclose(query, docs, atol=1e-6)
    assert not docs[3].any()  # the empty text: a zero vector, not NaN
    norms = np.linalg.norm(np.delete(docs, 3, axis=0), axis=1)
    np.testing.assert_allclose(norms, 1.0, rtol=1e-5)
    # wordllama's own embed (its package loader, cache_dir at the package, no download)
    reference = fresh.fast_model().embed([t for t in TEXTS if t], norm=True)
    np.testing.assert_allclose(np.delete(docs, 3, axis=0), reference, atol=1e-5)
    assert (tmp_path / "home" / ".carto" / "embedders" / "wordllama").is_dir()


def test_vectors_mean_something(embedder):
    q = embedder.embed_query("my dog")
    near, far = embedder.embed_documents(["we adopted a puppy", "quarterly tax filing deadline"])
    assert float(q @ near) > float(q @ far)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
       | st.text(alphabet="abcdefgh XYZ_-./:東京é🎉0123", max_size=60))
def test_the_query_bpe_equals_the_tokenizer(embedder, text):
    fast = embedder.fast_model().tokenizer
    assert embedder.bpe().ids(text) == fast.encode(text, add_special_tokens=False).ids


def test_a_query_imports_neither_wordllama_nor_tokenizers(tmp_path):
    code = (
        "import sys, json\n"
        "from carto_core.logio.home import Home\n"
        "from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder\n"
        f"e = WordLlamaEmbedder(Home({str(tmp_path)!r}))\n"
        "e.embed_query('warm the tables')\n"  # first query writes the hashed tables
        "v = e.embed_query('which pet did we adopt')\n"
        "print(json.dumps([len(v), sorted(m for m in sys.modules if m.split('.')[0] in "
        "('wordllama', 'tokenizers', 'safetensors', 'requests', 'pydantic')"
        " or m in ('importlib.metadata', 'importlib.util'))]))\n")
    # the tables are written by the first query of a home; a fresh process then reads them
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    dims, heavy = json.loads(out.stdout)
    assert dims == 256 and heavy == []


def test_the_package_folder_is_the_one_importlib_finds(monkeypatch):
    """Found by the path finder alone; a finder of its own (an editable install) still counts."""
    import importlib.util

    wl._FOLDER.clear()
    spec = importlib.util.find_spec("wordllama")
    assert wl.package_folder() == Path(list(spec.submodule_search_locations)[0])
    from importlib.machinery import PathFinder

    class Own:  # an editable install's finder, ahead of the path finder that finds nothing
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            return spec if name == "wordllama" else None

    wl._FOLDER.clear()
    monkeypatch.setattr(PathFinder, "find_spec",
                        classmethod(lambda cls, name, path=None, target=None: None))
    monkeypatch.setattr(sys, "meta_path", [Own, *sys.meta_path])
    monkeypatch.delitem(sys.modules, "wordllama", raising=False)  # asked, not remembered
    assert wl.package_folder() == Path(list(spec.submodule_search_locations)[0])
    wl._FOLDER.clear()


def test_the_version_is_read_without_importlib_metadata():
    from importlib import metadata

    wl._VERSION.clear()
    assert wl.package_version() == metadata.version("wordllama")


def test_a_missing_package_is_unavailable_with_the_fix(monkeypatch, tmp_path):
    from carto_core.semantic.embedder import EmbedderUnavailable

    monkeypatch.setattr(wl, "package_folder", lambda: None)
    with pytest.raises(EmbedderUnavailable) as caught:
        wl.WordLlamaEmbedder(Home(tmp_path)).check()
    assert "pip install" in caught.value.fix


def test_a_batch_embeds_without_padding_what_the_padded_tokenizer_gives(embedder):
    texts = ["short", "", "a much longer text about schema migrations and lag " * 20,
             "日本語のテキスト", "x" * 5000]
    padded = embedder.fast_model().tokenizer.encode_batch(texts, add_special_tokens=False)
    expected = embedder._pool([[i for i, m in zip(e.ids, e.attention_mask) if m] for e in padded])
    assert np.array_equal(embedder.embed_documents(texts), expected)


def test_the_query_is_embedded_without_its_question_words(tmp_path, monkeypatch):
    """A mean of static word vectors is pulled towards every row that also says "what do I
    ...": wordllama embeds the query's content words (the analyzer's), the ladder the rest."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.search import SearchRequest, run_search
    from carto_core.semantic.indexer import run_index

    home = Home(tmp_path / "h")
    append_rows(home.log("turns"), [
        {"event_id": f"turn-s-{i}", "timestamp": f"2026-05-0{i}T10:00:00Z", "type": "transcript",
         "summary": text, "session": "s", "turn_idx": i}
        for i, text in enumerate(["I play football with the club.", "Garden centres are busy.",
                                  "What do I do now? Thanks, that's helpful."], 1)])
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    monkeypatch.setenv("CARTO_EMBEDDER", "wordllama")
    assert run_index(home).outcome == "ok"
    seen = []
    original = wl.WordLlamaEmbedder.embed_query
    monkeypatch.setattr(wl.WordLlamaEmbedder, "embed_query",
                        lambda self, text: seen.append(text) or original(self, text))
    result = run_search(SearchRequest(query="What sport do I do now?", limit=5), home=home)
    assert result.semantic_status == "available"
    assert seen == ["sport"]
    assert result.results[0].event_id == "turn-s-1"
    # the whole question: the chit-chat row that also says "what do I do now" wins
    monkeypatch.setattr(wl.WordLlamaEmbedder, "content_query", False)
    whole = run_search(SearchRequest(query="What sport do I do now?", limit=5), home=home)
    assert seen[-1] == "What sport do I do now?"
    assert whole.results[0].event_id == "turn-s-3"


def test_a_long_query_bpe_equals_the_tokenizer(embedder):
    words = Path(__file__).read_text().split()
    text = " ".join(words[i * 7 % len(words)] for i in range(3000))
    fast = embedder.fast_model().tokenizer
    assert embedder.bpe().ids(text) == fast.encode(text, add_special_tokens=False).ids


def _lines_run(bpe, text: str) -> int:
    """Lines of `BPE.ids` executed on `text` (a count of work that no machine's load moves)."""
    code, count = wl.BPE.ids.__code__, [0]

    def local(frame, event, arg):
        if event == "line":
            count[0] += 1
        return local

    before = sys.gettrace()  # a coverage run's tracer, given back afterwards
    sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
    try:
        bpe.ids(text)
    finally:
        sys.settrace(before)
    return count[0]


def test_the_bpe_does_linear_work(embedder):
    """Work, not time: lines executed per symbol stay flat as the text grows (the rescan of
    every pair per merge it replaced ran 734 lines a symbol at 100 words and 2,896 at 400:
    quadratic, an 84 KB query took minutes). The heap's log factor is far below this bound."""
    per_symbol = []
    for words in (100, 400):
        text = " ".join(["tokenization", "of", "queries", "stays", "linear"] * (words // 5))
        per_symbol.append(_lines_run(embedder.bpe(), text) / (len(text) + 1))
        assert per_symbol[-1] < 60, (words, per_symbol)
    assert per_symbol[1] < 1.5 * per_symbol[0], per_symbol
