"""A record of a type carto does not know (a newer Codex's) is not read, but it was written
while its turn went on: one with a timestamp later than the turn's end so far moves that end
(`ended`), in the backfill and in the Stop hook alike. A record whose type or timestamp is of
no usable kind is counted and never stops the read.

Inputs are a copy of the shared fixtures' Codex rollout (`shared/fixtures/SOURCES.md`), whose
last line is already such a record, with lines of unknown types added to the copy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from carto_core.logio.home import Home, current_home
from tests.clikit import object_rows, run

from carto_codex.capture import handle

SID = "11111111-1111-4111-8111-111111111111"
ROLLOUT = f"codex/claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-{SID}.jsonl"

#: Appended to the copy: the first turn's unknown records, then a second turn with its own.
ADDED = [
    {"timestamp": "2026-01-02T03:04:20.000Z", "type": "future_record_b", "payload": "not an object"},
    {"timestamp": "not a time", "type": "future_record_c", "payload": {}},
    {"timestamp": "2026-01-02T03:04:18.000Z", "type": "future_record_d"},  # older than the end so far
    {"timestamp": "2026-01-02T03:04:30.000Z", "type": ["a", "list"]},
    {"timestamp": {"an": "object"}, "type": {"an": "object"}},
    {"timestamp": "2026-01-02T03:05:00.000Z", "type": "event_msg",
     "payload": {"type": "user_message", "message": "Now the second question."}},
    {"timestamp": "2026-01-02T03:05:02.000Z", "type": "event_msg",
     "payload": {"type": "agent_message", "message": "The second answer."}},
    {"timestamp": "2026-01-02T03:05:07.000Z", "type": "future_record_b", "payload": {"safe": "ignored"}},
]


def _copy(shared_fixtures: Path, root: Path, added: list[dict]) -> Path:
    day = root / "sessions" / "2026" / "01" / "02"
    day.mkdir(parents=True)
    path = day / Path(ROLLOUT).name
    shutil.copy(shared_fixtures / ROLLOUT, path)
    with open(path, "a", encoding="utf-8") as out:
        for record in added:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    return path


def _ends(rows: list[dict]) -> list[tuple[str, str, str]]:
    return [(r["event_id"], r["timestamp"], r.get("ended")) for r in rows]


def test_the_fixtures_unknown_last_record_ends_the_turn(shared_fixtures, tmp_path):
    _copy(shared_fixtures, tmp_path / "codex", [])
    summary = run("ingest", "codex", "--root", str(tmp_path / "codex"), "--settle", "0", "--json")
    assert _ends(object_rows(current_home().log("turns"))) == [
        (f"turn-codex-{SID}-1", "2026-01-02T03:04:07.000Z", "2026-01-02T03:04:16.000Z")]
    assert summary["skipped"] == {"unknown_type:future_synthetic_record": 1}


def test_unknown_records_move_the_end_of_their_own_turn_only_and_never_stop_the_read(
        shared_fixtures, tmp_path):
    _copy(shared_fixtures, tmp_path / "codex", ADDED)
    summary = run("ingest", "codex", "--root", str(tmp_path / "codex"), "--settle", "0", "--json")
    assert _ends(object_rows(current_home().log("turns"))) == [
        (f"turn-codex-{SID}-1", "2026-01-02T03:04:07.000Z", "2026-01-02T03:04:30.000Z"),
        (f"turn-codex-{SID}-2", "2026-01-02T03:05:00.000Z", "2026-01-02T03:05:07.000Z")]
    assert summary["skipped"] == {
        "unknown_type:future_synthetic_record": 1, "unknown_type:future_record_b": 2,
        "unknown_type:future_record_c": 1, "unknown_type:future_record_d": 1, "no_type": 2}


def test_the_stop_hook_gives_the_same_ends(shared_fixtures, tmp_path):
    path = _copy(shared_fixtures, tmp_path / "codex", ADDED)
    home = Home(tmp_path / "home")
    out = handle("Stop", {"session_id": SID, "transcript_path": str(path), "cwd": "/workspace/synthetic-project",
                          "hook_event_name": "Stop", "turn_id": "t2"}, home)
    assert out.problems == []
    assert _ends([r for r in object_rows(home.log("turns"))]) == [
        (f"turn-codex-{SID}-1", "2026-01-02T03:04:07.000Z", "2026-01-02T03:04:30.000Z"),
        (f"turn-codex-{SID}-2", "2026-01-02T03:05:00.000Z", "2026-01-02T03:05:07.000Z")]
