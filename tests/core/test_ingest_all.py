"""`carto ingest --all` on a machine where no agent left anything."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.util.exitcodes import ExitCode


def test_nothing_anywhere_exits_3_and_names_claude_memory_among_nothing(monkeypatch):
    """claude-memory offers its CLAUDE.md stream whether or not one exists; reading it found 0
    units, and `ingest --all` counted that as a source that read something: exit 0 beside
    "nothing to read where ..." (its help: 3 when no source found anything to read)."""
    home = Path(os.environ["HOME"])
    assert not (home / ".claude").exists() and not (home / ".codex").exists()
    monkeypatch.setenv("HERMES_HOME", str(home / "no-hermes"))
    monkeypatch.chdir(home)  # no git repository around the test's working folder
    done = CliRunner().invoke(cli, ["ingest", "--all"])
    assert done.exit_code == ExitCode.NOT_FOUND, done.output
    assert "claude-memory:" not in done.stdout
    nothing = next(line for line in done.stdout.splitlines() if line.startswith("nothing to read"))
    assert "claude-memory" in nothing
    document = json.loads(CliRunner().invoke(cli, ["ingest", "--all", "--dry-run", "--json"]).stdout)
    assert document["sources"] == {} and "claude-memory" in document["nothing_to_read"]


def test_a_source_read_before_is_up_to_date_not_nothing(monkeypatch, tmp_path):
    """After one ingest, `ingest --all` said "nothing to read where claude ... look" and exited
    3, while `ingest claude` saw its streams: a file read before is up to date (exit 0)."""
    from tests.control.conftest import write_projects

    home = Path(os.environ["HOME"])
    monkeypatch.setenv("HERMES_HOME", str(home / "no-hermes"))
    monkeypatch.chdir(home)
    write_projects(home)
    first = CliRunner().invoke(cli, ["ingest", "claude", "--settle", "0"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(cli, ["ingest", "--all"])
    assert again.exit_code == 0, again.output
    lines = again.stdout.splitlines()
    assert any(line.startswith("claude: ") for line in lines), again.stdout
    nothing = next((line for line in lines if line.startswith("nothing to read where ")), "")
    named = nothing.removeprefix("nothing to read where ").split(" look by default")[0].split(", ")
    assert "claude" not in named and "claude-memory" in named
