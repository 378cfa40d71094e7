"""No accidental homes: every command `carto --help` lists either reads the home (and then exits 3
with "no carto home at PATH" and how to make one, creating nothing, when it is missing) or is one
of the few that never read it or may create it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.cli.homeguard import HOME_FREE, HOME_READERS, SELF_GUARDED

#: The smallest invocation of each reader that gets past argument parsing.
READER_ARGS = {
    "digest": ["digest", "day"], "eval": ["eval"], "facts": ["facts", "census"], "index": ["index"],
    "profile": ["profile"], "repair": ["repair", "torn-rows"], "report": ["report", "intents"],
    "search": ["search", "discount codes"],
    "serve": ["serve", "--port", "0"], "standup": ["standup"], "trustmap": ["trustmap"],
    "wrapup": ["wrapup", "--session", "s1"], "sessions": ["sessions"], "session": ["session", "s1"],
    "memory": ["memory", "--project", "p"], "team": ["team", "status"],
    "decision": ["decision", "list"], "forget": ["forget", "--project", "p"], "export": ["export", "/nonexistent-dir/x.tar.gz"],
    "backup": ["backup", "--dir", "/nonexistent-dir/b"],
    "related": ["related", "checkout"], "handoff": ["handoff", "s1"],
}


def listed_commands() -> set[str]:
    done = CliRunner().invoke(cli, ["--help"])
    names, in_commands = set(), False
    for line in done.output.splitlines():
        if line.startswith("Commands:"):
            in_commands = True
        elif in_commands and line.startswith("  ") and line.strip():
            names.add(line.split()[0])
    return names


def test_every_listed_command_is_classified():
    listed = listed_commands()
    assert "search" in listed and "uninstall" in listed
    unclassified = listed - set(HOME_READERS) - SELF_GUARDED - HOME_FREE
    assert unclassified == set(), f"classify these in carto_core.cli.homeguard: {sorted(unclassified)}"
    assert set(READER_ARGS) == set(HOME_READERS) | SELF_GUARDED - {"doctor"}


def test_eval_says_a_usage_error_before_the_missing_home(typo):
    done = CliRunner().invoke(cli, ["eval", "--dialogues", "a"])
    assert done.exit_code == 2 and not typo.exists()


@pytest.fixture
def typo(tmp_path, monkeypatch):
    home = tmp_path / "typo"
    monkeypatch.setenv("CARTO_HOME", str(home))
    return home


@pytest.mark.parametrize("name", sorted(READER_ARGS))
def test_a_reader_on_a_missing_home_exits_3_and_creates_nothing(typo, name):
    done = CliRunner().invoke(cli, READER_ARGS[name])
    assert done.exit_code == 3, (name, done.output)
    assert f"no carto home at {typo}" in done.stderr
    assert "carto install claude" in done.stderr and "`carto ingest --all`" in done.stderr
    assert not typo.exists()


@pytest.mark.parametrize("name", sorted(READER_ARGS))
def test_help_answers_without_a_home(typo, name):
    done = CliRunner().invoke(cli, [*READER_ARGS[name][:2 if name in ("facts", "digest", "repair") else 1], "--help"])
    assert done.exit_code == 0 and "Usage" in done.output, done.output
    assert not typo.exists()


def test_the_issue_example_from_a_shell(typo):
    """`CARTO_HOME=/tmp/typo carto facts census` through the console entry point."""
    env = {**os.environ, "CARTO_HOME": str(typo)}
    done = subprocess.run([sys.executable, "-m", "carto_core", "facts", "census", "--json"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    # --json asked: the refusal is its one document too, the stderr line's words (docs/cli.md)
    assert json.loads(done.stdout) == {"error": done.stderr.removeprefix("carto: ").rstrip("\n"),
                                       "exit_code": 3}
    assert done.stderr.startswith(f"carto: no carto home at {typo}")
    assert not typo.exists()


def test_doctor_reports_a_missing_home_exits_3_and_creates_nothing(typo):
    done = CliRunner().invoke(cli, ["doctor", "--no-probe"])
    assert done.exit_code == 3
    assert f"no carto home at {typo}" in done.output and f"no carto home at {typo}" in done.stderr
    assert not typo.exists()


def test_mcp_starts_on_a_missing_home_without_creating_it(typo):
    """The agent starts `carto mcp` before anything was recorded: it must start (a server that
    failed to start is not retried) and must not make the home."""
    env = {**os.environ, "CARTO_HOME": str(typo)}
    done = subprocess.run([sys.executable, "-m", "carto_core", "mcp", "--no-warm"], env=env, input="",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not typo.exists()


def test_a_reader_on_an_existing_home_runs(typo):
    typo.mkdir()
    done = CliRunner().invoke(cli, ["facts", "census", "--json"])
    assert done.exit_code == 0, done.output


def test_capture_creates_it(typo):
    done = subprocess.run([sys.executable, "-m", "carto_core", "hook", "claude", "PostToolUse"],
                          env={**os.environ, "CARTO_HOME": str(typo)},
                          input='{"session_id": "s1", "cwd": "/x", "tool_name": "Bash", "tool_input": {"command": "make"}}',
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and typo.is_dir()
