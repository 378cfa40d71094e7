"""`carto doctor` runs every installed carto hook the way the agent does and reports each as
firing or silent, with the reason and the fix; no hooks at all, silent hooks and Codex handlers
Codex will skip as untrusted are problems. The probes never touch the user's home."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli


@pytest.fixture
def user(tmp_path, monkeypatch):
    """A user whose home exists, in a project folder with no hook files of its own."""
    monkeypatch.chdir(tmp_path)
    home = Path(os.environ["CARTO_HOME"])
    home.mkdir(parents=True, mode=0o700)
    (home / "changelog.jsonl").write_text(json.dumps({
        "event_id": "evt-1", "timestamp": "2026-01-01T00:00:00Z", "type": "git_commit", "summary": "x"}) + "\n")
    (home / "changelog.jsonl").chmod(0o600)  # private, as carto writes it (a shared home is a problem)
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    (tmp_path / "codex").mkdir()
    (tmp_path / "codex" / "config.toml").write_text('model = "gpt-5.5"\n')
    return home


def doctor(*args):
    done = CliRunner().invoke(cli, ["doctor", "--json", *args])
    return done.exit_code, json.loads(done.stdout)


def hook_problems(document):
    return [p for p in document["problems"] if "hook" in p["problem"]]


def test_no_hooks_installed_is_a_problem(user):
    code, document = doctor()
    assert code == 1
    [problem] = [p for p in document["problems"] if p["problem"].startswith("no hooks installed")]
    assert "carto install claude" in problem["fix"]
    assert document["hooks"]["files"] == []


def test_installed_hooks_fire_and_untrusted_codex_ones_are_named(user):
    runner = CliRunner()
    assert runner.invoke(cli, ["install", "claude"]).exit_code == 0
    assert runner.invoke(cli, ["install", "codex"]).exit_code == 0
    code, document = doctor()
    probes = document["hooks"]["probes"]
    assert {p["provider"] for p in probes} == {"claude", "codex"}
    assert [p for p in probes if not p["fires"]] == []
    assert {p["event"] for p in probes if p["provider"] == "claude"} >= {"PostToolUse", "SessionStart", "Stop"}
    [untrusted] = hook_problems(document)
    assert "never trusted" in untrusted["problem"] and "codex exec" in untrusted["problem"]
    assert "carto install codex --trust" in untrusted["fix"] and code == 1
    assert runner.invoke(cli, ["install", "codex", "--trust"]).exit_code == 0
    code, document = doctor()
    assert hook_problems(document) == [] and code == 0, document["problems"]


def test_a_moved_environment_is_silent_with_reason_and_fix_and_install_repairs_it(user):
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"hooks": {"PostToolUse": [{"matcher": "Bash|Write", "hooks": [
        {"type": "command", "command": "/gone/.venv/bin/carto hook claude PostToolUse", "timeout": 10}]}]}}))
    code, document = doctor()
    [silent] = [p for p in hook_problems(document) if "silent" in p["problem"]]
    assert "claude PostToolUse hook installed but silent: exit 127" in silent["problem"]
    assert "/gone/.venv/bin/carto" in silent["problem"] and "carto install claude" in silent["fix"]
    assert code == 1
    assert CliRunner().invoke(cli, ["install", "claude"]).exit_code == 0
    code, document = doctor()
    assert [p for p in document["hooks"]["probes"] if not p["fires"]] == []
    assert hook_problems(document) == [] and code == 0, document["problems"]


def test_a_hook_that_runs_but_writes_nothing_is_silent(user, tmp_path):
    """A launcher that starts and exits 0 without capturing (here: `true`) is not "firing"."""
    fake = tmp_path / "bin" / "carto"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    fake.chmod(0o755)
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"hooks": {"PostToolUse": [{"hooks": [
        {"type": "command", "command": f"{fake} hook claude PostToolUse"}]}]}}))
    _, document = doctor()
    [silent] = [p for p in hook_problems(document) if "silent" in p["problem"]]
    assert "wrote no row" in silent["problem"]


def test_a_codex_handler_changed_after_trust_is_stale(user):
    runner = CliRunner()
    runner.invoke(cli, ["install", "codex", "--trust"])
    path = Path(os.environ["CODEX_HOME"]) / "hooks.json"
    data = json.loads(path.read_text())
    data["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 7
    path.write_text(json.dumps(data))
    _, document = doctor("--no-probe")
    [stale] = hook_problems(document)
    assert "changed since they were trusted" in stale["problem"] and "(Stop)" in stale["problem"]
    assert document["hooks"]["probes"] == []


def test_codex_hooks_switched_off_in_config_are_a_problem(user):
    CliRunner().invoke(cli, ["install", "codex", "--trust"])
    config = Path(os.environ["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text() + "\n[features]\ncodex_hooks = false\n")
    _, document = doctor("--no-probe")
    assert any("codex_hooks = false" in p["problem"] for p in document["problems"])


def test_probes_never_touch_the_users_homes(user):
    CliRunner().invoke(cli, ["install", "claude"])
    before = sorted(p.relative_to(user) for p in user.rglob("*"))
    default_home = Path(os.environ["HOME"]) / ".local" / "share" / "carto"
    doctor()
    assert sorted(p.relative_to(user) for p in user.rglob("*")) == before
    assert not default_home.exists()
