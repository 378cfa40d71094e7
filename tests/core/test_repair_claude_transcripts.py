"""`carto repair transcript-paths` on Claude Code rows: a project folder renamed (a moved
checkout) or a config dir moved leaves the recorded transcript_path behind; the repair finds the
session's file by its id in the Claude projects/ folders and points the rows at it.

Inputs are the shared fixtures' real transcripts (`shared/fixtures/SOURCES.md`), under the
test's own HOME (the workspace conftest makes one per test)."""

from __future__ import annotations

import shutil
from pathlib import Path

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home, current_home
from carto_core.repair import run_repair
from carto_core.repair.transcripts import TranscriptPaths
from carto_core.transcript.resolver import TranscriptRoots
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
PROJECT = "claude/claude-code-viewer/projects/sample-project"


def _paths() -> dict[str, str]:
    return {r["event_id"]: r["transcript_path"] for r in object_rows(current_home().log("turns"))}


def _transcript_line(session: str) -> str:
    return next(line for line in run("session", session).splitlines() if line.startswith("transcript"))


def test_a_renamed_project_folder_is_found_by_session_id_and_the_rows_repointed(shared_fixtures):
    projects = Path.home() / ".claude" / "projects"
    first = projects / "-work-demo"
    shutil.copytree(shared_fixtures / PROJECT, first)
    run("ingest", "claude", "--settle", "0", "--history", "none", "--json")
    before = _paths()
    assert len(before) == 5 and {Path(p).parent for p in before.values()} == {first}

    moved = first.with_name("-work-demo-moved")
    first.rename(moved)
    assert _transcript_line(SESSION).endswith("(not on disk)")

    dry = run("repair", "transcript-paths", "--json")
    assert (dry["stale"], dry["moved"], dry["missing"], dry["would_fix"], dry["fixed"]) == (5, 5, 0, 5, 0)
    assert _paths() == before  # a dry run writes nothing
    text = run("repair", "transcript-paths", "--write")
    assert "5 stale transcript paths found, 5 fixed" in text

    after = _paths()
    # each row points at its own file (the subagent's agent-test-hash-123.jsonl included)
    assert after == {event: str(moved / Path(path).name) for event, path in before.items()}
    assert all(Path(p).is_file() for p in after.values())
    assert _transcript_line(SESSION) == f"transcript {moved / f'{SESSION}.jsonl'}"
    assert run("repair", "transcript-paths", ok=(3,)).startswith("0 stale transcript paths found")
    # read again from where it is now: nothing new to write
    again = run("ingest", "claude", "--settle", "0", "--history", "none", "--json")
    assert (again["rows_written"], again["already_present"]) == (0, 5)


def test_a_moved_config_dir_is_searched_when_named(shared_fixtures, tmp_path):
    old = tmp_path / "old" / ".claude" / "projects" / "-work-demo"
    shutil.copytree(shared_fixtures / PROJECT, old)
    run("ingest", "claude", "--root", str(old.parent), "--settle", "0", "--history", "none", "--json")
    new = tmp_path / "new-config" / "projects"
    new.mkdir(parents=True)
    shutil.move(str(old), str(new / "-work-demo"))

    # not under ~/.claude/projects: found only in the folder given
    assert run("repair", "transcript-paths", "--json")["missing"] == 5
    done = run("repair", "transcript-paths", "--claude-projects", str(new), "--write", "--json")
    assert (done["moved"], done["fixed"]) == (5, 5)
    assert {Path(p).parent for p in _paths().values()} == {new / "-work-demo"}


def test_only_the_same_file_of_the_same_session_is_taken(tmp_path):
    projects = tmp_path / "projects"
    other = "1af7fc5e-8455-4414-9ccd-011d40f70b2a"
    nested = projects / "-work-b" / SESSION / "subagents"
    nested.mkdir(parents=True)
    (projects / "-work-b" / f"{SESSION}.jsonl").write_text("{}\n")
    (nested / "agent-a1b2c3.jsonl").write_text("{}\n")
    (projects / "-work-b" / f"agent-{other}.jsonl").write_text("{}\n")  # a subagent, not the session
    home = Home(tmp_path / "home")
    gone = "/old/.claude/projects/-work-a"
    append_rows(home.log("turns"), [
        {"event_id": "t1", "provider": "claude", "session": SESSION,
         "transcript_path": f"{gone}/{SESSION}.jsonl"},
        {"event_id": "t2", "provider": "claude", "session": SESSION,
         "transcript_path": f"{gone}/{SESSION}/subagents/agent-a1b2c3.jsonl"},
        {"event_id": "t3", "provider": "claude", "session": other,
         "transcript_path": f"{gone}/{other}.jsonl"},  # only its subagent's file is on disk
        {"event_id": "t4", "provider": "claude", "session": SESSION,
         "transcript_path": f"{gone}/agent-gone.jsonl"},  # no such file beside the session
    ])
    done = run_repair(TranscriptPaths(TranscriptRoots(claude=(projects,))), home, write=True)
    assert (done["stale"], done["moved"], done["missing"], done["fixed"]) == (4, 2, 2, 2)
    paths = {r["event_id"]: r["transcript_path"] for r in object_rows(home.log("turns"))}
    assert paths["t1"] == str(projects / "-work-b" / f"{SESSION}.jsonl")
    assert paths["t2"] == str(nested / "agent-a1b2c3.jsonl")
    assert paths["t3"] == f"{gone}/{other}.jsonl" and paths["t4"] == f"{gone}/agent-gone.jsonl"
