"""`carto serve` holds one copy of the facts columns while they hold every row it read: the
session list's summaries are checked against the columns its `LiveCorpus` opened at start (and
census reads them), instead of a second copy opened from the file (80 MB at a million events)."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from carto_core.evaluation.sample import SESSIONS
from carto_core.facts import store
from carto_core.lenses import sessionstore
from carto_core.logio.appendlog import append_rows
from carto_core.serve.app import create_app

from .conftest import BASE, bearer
from .test_start_unloaded import row

CENSUS = {"contract_version": 1, "call_id": "t", "verb": "census"}


@pytest.fixture
def served(home, roots, monkeypatch):
    """(the explorer app, the homes `store.open_columns` opened columns of after it started)."""
    app = create_app(home, transcript_roots=roots)
    homes = []
    real = store.open_columns

    def spy(*args, **kwargs):
        homes.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "open_columns", spy)
    return app, homes


def test_the_session_list_reads_the_columns_the_server_holds(home, served):
    app, opened = served
    live = app.state.carto.live
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        before = client.get("/api/sessions", params={"days": 3650}).json()
        assert client.get("/api/desk", params={"days": 3650}).status_code == 200
        assert client.post("/api/facts", json=CENSUS).json()["corpus_events"] == 22
        # a prefix, resolved among their sessions
        page = client.get(f"/api/sessions/{SESSIONS['a'][:8]}").json()
        assert page["session"]["session_id"] == SESSIONS["a"]
        assert client.get("/api/sessions/5a").json()["candidates"] == sorted(
            s for s in SESSIONS.values() if s.startswith("5a"))
        assert client.get("/api/sessions/zzzz").json()["code"] == "SESSION_NOT_FOUND"
        assert opened == []
        held = live.unloaded_rows()[0]
        assert sessionstore.unloaded(live)[1] is held
        # the kept summaries name the logs the columns were read from, which are the logs now
        kept = json.loads(sessionstore.cache_path(home).read_text())
        assert kept["logs"] == sessionstore._identities(home)
        # columns held for files that are not the logs now (a rewrite not followed yet): opened
        other = {**kept["logs"], "prompts": {"exists": False}}
        assert sessionstore.summaries_and_columns(home, (held, other))[1] is not held
        assert opened == [home]
        opened.clear()

        # A row read since the columns: the list is checked against columns opened again,
        # which hold it (a new session).
        append_rows(home.log("tool-use"), [row("n-new", session_id="s-new")])
        after = client.get("/api/sessions", params={"days": 3650}).json()
        assert opened == [home]
        assert sessionstore.unloaded(live)[1] is not held
        assert live.unloaded_rows()[0] is held
        assert sorted(s["session_id"] for s in after["sessions"]) == sorted(
            ["s-new"] + [s["session_id"] for s in before["sessions"]])
        assert client.post("/api/facts", json=CENSUS).json()["corpus_events"] == 23
    assert live.loaded is False


def test_the_team_session_list_reads_the_summaries_the_server_holds(served):
    """`/api/sessions?team=true` lists this home's sessions from the summaries the local list
    keeps for the generation, checked against the columns the LiveCorpus holds: no columns
    opened. Before: it read the kept summaries again, opening the columns from the file."""
    app, opened = served
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        local = client.get("/api/sessions", params={"days": 3650}).json()
        team = client.get("/api/sessions", params={"days": 3650, "team": "true"}).json()
        assert opened == []
        # no team here: the home's list, saying so
        assert team["team"]["state"] == "not_configured"
        assert team["sessions"] == local["sessions"] and team["total"] == local["total"] == len(SESSIONS)
