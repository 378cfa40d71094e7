"""The README's user-install block runs as written on the user install (`pip install -r
requirements.txt`): a command that needs an extra comes after the line that installs it.
`carto install claude --mcp` followed `pip install -r requirements.txt` directly and exited 75
('the MCP extra is not installed')."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: flag in a `carto` command -> the extra it needs, as pip names it
EXTRAS = {"--mcp": "carto-core[mcp]"}


def _blocks(text: str) -> list[list[str]]:
    return [block.splitlines() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_every_command_needing_an_extra_comes_after_its_pip_install():
    for page in ("README.md", "docs/using.md"):
        for lines in _blocks((ROOT / page).read_text("utf-8")):
            for number, line in enumerate(lines):
                command = line.split("#", 1)[0]
                for flag, extra in EXTRAS.items():
                    if command.lstrip().startswith("carto ") and flag in command.split():
                        before = "\n".join(lines[:number])
                        assert f"pip install '{extra}'" in before, (page, line)


def test_using_says_mcp_needs_its_extra():
    text = (ROOT / "docs" / "using.md").read_text("utf-8")
    sentence = text[text.index("`--mcp` registers the MCP server"):][:200]
    assert "carto-core[mcp]" in sentence
