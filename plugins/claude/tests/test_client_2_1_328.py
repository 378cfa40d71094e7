"""What Claude Code 2.1.328 itself writes: transcripts recorded from the real client
(`fixtures/claude-2.1.328/`, scrubbed; see its SOURCES.md) read as the client meant them."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from carto_claude.transcripts import ClaudeSource
from carto_core.home import Home
from carto_core.ingest import run_ingest

CLIENT = Path(__file__).parent / "fixtures" / "claude-2.1.328"
INJECT = "2a1c0000-0000-4000-8000-000000000001"
EXTRA = "2a1c0000-0000-4000-8000-000000000002"
#: The line types the 2.1.328 files hold, read here without carto's code.
NEW_TYPES = {"atis-latch", "api-request-shape", "api-request-blob", "api-request", "tools-used", "cost-state"}


@pytest.fixture
def projects(tmp_path) -> Path:
    root = tmp_path / "projects" / "-home-dev-repo"
    root.mkdir(parents=True)
    for path in CLIENT.glob("*.jsonl"):
        shutil.copy(path, root / path.name)
        old = time.time() - 3600
        os.utime(root / path.name, (old, old))
    return root.parent


def _read(projects: Path, sid: str):
    source = ClaudeSource({"roots": [str(projects)]})
    stream = next(s for s in source.discover() if s.path.name == f"{sid}.jsonl")
    return source.read(stream, None)


def test_the_fixture_holds_every_new_line_type():
    kinds = {json.loads(l)["type"] for p in CLIENT.glob("*.jsonl") for l in p.read_text().splitlines()}
    assert NEW_TYPES <= kinds


@pytest.mark.parametrize("sid", [INJECT, EXTRA])
def test_new_line_types_are_bookkeeping_not_unknown(projects, sid):
    batch = _read(projects, sid)
    assert not [k for k in batch.skipped if k.startswith("unknown_type:")], batch.skipped
    assert len(batch.rows) == 1  # one prompt: "please add a file and commit it"
    assert batch.rows[0].row["summary"].startswith("please add a file and commit it")


def test_an_ingest_of_the_client_files_reports_nothing_unknown(projects, tmp_path):
    summary = run_ingest(ClaudeSource({"roots": [str(projects)]}), Home(tmp_path / "home"))
    assert not summary.errors
    assert not [k for k in summary.skipped if k.startswith("unknown_type")], summary.skipped
