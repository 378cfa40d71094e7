"""A FIFO or a folder in a log's place never holds a hook, and the row it refuses is kept.

The hook reads the changelog's tail (peer edits, a sub-agent's parent, the session's
milestones) and appends to it; a plain `open()` of a FIFO waits for a writer forever, so the
agent's tool call waited for the hook's timeout. Each hook runs in a subprocess, so that a wait
fails the test instead of hanging the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import pytest

from carto_core.logio.appendlog import AppendError, append_lines
from carto_core.logio.spill import is_spill_error

_TIMEOUT = 60


def _place(path, kind):
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()


def _hook(env, event, payload):
    try:
        return subprocess.run([sys.executable, "-m", "carto_core", "hook", "claude", event],
                              input=json.dumps(payload).encode(), env=env, capture_output=True,
                              timeout=_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the {event} hook waited on the changelog")


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_an_edit_hook_with_no_changelog_file_ends_and_spills_its_row(tmp_path, kind):
    home = tmp_path / "home"
    home.mkdir()
    _place(home / "changelog.jsonl", kind)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "f.txt").write_text("x\n")
    spill = tmp_path / "spill"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "CARTO_HOME": str(home), "CARTO_SPILL_DIR": str(spill), "CARTO_CATCHUP": "0",
           "CARTO_KEEPUP": "0", "PYTHONPATH": os.pathsep.join(sys.path)}
    edit = {"session_id": "s-fifo-1", "transcript_path": "/nonexistent.jsonl", "cwd": str(repo),
            "tool_name": "Edit", "tool_use_id": "toolu_1",
            "tool_input": {"file_path": str(repo / "f.txt"), "old_string": "x", "new_string": "y"}}
    for event in ("PreToolUse", "PostToolUse"):
        done = _hook(env, event, {**edit, "hook_event_name": event,
                                  "tool_response": {"filePath": str(repo / "f.txt")}})
        assert done.returncode == 0, done.stderr
    kept = [json.loads(line) for f in spill.glob("*.jsonl") for line in f.read_text().splitlines()]
    assert [(k["log"], json.loads(k["line"])["type"], json.loads(k["line"])["summary"])
            for k in kept] == [("changelog.jsonl", "tool_file_edit", f"Modified: {repo / 'f.txt'}")]
    assert (home / "changelog.jsonl").is_fifo() == (kind == "fifo")


def test_an_append_to_a_fifo_is_refused_as_the_home_refusing_it(tmp_path):
    path = tmp_path / "log.jsonl"
    os.mkfifo(path)
    with pytest.raises(AppendError) as refused:
        append_lines(path, [b'{"a": 1}\n'])
    assert refused.value.written == 0
    assert "a FIFO, not a regular file" in str(refused.value)
    assert is_spill_error(refused.value)
    assert not is_spill_error(OSError(22, "invalid argument"))


@pytest.mark.parametrize("call", [
    "from carto_core.capture.collision import tail_lines; "
    "print(tail_lines(PATH, None, datetime.now(timezone.utc) - timedelta(days=1)))",
    "from carto_core.capture.context import read_last_line; print(read_last_line(PATH))",
])
def test_the_tail_readers_read_a_fifo_as_empty(tmp_path, call):
    path = tmp_path / "changelog.jsonl"
    os.mkfifo(path)
    code = ("from datetime import datetime, timedelta, timezone\n"
            f"PATH = {str(path)!r}\n{call}")
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=_TIMEOUT, env={**os.environ,
                                                     "PYTHONPATH": os.pathsep.join(sys.path)})
    except subprocess.TimeoutExpired:
        pytest.fail("the reader waited on the FIFO")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("[]", "b''")
