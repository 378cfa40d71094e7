"""The Stop hook on a transcript it never read at that path, whose turns are stored from another
(the project folder renamed, the session resumed there): only the turns that are new are
written. The Stop hook's live state is kept per transcript path, so without a look at the
stored turns it read the moved file from its start and appended every turn again.

Input is the shared fixtures' real transcript (`shared/fixtures/SOURCES.md`), run through
`carto hook claude Stop` processes as Claude Code runs them."""

from __future__ import annotations

import shutil
from pathlib import Path

from carto_core.logio.home import current_home
from tests.capture.stophook import resume, stop
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
CLAUDE_FILE = f"claude/claude-code-viewer/projects/sample-project/{SESSION}.jsonl"


def _turns() -> list[dict]:
    path = current_home().log("turns")
    return object_rows(path) if path.exists() else []


def _stop(transcript: Path) -> None:
    stop(transcript, SESSION)


def _resume(transcript: Path, prompt: str, answer: str) -> None:
    resume(transcript, SESSION, prompt, answer)


def _stored_then_moved(shared_fixtures: Path, tmp_path: Path) -> tuple[list[dict], Path]:
    first = tmp_path / "claude" / "projects" / "-work-demo"
    first.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, first)
    run("ingest", "claude", "--root", str(first.parent), "--history", "none", "--settle", "0", "--json")
    rows = _turns()
    assert len(rows) == 3
    moved = first.with_name("-work-demo-moved")
    first.rename(moved)
    return rows, moved / f"{SESSION}.jsonl"


def test_a_moved_session_resumed_writes_only_its_new_turn(shared_fixtures, tmp_path):
    rows, moved = _stored_then_moved(shared_fixtures, tmp_path)
    _resume(moved, "now rename the quokkaparser module", "Renamed the quokkaparser module.")

    _stop(moved)

    added = _turns()[len(rows):]
    assert [(r["event_id"], r.get("open")) for r in added] == [(f"turn-{SESSION}-2", True)]
    assert added[0]["transcript_path"] == str(moved) and "quokkaparser" in added[0]["summary"]
    hits = run("search", "quokkaparser", "--json")["results"]
    assert [h["event_id"] for h in hits] == [f"turn-{SESSION}-2"]

    # The next Stop reads from the checkpoint it left, as in a session never moved.
    _resume(moved, "and the walrusindex too", "Renamed the walrusindex as well.")
    _stop(moved)
    assert [r["event_id"] for r in _turns()[len(rows) + 1:]] == [f"turn-{SESSION}-2", f"turn-{SESSION}-3"]


def test_a_moved_session_stopped_again_writes_nothing(shared_fixtures, tmp_path):
    rows, moved = _stored_then_moved(shared_fixtures, tmp_path)
    _stop(moved)
    _stop(moved)
    assert _turns() == rows
