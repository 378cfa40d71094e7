"""The Stop payload's final answer (`last_assistant_message`) is stored redacted everywhere the
live ingest keeps it (the turn row, the live state under .carto/live/, the runner's checkpoint
store), and a detached hand-off child never gets it on its command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
SID = "7e1f0000-0000-4000-8000-0000000secret"
GHP = "ghp_" + "Qv7Lm2Xc9Zt4" * 3
PASSWORD = "Tr0ub4dor-3xk9"
ANSWER = f"Done: pushed with {GHP} and set DB_PASSWORD={PASSWORD} for the walrus deploy"


def run(home: Path, *args: str, stdin: bytes = b"", **env) -> subprocess.CompletedProcess:
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0", **env}
    return subprocess.run([*CARTO, *args], input=stdin, capture_output=True, env=env, timeout=60)


def stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


def claude_transcript(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [{"type": "user", "uuid": "u1", "sessionId": SID, "cwd": "/w/proj", "timestamp": stamp(),
              "message": {"role": "user", "content": [{"type": "text", "text": "deploy the walrus"}]}},
             {"type": "assistant", "uuid": "u2", "sessionId": SID, "cwd": "/w/proj", "timestamp": stamp(),
              "message": {"role": "assistant", "id": "m1", "content": [{"type": "text", "text": "deploying"}]}}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")


def codex_rollout(path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[2] / "plugins" / "codex" / "tests"))
    from _codex_rollouts import assistant_item, meta, user_event

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in (
        meta(SID, "/w/proj", stamp()), user_event("deploy the walrus", stamp()),
        assistant_item("deploying", stamp()))), "utf-8")


def every_file(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def holding(root: Path, *secrets: str) -> list[str]:
    return sorted(name for name, data in every_file(root).items()
                  if any(s.encode() in data for s in secrets))


@pytest.mark.parametrize("provider", ["claude", "codex"])
def test_the_stop_answer_is_redacted_in_every_file_the_live_ingest_writes(tmp_path, provider):
    home = tmp_path / "home"
    if provider == "claude":
        transcript = tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl"
        claude_transcript(transcript)
    else:
        transcript = tmp_path / "sessions" / "2026" / "12" / "01" / f"rollout-2026-12-01T10-00-00-{SID}.jsonl"
        codex_rollout(transcript)
    payload = {"session_id": SID, "transcript_path": str(transcript), "cwd": "/w/proj",
               "hook_event_name": "Stop", "last_assistant_message": ANSWER}
    done = run(home, "hook", provider, "Stop", stdin=json.dumps(payload).encode())
    assert done.returncode == 0 and done.stdout == b"", done.stderr
    files = every_file(home)
    live_state = [name for name in files if name.startswith(f".carto/live/{provider}/")]
    assert live_state, "the live ingest kept no state"
    turns = (home / "turns.jsonl").read_text()
    assert "walrus deploy" in turns and "[REDACTED:github-token]" in turns  # the answer is there
    assert holding(home, GHP, PASSWORD) == []
    # The runner adopts the live checkpoint and keeps it in its own store: redacted there too.
    root = ["--root", str(tmp_path / "projects")] if provider == "claude" else ["--root", str(tmp_path)]
    done = run(home, "ingest", provider, *root)
    assert done.returncode in (0, 3), done.stderr
    assert holding(home, GHP, PASSWORD) == []


def test_a_checkpoint_with_an_answer_is_stored_redacted(tmp_path):
    """The stores themselves redact what a reader's checkpoint keeps (whatever handed it in)."""
    from carto_core.capture import live
    from carto_core.ingest.runner import CheckpointStore
    from carto_core.logio.home import Home

    home = Home(tmp_path / "home")
    checkpoint = {"offset": 10, "answer": {"offset": 0, "text": ANSWER}}
    live.save_state(home, "claude", "k", checkpoint, [], {})
    store = CheckpointStore(home, "claude")
    store.set("k", checkpoint)
    store.save()
    assert holding(home.root, GHP, PASSWORD) == []
    kept = live.load_state(home, "claude", "k")["checkpoint"]
    assert kept["offset"] == 10 and kept["answer"]["text"].startswith("Done: pushed with [REDACTED:")


def test_the_hand_off_child_gets_the_answer_on_stdin_never_on_its_command_line(tmp_path, monkeypatch):
    from carto_core.capture import detached, live
    from carto_core.logio.home import Home

    started = []

    class Child:
        def __init__(self, argv, **options):
            read, write = os.pipe()
            self.stdin = os.fdopen(write, "wb")
            started.append((argv, options, read))

    monkeypatch.setattr(subprocess, "Popen", Child)
    home = Home(tmp_path / "home")
    job = live.Job("claude", "key", "/t.jsonl", "carto_claude.live:read", ANSWER)
    result = live._hand_off(home, job, "test")
    assert result["outcome"] == "handed_off" and "problem" not in result
    ((argv, options, read),) = started
    assert not any("walrus" in arg or GHP in arg for arg in argv)
    assert "--answer-on-stdin" in argv and options["stdin"] == subprocess.PIPE
    assert os.read(read, 1 << 20).decode() == ANSWER
    # The child's side: what stdin holds is the answer of its Job.
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    assert detached.read_data() == ""


def test_a_redacted_answer_is_recognised_in_the_transcript_that_holds_it_in_clear():
    """The answer is redacted where it enters; once the transcript holds the same text in clear,
    the turn's body must not carry it twice (a plain `in` would not see it)."""
    from carto_claude.turns import compose_body
    from carto_core.privacy.redact import holds, redact_text

    answer = redact_text(ANSWER)
    body = compose_body(["deploying", ANSWER], answer, 4000)
    assert redact_text(body).count("walrus deploy") == 1
    assert holds(f"x {ANSWER} y", answer) and not holds("x y", answer)
