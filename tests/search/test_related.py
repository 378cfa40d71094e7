"""`carto related TERM|FILE|SESSION` against an independent scan of the same log.

The home is the shared fixtures backfilled (turn rows only). The scan folds `turns.jsonl` by
event_id with `json` (the newest row of an id wins), takes each row's words with the index's
analyzer (the words a search would see), and computes from those alone: the documents holding
every query word, their sessions, each other word's `together x log(1 + N / df)`, and for a
session its characteristic words and the sessions sharing them.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from tests.clikit import ingest_shared, run as _run

DEMO = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"


@pytest.fixture
def scan(shared_fixtures, tmp_path):
    claude, codex = ingest_shared(shared_fixtures, tmp_path)
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.tokens import row_text

    analyzer = SearchEngine(Home(Path(os.environ["CARTO_HOME"]))).analyzer
    rows = {}
    for raw in (Path(os.environ["CARTO_HOME"]) / "turns.jsonl").read_text().splitlines():
        row = json.loads(raw)
        rows.pop(row["event_id"], None)
        rows[row["event_id"]] = row
    docs = [{"session": r["session"], "ts": r["timestamp"], "text": row_text(r),
             "words": list(analyzer.terms(row_text(r)))} for r in rows.values()]
    return docs, analyzer


def _topic(term: str, analyzer) -> bool:
    stop = getattr(analyzer, "stop", None) or frozenset()
    hexlike = len(term) >= 12 and all(c in "0123456789abcdef" for c in term)
    return (term not in stop and not term.startswith(("evt-", "git-", "turn-", "hermes-")) and not hexlike
            and any(c.isalpha() for c in term))


def _co_terms(docs, holders, skip, analyzer, together=None):
    df = Counter(t for d in docs for t in set(d["words"]))
    together = together or Counter(t for d in holders for t in set(d["words"]) if t not in skip)
    scored = [{"term": t, "together": n, "df": df[t], "score": round(n * math.log(1 + len(docs) / df[t]), 4)}
              for t, n in together.items() if _topic(t, analyzer) and t not in skip]
    return sorted(scored, key=lambda x: (-x["score"], x["term"]))


def _index_fields(co_terms, analyzer):
    """The co-terms without the `word` the command adds to each (checked: it folds to the term)."""
    for entry in co_terms:
        assert entry["term"] in analyzer.terms(entry.pop("word")), entry
    return co_terms


@pytest.mark.parametrize("word", ["package", "structure", "decorator"])
def test_term(scan, word):
    docs, analyzer = scan
    asked = list(dict.fromkeys(analyzer.terms(word)))
    holders = [d for d in docs if set(asked) <= set(d["words"])]
    got = _run("related", word, "--term", "--limit", "200", "--json")
    assert got["documents"] == len(holders) > 0 and got["documents_total"] == len(docs)
    # The top of the list (the engine looks up df for its 400 most frequent candidates only: a
    # word seen once may be left out at the tail)
    assert _index_fields(got["co_terms"], analyzer)[:20] == _co_terms(docs, holders, set(asked), analyzer)[:20]
    counts = Counter(d["session"] for d in holders)
    weight = sum(math.log(1 + len(docs) / sum(1 for d in docs if t in d["words"])) for t in asked)
    assert {s["session_id"]: (s["documents"], s["score"]) for s in got["sessions"]} == {
        sid: (n, round(n * weight, 4)) for sid, n in counts.items()}
    assert [s["score"] for s in got["sessions"]] == sorted((s["score"] for s in got["sessions"]), reverse=True)


def test_file(scan):
    docs, analyzer = scan
    asked = list(dict.fromkeys(analyzer.terms("CLAUDE.md")))
    holders = [d for d in docs if set(asked) <= set(d["words"]) and "CLAUDE.md" in d["text"]]
    got = _run("related", "/path/to/Demo/CLAUDE.md", "--json")
    assert got["kind"] == "file" and got["documents"] == len(holders) > 0
    assert {s["session_id"]: s["documents"] for s in got["sessions"]} == dict(Counter(d["session"] for d in holders))
    assert _index_fields(got["co_terms"], analyzer) == _co_terms(docs, holders, set(asked), analyzer)[:15]


def test_session(scan):
    docs, analyzer = scan
    mine = [d for d in docs if d["session"] == DEMO]
    counts = Counter(t for d in mine for t in d["words"])  # occurrences: the session's own words
    top = _co_terms(docs, mine, set(), analyzer, together=counts)
    got = _run("related", DEMO[:8], "--json")
    assert got["kind"] == "session" and got["session_id"] == DEMO and got["documents"] == len(mine)
    assert _index_fields(got["co_terms"], analyzer) == top[:15]
    want: Counter = Counter()
    for entry in top[:12]:
        idf = math.log(1 + len(docs) / entry["df"])
        for sid in {d["session"] for d in docs if entry["term"] in d["words"]} - {DEMO}:
            want[sid] += idf
    assert {s["session_id"]: s["score"] for s in got["sessions"]} == {s: round(v, 4) for s, v in want.items()}
    assert DEMO not in {s["session_id"] for s in got["sessions"]}
    # `documents`: each related session's documents holding one of the shared terms, each
    # document once however many of the terms it holds
    terms = {entry["term"] for entry in top[:12]}
    held = Counter(d["session"] for d in docs if d["session"] != DEMO and terms & set(d["words"]))
    assert {s["session_id"]: s["documents"] for s in got["sessions"]} == dict(held)


def test_what_the_query_is(scan):
    assert _run("related", "cafe", "--json", ok=(0, 3))["kind"] == "term"  # a word, even hex-looking
    assert _run("related", "edge_cases", "--session", "--json")["session_id"] == "edge_cases"
    assert _run("related", "zzzqqq", "--json", ok=(3,))["documents"] == 0
    assert "give more of the id" in CliRunner().invoke(cli, ["related", "5", "--session"]).output


def test_a_file_is_the_rows_naming_it_not_its_words_apart():
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.home import Home

    home = Home(Path(os.environ["CARTO_HOME"]))
    home.root.mkdir(parents=True, exist_ok=True)
    rows = [("evt-a1", "s-edit", "Modified: /work/shop/src/cart.py"),
            ("evt-a2", "s-edit", "Ran: pytest tests/test_cart.py rounding"),
            ("evt-b1", "s-talk", "the cart page and the py launcher, rounding again")]
    append_rows(home.log("changelog"), [
        {"event_id": eid, "timestamp": "2026-12-01T10:00:00Z", "type": "tool_bash", "session_id": sid,
         "project": "shop", "summary": text} for eid, sid, text in rows])
    got = _run("related", "src/cart.py", "--json")
    assert got["kind"] == "file" and got["documents"] == 1  # test_cart.py is another file
    assert [s["session_id"] for s in got["sessions"]] == ["s-edit"]
    assert [s["session_id"] for s in _run("related", "cart", "--json")["sessions"]] == ["s-edit", "s-talk"]


def test_a_related_sessions_documents_count_each_document_once(writer, monkeypatch):
    """One document of another session holding two of this session's words is one document,
    not two (the documented `documents`: its documents holding one of the shared terms)."""
    from .conftest import padding

    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    for text in ("quokka ledger migration", "quokka ledger rollback", "marmot ledger audit"):
        writer.prompt(text, session="session-a")
    writer.prompt("the quokka ledger is done", session="session-b")
    writer.prompt("a marmot ran by", session="session-c")
    writer.prompt("and another marmot", session="session-c")
    padding(writer, 8)
    got = _run("related", "session-a", "--session", "--json")
    by = {s["session_id"]: s for s in got["sessions"]}
    assert by["session-b"]["shared_terms"] >= 2 and by["session-b"]["documents"] == 1
    assert by["session-c"]["documents"] == 2
