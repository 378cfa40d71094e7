"""A turn whose only change is a later end (`ended`) is written again, so that a session's span
ends at its newest line: Claude Code writes one message's blocks on lines of their own, so the
final answer's words can come back on a later line, and the turn's text stays the same. A row
stored without an end is still not written again for one (rows written before turns held it),
nor a row whose end read again is the same or earlier.

Input is the shared fixtures' real transcript (`shared/fixtures/SOURCES.md`), read by `carto
ingest` and by `carto hook claude Stop` processes as Claude Code runs them."""

from __future__ import annotations

import copy
import json
import shutil
import zlib
from pathlib import Path

from carto_core.logio.home import current_home
from carto_core.logio.jsonl import dumps_row
from tests.capture.stophook import stop
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
CLAUDE_FILE = f"claude/claude-code-viewer/projects/sample-project/{SESSION}.jsonl"
FIRST_END = "2025-09-07T09:54:26.499Z"
LATER_END = "2025-09-07T09:54:31.000Z"


def _ingested(shared_fixtures: Path, tmp_path: Path) -> tuple[Path, list[dict]]:
    folder = tmp_path / "projects" / "-work-demo"
    folder.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, folder)
    run("ingest", "claude", "--root", str(folder.parent), "--history", "none", "--settle", "0", "--json")
    rows = object_rows(current_home().log("turns"))
    assert [(r["event_id"], r.get("ended")) for r in rows][0] == (f"turn-{SESSION}-1", FIRST_END)
    return folder / f"{SESSION}.jsonl", rows


def _answer_again(transcript: Path, stamp: str) -> None:
    """The final answer's message on a line of its own, later, holding the same words."""
    last = json.loads(transcript.read_bytes().splitlines()[-1])
    line = copy.deepcopy(last)
    line.update(uuid="0c0d0000-0000-4000-8000-000000000001", parentUuid=last["uuid"], timestamp=stamp)
    with open(transcript, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")


def _session_end() -> str:
    (found,) = [s for s in run("sessions", "--json")["sessions"] if s["session_id"] == SESSION]
    return found["ended"]


def test_a_later_end_alone_writes_the_turn_again_by_carto_ingest(shared_fixtures, tmp_path):
    transcript, rows = _ingested(shared_fixtures, tmp_path)
    assert _session_end().startswith("2025-09-07T09:54:26")
    _answer_again(transcript, LATER_END)

    again = run("ingest", "claude", "--root", str(transcript.parent.parent), "--history", "none",
                "--settle", "0", "--json")

    added = object_rows(current_home().log("turns"))[len(rows):]
    assert again["rows_written"] == 1
    assert [{k: v for k, v in r.items() if k != "ended"} for r in added] == [
        {k: v for k, v in rows[0].items() if k != "ended"}]
    assert added[0]["ended"] == LATER_END
    assert _session_end().startswith("2025-09-07T09:54:31")
    # read once more: the stored end is the one read, nothing is written
    once_more = run("ingest", "claude", "--root", str(transcript.parent.parent), "--history", "none",
                    "--settle", "0", "--json")
    assert (once_more["rows_written"], len(object_rows(current_home().log("turns")))) == (0, len(rows) + 1)


def _stop(transcript: Path) -> None:
    stop(transcript, SESSION)


def test_a_later_end_alone_writes_the_turn_again_by_the_stop_hook(shared_fixtures, tmp_path):
    folder = tmp_path / "projects" / "-work-demo"
    folder.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, folder)
    transcript = folder / f"{SESSION}.jsonl"
    _stop(transcript)  # the hook's own first read: the turns and its live state
    rows = object_rows(current_home().log("turns"))
    assert [(r["event_id"], r.get("ended")) for r in rows][0] == (f"turn-{SESSION}-1", FIRST_END)
    _answer_again(transcript, LATER_END)

    _stop(transcript)
    _stop(transcript)  # the same file read again: nothing more

    added = [r for r in object_rows(current_home().log("turns"))[len(rows):]
             if r["event_id"] == f"turn-{SESSION}-1"]
    assert [(r.get("ended"), r.get("open"), r["summary"]) for r in added] == [
        (LATER_END, None, rows[0]["summary"])]
    assert _session_end().startswith("2025-09-07T09:54:31")


def test_a_turn_stored_without_an_end_is_not_written_again_for_a_later_one(shared_fixtures, tmp_path):
    transcript, rows = _ingested(shared_fixtures, tmp_path)
    log = current_home().log("turns")
    log.write_bytes(b"".join(dumps_row({k: v for k, v in r.items() if k != "ended"}) for r in rows))
    stored = log.read_bytes()
    _answer_again(transcript, LATER_END)

    again = run("ingest", "claude", "--root", str(transcript.parent.parent), "--history", "none",
                "--settle", "0", "--json")

    assert again["rows_written"] == 0 and log.read_bytes() == stored


def _version(**row) -> object:
    from carto_core.capture.live import version

    row = {"event_id": "turn-s-1", "timestamp": "2026-01-01T00:00:00Z", "summary": "done", **row}
    return version(dumps_row(row), row)


def test_the_rule_a_reread_turn_is_compared_by():
    from carto_core.capture.live import newer

    plain, early, late = _version(), _version(ended="2026-01-01T00:00:05Z"), _version(ended="2026-01-01T00:00:09Z")
    assert plain == zlib.crc32(b'{"event_id":"turn-s-1","timestamp":"2026-01-01T00:00:00Z","summary":"done"}')
    assert early == [plain, "2026-01-01T00:00:05Z"]  # the words' digest, and the end
    assert [newer(late, None), newer(late, early), newer(early, late), newer(early, early)] == [
        True, True, False, False]
    assert [newer(late, plain), newer(plain, late)] == [False, False]  # stored or read without an end
    assert newer(_version(ended="2026-01-01T00:00:05Z", summary="done!"), late) is True  # new words
    # ends compare as instants, whatever their spelling; one that is no time moves nothing
    assert newer(_version(ended="2026-01-01T01:00:06+01:00"), early) is True
    assert newer(_version(ended="2026-01-01T00:00:05.000Z"), early) is False
    assert newer(_version(ended="soon"), early) is False
    # a stored version read back from the live state's JSON compares the same
    assert newer(late, json.loads(json.dumps(early))) is True
