"""What carto records from what the genuine clients say: the commit row names exactly the commit
the client made (not the repository's previous one), an edit by shell redirection or by
apply_patch (through the tool, or through `exec_command`, which fires no hook) is seen, the
pinned versions' transcript lines and rollout records are all known, SessionStart logs nothing
about the transcript it precedes, Codex's SessionEnd and UserPromptSubmit write their rows, and a
home built only by ingest shows the session in standup with its commit."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from .scripts import CLAUDE_MAIN, CODEX_MAIN


def session_of(run) -> str:
    return run.payloads("SessionStart")[0]["session_id"]


def made_in_session(run) -> list[str]:
    """The commits the session made: every commit after the repository's first (seeded before
    the client started), newest first, as git lists them."""
    out = subprocess.run(["git", "-C", str(run.repo), "log", "--format=%H"], capture_output=True, text=True,
                         check=True).stdout.split()
    return out[:-1]


def commit_rows(run, sid: str) -> list[str]:
    return [r["summary"].split(" Commit ", 1)[1].split(":", 1)[0]
            for r in run.rows("changelog") if r.get("session_id") == sid and r.get("type") == "git_commit"]


def unknown_types(summary: dict) -> list[str]:
    return sorted(k for k in summary.get("skipped", {}) if k.startswith("unknown_type"))


def session_turns(run) -> list[dict]:
    """The session's turns, one per event_id, its newest row (the Stop hook writes a turn while
    it is open, and again as it grows: carto_core.logio.fold)."""
    newest = {r["event_id"]: r for r in run.rows("turns") if r.get("session") == session_of(run)}
    return list(newest.values())


def settle(run) -> None:
    """Make the session's transcript look finished (ingest writes a file's last turn once it has
    been quiet for the settle time)."""
    old = time.time() - 3600
    os.utime(run.transcript, (old, old))


@pytest.fixture(scope="module")
def claude_run(claude_session):
    run = claude_session(CLAUDE_MAIN)
    assert run.rc == 0, run.diagnosis()
    return run


def test_claude_commit_row_names_exactly_the_commit_the_client_made(claude_run):
    run = claude_run
    sid = session_of(run)
    made = made_in_session(run)
    reported = [p["tool_response"]["gitOperation"]["commit"]["sha"] for p in run.payloads("PostToolUse", "Bash")
                if isinstance(p.get("tool_response"), dict) and p["tool_response"].get("gitOperation")]
    assert len(made) == 1 and [made[0][:7]] == reported, (made, reported, run.diagnosis())
    assert commit_rows(run, sid) == made, run.diagnosis()  # not the seed commit made seconds before


def test_claude_shell_redirection_is_an_edit_and_no_call_is_logged_twice(claude_run):
    run = claude_run
    sid = session_of(run)
    rows = [r for r in run.rows("changelog") if r.get("session_id") == sid]
    edits = {r["summary"] for r in rows if r.get("type") == "tool_file_edit"}
    assert f"Modified: {run.repo}/a.txt (via bash)" in edits, (edits, run.diagnosis())  # echo hello > a.txt
    assert f"Modified: {run.repo}/test_b.py" in edits, edits
    # PostToolBatch ran after every batch and added nothing PostToolUse had written.
    assert run.events_fired()["PostToolBatch"] >= 3, run.diagnosis()
    keys = [(r.get("tool_use_id"), r["type"], r["summary"]) for r in rows if r.get("tool_use_id")]
    assert keys and len(keys) == len(set(keys)), keys


def test_claude_session_start_logs_nothing_about_the_transcript(claude_run):
    assert not [line for line in claude_run.hook_log() if "does not exist" in line], claude_run.hook_log()


def test_claude_transcript_has_no_unknown_line_types_and_its_turn_records_the_work(claude_run, tmp_path):
    run = claude_run.clone(tmp_path)
    settle(run)
    summary = run.carto_json("ingest", "claude")
    assert summary["written"].get("turns") == 1 and unknown_types(summary) == [], summary
    (turn,) = session_turns(run)
    bash = turn["tools"][0]
    assert bash["commit"]["sha"] == made_in_session(run)[0][:7], turn["tools"]
    assert bash["edits"] == [f"{claude_run.repo}/a.txt"], turn["tools"]


def test_a_backfilled_claude_session_shows_in_standup_with_its_commit(claude_session, tmp_path):
    run = claude_session(CLAUDE_MAIN, install=False).clone(tmp_path)  # no hook ever ran
    assert not run.rows("changelog")
    settle(run)
    run.carto("ingest", "claude", check=True)
    doc = run.carto_json("standup", "--no-git")
    (session,) = doc["sessions"]
    assert session["evidence"] == "turns", session
    assert [c["sha"] for c in session["commits"]] == [made_in_session(run)[0][:7]], session
    assert session["types"].get("tool_file_edit") == 2, session  # a.txt (redirection), test_b.py (Write)
    wrapup = run.carto_json("wrapup", "--session", session["id"], "--dry-run")["row"]
    assert wrapup["decisions"] == [f"feat: add a ({made_in_session(run)[0][:7]})"], wrapup


@pytest.fixture(scope="module")
def codex_run(codex_session):
    run = codex_session(CODEX_MAIN)
    assert run.rc == 0, run.diagnosis()
    return run


def test_codex_commit_row_names_exactly_the_commit_and_both_edits_are_seen(codex_run):
    run = codex_run
    sid = session_of(run)
    assert commit_rows(run, sid) == made_in_session(run), run.diagnosis()
    edits = [r["summary"] for r in run.rows("changelog") if r.get("session_id") == sid
             and r.get("type") == "tool_file_edit"]
    assert "Modified: b.txt (via bash)" in edits, (edits, run.diagnosis())  # echo hi > b.txt
    assert "Modified: b.txt" in edits, edits                                 # the apply_patch tool


def test_codex_session_end_and_prompt_write_their_rows(codex_run):
    run = codex_run
    sid = session_of(run)
    assert run.payloads("SessionEnd")[0]["reason"] == "other"
    milestones = {r["milestone"] for r in run.rows("milestones") if r.get("session_id") == sid}
    assert "session_end_other" in milestones, (milestones, run.diagnosis())
    prompts = [r for r in run.rows("prompts") if r.get("session_id") == sid]
    assert [p["summary"] for p in prompts] == [run.payloads("UserPromptSubmit")[0]["prompt"]], prompts


def test_codex_rollout_has_no_unknown_record_types(codex_run, tmp_path):
    run = codex_run.clone(tmp_path)
    settle(run)
    summary = run.carto_json("ingest", "codex")
    assert unknown_types(summary) == [], summary
    (turn,) = session_turns(run)
    assert "Chunk ID" not in turn["summary"] and "Wall time" not in turn["summary"], turn["summary"]


def test_codex_apply_patch_through_exec_command_is_recorded_by_the_turn(codex_session, tmp_path):
    """`mock-model`: Codex offers no apply_patch tool, the patch goes through exec_command and no
    hook fires for it; the ingested turn records the edit."""
    run = codex_session(CODEX_MAIN, model="mock-model").clone(tmp_path)
    assert run.rc == 0, run.diagnosis()
    assert not run.payloads("PostToolUse", "apply_patch")
    settle(run)
    summary = run.carto_json("ingest", "codex")
    assert unknown_types(summary) == [], summary
    (turn,) = session_turns(run)
    patch = next(t for t in turn["tools"] if "apply_patch" in t["input"])
    assert patch["name"] == "exec_command" and patch["edits"] == [f"{codex_run_repo(run)}/b.txt"], turn["tools"]


def codex_run_repo(run) -> str:
    """The repository the session ran in (rows keep the original path, not the clone's)."""
    return run.payloads("SessionStart")[0]["cwd"]
