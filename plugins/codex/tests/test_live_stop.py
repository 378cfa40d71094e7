"""Codex's Stop hook ingests the live rollout: the turn is searchable right after Stop, text the
same turn gets later is found after the next Stop, and the final answer of the payload is kept.
Run as Codex runs it: `carto hook codex Stop` processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _codex_rollouts import assistant_item, meta, turn_complete, user_event  # noqa: E402

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
SID = "dddddddd-0000-4000-8000-0000000000aa"


def run(home: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}
    return subprocess.run([*CARTO, *args], input=stdin, capture_output=True, env=env, timeout=60)


def stop(home: Path, rollout: Path | str, **extra) -> None:
    payload = {"session_id": SID, "transcript_path": str(rollout), "cwd": "/w/proj",
               "hook_event_name": "Stop", "model": "gpt-5", "turn_id": "t1", **extra}
    done = run(home, "hook", "codex", "Stop", stdin=json.dumps(payload).encode())
    assert done.returncode == 0 and done.stdout == b""


def search(home: Path, word: str) -> list[dict]:
    done = run(home, "search", word, "--json", "--all", "--no-semantic")
    return json.loads(done.stdout)["results"] if done.stdout.strip() else []


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


def test_the_live_rollout_is_searchable_after_stop_and_grows_with_the_next(tmp_path):
    home = tmp_path / "home"
    rollout = tmp_path / "sessions" / "2026" / "12" / "01" / f"rollout-2026-12-01T10-00-00-{SID}.jsonl"
    rollout.parent.mkdir(parents=True)
    with open(rollout, "w") as handle:
        for line in (meta(SID, "/w/proj", now()), user_event("tune the ocelot scheduler", now()),
                     assistant_item("looking at the ocelot queue", now())):
            handle.write(line + "\n")
    stop(home, rollout, last_assistant_message="the ocelot queue was starving: fixed")
    (hit,) = search(home, "ocelot")
    assert hit["event_id"] == f"turn-codex-{SID}-1" and "starving" in hit["summary"]
    with open(rollout, "a") as handle:  # the same turn gets more before the next prompt
        handle.write(assistant_item("and the jaguar lock too", now()) + "\n")
    stop(home, rollout)
    (hit,) = search(home, "jaguar")
    assert hit["event_id"] == f"turn-codex-{SID}-1"
    assert "ocelot" in hit["summary"] and "starving" in hit["summary"]
    assert [h["event_id"] for h in search(home, "ocelot")] == [f"turn-codex-{SID}-1"]
    milestones = (home / "session-milestones.jsonl").read_text().splitlines()
    assert [json.loads(m)["milestone"] for m in milestones] == ["turn_stop", "turn_stop"]


def test_the_final_answer_is_kept_when_the_rollout_cannot_be_read(tmp_path, monkeypatch):
    """A rollout deleted, or a null transcript_path no rollout answers: the payload's final
    answer is a turn row of its own (redacted), beside the turn_stop milestone."""
    secret = "ghp_" + "Qv7Lm2Xc9Zt4" * 3
    home = tmp_path / "home"
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))  # the lookup by session id finds nothing
    gone = tmp_path / "sessions" / f"rollout-2026-12-01T10-00-00-{SID}.jsonl"
    stop(home, gone, last_assistant_message=f"the tapir build passes; deployed with {secret}")
    payload = {"session_id": SID, "transcript_path": None, "cwd": "/w/proj", "hook_event_name": "Stop",
               "model": "gpt-5", "turn_id": "t2", "last_assistant_message": "the okapi cache is warm"}
    assert run(home, "hook", "codex", "Stop", stdin=json.dumps(payload).encode()).returncode == 0
    rows = [json.loads(line) for line in (home / "turns.jsonl").read_text().splitlines()]
    assert [(r["summary"], r.get("transcript_path"), r["provider"], r["answer_only"]) for r in rows] == [
        ("the tapir build passes; deployed with [REDACTED:github-token]", str(gone), "codex", True),
        ("the okapi cache is warm", None, "codex", True)]
    assert [h["event_id"] for h in search(home, "okapi")] == [rows[1]["event_id"]]
    assert not [p for p in home.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
    milestones = (home / "session-milestones.jsonl").read_text().splitlines()
    assert [json.loads(m)["milestone"] for m in milestones] == ["turn_stop", "turn_stop"]


def turn_rows(home: Path) -> list[dict]:
    path = home / "turns.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize("held", ["empty", "empty_not_named_as_a_rollout", "meta_only", "unreadable_lines"])
def test_the_final_answer_is_kept_when_the_rollout_holds_no_turn_yet(tmp_path, monkeypatch, held):
    """A rollout that is there but holds no turn to give the answer to (empty, even under a
    name without the session id; only its session_meta; only lines that are not JSON): the
    answer is the row a missing rollout leaves, with the same id; once the rollout holds the
    turn, that turn has it and no further answer row is written."""
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    answer = "the pangolin release is tagged"
    folder = tmp_path / "sessions" / "2026" / "12" / "01"
    folder.mkdir(parents=True)
    rollout = folder / ("t.jsonl" if held == "empty_not_named_as_a_rollout"
                        else f"rollout-2026-12-01T10-00-00-{SID}.jsonl")
    rollout.write_text({"meta_only": meta(SID, "/w/proj", now()) + "\n",
                        "unreadable_lines": '{"type": "event_msg", "pay\nnot json\n'}.get(held, ""))
    missing = tmp_path / "missing"
    stop(missing, folder / f"rollout-2026-12-01T09-00-00-{SID}.jsonl", last_assistant_message=answer)
    (gone,) = turn_rows(missing)

    home = tmp_path / "home"
    stop(home, rollout, last_assistant_message=answer)
    stop(home, rollout, last_assistant_message=answer)  # Stop again: the same event
    rows = turn_rows(home)
    assert [r["event_id"] for r in rows] == [gone["event_id"]] * 2
    assert (rows[0]["summary"], rows[0]["answer_only"], rows[0]["transcript_path"]) == (
        answer, True, str(rollout))
    assert [h["event_id"] for h in search(home, "pangolin")] == [gone["event_id"]]

    if held in ("empty", "meta_only"):  # the turn is written: it keeps the answer itself
        with open(rollout, "a") as handle:
            handle.write("".join(line + "\n" for line in (
                *([meta(SID, "/w/proj", now())] if held == "empty" else []),
                user_event("tag the release", now()))))
        stop(home, rollout, last_assistant_message=answer)
        new = turn_rows(home)[2:]
        assert [(r["event_id"], r.get("answer_only")) for r in new] == [(f"turn-codex-{SID}-1", None)]
        assert new[0]["summary"].endswith(answer)


def test_a_rollout_that_holds_the_answer_gets_no_answer_row(tmp_path):
    """The answer is in the turn the read gives; a Stop fired again once that turn is closed
    (the read finds no new turn) does not take it for a rollout without one."""
    home = tmp_path / "home"
    rollout = tmp_path / "sessions" / f"rollout-2026-12-01T10-00-00-{SID}.jsonl"
    rollout.parent.mkdir(parents=True)
    rollout.write_text("".join(line + "\n" for line in (
        meta(SID, "/w/proj", now()), user_event("count the herons", now()),
        assistant_item("there are seven herons", now()), turn_complete(now()))))
    for _ in range(2):
        stop(home, rollout, last_assistant_message="there are seven herons")
    assert [r["event_id"] for r in turn_rows(home)] == [f"turn-codex-{SID}-1"]
