"""A transcript read again from another path (its project folder renamed, a copy in another
config dir or Codex home) is the same turns: nothing is written again, search finds each turn
once, the rows keep the path they were first read from. A turn that grew in the copy is still
written again, with the path it was read from.

Inputs are the shared fixtures' real transcripts (`shared/fixtures/SOURCES.md`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from carto_core.logio.home import current_home
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
CLAUDE_FILE = f"claude/claude-code-viewer/projects/sample-project/{SESSION}.jsonl"
ROLLOUT = "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
CODEX_FILE = f"codex/claude-code-log/sessions/2026/01/02/{ROLLOUT}"


def _turns() -> list[dict]:
    path = current_home().log("turns")
    return object_rows(path) if path.exists() else []


def _ingest_claude(root: Path) -> dict:
    return run("ingest", "claude", "--root", str(root), "--history", "none", "--settle", "0", "--json")


def _found_once(word: str) -> list[str]:
    ids = [r["event_id"] for r in run("search", word, "--limit", "50", "--json")["results"]]
    assert len(ids) == len(set(ids)), ids
    return ids


def test_a_claude_transcript_moved_or_copied_is_not_written_again(shared_fixtures, tmp_path):
    first = tmp_path / "claude" / "projects" / "-work-demo"
    first.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, first)
    summary = _ingest_claude(tmp_path / "claude" / "projects")
    rows = _turns()
    assert summary["rows_written"] == len(rows) == 3
    sessions = run("sessions", "--json")

    # The project folder renamed (Claude Code's folder for a moved checkout), then a copy in a
    # second config dir: the same three turns each time.
    renamed = first.with_name("-work-demo-moved")
    first.rename(renamed)
    summary = _ingest_claude(tmp_path / "claude" / "projects")
    other = tmp_path / "claude-work" / "projects" / "-work-demo"
    other.mkdir(parents=True)
    shutil.copy(renamed / f"{SESSION}.jsonl", other)
    copied = _ingest_claude(tmp_path / "claude-work" / "projects")

    for again in (summary, copied):
        assert (again["rows_written"], again["already_present"], again["revised"]) == (0, 3, 0)
    assert _turns() == rows  # not one byte appended
    assert {r["transcript_path"] for r in rows} == {str(first / f"{SESSION}.jsonl")}
    assert run("sessions", "--json") == sessions
    assert len(_found_once("todo")) == 3


def test_a_turn_that_grew_in_the_copy_is_written_again_with_the_copy_path(shared_fixtures, tmp_path):
    first = tmp_path / "a" / "-work-demo"
    first.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, first)
    _ingest_claude(first.parent)
    before = _turns()

    copy = tmp_path / "b" / "-work-demo" / f"{SESSION}.jsonl"
    copy.parent.mkdir(parents=True)
    shutil.copy(first / f"{SESSION}.jsonl", copy)
    last = json.loads(copy.read_text("utf-8").splitlines()[-1])
    grown = {**last, "parentUuid": last["uuid"], "uuid": "7d0c2b1e-0000-4000-8000-000000000001",
             "timestamp": "2025-09-07T09:54:30.000Z",
             "message": {**last["message"], "id": "msg_grown",
                         "content": [{"type": "text", "text": "Also checked the zebracrossing lint rule."}]}}
    with open(copy, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(grown, ensure_ascii=False) + "\n")
    summary = _ingest_claude(copy.parent.parent)

    assert (summary["rows_written"], summary["already_present"], summary["revised"]) == (1, 2, 1)
    added = _turns()[len(before):]
    assert [r["event_id"] for r in added] == [f"turn-{SESSION}-1"]
    assert added[0]["transcript_path"] == str(copy) and "zebracrossing" in added[0]["summary"]
    assert _found_once("zebracrossing") == [f"turn-{SESSION}-1"]


def test_a_codex_rollout_copied_to_another_codex_home_is_not_written_again(shared_fixtures, tmp_path):
    day = tmp_path / "codex" / "sessions" / "2026" / "01" / "02"
    day.mkdir(parents=True)
    shutil.copy(shared_fixtures / CODEX_FILE, day)
    first = run("ingest", "codex", "--root", str(tmp_path / "codex"), "--settle", "0", "--json")
    rows = _turns()
    assert first["rows_written"] == len(rows) >= 1

    # Another machine's Codex home, the rollout archived there; a fresh mtime, so its
    # checkpoint (keyed by file name) does not hold it and it is read again.
    archived = tmp_path / "old-laptop" / ".codex" / "archived_sessions"
    archived.mkdir(parents=True)
    shutil.copy(day / ROLLOUT, archived)
    os.utime(archived / ROLLOUT, (2_000_000_000, 2_000_000_000))
    again = run("ingest", "codex", "--root", str(archived.parent), "--settle", "0", "--json")

    assert again["rows_read"] == len(rows)
    assert (again["rows_written"], again["already_present"]) == (0, len(rows))
    assert _turns() == rows
