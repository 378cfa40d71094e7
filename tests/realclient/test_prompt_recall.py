"""Prompt-time recall reaches the model: with `carto install <client> --recall`, the genuine
client runs carto's UserPromptSubmit handler and the recalled snippet is in the request the
client sends to its (mock) model API."""

from __future__ import annotations

import json

from carto_core.logio.home import Home
from carto_core.search.index_view import IndexView
from tests.recall.conftest import COMMIT_ID, WORK_ID, write_home

from .harness import next_claude_session, next_codex_session

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


NEEDLE_ANSWER = [[{"type": "text", "text": "The quokka importer retried the manifest upload without "
                   "a checksum; it now sends the multipart checksum with every part."}]]
NEEDLE_PROMPT = "why did the quokka importer upload fail on the manifest checksum?"
#: The catch-up and keep-up children would save the index between the two sessions; off, the
#: next prompt can find the turn only in the index's unsaved tail.
NO_CHILDREN = {"CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}


def _unsaved_turn(first) -> str:
    """The id of the turn the first session's Stop hook wrote, which the saved index lacks."""
    assert first.payloads("Stop"), first.diagnosis()
    turns = [r for r in first.rows("turns") if "quokka importer" in r.get("summary", "")]
    assert turns, first.diagnosis()
    assert IndexView.open(Home(first.carto_home)).index_of(turns[-1]["event_id"]) is None
    return turns[-1]["event_id"]


def test_claude_recalls_at_the_next_prompt_the_turn_its_stop_hook_just_wrote(claude_session):
    first = claude_session(NEEDLE_ANSWER, install_args=("--recall",), setup=_seed,
                           prompt="the quokka importer keeps failing on uploads, fix it",
                           env=NO_CHILDREN, fresh=True)
    turn_id = _unsaved_turn(first)
    second = next_claude_session(first, NEEDLE_PROMPT, env=NO_CHILDREN)
    session = second.payloads("UserPromptSubmit")[-1]["session_id"]
    assert session != first.payloads("UserPromptSubmit")[0]["session_id"]
    text = _requests_text(second)
    assert "carto recall: earlier work" in text and turn_id in text, second.diagnosis()
    recalled = [r for r in second.rows("served") if r["purpose"] == "prompt_recall"
                and r["session_id"] == session]
    assert turn_id in {r["event_id"] for r in recalled}


def test_codex_recalls_at_the_next_prompt_the_turn_its_stop_hook_just_wrote(codex_session):
    first = codex_session([{"text": NEEDLE_ANSWER[0][0]["text"]}], install_args=("--recall",), setup=_seed,
                          prompt="the quokka importer keeps failing on uploads, fix it",
                          env=NO_CHILDREN, fresh=True)
    turn_id = _unsaved_turn(first)
    second = next_codex_session(first, NEEDLE_PROMPT, env=NO_CHILDREN)
    text = _requests_text(second)
    assert "carto recall: earlier work" in text and turn_id in text, second.diagnosis()
