"""A session-id prefix, on the explorer's session page (and its tree and review) and in `carto
session ID --tree`, is resolved from the session ids the facts columns keep, not by reading
every log for it (a second at a million events): the answers are those of the log search."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS
from carto_core.lenses import sessions as session_lookup


@pytest.fixture
def no_log_search(monkeypatch):
    """Searching the logs for a prefix fails the test (the log search's own answers are taken
    before this is set)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a session prefix was searched for in every log")

    monkeypatch.setattr(session_lookup, "session_ids_with_prefix", refuse)


def test_the_session_page_resolves_a_prefix_from_the_index(home, client, no_log_search):
    whole = SESSIONS["a"]
    answer = client.get(f"/api/sessions/{whole[:8]}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["session"]["session_id"] == whole
    assert client.get(f"/api/sessions/{whole[:8]}/tree").json()["session_id"] == whole
    ambiguous = client.get("/api/sessions/5a")
    assert ambiguous.status_code == 400
    assert ambiguous.json()["candidates"] == sorted(s for s in SESSIONS.values() if s.startswith("5a"))
    assert client.get("/api/sessions/zzzz").json()["code"] == "SESSION_NOT_FOUND"


def test_the_tree_resolves_a_prefix_as_the_log_search_did(home, monkeypatch):
    env = {"CARTO_HOME": str(home.root)}
    before = {prefix: CliRunner().invoke(cli, ["session", prefix, "--tree", "--json"], env=env)
              for prefix in (SESSIONS["b"][:6], "5", "zzzz")}
    def refuse(*args, **kwargs):
        raise AssertionError("a session prefix was searched for in every log")

    monkeypatch.setattr(session_lookup, "session_ids_with_prefix", refuse)
    for prefix, earlier in before.items():
        done = CliRunner().invoke(cli, ["session", prefix, "--tree", "--json"], env=env)
        assert (done.exit_code, done.output) == (earlier.exit_code, earlier.output), prefix
    assert json.loads(before["5"].output)["error"] == "ambiguous"


def test_the_mcp_session_tree_resolves_a_prefix_as_the_log_search_did(home, monkeypatch):
    """The MCP server's session_tree tool answers as `carto session ID --tree` does, from the
    same index: its answers and errors those of the log search it replaced."""
    from carto_core.mcp.server import CartoMcp
    from carto_core.mcp.tools import ToolError

    def ask(prefix):
        try:
            return CartoMcp(home, env={}).session_tree({"session_id": prefix})
        except ToolError as exc:
            return exc.code, str(exc)

    before = {prefix: ask(prefix) for prefix in (SESSIONS["b"][:6], "5a", "zzzz")}
    assert before[SESSIONS["b"][:6]]["session_id"] == SESSIONS["b"]
    assert before["5a"][0] == "invalid_arguments" and before["zzzz"][0] == "not_found"

    def refuse(*args, **kwargs):
        raise AssertionError("a session prefix was searched for in every log")

    monkeypatch.setattr(session_lookup, "session_ids_with_prefix", refuse)
    assert {prefix: ask(prefix) for prefix in before} == before
