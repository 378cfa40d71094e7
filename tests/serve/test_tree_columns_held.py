"""The session tree reads the facts columns once, or not at all where they are held: the
explorer's `/api/sessions/{id}/tree` read them from the file again (80 MB at a million events)
where the server holds them (as its desk, session list and page already shared them), and
`carto session ID --tree` and the MCP `session_tree` opened them twice, once to resolve the
prefix and once to read the session. The documents are the same."""

from __future__ import annotations

import json

from click.testing import CliRunner
from starlette.testclient import TestClient

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS
from carto_core.facts import store
from carto_core.lenses.sessiontree import tree_for
from carto_core.logio.appendlog import append_rows
from carto_core.mcp.server import CartoMcp
from carto_core.serve.app import create_app

from .conftest import BASE, bearer
from .test_start_unloaded import row

SID = SESSIONS["a"]
CHILD = "c0de0000-aaaa-4000-8000-00000000000c"


def _with_a_child_thread(home) -> None:
    # A Codex sub-agent thread of the session: the tree reads its events too.
    append_rows(home.log("turns"), [{
        "event_id": f"turn-{CHILD}-1", "timestamp": "2026-01-02T10:00:00Z", "type": "transcript",
        "provider": "codex", "project": "webshop", "session": CHILD, "parent_session": SID,
        "turn_idx": 1, "summary": "check the discount rounding", "transcript_path": ""}])


def _spy(monkeypatch) -> list:
    opened = []
    real = store.open_columns

    def spy(*args, **kwargs):
        opened.append(args[0].root)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "open_columns", spy)
    return opened


def test_the_explorers_tree_reads_the_columns_the_server_holds(home, roots, monkeypatch):
    _with_a_child_thread(home)
    expected = tree_for(home, SID)
    assert expected["counts"]["agents"] == 1 and expected["counts"]["turns"] == 2
    app = create_app(home, transcript_roots=roots)
    opened = _spy(monkeypatch)
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        assert client.get(f"/api/sessions/{SID[:8]}/tree").json() == expected
        assert client.get("/api/sessions/5a/tree").json()["code"] == "AMBIGUOUS_SESSION"
        assert client.get("/api/sessions/zzzz/tree").json()["code"] == "SESSION_NOT_FOUND"
        assert opened == []
        # A row read since the columns: opened again once, for the list and the tree alike.
        append_rows(home.log("tool-use"), [row("n-new", session_id=SID)])
        after = client.get(f"/api/sessions/{SID}/tree").json()
        assert opened == [home.root]
        assert after == tree_for(home, SID)
        assert after["counts"]["hook_tool_calls"] == expected["counts"]["hook_tool_calls"] + 1
    assert app.state.carto.live.loaded is False


def test_the_cli_and_mcp_tree_open_the_columns_once(home, monkeypatch):
    _with_a_child_thread(home)
    expected = tree_for(home, SID)
    opened = _spy(monkeypatch)
    result = CliRunner().invoke(cli, ["session", SID[:8], "--tree", "--json"],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected
    assert opened == [home.root]
    opened.clear()
    answer = CartoMcp(home).call("session_tree", {"session_id": SID[:8]})
    assert {k: answer[k] for k in expected} == expected
    assert opened == [home.root]


def test_once_the_corpus_is_loaded_the_tree_opens_the_columns_once(home, roots, monkeypatch):
    _with_a_child_thread(home)
    expected = tree_for(home, SID)
    app = create_app(home, transcript_roots=roots)
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        assert client.get("/api/events", params={"limit": 1}).status_code == 200
        app.state.carto.live.corpus  # what a view that reads every event loads
        opened = _spy(monkeypatch)
        assert client.get(f"/api/sessions/{SID[:8]}/tree").json() == expected
        assert opened == [home.root]  # one for the prefix and the tree (was two)
