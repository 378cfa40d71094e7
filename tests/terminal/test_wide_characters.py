"""Wide characters (CJK, emoji: two columns each) on an 80-column terminal: text is wrapped and
padded by the columns it takes, not by its characters. A search snippet of CJK was wrapped at
78 characters (140 columns), the sessions table's columns after a project named with emoji
stood 6 columns right of the others, `carto session`'s span line was 92 columns and a standup
line 81."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from carto_core.util.terminal import cells, wrap

from .pty_run import env_for, in_pty, plain

WIDE = "全角文字テスト🚀"
SID = "cccc1111-2222-4333-8444-555566667777"


@pytest.fixture
def wide_home(sample_home, tmp_path):
    project = tmp_path / "proj" / "商店🛒ウェブ"
    project.mkdir(parents=True)
    payload = {"session_id": SID, "cwd": str(project), "hook_event_name": "PostToolUse",
               "tool_name": "Bash", "tool_input": {"command": "make build # " + WIDE * 12},
               "tool_response": {"stdout": "ok"}}
    done = subprocess.run([sys.executable, "-m", "carto_core", "hook", "claude", "PostToolUse"],
                          input=json.dumps(payload), text=True, env=env_for(), capture_output=True)
    assert done.returncode == 0, done.stderr
    return sample_home


def _lines(args, columns=80):
    code, out = in_pty(args, env_for(colour=False), columns=columns)
    assert code == 0, out
    return [line for line in plain(out).replace("\r", "").split("\n") if line.strip()]


def test_wrap_counts_columns_and_keeps_every_word():
    text = "make build # " + WIDE * 12
    lines = wrap(text, 78)
    assert all(cells(line) <= 78 for line in lines) and "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert cells(lines[0]) >= 76  # the long word fills the first line, as textwrap does
    ascii_text = "the quick brown fox jumps over the lazy dog " * 6
    assert wrap(ascii_text, 30) == textwrap.wrap(ascii_text, 30, break_long_words=True, break_on_hyphens=False)


@pytest.mark.parametrize("args, columns", [
    (["search", "全角文字テスト", "--no-semantic"], 80), (["session", "cccc"], 80),
    (["standup", "--since", "3y", "--no-git"], 60)], ids=lambda v: " ".join(v) if isinstance(v, list) else str(v))
def test_every_line_fits_the_terminal(wide_home, args, columns):
    lines = _lines(args, columns)
    wide = [(cells(line), line) for line in lines if cells(line) > columns and not line.startswith("carto:")]
    assert not wide, wide


def test_the_sessions_table_stays_aligned_after_a_wide_project_name(wide_home):
    lines = _lines(["sessions", "-n", "4"], columns=200)
    rows = [line for line in lines if line[:8].isalnum() and not line.startswith("id")]
    # where the provider column starts, in columns, is the same on every row
    starts = {cells(line[:line.index(provider)]) for line in rows
              for provider in ("claude", "codex") if f" {provider} " in line}
    assert len(starts) == 1, rows
