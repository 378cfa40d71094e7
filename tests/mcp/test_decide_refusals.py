"""The MCP `decide` tool's refusals name its own arguments (`by`, `text`, the `decisions`
tool), not the flags of `carto decision` (`--by`, `--text`, `carto decision list --all`),
which an agent calling the tool cannot pass."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.mcp.server import CartoMcp
from carto_core.mcp.tools import ToolError
from carto_core.model import decisions as model

WRAPUP = {"event_id": "evt-wrap00000001", "timestamp": "2026-03-01T10:00:00Z",
          "milestone": "session_wrapup", "provider": "claude", "description": "d",
          "session_id": "s1", "project": "shop", "cwd": "/work/shop",
          "decisions": ["use Decimal for money"], "unresolved": [], "key_insight": ""}
RECORD = model.record_id("decision", "shop", "use Decimal for money")


@pytest.fixture
def home(tmp_path) -> Home:
    home = Home(tmp_path / "h")
    home.root.mkdir(parents=True)
    append_rows(home.log("milestones"), [WRAPUP])
    return home


def _refused(home: Home, **args) -> ToolError:
    with pytest.raises(ToolError) as refused:
        CartoMcp(home).call("decide", args)
    return refused.value


def test_decide_refusals_name_the_tools_arguments(home):
    before = home.log("milestones").read_bytes()
    cases = [
        ({"action": "supersede", "id": RECORD},
         "invalid_arguments", "supersede needs the record that replaces it: by=ID or text=TEXT (one)"),
        ({"action": "supersede", "id": RECORD, "by": RECORD, "text": "use floats"},
         "invalid_arguments", "supersede needs the record that replaces it: by=ID or text=TEXT (one)"),
        ({"action": "supersede", "id": RECORD, "text": "  n/a "},
         "invalid_arguments", "text states nothing"),
        ({"action": "retire", "id": RECORD, "by": RECORD},
         "invalid_arguments", "by and text go with supersede"),
        ({"action": "retire", "id": "dec-ffff"},
         "not_found", "no record with id 'dec-ffff' (the decisions tool with all=true lists them)"),
    ]
    for args, code, message in cases:
        refused = _refused(home, **args)
        assert (refused.code, refused.message) == (code, message), args
    assert home.log("milestones").read_bytes() == before


def test_the_cli_keeps_its_flag_words(home):
    env = {"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "", "CLAUDE_CODE_SESSION_ID": ""}
    cases = [
        (["supersede", RECORD], 2,
         "supersede needs the record that replaces it: --by ID or --text TEXT (one)"),
        (["supersede", RECORD, "--text", " n/a "], 2, "--text states nothing"),
        (["retire", "dec-ffff"], 3, "no record with id 'dec-ffff' (`carto decision list --all` lists them)"),
    ]
    for args, code, message in cases:
        result = CliRunner().invoke(cli, ["decision", *args], env=env)
        assert (result.exit_code, result.stderr.strip()) == (code, f"carto: {message}"), args
