"""A query is read up to QUERY_MAX_CHARS characters (cut at a word break), whatever its
size: every ladder, the telemetry and the answer see the bounded text, and the answer says how
long the query was (`query_cut`), as the CLI does on stderr. Before, the analyzer, the
embedder's tokenizer and its model read the whole query: 100 KB took ten seconds, and the
wordllama BPE minutes (docs/performance.md, "Bounded queries")."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.search import SearchRequest, run_search
from carto_core.search.api import QUERY_MAX_CHARS, bounded_query
from carto_core.search.telemetry import Telemetry

from .conftest import padding


def test_bounded_query_cuts_at_a_word_break():
    assert bounded_query("a b") == "a b"
    exact = "x" * QUERY_MAX_CHARS
    assert bounded_query(exact) == exact
    words = ("word " * QUERY_MAX_CHARS)
    cut = bounded_query(words)
    assert len(cut) <= QUERY_MAX_CHARS and words.startswith(cut) and cut.endswith("word")
    solid = "y" * (QUERY_MAX_CHARS * 3)
    assert bounded_query(solid) == "y" * QUERY_MAX_CHARS
    # a break right at the bound: nothing to take back
    assert bounded_query("z" * QUERY_MAX_CHARS + " tail") == "z" * QUERY_MAX_CHARS


def test_a_megabyte_query_is_searched_bounded(writer, monkeypatch):
    event = writer.tool("Ran: pytest tests/cart discount rounding")
    padding(writer, 5)
    query = "discount rounding " + "filler " * 150_000
    assert len(query) > 1_000_000
    analysed: list[int] = []
    from carto_core.search.engine import SearchEngine

    engine = SearchEngine(writer.home)
    original = engine.analyzer.query
    monkeypatch.setattr(engine.analyzer, "query", lambda text, *a, **k: (
        analysed.append(len(text)), original(text, *a, **k))[1])
    request = SearchRequest(query=query, semantic=False)
    telemetry = Telemetry(writer.home, "s-bound", "claude", "manual")
    result = run_search(request, engine=engine, telemetry=telemetry)
    assert request.query == query  # the caller's request is left as it was
    assert result.query == bounded_query(query) and len(result.query) <= QUERY_MAX_CHARS
    assert result.query_cut == len(query)
    assert result.to_dict()["query_cut"] == {"given_chars": len(query),
                                             "searched_chars": len(result.query)}
    assert [hit.event_id for hit in result.results][:1] == [event]
    assert analysed and max(analysed) <= QUERY_MAX_CHARS
    calls = (writer.home.state / "search-calls.jsonl").read_text().splitlines()
    assert [len(json.loads(line)["query"]) for line in calls] == [len(result.query)]


def test_a_short_query_has_no_cut(writer):
    writer.tool("Ran: pytest tests/cart discount rounding")
    result = run_search(SearchRequest(query="discount rounding", semantic=False), home=writer.home)
    assert result.query_cut is None and "query_cut" not in result.to_dict()


def test_the_cli_says_it_cut_the_query(writer):
    writer.tool("Ran: pytest tests/cart discount rounding")
    padding(writer, 3)
    # the longest single argument Linux passes is 128 KiB
    query = "discount rounding " + "filler " * 15_000
    result = CliRunner().invoke(cli, ["search", query, "--no-semantic"],
                                env={"CARTO_HOME": str(writer.home.root), "CARTO_WARM": "0"})
    assert result.exit_code == 0, result.output
    assert (f"carto: the query is {len(query):,} characters: searched its first "
            f"{len(bounded_query(query)):,} (a search reads at most {QUERY_MAX_CHARS:,})") in result.stderr
