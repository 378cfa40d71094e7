"""What Codex CLI 0.169.0 itself writes: rollouts recorded from the real client
(`fixtures/codex-0.169.0/`, scrubbed; see fixtures/SOURCES.md) read as the client meant them."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carto_codex.rollout import parse_rollout, strip_output_header
from carto_codex.source import CodexRolloutSource
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest

CLIENT = Path(__file__).parent / "fixtures" / "codex-0.169.0"
EXEC_PATCH = "01a230cd-1823-7872-b7e4-740429751736"   # MODEL=mock-model: apply_patch through exec_command
PATCH_TOOL = "01a230cc-cda9-7510-a016-d0f6f4662ede"   # MODEL=gpt-5.5: the freeform apply_patch tool


def rollout(sid: str) -> Path:
    return next(CLIENT.rglob(f"rollout-*-{sid}.jsonl"))


@pytest.fixture
def codex_root(tmp_path) -> Path:
    root = tmp_path / "codex"
    shutil.copytree(CLIENT, root)
    old = time.time() - 3600
    for path in root.rglob("*.jsonl"):
        os.utime(path, (old, old))
    return root


def test_the_fixture_holds_the_new_record_types():
    kinds = set()
    for path in CLIENT.rglob("*.jsonl"):
        for text in path.read_text().splitlines():
            row = json.loads(text)
            kinds.add(row["type"] if row["type"] != "event_msg" else f"event_msg/{row['payload']['type']}")
    assert {"token_usage_record", "event_msg/item_completed", "event_msg/thread_settings_applied"} <= kinds
    assert "event_msg/user_message" not in kinds and "event_msg/agent_message" not in kinds


@pytest.mark.parametrize("sid", [EXEC_PATCH, PATCH_TOOL])
def test_new_record_types_are_not_counted_unknown(sid):
    result = parse_rollout(rollout(sid).read_bytes())
    assert not [k for k in result.skipped if k.startswith("unknown_type:")], result.skipped
    assert [t.prompt for t in result.turns] == ["add a file and commit it"]


def test_tool_output_headers_are_stripped_from_the_turn_body(codex_root, tmp_path):
    home = Home(tmp_path / "home")
    summary = run_ingest(CodexRolloutSource({"roots": [str(codex_root)]}), home)
    assert not summary.errors
    assert not [k for k in summary.skipped if k.startswith("unknown_type")], summary.skipped
    rows = {json.loads(l)["session"]: json.loads(l) for l in (home.root / "turns.jsonl").read_text().splitlines()}
    body = rows[EXEC_PATCH]["summary"]
    for header in ("Chunk ID", "Wall time", "Original token count", "Process exited with code"):
        assert header not in body
    # What the outputs said is what is left: the commit line and apply_patch's answer.
    assert "-> [main eb66598] feat: add b" in body
    assert "-> Success. Updated the following files: M b.txt" in body


def test_header_keeps_a_failing_exit_code():
    text = "Chunk ID: 1a2b3c\nWall time: 0.2 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\nboom\n"
    assert strip_output_header(text) == "(exit 2) boom\n"
    assert strip_output_header("Process exited with code 0\nOutput:\nok") == "ok"


_HEADER_KEYS = ("Chunk ID", "Wall time", "Process exited with code", "Original token count", "Exit code",
                "Output:", "Process running with session ID", "Total output lines")


@given(st.text())
def test_output_without_a_header_is_kept_whole(text):
    if text.startswith(_HEADER_KEYS):
        text = "x" + text
    assert strip_output_header(text) == text


@given(st.lists(st.sampled_from(["Chunk ID: ab12\n", "Wall time: 0.1 seconds\n", "Original token count: 9\n",
                                 "Process exited with code 0\n", "Output:\n"]), min_size=1), st.text())
def test_any_header_sequence_leaves_exactly_the_output(header, body):
    if body.startswith(_HEADER_KEYS):
        body = "x" + body
    assert strip_output_header("".join(header) + body) == body


def test_apply_patch_through_exec_command_is_an_edit_of_the_turn():
    """With no apply_patch tool offered, Codex sends the patch through `exec_command` and fires
    no hook for it: the ingested turn is the only record of the edit."""
    (turn,) = parse_rollout(rollout(EXEC_PATCH).read_bytes()).turns
    shell, patch = turn.calls.entries
    assert patch["name"] == "exec_command" and patch["input"].startswith("apply_patch <<'EOF'")
    assert patch["edits"] == ["/home/dev/repo/b.txt"]  # item_completed's FileChange path
    assert shell["commit"] == {"sha": "eb66598", "subject": "feat: add b", "branch": "main"}


def test_the_freeform_patch_tool_and_the_ingested_row(codex_root, tmp_path):
    home = Home(tmp_path / "home")
    run_ingest(CodexRolloutSource({"roots": [str(codex_root)]}), home)
    rows = {json.loads(l)["session"]: json.loads(l) for l in (home.root / "turns.jsonl").read_text().splitlines()}
    row = rows[PATCH_TOOL]
    assert row["cwd"] == "/home/dev/repo"
    # `echo hi > b.txt && git add b.txt && git commit ...`: the redirection writes b.txt.
    assert [(t["name"], t.get("edits"), t.get("commit", {}).get("sha")) for t in row["tools"]] == [
        ("exec_command", ["/home/dev/repo/b.txt"], "d56b83f"), ("apply_patch", ["/home/dev/repo/b.txt"], None)]
    assert rows[EXEC_PATCH]["tools"][1]["edits"] == ["/home/dev/repo/b.txt"]
