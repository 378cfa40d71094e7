"""What the Stop hook reads again and does not write again: it reads a transcript from the start
of the last turn of each thread, so a thread whose last turn began later (a sidechain's) is read
from an earlier turn too, and its first Stop after `carto ingest` read the file re-reads the
turns the backfill wrote. Only the new turn is written.

Input is the shared fixtures' real transcript (`shared/fixtures/SOURCES.md`: a main turn and two
sidechain turns within it), run through `carto hook claude Stop` processes as Claude Code runs
them, and resumed with a turn as Claude Code appends one."""

from __future__ import annotations

import shutil
from pathlib import Path

from carto_core.logio.home import current_home
from tests.capture.stophook import resume, stop
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
CLAUDE_FILE = f"claude/claude-code-viewer/projects/sample-project/{SESSION}.jsonl"


def _turns() -> list[tuple[str, bool | None]]:
    log = current_home().log("turns")
    return [(r["event_id"], r.get("open")) for r in object_rows(log)] if log.exists() else []


def _stop(transcript: Path) -> None:
    stop(transcript, SESSION)


def _resume(transcript: Path, prompt: str, answer: str) -> None:
    resume(transcript, SESSION, prompt, answer)


def _copy(shared_fixtures: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "projects" / "-work-demo"
    folder.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, folder)
    return folder / f"{SESSION}.jsonl"


STORED = [(f"turn-{SESSION}-1", None), (f"turn-{SESSION}-side-1", None), (f"turn-{SESSION}-side-2", None)]


def test_a_sidechains_earlier_turn_read_again_is_not_written_again(shared_fixtures, tmp_path):
    transcript = _copy(shared_fixtures, tmp_path)
    _stop(transcript)
    assert sorted(_turns()) == sorted(STORED)

    _resume(transcript, "now rename the quokkaparser module", "Renamed the quokkaparser module.")
    _stop(transcript)
    _resume(transcript, "and the walrusindex too", "Renamed the walrusindex as well.")
    _stop(transcript)

    assert _turns()[3:] == [(f"turn-{SESSION}-2", True), (f"turn-{SESSION}-2", None),
                            (f"turn-{SESSION}-3", True)]


def test_the_first_stop_after_a_backfill_writes_only_the_new_turn(shared_fixtures, tmp_path):
    transcript = _copy(shared_fixtures, tmp_path)
    run("ingest", "claude", "--root", str(transcript.parent.parent), "--history", "none", "--settle", "0")
    assert sorted(_turns()) == sorted(STORED)

    _resume(transcript, "now rename the quokkaparser module", "Renamed the quokkaparser module.")
    _stop(transcript)

    assert _turns()[3:] == [(f"turn-{SESSION}-2", True)]
