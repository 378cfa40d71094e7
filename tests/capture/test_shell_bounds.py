"""Shell reading is bounded: comment stripping is one pass of the regex engine (the same
output as the character-by-character model it replaced, hypothesis), and a command longer than
`SCAN_CUT` is cut at a line break before any heuristic reads it, so a 10 MB Bash command
costs what 256 KiB does and keeps its row under the hook's wall-clock cap."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.capture import shell
from carto_core.capture.shell import SCAN_CUT, bounded, strip_comments

CARTO = [sys.executable, "-m", "carto_core"]


def model(text: str) -> str:
    """The reference: the character loop `strip_comments` used to be (quadratic-free but a
    Python step per character: about a second per megabyte)."""
    out, quote, index, length = [], "", 0, len(text)
    while index < length:
        char = text[index]
        if quote:
            out.append(char)
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"' and index + 1 < length:
                out.append(text[index + 1])
                index += 1
        elif char in "'\"":
            quote = char
            out.append(char)
        elif char == "\\" and index + 1 < length:
            out.append(char)
            out.append(text[index + 1])
            index += 1
        elif char == "#" and (index == 0 or text[index - 1] in " \t\n;&|("):
            newline = text.find("\n", index)
            if newline < 0:
                break
            index = newline
            continue
        else:
            out.append(char)
        index += 1
    return "".join(out)


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.text(alphabet="ab #'\"\\\n;&|( \t\r(é", max_size=80))
def test_strip_comments_is_the_character_model(text):
    assert strip_comments(text) == model(text)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["git commit -m 'a # b'", "# all comment", "echo \"x\\\"#y\"",
                                 "a#b", "cd /x && make # build", "'open", "\\#", "x \\", ""]),
                max_size=12))
def test_strip_comments_on_command_lines(lines):
    text = "\n".join(lines)
    assert strip_comments(text) == model(text)


def test_bounded_cuts_at_a_line_break_before_the_bound():
    line = "echo " + "x" * 1000 + "\n"
    command = line * (SCAN_CUT // len(line) + 50)
    cut = bounded(command)
    assert len(cut) <= SCAN_CUT and command.startswith(cut) and not cut.endswith("\n")
    assert cut.count("\n") == len(cut) // len(line)
    assert bounded("short # x") == "short # x"
    one = "y" * (SCAN_CUT + 10)  # no line break: cut at the bound
    assert bounded(one) == one[:SCAN_CUT]


def test_no_reader_sees_more_than_the_bound(monkeypatch):
    """Every heavy step (heredoc split, comment strip, redaction before the summary's cut) is
    handed at most SCAN_CUT characters of a 3 MB command."""
    seen: list[int] = []
    for name in ("split_heredocs", "strip_comments", "_redacted"):
        original = getattr(shell, name)

        def spy(text, *args, _original=original, **kwargs):
            seen.append(len(text))
            return _original(text, *args, **kwargs)

        monkeypatch.setattr(shell, name, spy)
    command = "cd /src/app && git commit -m 'huge' # note\n" + "printf 'a b' > out.txt # c\n" * 120_000
    assert len(command) > 3_000_000
    assert shell.ran_summary(command).startswith("Ran: cd /src/app && git commit -m 'huge' # note")
    assert shell.shell_writes(command) == ["out.txt"]
    assert not shell.is_noise_command(command)
    assert [c.verb for c in shell.git_calls(command, "/src/app")] == ["commit"]
    assert shell.one_line(command).startswith("cd /src/app")
    assert seen and max(seen) <= SCAN_CUT, max(seen)


def test_a_ten_megabyte_command_keeps_its_row(tmp_path):
    home = tmp_path / "home"
    command = "echo start # a comment\n" + "printf 'x y z' # note\n" * 450_000
    assert len(command) > 9_000_000
    payload = {"session_id": "s-big", "cwd": str(tmp_path), "hook_event_name": "PostToolUse",
               "tool_name": "Bash", "tool_input": {"command": command},
               "tool_response": {"stdout": "ok"}}
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}
    done = subprocess.run([*CARTO, "hook", "claude", "PostToolUse"],
                          input=json.dumps(payload).encode(), capture_output=True, env=env,
                          timeout=120)
    assert done.returncode == 0
    log = home / ".carto" / "hook.log"
    assert not log.exists(), log.read_text()
    rows = [json.loads(line) for line in (home / "tool-use-log.jsonl").read_text().splitlines()]
    assert [r["type"] for r in rows] == ["tool_bash"]
    assert rows[0]["summary"].startswith("Ran: echo start # a comment printf 'x y z' # note")
    assert rows[0]["session"] == "s-big"  # the tool-use log's own key (upstream's shape)
