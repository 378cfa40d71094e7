"""`carto install claude` (merge without clobbering) and the SessionStart catch-up."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from click.testing import CliRunner

from carto_claude.capture import CATCH_UP_SOURCE
from carto_claude.install import PLUGIN_DIR, carto_hooks
from carto_core.capture import catchup
from carto_core.jobs import catchup as catchup_job
from carto_core.cli import cli
from carto_core.logio.home import Home

LAST_FILE, LOCK_FILE, RUN_LOG = catchup.state_files("claude")


def test_plugin_folder_is_complete():
    manifest = json.loads((PLUGIN_DIR / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "carto"
    hooks = carto_hooks()
    assert set(hooks) == {"SessionStart", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "PreCompact",
                          "PostCompact", "SubagentStop", "SessionEnd", "Stop"}
    for groups in hooks.values():
        for group in groups:
            for handler in group["hooks"]:
                assert handler["command"].startswith("carto hook claude ")
    for skill in ("remember", "standup", "wrapup", "trustmap"):
        text = (PLUGIN_DIR / "skills" / skill / "SKILL.md").read_text()
        assert text.startswith("---\nname: " + skill)


def test_install_merges_without_clobbering_and_is_idempotent(tmp_path):
    settings = tmp_path / "settings.json"
    mine = {"model": "opus", "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "my-linter"}]}]}}
    settings.write_text(json.dumps(mine))
    runner = CliRunner()
    printed = runner.invoke(cli, ["install", "claude", "--settings", str(settings), "--print", "--json"])
    assert printed.exit_code == 0, printed.output
    assert json.loads(settings.read_text()) == mine  # --print writes nothing
    done = runner.invoke(cli, ["install", "claude", "--settings", str(settings), "--json"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    merged = json.loads(settings.read_text())
    assert merged["model"] == "opus"
    assert merged["hooks"]["PostToolUse"][0] == mine["hooks"]["PostToolUse"][0]
    expected = sum(len(g["hooks"]) for groups in carto_hooks().values() for g in groups)
    assert len(result["changes"]) == expected
    assert Path(result["backup"]).read_text() == json.dumps(mine)
    again = runner.invoke(cli, ["install", "claude", "--settings", str(settings), "--json"])
    assert json.loads(again.output)["changes"] == []


def test_install_refuses_a_broken_settings_file(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text("{not json")
    done = CliRunner().invoke(cli, ["install", "claude", "--settings", str(settings)])
    assert done.exit_code == 4
    assert settings.read_text() == "{not json"


def test_catch_up_respects_cooldown_and_lock(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    projects = tmp_path / "projects" / "-p"
    projects.mkdir(parents=True)
    line = {"type": "user", "sessionId": "s", "cwd": "/w/p", "timestamp": "2026-01-01T00:00:00Z",
            "message": {"role": "user", "content": "hello"}}
    (projects / "s.jsonl").write_text(json.dumps(line) + "\n")
    old = time.time() - 3600
    os.utime(projects / "s.jsonl", (old, old))
    monkeypatch.setenv("CARTO_CLAUDE_PROJECTS", str(tmp_path / "projects"))
    monkeypatch.setenv("CARTO_CLAUDE_HISTORY", str(tmp_path / "none.jsonl"))
    assert catchup.due(home, "claude")
    result = catchup_job.run(home, "claude", CATCH_UP_SOURCE)
    assert result["outcome"] == "done" and result["written"] == {"turns": 1}
    # A second run while the lock is held does nothing.
    import fcntl

    with open(home.state / LOCK_FILE, "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert catchup_job.run(home, "claude", CATCH_UP_SOURCE) == {"outcome": "locked"}
    monkeypatch.setenv("CARTO_CATCHUP", "0")
    assert catchup.maybe_start(home, "claude", CATCH_UP_SOURCE) is None and not (home.state / LAST_FILE).exists()


def test_session_start_spawns_a_detached_catch_up_once_per_cooldown(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CARTO_CLAUDE_PROJECTS", str(tmp_path / "projects"))
    monkeypatch.setenv("CARTO_CLAUDE_HISTORY", str(tmp_path / "none.jsonl"))
    monkeypatch.setenv("CARTO_CATCHUP", "1")
    assert catchup.maybe_start(home, "claude", CATCH_UP_SOURCE) is None
    stamp = (home.state / LAST_FILE).stat().st_mtime
    assert not catchup.due(home, "claude")
    assert catchup.maybe_start(home, "claude", CATCH_UP_SOURCE) is None  # within the cooldown: nothing spawned
    assert (home.state / LAST_FILE).stat().st_mtime == stamp
    # The detached child records its run; wait for it (bounded), never for the hook.
    deadline = time.time() + 60
    run_log = home.state / RUN_LOG
    # The file appears (O_CREAT) a moment before its line is written: wait for a whole line.
    while time.time() < deadline and not (run_log.exists() and run_log.read_text().endswith("\n")):
        time.sleep(0.2)
    assert json.loads((home.state / RUN_LOG).read_text().splitlines()[-1])["outcome"] == "done"


def test_install_mcp_delegation_follows_the_scope(tmp_path, monkeypatch):
    """--mcp goes through core's installer: user scope is ~/.claude.json, --project the
    project's .mcp.json (printed only here, nothing written)."""
    monkeypatch.chdir(tmp_path)
    settings = tmp_path / "settings.json"
    runner = CliRunner()
    done = runner.invoke(cli, ["install", "claude", "--settings", str(settings), "--mcp", "--json"])
    assert done.exit_code == 0, done.output
    document = json.loads(done.output)
    claude_json = Path(os.environ["HOME"]) / ".claude.json"
    assert document["mcp"]["changes"] and str(claude_json) in " ".join(document["mcp"]["changes"])
    assert json.loads(claude_json.read_text())["mcpServers"]["carto"]["args"] == ["mcp"]
    printed = runner.invoke(cli, ["install", "claude", "--project", "--settings", str(settings), "--mcp", "--print"])
    assert printed.exit_code == 0, printed.output
    assert "mcp: " in printed.output and ".mcp.json" in printed.output
    assert not (tmp_path / ".mcp.json").exists()
