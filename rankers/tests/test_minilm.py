"""The minilm embedder: the numpy query path gives onnxruntime's vectors, the pure-Python
WordPiece gives the tokenizers library's ids, a query imports neither onnxruntime nor
tokenizers, a model file that is not the pinned one is refused (never run, no traceback), and
a home without the model package falls back to wordllama and says so."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.logio.home import Home
from carto_rankers.embedders import minilm_model as mm
from carto_rankers.embedders import wordpiece
from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder

TEXTS = ["What am I recovering from lately?", "Different problem now: a slipped disc.",
         "my coworker", "Héllo wörld, 東京 naïve café — ok?!", "x" * 150 + " done",
         "deploy staging " * 90, "ΟΔΟΣ ΣΑΣ", "İstanbul ǅ ﬁne", "emoji 🎉 \u00a0nbsp \u200b zero", "a"]


@pytest.fixture(scope="module")
def tokenizer():
    from tokenizers import BertWordPieceTokenizer

    tok = BertWordPieceTokenizer(str(wordpiece.VOCAB), lowercase=True)
    tok.enable_truncation(128)
    return tok


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return MiniLMEmbedder(Home(tmp_path_factory.mktemp("minilm")))


def test_the_vocabulary_is_berts_and_ships_with_its_notice():
    import hashlib

    assert hashlib.sha256(wordpiece.VOCAB.read_bytes()).hexdigest() == \
        "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
    notice = (wordpiece.VOCAB.parent / "NOTICE-bert-uncased-vocab.txt").read_text()
    assert "Apache License, Version 2.0" in notice and "Google" in notice
    assert len(wordpiece.load_vocab()) == 30522


def _old_enough(ch: str) -> bool:
    """Of the same category in Unicode 3.2 and in Python's tables (assigned long ago, or
    unassigned in every version): the library's tables agree on it too."""
    import unicodedata

    return unicodedata.ucd_3_2_0.category(ch) == unicodedata.category(ch)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8").filter(_old_enough), max_size=300))
def test_the_pure_python_wordpiece_gives_the_libraries_ids(tokenizer, text):
    assert wordpiece.encode(text) == tokenizer.encode(text).ids


def test_the_pure_python_wordpiece_on_the_hard_cases(tokenizer):
    for text in TEXTS + ["don't", "U.S.A.", "a\x00b\x7fc\ufffd", "\u2028line\u2029", "Ⅻ ＡＢＣ",
                         "αβγ ΑΒΓ", "ß straße", "x" * 101, "\u0301\u0301"]:
        assert wordpiece.encode(text) == tokenizer.encode(text).ids, text


@pytest.fixture(scope="module")
def sorted_vocab():
    keys, ids = wordpiece.vocab_arrays()
    return wordpiece.SortedVocab(keys, ids)


def test_the_sorted_vocabulary_answers_as_the_dict(sorted_vocab):
    vocab = wordpiece.load_vocab()
    assert len(sorted_vocab) == len(vocab)
    assert all(sorted_vocab.get(token) == token_id for token, token_id in vocab.items())
    for miss in ("", "zzzqqqx", "##", "##zzzq", "\x00", "the\x00", "a" * 200, "the" * 100, "[unk]"):
        assert sorted_vocab.get(miss) is None and vocab.get(miss) is None, miss
    with pytest.raises(KeyError):
        sorted_vocab["zzzqqqx"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_the_sorted_vocabulary_encodes_as_the_dict(sorted_vocab, text):
    assert wordpiece.encode(text, sorted_vocab) == wordpiece.encode(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_the_sorted_vocabulary_misses_what_the_dict_misses(sorted_vocab, token):
    assert sorted_vocab.get(token) == wordpiece.load_vocab().get(token)


def test_a_cold_query_maps_four_files(tmp_path, embedder):
    """The derived folder: every float32 weight in one file, the int8 word table, the sorted
    vocabulary; an older format's folder is removed when this one is made."""
    good = tmp_path / "model.onnx"
    shutil.copyfile(mm.model_path(), good)
    old = tmp_path / "cache" / f"{mm.SHA256[:16]}-f1"
    old.mkdir(parents=True)
    (old / "meta.json").write_text("{}")
    folder = mm.derived_folder(good, root=tmp_path / "cache")
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["meta.json", mm.WEIGHTS, mm.WORD_TABLE, mm.VOCAB_KEYS, mm.VOCAB_IDS])
    assert not old.exists()
    model = mm.NumpyModel(folder)
    ids = wordpiece.encode("what did the vet say about the cat?", model.vocab())
    assert ids == wordpiece.encode("what did the vet say about the cat?")
    assert sorted(model._w) == [] and model.embed_ids(ids).shape == (384,)
    assert set(model._w) == set(mm.required_names())  # each array a view of the mapped files


def test_a_new_vocabulary_file_is_derived_again(tmp_path, monkeypatch, embedder):
    good = tmp_path / "model.onnx"
    shutil.copyfile(mm.model_path(), good)
    folder = mm.derived_folder(good, root=tmp_path / "cache")
    vocab = tmp_path / "vocab.txt"
    lines = wordpiece.VOCAB.read_text("utf-8").split("\n")
    lines[1000] = "zzzqqqx"  # a token of the new file only
    vocab.write_text("\n".join(lines), "utf-8")
    monkeypatch.setattr(wordpiece, "VOCAB", vocab)
    assert mm.derived_folder(good, root=tmp_path / "cache") == folder
    assert mm.NumpyModel(folder).vocab().get("zzzqqqx") == 1000


def test_the_numpy_query_path_gives_onnxruntimes_vectors(embedder):
    documents = embedder.embed_documents(TEXTS)
    queries = np.stack([embedder.embed_query(t) for t in TEXTS])
    assert documents.shape == (len(TEXTS), 384) and documents.dtype == np.float32
    cosines = (documents * queries).sum(1)
    assert cosines.min() >= 0.999, cosines
    np.testing.assert_allclose(np.linalg.norm(documents, axis=1), 1.0, rtol=1e-5)
    # batching sorts by length and pads: each row as if alone
    alone = np.stack([embedder.embed_documents([t])[0] for t in TEXTS])
    assert (alone * documents).sum(1).min() >= 0.9999
    # and it means something: a paraphrase is nearer than an unrelated line
    near, far = embedder.embed_documents(["my colleague", "the weather on Mars"])
    assert float(queries[2] @ near) > 0.6 > float(queries[2] @ far)


def test_without_onnxruntime_documents_take_the_numpy_pass(tmp_path, monkeypatch, embedder):
    """The user install has the model and no onnxruntime: documents are embedded by the numpy
    pass the queries use, to onnxruntime's vectors, and onnxruntime is never imported."""
    from carto_rankers.embedders import minilm_embedder

    with_onnx = embedder.embed_documents(TEXTS)
    monkeypatch.delitem(sys.modules, "onnxruntime", raising=False)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # importing it now fails
    assert not minilm_embedder.onnxruntime_installed()
    fresh = MiniLMEmbedder(Home(tmp_path))
    without = fresh.embed_documents(TEXTS)
    assert fresh._onnx is None and without.shape == with_onnx.shape
    assert (with_onnx * without).sum(1).min() >= 0.9999
    np.testing.assert_allclose(np.linalg.norm(without, axis=1), 1.0, rtol=1e-5)


def test_the_index_runs_without_onnxruntime(tmp_path, monkeypatch):
    from carto_core.semantic.indexer import run_index

    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    # the rules' order: this reads the index's answer, not the learned order of a page of two
    monkeypatch.setenv("CARTO_SEARCH_ORDER", "rules")
    home = _home_with_turns(tmp_path / "h")
    report = run_index(home)
    assert report.outcome == "ok" and report.embedded == 2 and report.model.startswith("minilm-l6-")
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine

    result = run_search(SearchRequest(query="what pet did I get?", limit=3, all=True),
                        engine=SearchEngine(home))
    assert result.semantic.embedder == "minilm" and result.results[0].event_id == "turn-s1-1"


def test_a_run_holds_at_most_1024_padded_tokens(tmp_path, monkeypatch):
    """onnxruntime's peak memory grows with rows x length: long rows go a few at a time, short
    ones many at a time, and the vectors are those of each text alone."""
    from carto_rankers.embedders import minilm_embedder

    fresh = MiniLMEmbedder(Home(tmp_path))
    onnx = fresh._onnx_model()
    shapes = []
    real = onnx.embed_batch
    monkeypatch.setattr(onnx, "embed_batch",
                        lambda lists: shapes.append((len(lists), max(map(len, lists)))) or real(lists))
    texts = ["short one"] * 60 + ["a long row " * 60] * 10 + ["mid length row of words " * 5] * 7
    vectors = fresh.embed_documents(texts)
    assert all(rows * width <= minilm_embedder.BATCH_TOKENS for rows, width in shapes), shapes
    assert max(rows for rows, _ in shapes) == 32 and sum(r for r, _ in shapes) == len(texts)
    assert any(width == 128 and rows == 8 for rows, width in shapes)
    alone = np.stack([real([ids]) [0] for ids in
                      (e.ids for e in fresh._batch_tokenizer().encode_batch(texts[58:63]))])
    assert (alone * vectors[58:63]).sum(1).min() >= 0.9999


def test_the_heap_goes_back_after_every_run(tmp_path, monkeypatch):
    """onnxruntime frees each run's buffers into the C heap, which keeps them: the embedder
    hands them back after every run, not once a call or a build (the peak of a 1M first
    build)."""
    from carto_rankers.embedders import minilm_embedder

    fresh = MiniLMEmbedder(Home(tmp_path))
    onnx = fresh._onnx_model()
    events = []
    real = onnx.embed_batch
    monkeypatch.setattr(onnx, "embed_batch", lambda lists: events.append("run") or real(lists))
    monkeypatch.setattr(minilm_embedder, "release_heap", lambda: events.append("release") or True)
    fresh.embed_documents(["short one"] * 40 + ["a long row " * 60] * 9)
    assert events.count("run") >= 3
    assert events == ["run", "release"] * events.count("run")


def test_a_query_imports_neither_onnxruntime_nor_tokenizers(tmp_path, embedder):
    embedder.check()  # derived weights in this test's cache (HOME is the test's)
    code = ("import sys\n"
            "from carto_core.logio.home import Home\n"
            "from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder\n"
            f"e = MiniLMEmbedder(Home({str(tmp_path)!r}))\n"
            "v = e.embed_query('what did the vet say about the cat?')\n"
            "print(len(v), [m for m in ('onnxruntime', 'tokenizers', 'onnx') if m in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split(None, 1) == ["384", "[]\n"], out.stderr


def _corrupted(tmp_path) -> Path:
    bad = tmp_path / "model.onnx"
    shutil.copyfile(mm.model_path(), bad)
    data = bytearray(bad.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    return bad


def test_a_corrupted_model_file_is_refused(tmp_path):
    bad = _corrupted(tmp_path)
    embedder = MiniLMEmbedder(Home(tmp_path / "h"), {"model_file": str(bad)})
    with pytest.raises(mm.ModelMismatch, match="not the one carto was built for"):
        embedder.check()
    with pytest.raises(mm.ModelMismatch):
        embedder.embed_documents(["hello"])


def test_derived_weights_are_checked_again_when_the_file_changes(tmp_path, embedder):
    good = tmp_path / "model.onnx"
    shutil.copyfile(mm.model_path(), good)
    folder = mm.derived_folder(good, root=tmp_path / "cache")
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["sha256"] == mm.SHA256 and meta["source"]["path"] == str(good)
    assert mm.derived_folder(good, root=tmp_path / "cache") == folder  # a stat, no hash
    data = bytearray(good.read_bytes())
    data[-10] ^= 0xFF
    good.write_bytes(bytes(data))
    with pytest.raises(mm.ModelMismatch):
        mm.derived_folder(good, root=tmp_path / "cache")


def _home_with_turns(root: Path) -> Home:
    rows = [{"event_id": f"turn-s1-{i}", "timestamp": f"2026-11-0{i}T10:00:00Z", "session": "s1",
             "turn_idx": i, "project": "notes", "type": "transcript", "summary": text}
            for i, text in enumerate(["I adopted a kitten called Miso.",
                                      "The kitten keeps knocking plants off the shelf."], 1)]
    tools = [{"event_id": f"evt-{i:012d}", "timestamp": "2026-11-05T10:00:00Z", "type": "tool_bash",
              "project": "notes", "summary": f"Ran: pytest tests/test_{i}.py"} for i in range(3)]
    root.mkdir(parents=True)
    (root / "turns.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (root / "tool-use-log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in tools))
    return Home(root)


def test_the_index_leaves_tool_rows_to_the_keyword_ladders(tmp_path, monkeypatch):
    from carto_core.semantic.indexer import run_index

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    monkeypatch.setenv("CARTO_SEARCH_ORDER", "rules")  # as above
    home = _home_with_turns(tmp_path / "h")
    report = run_index(home)
    assert report.outcome == "ok", report.reason
    assert (report.embedded, report.keyword_only, report.no_text) == (2, 3, 3)
    assert report.model.startswith("minilm-l6-")
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine

    result = run_search(SearchRequest(query="what pet did I get?", limit=3, all=True),
                        engine=SearchEngine(home))
    assert result.semantic.state == "available" and result.semantic.embedder == "minilm"
    assert result.semantic.not_embedded == 0  # the tool rows count as nothing to embed
    assert result.results[0].event_id == "turn-s1-1"


def test_a_home_of_tool_rows_alone_is_not_sent_round_to_carto_index(tmp_path, monkeypatch):
    """Three hook rows, all tool calls: `carto index` embeds none of them (minilm leaves tool
    rows to the keyword ladders), and the search said "no vectors of model ... yet (fix: carto
    index)" before and after it, a fix that fixes nothing. It now says why, with no fix, until
    a log grows past what the index read; then `carto index` is the fix again."""
    from carto_core.cli import cli
    from carto_core.semantic.indexer import run_index

    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    root = tmp_path / "h"
    root.mkdir()
    tools = [{"event_id": f"evt-{i:012d}", "timestamp": "2026-11-05T10:00:00Z",
              "type": "tool_bash", "project": "shop", "summary": f"Ran: pytest tests/test_{i}.py"}
             for i in range(3)]
    log = root / "tool-use-log.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in tools))
    home = Home(root)
    env = {"CARTO_HOME": str(root)}

    def semantic():
        done = CliRunner().invoke(cli, ["search", "which test failed?", "--json"], env=env)
        return json.loads(done.stdout)["semantic"]

    assert semantic()["fix"] == "carto index"  # never indexed: the fix is right
    report = run_index(home)
    assert (report.outcome, report.embedded, report.keyword_only) == ("ok", 0, 3)
    after = semantic()
    assert after["state"] == "unavailable" and after["fix"] == ""
    assert after["reason"].startswith("nothing in this home is of a kind minilm embeds")
    with log.open("a") as out:  # a row the index has not read: carto index may embed it
        out.write(json.dumps({**tools[0], "event_id": "evt-000000000009"}) + "\n")
    assert semantic()["fix"] == "carto index"


def test_a_home_without_the_model_package_falls_back_to_wordllama(tmp_path, monkeypatch):
    from carto_core.cli import cli

    monkeypatch.setattr(mm, "_FOLDER", [tmp_path / "nowhere"])  # the wheel is not installed
    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    home = _home_with_turns(tmp_path / "h")
    env = {"CARTO_HOME": str(home.root)}
    runner = CliRunner()
    indexed = runner.invoke(cli, ["index", "--json"], env=env)
    assert indexed.exit_code == 0, indexed.output
    found = runner.invoke(cli, ["search", "what pet did I get?", "--json"], env=env)
    document = json.loads(found.stdout)
    assert document["semantic"]["state"] == "available"
    assert document["semantic"]["embedder"] == "wordllama"
    assert "minilm is not installed" in document["semantic"]["note"]
    assert "pip install 'carto-rankers[minilm]'" in document["semantic"]["note"]
    note = document["semantic"]["note"]
    assert note.startswith("minilm is not installed: ") and note.endswith("; wordllama answers instead")
    depth = deepest = 0
    for ch in note:  # said in one level of parentheses (it nested two: "installed (... (fix: ...)):")
        depth += (ch == "(") - (ch == ")")
        deepest = max(deepest, depth)
    assert deepest == 1, note
    doctor = json.loads(runner.invoke(cli, ["doctor", "--json", "--no-probe"], env=env).stdout)
    assert doctor["semantic"]["embedder"] == "wordllama"
    assert "minilm is not installed" in doctor["semantic"]["note"]
    text = runner.invoke(cli, ["doctor", "--no-probe"], env=env).stdout
    assert "semantic: wordllama (available)" in text and "note: minilm is not installed" in text


def test_minilm_is_the_default_embedder(monkeypatch, tmp_path):
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.settings import SemanticSettings

    monkeypatch.delenv("CARTO_EMBEDDER")  # the suite's own choice (conftest)
    settings = SemanticSettings.load()
    assert settings.embedder == "minilm" and settings.origins["embedder"] == "default"
    assert create_embedder(settings.embedder, Home(tmp_path), settings).name == "minilm"


def test_a_refused_model_is_said_by_search_index_and_doctor_without_a_traceback(tmp_path):
    from carto_core.cli import cli

    bad = _corrupted(tmp_path)
    home = _home_with_turns(tmp_path / "h")
    env = {"CARTO_HOME": str(home.root), "CARTO_EMBEDDER": "minilm", "CARTO_MINILM_MODEL": str(bad)}
    runner = CliRunner()
    indexed = runner.invoke(cli, ["index", "--step", "semantic", "--json"], env=env)
    assert "Traceback" not in indexed.output
    step = json.loads(indexed.stdout)
    report = step["steps"][0] if "steps" in step else step
    assert report["outcome"] == "unavailable" and "not the one carto was built for" in report["reason"]
    found = runner.invoke(cli, ["search", "kitten", "--json", "--semantic"], env=env)
    assert "Traceback" not in found.output
    document = json.loads(found.stdout)
    assert document["semantic"]["state"] == "unavailable"
    assert "not the one carto was built for" in document["semantic"]["reason"]
    assert document["results"][0]["event_id"].startswith("turn-s1-")  # keyword results stand
    doctor = runner.invoke(cli, ["doctor", "--json", "--no-probe"], env=env)
    assert doctor.exit_code == 1
    problems = json.loads(doctor.stdout)["problems"]
    assert any("not the one carto was built for" in p["problem"] and "--force-reinstall" in p["fix"]
               for p in problems)
