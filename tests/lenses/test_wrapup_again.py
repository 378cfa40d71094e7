"""A wrapup's own rows are not the session's work: its id already left them out (so a second
wrapup of an unchanged session is already_present), but its description and digest counted the
first wrapup as one more event, so the row a second run showed beside `already_present` said
"N+1 events" while the row in the log said N, and a later wrapup counted the earlier ones."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home

SESSION = "5b2e0000-bbbb-4000-8000-00000000000b"  # a commit and an edit left uncommitted, no wrapup


def _wrapup(env, *flags) -> dict:
    result = CliRunner().invoke(cli, ["wrapup", "--session", SESSION[:8], "--json", *flags], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _stored(home) -> list[dict]:
    rows = [json.loads(line) for line in home.log("milestones").read_text().splitlines()]
    return [r for r in rows if r.get("milestone") == "session_wrapup" and r["session_id"] == SESSION]


def test_a_second_wrapup_shows_the_row_the_log_holds(tmp_path):
    home = build_sample_home(tmp_path / "h")
    env = {"CARTO_HOME": str(home.root)}
    first = _wrapup(env)
    assert first["receipt"]["log_outcome"] == "written"
    [stored] = _stored(home)
    again = _wrapup(env)
    assert again["receipt"] == {"log_outcome": "already_present", "event_id": stored["event_id"]}
    same = {k: v for k, v in again["row"].items() if k != "timestamp"}
    assert same == {k: v for k, v in stored.items() if k != "timestamp"}
    assert stored["description"] == "5 events on webshop over 1h40m: 1 commit, 2 edits, 1 file left uncommitted"
    assert stored["digest"]["event_count"] == 5
    assert list(stored["digest"]) == ["duration_minutes", "event_count", "projects", "commit_types",
                                      "commit_shapes", "files_touched", "recall"]


def test_a_session_whose_only_rows_are_carto_own_has_nothing_to_wrap_up(tmp_path):
    """A session that only changed a decision (`carto decision reject` run inside it) ended
    `carto wrapup` in an IndexError traceback; it is a session with no work: exit 3, one line."""
    from carto_core.mcp.server import CartoMcp
    from carto_core.mcp.tools import ToolError

    home = build_sample_home(tmp_path / "h")
    env = {"CARTO_HOME": str(home.root), "CODEX_SESSION_ID": "9999aaaa-only"}
    listed = json.loads(CliRunner().invoke(cli, ["decision", "list", "--json"], env=env).stdout)
    record = listed["records"][0]["id"]
    assert CliRunner().invoke(cli, ["decision", "reject", record, "--reason", "wrong"], env=env).exit_code == 0
    result = CliRunner().invoke(cli, ["wrapup", "--session", "9999aaaa", "--dry-run", "--json"], env=env)
    message = (f"session 9999aaaa-only has no events of its own work in {home.root} (only carto's "
               "rows: wrapups, decision updates): nothing to wrap up")
    assert (result.exit_code, json.loads(result.stdout)) == (3, {"error": message, "exit_code": 3})
    try:
        CartoMcp(home).call("wrapup", {"session_id": "9999aaaa", "dry_run": True})
    except ToolError as exc:
        assert (exc.code, exc.message) == ("not_found", message)
    else:
        raise AssertionError("the MCP wrapup wrapped up a session with no work")
