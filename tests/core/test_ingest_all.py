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
