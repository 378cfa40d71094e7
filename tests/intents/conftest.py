"""Homes for the intent and report tests: the demo home, a home ingested from the shared
fixture transcripts, and a built one whose prompts span the keys."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli


def run(*args: str, ok: tuple[int, ...] = (0,)):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return json.loads(result.stdout) if "--json" in args and result.stdout.strip() else result


def rows_of(path: Path) -> list[dict]:
    """An independent read of a log: json per line, newest row of an event_id wins."""
    if not path.exists():
        return []
    events: dict[str, dict] = {}
    for line in path.read_text("utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            events.pop(row.get("event_id"), None)
            events[row.get("event_id")] = row
    return list(events.values())


@pytest.fixture
def demo_home():
    from carto_core.evaluation.sample import build_sample_home

    root = Path(os.environ["CARTO_HOME"])
    build_sample_home(root)
    return root


@pytest.fixture
def fixture_home(shared_fixtures):
    """`carto ingest claude` and `carto ingest codex` over copies of the shared fixtures."""
    home = Path(os.environ["HOME"])
    projects = home / ".claude" / "projects"
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", projects)
    shutil.copytree(shared_fixtures / "claude" / "claude-code-log", projects / "claude-code-log",
                    ignore=shutil.ignore_patterns("*.md"))
    codex = home / ".codex"
    shutil.copytree(shared_fixtures / "codex" / "claude-code-log", codex)
    old = time.time() - 3 * 86400
    for path in [*projects.rglob("*"), *codex.rglob("*")]:
        os.utime(path, (old, old))
    run("ingest", "claude", "--json")
    run("ingest", "codex", "--json", ok=(0, 3))
    root = Path(os.environ["CARTO_HOME"])
    assert rows_of(root / "turns.jsonl")
    return root
