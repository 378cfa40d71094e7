"""An honest result set, as `carto search --json` shows it: a short commit sha finds its
commit, a query of symbols says why nothing can match it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli

from .conftest import padding

SHA = "fdb21e0c9a7e41d2b8f3a6c5d4e1f0a9b8c7d6e5"


@pytest.fixture
def home_env(writer, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    return writer


def search(*args):
    result = CliRunner().invoke(cli, ["search", "--json", *args], catch_exceptions=False)
    document = json.loads(result.output) if result.output.startswith("{") else {}
    return result.exit_code, document, result


def ids(document) -> list[str]:
    return [hit["event_id"] for hit in document.get("results", [])]


@pytest.mark.parametrize("typed", [SHA[:7], SHA[:12].upper(), SHA])
def test_a_short_commit_sha_finds_the_commit_that_holds_forty(home_env, typed):
    commit = home_env.tool(f"Commit {SHA}: fix(cart): round line totals", etype="git_commit")
    home_env.tool("Commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567: feat: other", etype="git_commit")
    padding(home_env, 5)
    code, document, _ = search(typed)
    assert code == 0 and ids(document) == [commit]


def test_a_row_holding_the_short_form_itself_is_still_found(home_env):
    said = home_env.prompt(f"revert {SHA[:7]} please, it broke checkout")
    commit = home_env.tool(f"Commit {SHA}: fix(cart): round line totals", etype="git_commit")
    padding(home_env, 5)
    code, document, _ = search(SHA[:7])
    assert code == 0 and set(ids(document)) == {said, commit}


def test_a_word_spelt_in_hex_letters_is_still_a_word(home_env):
    """'defaced' is seven hex letters; the query's term is its stem, as the row's is."""
    target = home_env.prompt("the landing page was defacing itself on resize")
    padding(home_env, 5)
    code, document, _ = search("defaced")
    assert code == 0 and ids(document) == [target]


def test_a_number_shorter_than_a_sha_stays_a_term(home_env):
    exact = home_env.prompt("ticket 123456 is done")
    home_env.prompt("ticket 1234567 is open")
    padding(home_env, 5)
    code, document, _ = search("123456")
    assert code == 0 and ids(document) == [exact]


@pytest.mark.parametrize("query", ["🚀", "🔥 🔥", "→ ✅"])
def test_a_query_of_emoji_says_why_nothing_can_match_it(home_env, query):
    home_env.prompt("shipped it 🚀")
    code, _, result = search(query)
    assert code == 2
    assert "emoji" in result.output and "no letter or digit" in result.output
    assert "at least one word" not in result.output
