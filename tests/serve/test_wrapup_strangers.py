"""A wrapup written before wrapups left out commits another author wrote holds a stranger's
merged commit as a decision. The session page shows a wrapup's decisions as the owner's, so it
judges them as every other reader of decisions does (`lenses.decisions.others_decisions`)."""

from __future__ import annotations

from starlette.testclient import TestClient

from carto_core.serve.app import create_app
from carto_core.transcript.resolver import TranscriptRoots

from tests.lenses.test_memory_strangers_decisions import MALLORY, MINE, _old_wrapup

from .conftest import BASE, bearer


def _wrapup(home, tmp_path) -> dict:
    app = create_app(home, transcript_roots=TranscriptRoots(claude=(tmp_path / "c",), codex=(tmp_path / "x",)))
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        answer = client.get("/api/sessions/s1")
    assert answer.status_code == 200, answer.text
    [wrapup] = answer.json()["wrapup"]
    return wrapup


def test_the_session_page_leaves_out_a_strangers_commit_and_counts_it(tmp_path, monkeypatch):
    home, repo, shas = _old_wrapup(tmp_path, monkeypatch)
    wrapup = _wrapup(home, tmp_path)
    assert wrapup["decisions"] == [f"{MINE} ({shas[MINE][:7]})",
                                   f"keep Mallory's review rule out ({shas[MALLORY][:7]})"]
    assert wrapup["others_commits"] == 1
    # named an owner, her commit is the owner's decision again, and nothing is counted
    monkeypatch.setenv("CARTO_PROFILE_AUTHORS", "Me,Mallory")
    wrapup = _wrapup(home, tmp_path)
    assert any(text.startswith(MALLORY) for text in wrapup["decisions"])
    assert "others_commits" not in wrapup
