"""`carto hook claude ...` as a whole process: bad input, exit codes, stdout, hook.log, the
block list, and the collision note on PreToolUse (the plugin table it reads: tests/core/test_registry.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]


def hook(home: Path, event: str, stdin: bytes, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", **(env or {})}
    return subprocess.run([*CARTO, "hook", "claude", event], input=stdin, capture_output=True,
                          env=environment, timeout=60)


def logs_written(home: Path) -> list[str]:
    return sorted(p.name for p in home.glob("*.jsonl"))


def hook_log(home: Path) -> list[str]:
    path = home / ".carto" / "hook.log"
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize(
    ("event", "stdin", "expect"),
    [
        ("PostToolUse", b"", "empty stdin"),
        ("PostToolUse", b"{not json", "not JSON"),
        ("PostToolUse", b"[1, 2]", "not an object"),
        ("PostToolUse", json.dumps({"session_id": "s", "cwd": "/x", "tool_input": {"command": "make"}}).encode(),
         "no tool_name"),
        ("PostToolUse", json.dumps({"tool_name": "Bash", "cwd": "/x", "tool_input": {"command": "make"}}).encode(),
         "no session_id"),
        ("PostToolUse", json.dumps({"session_id": "s", "tool_name": "Bash", "tool_input": "make"}).encode(),
         "no tool_input"),
        ("SessionEnd", json.dumps({"session_id": "s", "cwd": "/x", "reason": "other",
                                   "transcript_path": "/nonexistent/t.jsonl"}).encode(), "does not exist"),
    ],
)
def test_bad_input_exits_zero_writes_nothing_and_logs_one_line(tmp_path, event, stdin, expect):
    done = hook(tmp_path, event, stdin)
    assert done.returncode == 0
    assert done.stdout == b""
    assert logs_written(tmp_path) == []
    lines = hook_log(tmp_path)
    assert len(lines) == 1, lines
    assert expect in lines[0]


def test_missing_arguments_and_unknown_provider_exit_zero(tmp_path):
    environment = {**os.environ, "CARTO_HOME": str(tmp_path)}
    done = subprocess.run([*CARTO, "hook"], input=b"{}", capture_output=True, env=environment, timeout=60)
    assert done.returncode == 0 and done.stdout == b""
    done = subprocess.run([*CARTO, "hook", "nosuch", "PostToolUse"], input=b"{}", capture_output=True,
                          env=environment, timeout=60)
    assert done.returncode == 0 and done.stdout == b""
    assert any("nosuch" in line for line in hook_log(tmp_path))


def test_a_good_bash_payload_writes_one_pair_and_prints_nothing(tmp_path):
    payload = {"session_id": "s1", "cwd": str(tmp_path), "transcript_path": str(tmp_path / "t.jsonl"),
               "tool_name": "Bash", "tool_input": {"command": "make test"}}
    done = hook(tmp_path / "home", "PostToolUse", json.dumps(payload).encode())
    assert done.returncode == 0 and done.stdout == b""
    home = tmp_path / "home"
    assert logs_written(home) == ["changelog.jsonl", "tool-use-log.jsonl"]
    rows = [json.loads(line) for line in (home / "tool-use-log.jsonl").read_text().splitlines()]
    assert [(r["type"], r["summary"], r["provider"]) for r in rows] == [("tool_bash", "Ran: make test ", "claude")]


def test_disabled_plugin_captures_nothing(tmp_path):
    payload = {"session_id": "s1", "cwd": str(tmp_path), "tool_name": "Bash", "tool_input": {"command": "make"}}
    done = hook(tmp_path / "home", "PostToolUse", json.dumps(payload).encode(), {"CARTO_DISABLE_PLUGINS": "claude"})
    assert done.returncode == 0
    assert logs_written(tmp_path / "home") == []


def test_pre_tool_use_prints_the_collision_note_as_additional_context(tmp_path):
    home = tmp_path / "home"
    target = tmp_path / "proj" / "app.py"
    target.parent.mkdir()
    peer = {"session_id": "peer", "cwd": str(target.parent), "tool_name": "Edit",
            "transcript_path": str(tmp_path / "peer.jsonl"), "tool_input": {"file_path": str(target)}}
    assert hook(home, "PostToolUse", json.dumps(peer).encode()).returncode == 0
    mine = {**peer, "session_id": "me", "hook_event_name": "PreToolUse"}
    done = hook(home, "PreToolUse", json.dumps(mine).encode())
    assert done.returncode == 0
    output = json.loads(done.stdout)
    context = output["hookSpecificOutput"]
    assert context["hookEventName"] == "PreToolUse"
    assert "app.py" in context["additionalContext"]
    # The same session editing its own file gets no note.
    again = hook(home, "PreToolUse", json.dumps({**peer, "hook_event_name": "PreToolUse"}).encode())
    assert again.stdout == b""
