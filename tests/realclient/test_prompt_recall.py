"""Prompt-time recall reaches the model: with `carto install <client> --recall`, the genuine
client runs carto's UserPromptSubmit handler and the recalled snippet is in the request the
client sends to its (mock) model API."""

from __future__ import annotations

import json

from tests.recall.conftest import COMMIT_ID, WORK_ID, write_home

QUESTION = "how did we fix the coupon stacking bug in checkout?"
ANSWER_CLAUDE = [[{"type": "text", "text": "It was fixed by applying discounts before tax. wallabyrecall"}]]
ANSWER_CODEX = [{"text": "It was fixed by applying discounts before tax. wallabyrecall"}]


def _seed(run) -> None:
    """Earlier work in other sessions, indexed by a search as any CLI call does."""
    write_home(run.carto_home)
    run.carto("search", "--no-semantic", "coupon", check=True)


def _requests_text(run) -> str:
    return json.dumps(run.main_requests())


def test_claude_sends_the_recalled_work_to_its_model(claude_session):
    run = claude_session(ANSWER_CLAUDE, install_args=("--recall",), setup=_seed, prompt=QUESTION)
    assert run.payloads("UserPromptSubmit"), run.diagnosis()
    text = _requests_text(run)
    assert "carto recall: earlier work" in text, run.diagnosis()
    assert WORK_ID in text or COMMIT_ID in text, run.diagnosis()
    session = run.payloads("UserPromptSubmit")[0]["session_id"]
    recalled = [r for r in run.rows("served") if r["purpose"] == "prompt_recall"]
    assert recalled and {r["session_id"] for r in recalled} == {session}


def test_codex_sends_the_recalled_work_to_its_model(codex_session):
    run = codex_session(ANSWER_CODEX, install_args=("--recall",), setup=_seed, prompt=QUESTION)
    assert run.payloads("UserPromptSubmit"), run.diagnosis()
    text = _requests_text(run)
    assert "carto recall: earlier work" in text, run.diagnosis()
    assert WORK_ID in text or COMMIT_ID in text, run.diagnosis()
