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

sys.path.insert(0, str(Path(__file__).parent))
from _codex_rollouts import assistant_item, meta, user_event  # noqa: E402

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
SID = "dddddddd-0000-4000-8000-0000000000aa"


def run(home: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}
    return subprocess.run([*CARTO, *args], input=stdin, capture_output=True, env=env, timeout=60)


def stop(home: Path, rollout: Path, **extra) -> None:
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
