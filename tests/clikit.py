"""What the CLI tests share: carto run in-process, the object rows of a JSONL file (for the
independent scans the lenses are checked against), a home ingested from the shared fixtures'
Claude and Codex transcripts, a config file that cannot be read, and the files a command opened."""

from __future__ import annotations

import json
import os
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner

from carto_core.cli import cli


def run(*args: str, ok: tuple[int, ...] = (0,)):
    """`carto ARGS` in-process: the JSON document when `--json` is among the arguments, else
    the text; an exit code outside `ok` fails the test with the output."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return json.loads(result.stdout) if "--json" in args else result.output


#: The list `opened_paths` fills while it is open (an audit hook: every open, by any module).
_opened: list[str] | None = None


def _audit(event, args):
    if event == "open" and _opened is not None and isinstance(args[0], (str, bytes, Path)):
        _opened.append(os.fsdecode(args[0]))


@contextmanager
def opened_paths():
    """A list that receives every file path opened inside the block; their real paths on exit."""
    global _opened
    if not getattr(sys, "_carto_test_audit", False):
        sys.addaudithook(_audit)  # hooks cannot be removed: one for the process, idle unless asked
        sys._carto_test_audit = True
    paths: list[str] = []
    _opened = paths
    try:
        yield paths
    finally:
        _opened = None
        paths[:] = [os.path.realpath(path) for path in paths]


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


def broken_config(tmp_path: Path, monkeypatch) -> Path:
    """A config file cut short (`home = [`) where carto looks for one, CARTO_HOME unset and
    XDG_DATA_HOME in `tmp_path` (so a default home that gets made shows): the home it names is
    unknown."""
    config = tmp_path / "config" / "carto" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("home = [\n")
    monkeypatch.delenv("CARTO_HOME", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return config
