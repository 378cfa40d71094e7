"""The genuine clients' own hooks ingest the live transcript: right after the session ends, with
no `carto ingest` and no settle wait, `carto search` finds the final answer in the session's
turn; a resumed Claude session's new text is found after its Stop (issue 13, issue 20)."""

from __future__ import annotations

import json

from .harness import resume_claude_session
from .scripts import CLAUDE_MAIN_NEEDLE, CODEX_MAIN_NEEDLE


def _found(run, needle: str) -> list[dict]:
    done = run.carto("search", needle, "--json", "--all", "--no-semantic")
    assert done.returncode in (0, 3), done.stderr[-2000:]
    return json.loads(done.stdout)["results"]


def _turns(run, session: str) -> list[dict]:
    return [r for r in run.rows("turns") if r.get("session") == session]


def test_claude_final_answer_is_searchable_right_after_the_session(claude_session, tmp_path):
    run = claude_session().clone(tmp_path)
    assert run.rc == 0, run.diagnosis()
    session = run.payloads("SessionStart")[0]["session_id"]
    hits = [h for h in _found(run, CLAUDE_MAIN_NEEDLE) if h["session_id"] == session]
    assert [h["event_id"] for h in hits] == [f"turn-{session}-1"], _found(run, CLAUDE_MAIN_NEEDLE)
    assert not [line for line in run.hook_log() if "live" in line], run.hook_log()
    rows = _turns(run, session)
    # Written by the hooks themselves (Stop while open, SessionEnd when final), one event.
    assert rows and {r["event_id"] for r in rows} == {f"turn-{session}-1"}

    again = resume_claude_session(run, "one more thing: say quokkaresumed",
                                  [[{"type": "text", "text": "Sure: quokkaresumed"}]])
    assert again.rc == 0, again.diagnosis()
    found = _found(again, "quokkaresumed")
    assert found and found[0]["event_id"].startswith("turn-"), found
    assert not [line for line in again.hook_log() if "live" in line], again.hook_log()


def test_codex_final_answer_is_searchable_right_after_the_session(codex_session, tmp_path):
    run = codex_session().clone(tmp_path)
    assert run.rc == 0, run.diagnosis()
    session = run.payloads("SessionStart")[0]["session_id"]
    hits = [h for h in _found(run, CODEX_MAIN_NEEDLE) if h["session_id"] == session]
    assert [h["event_id"] for h in hits] == [f"turn-codex-{session}-1"], _found(run, CODEX_MAIN_NEEDLE)
    assert not [line for line in run.hook_log() if "live" in line], run.hook_log()
