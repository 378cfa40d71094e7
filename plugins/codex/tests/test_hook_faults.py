"""`carto hook codex ...` never blocks on a FIFO in the repository: Stop (milestone with git
context), PostToolUse of a commit (HEAD read to find it), PreCompact."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from carto_core.logio.home import Home
from carto_core.logio.reader import ReadReport, iter_lines

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
PATIENCE = 30


@pytest.mark.parametrize("event, extra", [
    ("Stop", {}),
    ("PreCompact", {"trigger": "manual"}),
    ("PostToolUse", {"tool_name": "shell", "tool_input": {"command": ["bash", "-lc", "git commit -m 'feat: y'"]}}),
])
def test_a_fifo_at_git_head_never_blocks_the_codex_hook(tmp_path, event, extra):
    repo = tmp_path / "repo"
    (repo / ".git" / "logs").mkdir(parents=True)
    for name in ("HEAD", "logs/HEAD", "packed-refs"):
        os.mkfifo(repo / ".git" / name)
    rollout = tmp_path / "rollout-2026-03-01T10-00-00-0199aaaa-0000-7000-8000-000000000001.jsonl"
    rollout.write_text("{}\n")
    home = tmp_path / "home"
    payload = {"session_id": "0199aaaa-0000-7000-8000-000000000001", "cwd": str(repo),
               "transcript_path": str(rollout), **extra}
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_HOOK_TIMEOUT": "0"}
    started = time.monotonic()
    done = subprocess.run([*CARTO, "hook", "codex", event], input=json.dumps(payload).encode(),
                          capture_output=True, env=env, timeout=PATIENCE)
    assert done.returncode == 0 and time.monotonic() - started < PATIENCE
    if event != "PostToolUse":
        rows = [line.row for line in iter_lines(Home(home).log("milestones"), ReadReport("m"))]
        assert len(rows) == 1 and rows[0]["git_branch"] == "" and rows[0]["recent_commits"] == ""
