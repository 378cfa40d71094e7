"""The semantic ladder inside `carto search`: paraphrases found, keyword answers unchanged when
it is off, and every way it can fail leaves the keyword results whole and says why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest

from carto_core.plugin.registry import set_registries
from carto_core.search import SearchRequest, run_search
from carto_core.search.tokens import query_tokens
from carto_rankers.analyzers import EnglishAnalyzer
from carto_core.semantic.indexer import ERRORS_FILE, run_index
from carto_core.logio.reader import iter_lines

from .test_store_contract import SCORE_TOLERANCE
from .conftest import NOW, closed_port

CLOCK = NOW + timedelta(hours=1)
PROBES = ["login credentials", "slow latency", "fix update", "postgres table", "crash", "zzzz"]


def search(home, query, **kwargs):
    kwargs.setdefault("now", CLOCK)
    kwargs.setdefault("limit", 15)
    return run_search(SearchRequest(query=query, **kwargs), home=home)


def answer(result):
    """What a keyword-only comparison must find identical: ids, order and scores."""
    return [(hit.event_id, round(hit.score, 12)) for hit in result.results]


def keyword_only(home, query, **kwargs):
    return answer(search(home, query, semantic=False, **kwargs))


def test_paraphrase_targets_are_found_by_hybrid_and_not_by_bm25(paraphrase_home):
    home, rows, cases = paraphrase_home
    by_id = {r["event_id"]: r for r in rows}
    assert run_index(home).outcome == "ok"
    found_by_semantic = 0
    for query, target in cases:
        # The set is a paraphrase set: the query shares no term with its target (stems too).
        analyzer = EnglishAnalyzer()
        assert not set(analyzer.query(query).terms) & set(analyzer.terms(by_id[target]["summary"]))
        bm25 = search(home, query, semantic=False, limit=50)
        assert target not in {h.event_id for h in bm25.results}
        assert bm25.results, "BM25 answers the query with other documents"
        hybrid = search(home, query)
        assert hybrid.semantic_status == "available"
        ids = [h.event_id for h in hybrid.results]
        assert target in ids, (query, ids)
        found_by_semantic += 1
        semantic = next(l for l in hybrid.ladders if l.name == "semantic")
        assert semantic.status == "ok" and semantic.candidates > 0 and semantic.contributed > 0
        assert "semantic" in hybrid.contributing
    assert found_by_semantic == len(cases) == 8


def test_keyword_answers_identical_when_the_semantic_ladder_is_off(paraphrase_home, monkeypatch):
    home, _, _ = paraphrase_home
    run_index(home)
    baseline = {q: keyword_only(home, q) for q in PROBES}
    assert any(baseline.values())
    # The plugin blocked altogether.
    monkeypatch.setenv("CARTO_DISABLE_PLUGINS", "semantic")
    set_registries(None)
    for q in PROBES:
        result = search(home, q)
        assert answer(result) == baseline[q]
        assert "semantic" not in [l.name for l in result.ladders]
        assert result.semantic.state == "unavailable"
        assert result.semantic_status == "unavailable"
        assert result.semantic.label() == ("unavailable: no semantic ranker is installed "
                                           "(fix: pip install carto-rankers)")
    monkeypatch.delenv("CARTO_DISABLE_PLUGINS")
    set_registries(None)
    # Switched off by the environment: the ranker reports disabled and is left out.
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    for q in PROBES:
        result = search(home, q)
        assert answer(result) == baseline[q]
        assert result.semantic_status == "disabled"
        assert "CARTO_SEMANTIC" in result.semantic.reason
    monkeypatch.delenv("CARTO_SEMANTIC")
    for q in PROBES[:2]:  # asked for keyword only
        result = search(home, q, semantic=False)
        assert result.semantic_status == "disabled" and "--no-semantic" in result.semantic.reason


def test_scope_is_pushed_into_the_store_before_top_k(paraphrase_home, monkeypatch):
    """A query about a beta topic, scoped to alpha, depth 5: the ladder is the exact top 5 of
    alpha's documents (computed here with numpy from the embedder), not alpha's leftovers of a
    global top-k (which would be beta documents only)."""
    import numpy as np

    from carto_core.model.corpus import load_corpus
    from carto_core.model.project import ProjectScope
    from carto_core.search.api import Query
    from carto_core.search.engine import SearchEngine
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.settings import SemanticSettings
    from carto_core.semantic.text import document_text

    home, rows, cases = paraphrase_home
    monkeypatch.setenv("CARTO_SEMANTIC_MIN_SCORE", "-1")  # weak hits count: alpha is far away
    run_index(home)
    query = cases[4][0]  # "crash exception": a beta topic
    engine = SearchEngine(home)
    ranker = engine.ranker("semantic")
    assert ranker.status(engine) == (True, "")

    def ladder_ids(scope, depth):
        (ladder,) = ranker.rank(Query(query, tuple(query_tokens(query))), scope, engine, depth=depth)
        return [engine.event_ids[i] for i in ladder.indices]

    embedder = create_embedder("lsa", home, SemanticSettings.load())
    q = embedder.embed_query(query)
    q = q / np.linalg.norm(q)

    def exact(keep):
        events = [e for e in load_corpus(home).events if keep(e)]
        vectors = embedder.embed_documents([document_text(e) for e in events])
        scores = vectors @ q / np.linalg.norm(vectors, axis=1)
        return dict(zip((e.event_id for e in events), scores.tolist()))

    scoped = ladder_ids(engine.scope(project=ProjectScope(["alpha"])), 5)
    def assert_exact_top(got, passed, k):
        """The exact top k of the rows that passed, up to near ties of the store's int8
        rounding (a row that did not pass, or one far below the cut, fails this)."""
        assert len(got) == k and set(got) <= set(passed)
        best = sorted(passed.values(), reverse=True)[:k]
        assert [passed[i] for i in got] == pytest.approx(best, abs=2 * SCORE_TOLERANCE)

    assert_exact_top(scoped, exact(lambda e: e.project == "alpha"), 5)
    assert not set(scoped) & set(ladder_ids(engine.scope(), 5))  # the global top 5 is beta
    since = NOW - timedelta(minutes=20)
    windowed = ladder_ids(engine.scope(since=since), 4)
    assert_exact_top(windowed, exact(lambda e: e.timestamp >= since), 4)


# --------------------------------------------------------------------------- failures


def use_http(monkeypatch, url, timeout="0.3"):
    monkeypatch.setenv("CARTO_EMBEDDER", "http")
    monkeypatch.setenv("CARTO_EMBED_URL", url)
    monkeypatch.setenv("CARTO_EMBED_MODEL", "fake-embed")
    monkeypatch.setenv("CARTO_EMBED_TIMEOUT", timeout)


def log_bytes(home):
    return {p.name: p.read_bytes() for p in home.root.glob("*.jsonl")}


@pytest.mark.parametrize("mode, why", [("hang", "did not answer within 0.3 s"),
                                       ("error", "HTTP 500"),
                                       ("down", "not reachable")])
def test_embedder_down_or_slow_keyword_results_still_come_back(
        paraphrase_home, monkeypatch, embedding_server, mode, why):
    home, rows, cases = paraphrase_home
    good = embedding_server("ok")
    use_http(monkeypatch, good.url)
    assert run_index(home).embedded == len(rows)
    assert search(home, "login credentials").semantic_status == "available"
    baseline = {q: keyword_only(home, q) for q in PROBES}
    bad_url = (f"http://127.0.0.1:{closed_port()}/v1/embeddings" if mode == "down"
               else embedding_server(mode).url)
    monkeypatch.setenv("CARTO_EMBED_URL", bad_url)
    before = log_bytes(home)
    for q in PROBES[:3]:
        result = search(home, q)
        assert answer(result) == baseline[q]
        assert result.semantic_status == "unavailable" and why in result.semantic.reason
        assert [l.status for l in result.ladders if l.name == "semantic"] == ["error"]
    # The indexer logs the failure, backs off and loses nothing.
    append = {"event_id": "evt-late", "timestamp": "2026-11-02T10:00:00Z", "summary": "late row"}
    from carto_core.logio.appendlog import append_rows

    append_rows(home.log("prompts"), [append])
    report = run_index(home)
    assert report.outcome == "unavailable" and why in report.reason and report.backoff_until
    assert run_index(home).outcome == "backing_off"
    errors = [line.row for line in iter_lines(home.state_file(ERRORS_FILE))]
    assert errors[-1]["stage"] == "embedder_unavailable"
    after = log_bytes(home)
    assert {k: v for k, v in after.items() if k != "prompt-history.jsonl"} == {
        k: v for k, v in before.items() if k != "prompt-history.jsonl"}
    assert after["prompt-history.jsonl"].startswith(before["prompt-history.jsonl"])
    # Once the embedder is back, `carto index --force` (what the status names) embeds the late
    # row without waiting for the back-off.
    monkeypatch.setenv("CARTO_EMBED_URL", good.url)
    env = {**os.environ, "CARTO_HOME": str(home.root)}
    carto = os.path.join(os.path.dirname(sys.executable), "carto")
    done = subprocess.run([carto, "index", "--step", "semantic", "--force", "--json"],
                          capture_output=True, text=True, env=env)
    (step,) = json.loads(done.stdout)["steps"]
    assert (step["outcome"], step["embedded"]) == ("ok", 1)


def test_qdrant_refusing_keyword_results_still_come_back(paraphrase_home, monkeypatch):
    import qdrant_client  # noqa: F401  (installed by requirements-dev.txt; never skipped)
    home, rows, _ = paraphrase_home
    run_index(home)  # the lsa fit (and embedded vectors, which Qdrant does not see)
    baseline = {q: keyword_only(home, q) for q in PROBES}
    monkeypatch.setenv("CARTO_QDRANT_URL", f"http://127.0.0.1:{closed_port()}")
    before = log_bytes(home)
    for q in PROBES[:3]:
        result = search(home, q)
        assert answer(result) == baseline[q]
        assert result.semantic_status == "unavailable"
        assert "refused" in result.semantic.reason and "CARTO_QDRANT_URL" in result.semantic.fix
    report = run_index(home)
    assert report.outcome == "unavailable" and "refused" in report.reason
    errors = [line.row for line in iter_lines(home.state_file(ERRORS_FILE))]
    assert errors[-1]["stage"] == "qdrant_unavailable"
    assert log_bytes(home) == before


def test_qdrant_local_folder_locked_by_another_client(paraphrase_home, monkeypatch, tmp_path):
    import qdrant_client  # noqa: F401  (installed by requirements-dev.txt; never skipped)
    from carto_core.semantic.qdrant import LOCAL_MODE_FIX, QdrantStore

    home, _, _ = paraphrase_home
    folder = tmp_path / "qdrant"
    monkeypatch.setenv("CARTO_QDRANT_PATH", str(folder))
    assert run_index(home).outcome == "ok"
    holder = QdrantStore(path=str(folder))  # another process' client, as far as the lock goes
    try:
        result = search(home, "login credentials")
        assert result.semantic_status == "unavailable"
        assert LOCAL_MODE_FIX in result.semantic.label()
        assert answer(result) == keyword_only(home, "login credentials")
    finally:
        holder.close()
    assert search(home, "login credentials").semantic_status == "available"


def test_dimension_mismatch_says_how_to_reembed(paraphrase_home, monkeypatch, embedding_server):
    home, rows, _ = paraphrase_home
    use_http(monkeypatch, embedding_server("ok", dim=16).url)
    run_index(home)
    baseline = keyword_only(home, "login credentials")
    # Same model name, another size: the server was swapped under the name.
    monkeypatch.setenv("CARTO_EMBED_URL", embedding_server("ok", dim=8).url)
    result = search(home, "login credentials")
    assert answer(result) == baseline
    assert result.semantic_status == "unavailable" and "dimension mismatch" in result.semantic.reason
    assert result.semantic.fix == "carto index --step semantic --rebuild"
    # The command the status names fixes it.
    env = {**os.environ, "CARTO_HOME": str(home.root)}
    carto = os.path.join(os.path.dirname(sys.executable), "carto")
    done = subprocess.run([carto, "index", "--step", "semantic", "--rebuild", "--json"],
                          capture_output=True, text=True, env=env)
    (step,) = json.loads(done.stdout)["steps"]
    assert step["outcome"] == "ok" and step["embedded"] == len(rows)
    assert search(home, "login credentials").semantic_status == "available"


def test_model_change_reported_with_the_command(paraphrase_home):
    home, rows, _ = paraphrase_home
    run_index(home)
    baseline = keyword_only(home, "login credentials")
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.settings import SemanticSettings

    create_embedder("lsa", home, SemanticSettings.load()).fit(
        [r["summary"] for r in rows] + ["entirely different words"] * 3)
    result = search(home, "login credentials")
    assert answer(result) == baseline
    assert "another model" in result.semantic.reason and result.semantic.fix == "carto index"
    run_index(home)
    assert search(home, "login credentials").semantic_status == "available"


def test_default_search_path_never_imports_qdrant_or_sklearn(paraphrase_home):
    home, _, _ = paraphrase_home
    run_index(home)
    code = (
        "import sys\n"
        "from datetime import datetime, timezone\n"
        "from carto_core.search import SearchRequest, run_search\n"
        "r = run_search(SearchRequest(query='login credentials'))\n"
        "print(r.semantic_status, 'qdrant_client' in sys.modules,"
        " any(m.startswith('sklearn') for m in sys.modules),"
        " hasattr(sys.modules['carto_core.semantic.embedded'], 'fcntl'))\n"
    )
    env = {**os.environ, "CARTO_HOME": str(home.root)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    # and the store it read did not import fcntl: only its writers lock (other writers a search
    # may run, such as a keyword index build, lock through their own import)
    assert out.stdout.split() == ["available", "False", "False", "False"]


COLD_SEARCH = """
import json, sys
from carto_core.entry import main
try:
    main(["search", "login credentials", "--json"])
except SystemExit:
    pass
watch = ("attrs", "shutil", "secrets", "importlib.metadata", "pluggy", "carto_core.model.sources",
         "carto_core.builtins.writers", "carto_core.builtins.facts", "carto_core.semantic.indexer")
print("MODULES " + json.dumps(sorted(m for m in watch if m in sys.modules)), file=sys.stderr)
"""


def test_a_cold_cli_search_imports_no_writer_indexer_or_plugin_scan(paraphrase_home):
    """What a cold `carto search` with the semantic ladder answering leaves out: the writers'
    and fact verbs' built-ins (attrs), the semantic indexer (its read side is
    semantic.pending), the store's write-only imports (shutil, secrets) and, once the plugin
    table is recorded, the entry-point scan (importlib.metadata) and pluggy itself."""
    home, _, _ = paraphrase_home
    run_index(home)
    env = {**os.environ, "CARTO_HOME": str(home.root)}
    subprocess.run([sys.executable, "-c", COLD_SEARCH], capture_output=True, env=env, check=True)
    out = subprocess.run([sys.executable, "-c", COLD_SEARCH], capture_output=True, text=True,
                         env=env, check=True)
    assert json.loads(out.stdout)["semantic_status"] == "available"
    modules = next(line for line in out.stderr.splitlines() if line.startswith("MODULES "))
    assert json.loads(modules[len("MODULES "):]) == []


def test_cli_search_and_index_json(paraphrase_home):
    home, rows, cases = paraphrase_home
    env = {**os.environ, "CARTO_HOME": str(home.root)}
    carto = os.path.join(os.path.dirname(sys.executable), "carto")
    index = subprocess.run([carto, "index", "--json"], capture_output=True, text=True, env=env)
    assert index.returncode == 0, index.stderr
    steps = {s["step"]: s for s in json.loads(index.stdout)["steps"]}
    assert steps["semantic"]["embedded"] == len(rows) and steps["semantic"]["outcome"] == "ok"
    query, target = cases[0]
    out = subprocess.run([carto, "search", query, "--json", "--limit", "15"], capture_output=True,
                         text=True, env=env)
    document = json.loads(out.stdout)
    assert document["semantic_status"] == "available"
    # Everything was just embedded: nothing is left for the keep-up job.
    assert document["semantic"] == {"state": "available", "reason": "", "fix": "", "not_embedded": 0,
                                    "embedder": document["semantic"]["embedder"], "note": None}
    assert document["semantic"]["embedder"] in ("lsa", "wordllama", "minilm")
    assert target in [r["event_id"] for r in document["results"]]
    off = subprocess.run([carto, "search", query, "--json", "--limit", "15", "--no-semantic"],
                         capture_output=True, text=True, env=env)
    assert target not in [r["event_id"] for r in json.loads(off.stdout)["results"]]
