"""What the session-lens tests share: carto run in-process, the object rows of a JSONL file
(for the independent scans the lenses are checked against), and a home ingested from the
shared fixtures' Claude and Codex transcripts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from carto_core.cli import cli


def run(*args: str, ok: tuple[int, ...] = (0,)):
    """`carto ARGS` in-process: the JSON document when `--json` is among the arguments, else
    the text; an exit code outside `ok` fails the test with the output."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return json.loads(result.stdout) if "--json" in args else result.output


def object_rows(path: Path) -> list[dict]:
    """The JSON objects of a JSONL file, torn or non-object lines skipped."""
    out = []
    for raw in path.read_text("utf-8").splitlines():
        try:
            row = json.loads(raw)
        except ValueError:
            continue
        if isinstance(row, dict):
            out.append(row)
    return out


def ingest_shared(shared_fixtures: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Copies of the shared Claude projects and Codex sessions, ingested into the test's home
    (CARTO_HOME); returns (claude root, codex root)."""
    claude = tmp_path / "claude"
    shutil.copytree(shared_fixtures / "claude", claude, ignore=shutil.ignore_patterns("*.md"))
    codex = tmp_path / "codex"
    shutil.copytree(shared_fixtures / "codex" / "claude-code-log" / "sessions", codex)
    run("ingest", "claude", "--root", str(claude), "--json")
    run("ingest", "codex", "--root", str(codex), "--json")
    return claude, codex
