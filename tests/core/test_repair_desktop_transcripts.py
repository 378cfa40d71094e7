"""`carto repair transcript-paths` on rows of sessions the Claude desktop app ran: their
transcript gone (the session deleted in the app takes it along) is not a transcript that moved
and cannot be found again, so those rows are counted apart (`desktop`), never as `missing`, and
the text says they cannot be repaired. A Claude Code session of the terminal whose transcript is
gone is still `missing`.

Inputs are the shared fixtures' real transcripts (`shared/fixtures/SOURCES.md`) under the test's
own HOME, and the desktop app's metadata file as `plugins/claude/tests/test_desktop_source.py`
builds it (docs/providers/claude-desktop.md)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from carto_core.logio.home import current_home
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
OTHER = "1af7fc5e-8455-4414-9ccd-011d40f70b2a"
PROJECT = "claude/claude-code-viewer/projects/sample-project"
APP = "8d3f0000-1111-4222-8333-444455556666"


def _home_with_a_desktop_session(shared_fixtures: Path, *, deleted: bool) -> Path:
    projects = Path.home() / ".claude" / "projects" / "-work-webshop"
    projects.parent.mkdir(parents=True)
    shutil.copytree(shared_fixtures / PROJECT, projects)
    sessions = Path(os.environ["XDG_CONFIG_HOME"]) / "Claude" / "claude-code-sessions" / "acct-1" / "ws-1"
    sessions.mkdir(parents=True)
    (sessions / f"local_{APP}.json").write_text(json.dumps({
        "sessionId": f"local_{APP}", "cliSessionId": SESSION, "title": "Fix the albatross checkout",
        "cwd": "/work/webshop", "createdAt": 1790000000000}))
    run("ingest", "claude", "--settle", "0", "--history", "none", "--json")
    run("ingest", "claude-desktop", "--json")
    if deleted:  # the app's tombstone names the app session only
        (sessions / f"deleted_{APP}.json").write_text(json.dumps({"sessionId": f"local_{APP}",
                                                                   "title": "Fix the albatross checkout"}))
        run("ingest", "claude-desktop", "--json")
    for transcript in (SESSION, OTHER):
        (projects / f"{transcript}.jsonl").unlink()
    return projects


@pytest.mark.parametrize("deleted", [True, False])
def test_rows_of_a_desktop_session_whose_transcript_is_gone_are_not_counted_missing(shared_fixtures, deleted):
    _home_with_a_desktop_session(shared_fixtures, deleted=deleted)
    turns = object_rows(current_home().log("turns"))
    gone = [r for r in turns if not Path(r["transcript_path"]).is_file()]
    app_rows = [r for r in gone if r["session"] == SESSION]
    assert len(app_rows) == 3 and len(gone) == 4  # the terminal session OTHER's turn is the fourth

    dry = run("repair", "transcript-paths", "--json")
    assert (dry["stale"], dry["missing"]) == (4, 1)
    assert (dry["stale"], dry["moved"], dry["missing"], dry["desktop"], dry["desktop_deleted"]) == (
        4, 0, 1, 3, 3 if deleted else 0)
    assert [e["event_id"] for e in dry["examples"] if e["what"] == "missing"] == [f"turn-{OTHER}-1"]
    assert {e["event_id"] for e in dry["examples"] if e["what"] == "desktop"} == {r["event_id"] for r in app_rows}

    text = run("repair", "transcript-paths")
    assert "turns: stale 4, missing 1, desktop 3" in text
    assert "3 rows are of sessions the Claude desktop app ran" in text and "not repairable" in text
    assert ("(deleted in the app)" if deleted else "(still listed in the app)") in text

    run("repair", "transcript-paths", "--write")
    assert object_rows(current_home().log("turns")) == turns  # nothing to point anywhere
