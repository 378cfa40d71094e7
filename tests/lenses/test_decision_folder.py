"""A decision change is about its record's project, wherever it was run from.

`carto decision` and the MCP `decide` tool wrote the folder their process ran in as the
`decision_update` row's `cwd`: an MCP server started in another folder (its own checkout, `~`)
made `carto facts census` split the project in two (`shop (~/work/shop)` and `shop (.../mcp)`),
and a record superseded by new words took that folder as its own (where its staleness is asked
of git). The row names the record's project and the folder the record was stated in.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.reader import iter_lines
from carto_core.mcp.server import CartoMcp
from carto_core.model import decisions as model

SID = "d1ec0000-0000-4000-8000-000000000001"


def _run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, (args, result.output)
    return json.loads(result.stdout)


def test_a_decision_changed_from_another_folder_keeps_its_projects_folder(tmp_path, monkeypatch):
    shop = tmp_path / "work" / "shop"
    elsewhere = tmp_path / "tools" / "mcp"
    shop.mkdir(parents=True)
    elsewhere.mkdir(parents=True)
    home = Home(tmp_path / "home")
    home.root.mkdir()
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    append_rows(home.log("changelog"), [
        {"event_id": f"evt-shop{i:04d}", "timestamp": f"2026-03-01T10:0{i}:00Z", "type": "tool_bash",
         "provider": "claude", "session_id": SID, "project": "shop", "cwd": str(shop),
         "summary": f"pytest -k cart {i}"} for i in range(3)])
    _run("wrapup", "--session", SID, "--decision", "keep the cart in redis",
         "--decision", "price in cents", "--json")
    ids = {r["text"]: r["id"] for r in _run("decision", "list", "--json")["records"]}

    monkeypatch.chdir(elsewhere)  # the MCP server and the terminal both run from here
    server = CartoMcp(home, env={})
    retired = server.call("decide", {"action": "retire", "id": ids["keep the cart in redis"]})
    superseded = _run("decision", "supersede", ids["price in cents"], "--text", "price in minor units",
                      "--json")

    for label in ("milestones", "changelog"):
        rows = {line.row["event_id"]: line.row for line in iter_lines(home.log(label))}
        for change in (retired, superseded):
            row = rows[change["event_id"]]
            assert (row["project"], row["cwd"]) == ("shop", str(shop)), (label, row)
    successor = model.load(home).records[superseded["successor"]["id"]]
    assert (successor.project, successor.cwd) == ("shop", str(shop))
    census = _run("facts", "census", "--json")["facts"]
    assert [(b["name"], b.get("folder"), b["count"]) for b in census["by_project"]] == [("shop", None, 6)]  # 3 calls, the wrapup, 2 changes


def test_a_successor_an_older_carto_wrote_from_another_folder_is_the_records_folder(tmp_path):
    """Rows written before the change name the changing process's folder: the successor they
    state is still the record's project's, so its staleness is asked of the right repository."""
    home = Home(tmp_path / "home")
    home.root.mkdir()
    append_rows(home.log("milestones"), [
        {"event_id": "evt-wrap00000001", "timestamp": "2026-03-01T10:00:00Z", "milestone": "session_wrapup",
         "provider": "claude", "description": "d", "session_id": SID, "project": "shop",
         "cwd": "/work/shop", "decisions": ["price in cents"], "unresolved": [], "key_insight": ""}])
    old = model.record_id("decision", "shop", "price in cents")
    append_rows(home.log("milestones"), [
        {"event_id": "evt-upd000000001", "timestamp": "2026-03-02T10:00:00Z", "milestone": "decision_update",
         "provider": "unknown", "description": "decision superseded: price in cents -> price in minor units",
         "project": "shop", "cwd": "/home/me/tools/mcp", "event": "Decision", "target": old,
         "kind": "decision", "state": "superseded", "text": "price in minor units"}])
    records = model.load(home).records
    new = records[model.record_id("decision", "shop", "price in minor units")]
    assert (records[old].state, records[old].by) == ("superseded", new.id)
    assert (new.project, new.cwd) == ("shop", "/work/shop")
