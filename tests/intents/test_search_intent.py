"""`carto search --intent`: in every ladder, every result carries the key, the set equals an
independent scan; facets count intents; a bad key is exit 2 with the 17 listed."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.intents import INTENT_KEYS, ensure
from carto_core.logio.logs import order_row
from carto_core.util.timeparse import format_timestamp

from .conftest import rows_of, run

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=timezone.utc)
PROMPTS = [
    "fix the cart total, it crashes on empty carts", "deploy the cart service to staging",
    "write tests for the cart", "refactor the cart module", "why is the cart badge wrong",
    "commit the cart changes", "add a cart export endpoint", "review the cart diff",
    "yes go ahead", "plot cart sizes per day", "the cart page throws a TypeError",
]


def build(root: Path) -> Home:
    home = Home(root)
    prompts, turns, tools = [], [], []
    for n, text in enumerate(PROMPTS * 3):
        ts = format_timestamp(NOW - timedelta(hours=n))
        prompts.append(ensure("prompts", order_row("prompts", {
            "event_id": f"evt-p{n:011d}", "timestamp": ts, "type": "prompt", "provider": "claude",
            "summary": text, "project": "shop", "session_id": f"s{n % 3}", "salience": 0.6})))
        turn = {
            "event_id": f"turn-s{n % 3}-{n}", "timestamp": ts, "project": "shop", "type": "transcript",
            "provider": "claude", "summary": f"{text} I looked at cart.py and changed it",
            "session": f"s{n % 3}", "turn_idx": n}
        if n % 2:  # a turn in which the agent worked: its intent is kept beside that bit
            turn["tools"] = [{"name": "Edit", "input": "cart.py", "at": ts}]
        turns.append(ensure("turns", order_row("turns", turn)))
        tools.append(order_row("tool-use", {
            "event_id": f"evt-t{n:011d}", "timestamp": ts, "type": "tool_bash", "provider": "claude",
            "summary": f"Ran: pytest cart {n}", "project": "shop", "session": f"s{n % 3}", "salience": 0.2}))
    append_rows(home.log("prompts"), prompts)
    append_rows(home.log("turns"), turns)
    append_rows(home.log("tool-use"), tools)
    return home


@pytest.fixture
def home():
    import os

    return build(Path(os.environ["CARTO_HOME"]))


def scan(root: Path, key: str, word: str) -> set[str]:
    out = set()
    for label in ("prompt-history.jsonl", "turns.jsonl"):
        for row in rows_of(root / label):
            if row.get("prompt_intent") == key and re.search(rf"\b{word}", row["summary"].lower()):
                out.add(row["event_id"])
    return out


@pytest.mark.parametrize("key", ["bug-fixes", "deploy-release", "testing-verification", "plan-approvals"])
def test_intent_results_all_carry_the_key_and_equal_a_scan(home, key):
    word = "cart" if key != "plan-approvals" else "go"
    doc = run("search", word, "--intent", key, "--json", "--limit", "200", "--no-semantic", "--all", "--no-collapse",
              ok=(0, 3))
    expected = scan(home.root, key, word)
    got = {r["event_id"] for r in doc["results"]} if isinstance(doc, dict) else set()
    assert got == expected and expected, (key, got ^ expected)
    assert all(r["prompt_intent"] == key for r in doc["results"])
    assert doc["intent"] == key and doc["facets"]["intents"] == {key: len(expected)}
    assert "tool-use" not in {s for r in doc["results"] for s in r["sources"]}


def test_without_intent_facets_count_the_results_intents(home):
    doc = run("search", "cart", "--json", "--limit", "500", "--no-semantic", "--all", "--no-collapse")
    recount: dict[str, int] = {}
    for r in doc["results"]:
        if r["prompt_intent"]:
            recount[r["prompt_intent"]] = recount.get(r["prompt_intent"], 0) + 1
    assert doc["total"] == len(doc["results"])
    assert doc["facets"]["intents"] == recount and len(recount) >= 5
    assert any(r["prompt_intent"] is None for r in doc["results"])  # tool rows have none


def test_unknown_intent_is_a_usage_error_listing_the_seventeen(home):
    result = run("search", "cart", "--intent", "bugfix", ok=(2,))
    assert "unknown intent 'bugfix'" in result.output
    assert all(key in result.output for key in INTENT_KEYS)


def test_text_output_shows_the_intent(home):
    out = run("search", "cart", "--intent", "bug-fixes", "--no-semantic", "--all", "--no-collapse",
              "--facets").output
    assert " · intent bug-fixes" in out and "\n  intents   bug-fixes " in out


def test_semantic_ladder_honours_the_intent(paraphrase_intent_home):
    """The semantic ladder is filtered before its cut: it contributes, and only the key's rows."""
    from carto_core.search import SearchRequest, run_search
    from carto_core.semantic.indexer import run_index

    home, by_intent = paraphrase_intent_home
    assert run_index(home).outcome == "ok"
    result = run_search(SearchRequest(query="login credentials", intent="bug-fixes", limit=50,
                                      now=NOW), home=home)
    semantic = next(l for l in result.ladders if l.name == "semantic")
    assert semantic.status == "ok" and semantic.candidates > 0
    assert {h.event_id for h in result.results} <= by_intent["bug-fixes"]
    assert "semantic" in {s for h in result.results for s in h.sources}
    # without the filter the semantic ladder answers with rows of other intents too
    unfiltered = run_search(SearchRequest(query="login credentials", limit=50, now=NOW), home=home)
    assert {h.event_id for h in unfiltered.results} - by_intent["bug-fixes"]


@pytest.fixture
def paraphrase_intent_home(tmp_path, monkeypatch):
    import os

    from tests.semantic.conftest import paraphrase_rows

    home = Home(tmp_path / "home")
    rows, _ = paraphrase_rows()
    by_intent: dict[str, set] = {}
    for n, row in enumerate(rows):
        row["prompt_intent"] = INTENT_KEYS[n % 3]  # feature-design, implementation, bug-fixes
        by_intent.setdefault(row["prompt_intent"], set()).add(row["event_id"])
    append_rows(home.log("prompts"), rows)
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    monkeypatch.setenv("CARTO_LSA_DIMS", "8")
    monkeypatch.setenv("CARTO_EMBEDDER", "lsa")
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[search]\nfusion = "rrf"\ndecay = "gated-exp"\n', "utf-8")
    return home, by_intent


def test_embedded_store_id_filter_equals_brute_force(tmp_path):
    import numpy as np

    from carto_core.semantic.embedded import EmbeddedStore

    rng = np.random.default_rng(3)
    store = EmbeddedStore(tmp_path / "vectors")
    ids = [f"evt-{i}" for i in range(300)]
    vectors = rng.normal(size=(300, 8)).astype(np.float32)
    stamp = datetime(2026, 1, 1, tzinfo=timezone.utc)
    store.upsert_arrays("m", ids, vectors, ["a" if i % 2 else "b" for i in range(300)],
                        [stamp + timedelta(hours=i) for i in range(300)])
    query = rng.normal(size=8).astype(np.float32)
    wanted = ids[::7] + ["evt-missing"]
    hits = store.search("m", query, limit=10, ids=wanted, projects=["a"])
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    allowed = [i for i in range(300) if f"evt-{i}" in set(wanted) and i % 2]
    exact = {ids[i]: float(unit[i] @ (query / np.linalg.norm(query))) for i in allowed}
    best = sorted(exact.values(), reverse=True)[:10]
    # The exact top 10 of the allowed rows, up to near ties of the store's int8 rounding
    # (8e-3 at most on 8-dimension rows): a row the filters drop, or one far below the cut,
    # fails this.
    assert len(hits) == 10 and all(h.event_id in exact for h in hits)
    assert [exact[h.event_id] for h in hits] == pytest.approx(best, abs=1.6e-2)
    assert store.search("m", query, limit=10, ids=[]) == []
