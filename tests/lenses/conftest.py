"""Homes the lens tests share."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home


@pytest.fixture
def backfilled(shared_fixtures, monkeypatch):
    """A home made by `carto ingest claude` of the shared fixtures' transcripts, settled (three
    days old)."""
    projects = Path(os.environ["HOME"]) / ".claude" / "projects"
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", projects)
    old = time.time() - 3 * 86400
    for path in projects.rglob("*"):
        os.utime(path, (old, old))
    assert CliRunner().invoke(cli, ["ingest", "claude"]).exit_code == 0
    return Home(os.environ["CARTO_HOME"])


@pytest.fixture
def scans(monkeypatch) -> list[str]:
    """The prefixes `lenses.sessions.session_ids_with_prefix` is asked for (each a read of the
    logs), in order; the function still answers."""
    from carto_core.lenses import sessions

    seen: list[str] = []
    real = sessions.session_ids_with_prefix

    def counted(home, prefix, logs=None):
        seen.append(prefix)
        return real(home, prefix, logs)

    monkeypatch.setattr(sessions, "session_ids_with_prefix", counted)
    return seen
