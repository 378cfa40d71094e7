"""Every tool of `carto mcp` called on a home that does not exist (a CARTO_HOME typo, a home no
hook has made yet) answers, and leaves no folder behind: the server starts anyway, and a
command that only reads a home never creates it (docs/cli.md, "A home that does not exist")."""

from __future__ import annotations

import pytest

from carto_core.logio.home import Home
from carto_core.mcp.server import CartoMcp
from carto_core.mcp.tools import TOOLS, ToolError

#: The arguments each tool is asked with; a tool added to the catalogue without a line here
#: fails the catalogue test below.
CALLS = {
    "search": [{"query": "rounding"}],
    "get": [{"ids": ["evt-0123456789ab"]}],
    "thread": [{"event_id": "evt-0123456789ab"}],
    "orient": [{"project": "webshop"}],
    "facts": [{"verb": verb} for verb in ("census", "tempo", "delta", "tokens")],
    "standup": [{}],
    "digest": [{"kind": "day"}, {"kind": "session", "session_id": "5a1e"}],
    "wrapup": [{"session_id": "5a1e", "dry_run": True}],
    "decisions": [{}],
    "decide": [{"action": "retire", "id": "dec-0123", "dry_run": True}],
    "collision": [{"path": "/tmp/cart.py"}],
    "session_tree": [{"session_id": "5a1e"}],
    "related": [{"query": "rounding"}],
    "handoff": [{"project": "webshop"}, {"session_id": "5a1e"}],
}


def test_every_tool_is_asked():
    assert sorted(CALLS) == sorted(tool.name for tool in TOOLS)


@pytest.mark.parametrize("tool,arguments", [(t, a) for t, calls in CALLS.items() for a in calls])
def test_a_tool_on_a_home_that_does_not_exist_leaves_no_folder(tmp_path, tool, arguments):
    home = tmp_path / "nohome"
    state = CartoMcp(Home(home))
    try:
        state.call(tool, arguments)
    except ToolError as exc:
        assert exc.status in (400, 404, 503), exc.message  # said, not an internal error
    assert not home.exists(), sorted(str(p) for p in home.rglob("*"))
