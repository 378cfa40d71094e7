"""Results whose text repeats a better-ranked one are folded into it (`duplicates`), except a
lookup's matches, each of which may be the item the query names."""

from __future__ import annotations

from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine

from .conftest import NOW, padding


def test_copies_of_one_line_are_folded_into_the_best_ranked(writer):
    copies = [writer.tool("Ran: morning coffee planning chores", age_hours=1 + i) for i in range(12)]
    others = [writer.tool(f"Ran: planning session {word}", age_hours=30)
              for word in ("alpha", "beta", "gamma")]
    padding(writer, 30)
    engine = SearchEngine(writer.home)
    request = dict(query="planning", now=NOW, semantic=False, limit=4, all=True)
    folded = run_search(SearchRequest(**request), engine=engine)
    texts = [h.summary for h in folded.results]
    assert len(set(texts)) == len(texts) == 4
    first_copy = folded.results[0]
    assert first_copy.event_id == copies[0]  # the best-ranked (newest) copy stands for them
    # the copies it stands for are those the page skipped
    assert first_copy.duplicates == 11 and first_copy.to_dict()["duplicates"] == 11
    assert [h.event_id for h in folded.results[1:]] == others
    assert all(h.duplicates == 0 for h in folded.results if h.event_id != copies[0])
    every = run_search(SearchRequest(collapse=False, **request), engine=engine)
    assert [h.event_id for h in every.results] == copies[:4]


def test_a_lookups_matches_stay_apart(writer):
    """Five edits of one file: a lookup of the file finds each edit; folding them into the
    newest hid the one edit a known-item query was about."""
    edits = [writer.tool("Modified: /work/quokka/src/ledger/schema.rs", age_hours=24 * (10 + i))
             for i in range(5)]
    padding(writer, 30)
    result = run_search(SearchRequest(query="quokka ledger schema", now=NOW, semantic=False,
                                      limit=10, all=True), home=writer.home)
    assert set(edits) <= {h.event_id for h in result.results}
    assert all(h.gated and h.duplicates == 0 for h in result.results if h.event_id in edits)


def test_the_cli_says_how_many_copies_it_folded_and_can_show_them(writer, monkeypatch):
    import json

    from click.testing import CliRunner

    from carto_core.cli import cli

    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    copies = [writer.tool("Ran: morning coffee planning chores", age_hours=1 + i) for i in range(12)]
    padding(writer, 20)
    text = CliRunner().invoke(cli, ["search", "planning", "--no-semantic", "--all", "-n", "3"])
    assert text.exit_code == 0 and f"{copies[0]} (+11 identical)" in text.output, text.output
    every = CliRunner().invoke(cli, ["search", "planning", "--no-semantic", "--all", "-n", "3",
                                     "--no-collapse", "--json"])
    assert [h["event_id"] for h in json.loads(every.output)["results"]] == copies[:3]
