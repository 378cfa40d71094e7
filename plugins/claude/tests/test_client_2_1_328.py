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
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest

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


def test_turn_records_the_commit_and_the_shell_edit_the_client_reported(projects):
    """`echo hello > a.txt && git add a.txt && git commit -m "feat: add a"`: the client's
    `bashEditDiff.changedFiles` names a.txt (no heuristic knows `echo >`), its `gitOperation`
    the commit 995f281."""
    row = _read(projects, INJECT).rows[0].row
    bash, write, pytest_call = row["tools"]
    assert bash["name"] == "Bash" and bash["edits"] == ["/home/dev/repo/a.txt"]
    assert bash["commit"] == {"sha": "995f281", "subject": "feat: add a", "branch": "main", "kind": "committed"}
    assert write["edits"] == ["/home/dev/repo/test_b.py"]
    assert pytest_call["input"] == "pytest -q || true" and "edits" not in pytest_call
    assert row["cwd"] == "/home/dev/repo"


def test_injected_context_is_recorded_not_read_as_words(projects):
    raw = (CLIENT / f"{INJECT}.jsonl").read_text()
    assert "REMEMBER-XYZ" in raw  # the inject hook's additionalContext, as the client stored it
    row = _read(projects, INJECT).rows[0].row
    assert "REMEMBER-XYZ" not in row["summary"]
    assert row["injected"] == [{"hook": "UserPromptSubmit", "chars": len("REMEMBER-XYZ")}]
    assert "injected" not in _read(projects, EXTRA).rows[0].row


def test_a_failed_call_keeps_its_commit_and_loses_nothing_else(projects):
    """`git commit -am "fix: readme title" && exit 3`: an error result (a plain string, no
    gitOperation); the commit it printed is still the session's."""
    read, edit, bash = _read(projects, EXTRA).rows[0].row["tools"]
    assert read["name"] == "Read" and "edits" not in read
    assert edit["edits"] == ["/home/dev/repo/README.md"]
    assert bash["failed"] is True
    assert bash["commit"] == {"sha": "396cba8", "subject": "fix: readme title", "branch": "main"}
