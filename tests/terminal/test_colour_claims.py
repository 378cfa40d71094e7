"""docs/using.md says which commands colour their output on a terminal, and it is true: it said
"On a terminal the output is coloured" while sessions, standup, doctor, digest and facts print
no colour at all. Only `carto search` colours (and never with NO_COLOR)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .pty_run import env_for, in_pty, piped

SGR = re.compile(r"\x1b\[[0-9;]*m")
USING = Path(__file__).resolve().parents[2] / "docs" / "using.md"
COMMANDS = {
    "search": ["search", "discount codes", "--no-semantic"],
    "sessions": ["sessions"],
    "standup": ["standup", "--since", "1y", "--no-git"],
    "doctor": ["doctor", "--no-probe"],
    "digest": ["digest", "day", "--no-git"],
    "facts": ["facts", "census"],
}


def _claim() -> str:
    text = " ".join(USING.read_text("utf-8").split())
    return text[text.index("On a terminal"):][:400]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_what_using_md_says_of_colour_is_what_each_command_does(sample_home, name):
    piped(COMMANDS[name], env_for())  # its caches built, so no first-run line is on the terminal
    _, out = in_pty(COMMANDS[name], env_for())
    coloured = bool(SGR.search(out))
    claim = _claim()
    if coloured:
        assert f"`carto {name}` colours" in claim, claim
    else:
        assert "the output is coloured" not in claim and f"`carto {name}` colours" not in claim
        assert "every other command prints plain text" in claim
    _, plain_out = in_pty(COMMANDS[name], env_for(colour=False))
    assert not SGR.search(plain_out)  # NO_COLOR is honoured
