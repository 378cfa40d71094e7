"""The genuine Claude Code accepts carto's plugin folder strictly, and the plugin's hooks record
when Claude Code is started where carto is on PATH (the folder's README says so)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

from carto_claude.install import PLUGIN_DIR
from carto_core.install.hooksfile import carto_handlers

from .harness import AGENT_PATH, CARTO
from .scripts import CLAUDE_MAIN


def validate(claude_bin, folder, home, *flags):
    done = subprocess.run([claude_bin, "plugin", "validate", *flags, str(folder)], capture_output=True, text=True,
                          env={"PATH": AGENT_PATH, "HOME": str(home)}, timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_plugin_validate_strict_passes(claude_bin, tmp_path):
    code, out = validate(claude_bin, PLUGIN_DIR, tmp_path, "--strict", "--json")
    report = json.loads(out[out.index("{"):])
    assert code == 0 and report["success"], out
    assert report["manifest"]["warnings"] == [] and report["manifest"]["errors"] == []
    events = {h["event"] for h in report["provides"]["hooks"]}
    assert {"SessionStart", "PostToolUse", "Stop", "SessionEnd"} <= events
    code, out = validate(claude_bin, PLUGIN_DIR, tmp_path, "--profile", "directory")
    assert code == 0, out


def test_the_validator_bites_on_an_unknown_field(claude_bin, tmp_path):
    copy = tmp_path / "plugin"
    shutil.copytree(PLUGIN_DIR, copy)
    manifest = copy / ".claude-plugin" / "plugin.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "bogusField": 1}))
    code, out = validate(claude_bin, copy, tmp_path, "--strict")
    assert code == 1 and "bogusField" in out


def test_the_plugin_records_when_carto_is_on_the_clients_path(claude_session):
    run = claude_session(CLAUDE_MAIN, install=False, claude_args=("--plugin-dir", str(PLUGIN_DIR)),
                         env={"PATH": f"{CARTO.parent}{os.pathsep}{AGENT_PATH}"})
    sid = run.payloads("SessionStart")[0]["session_id"]
    types = {r["type"] for r in run.rows("changelog") if r.get("session_id") == sid}
    assert {"git_commit", "tool_file_edit"} <= types, run.diagnosis()
    settings = json.loads((run.home / ".claude" / "settings.json").read_text())
    assert carto_handlers(settings, "claude") == []  # nothing installed: the plugin's own hooks ran
