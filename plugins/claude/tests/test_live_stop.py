"""The Stop hook ingests the live transcript: the open turn is found by `carto search` right
after Stop, text appended to that turn is found after the next Stop, and bad transcript paths
cost one hook.log line and nothing else. Run as the agent runs it: `carto hook` processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from carto_core.logio.home import Home

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
SID = "7e1f0000-0000-4000-8000-00000000live"


def run(home: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}
    return subprocess.run([*CARTO, *args], input=stdin, capture_output=True, env=env, timeout=60)


def stop(home: Path, transcript: Path | str, **extra) -> subprocess.CompletedProcess:
    payload = {"session_id": SID, "transcript_path": str(transcript), "cwd": "/w/proj",
               "hook_event_name": "Stop", "stop_hook_active": False, **extra}
    done = run(home, "hook", "claude", "Stop", stdin=json.dumps(payload).encode())
    assert done.returncode == 0 and done.stdout == b""
    return done


def search(home: Path, *words: str) -> list[dict]:
    done = run(home, "search", *words, "--json", "--all", "--no-semantic")
    assert done.returncode in (0, 3), done.stderr.decode()
    return json.loads(done.stdout)["results"] if done.stdout.strip() else []


class Transcript:
    """A live Claude Code transcript being written (fresh timestamps)."""

    def __init__(self, path: Path):
        self.path = path
        self.n = 0
        path.parent.mkdir(parents=True, exist_ok=True)

    def add(self, kind: str, text: str) -> None:
        self.n += 1
        message = {"role": kind, "content": [{"type": "text", "text": text}]}
        if kind == "assistant":
            message["id"] = f"msg_{self.n}"
        line = {"type": kind, "uuid": f"u{self.n}", "sessionId": SID, "cwd": "/w/proj",
                "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "message": message}
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")


def turn_rows(home: Path) -> list[dict]:
    path = home / "turns.jsonl"
    return [json.loads(l) for l in path.read_text().splitlines()] if path.exists() else []


def hook_log(home: Path) -> list[str]:
    path = home / ".carto" / "hook.log"
    return path.read_text().splitlines() if path.exists() else []


def test_the_open_turn_is_searchable_after_stop_and_grows_with_the_next_stop(tmp_path):
    home = tmp_path / "home"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    t.add("user", "first question about the flamingo parser")
    t.add("assistant", "first answer")
    t.add("user", "second question about the walrus cache")
    t.add("assistant", "looking into the walrus cache now")
    stop(home, t.path)
    hits = search(home, "walrus")
    assert [h["event_id"] for h in hits] == [f"turn-{SID}-2"]
    assert search(home, "flamingo")[0]["event_id"] == f"turn-{SID}-1"
    assert [(r["event_id"], r.get("open")) for r in turn_rows(home)] == [
        (f"turn-{SID}-1", None), (f"turn-{SID}-2", True)]

    t.add("assistant", "the narwhal eviction was the culprit")  # the same turn grows
    stop(home, t.path)
    hits = search(home, "narwhal")
    assert [h["event_id"] for h in hits] == [f"turn-{SID}-2"]
    assert "narwhal" in hits[0]["summary"] and "walrus" in hits[0]["summary"]
    # Only the grown turn was appended (the closed first one is not repeated), and a search
    # for the turn's older words still finds one event, with the latest text.
    assert [r["event_id"] for r in turn_rows(home)] == [f"turn-{SID}-1", f"turn-{SID}-2", f"turn-{SID}-2"]
    (walrus,) = search(home, "walrus")
    assert "narwhal" in walrus["summary"]

    stop(home, t.path)  # nothing changed: nothing written
    assert len(turn_rows(home)) == 3
    t.add("user", "third question")  # closes turn 2
    stop(home, t.path)
    rows = turn_rows(home)
    assert [(r["event_id"], r.get("open")) for r in rows[3:]] == [
        (f"turn-{SID}-2", None), (f"turn-{SID}-3", True)]
    assert hook_log(home) == []


def test_the_final_answer_from_the_stop_payload_is_searchable_before_the_transcript_has_it(tmp_path):
    home = tmp_path / "home"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    t.add("user", "please fix the build")
    t.add("assistant", "running the tests")
    stop(home, t.path, last_assistant_message="Done: the zanzibarneedle flag was missing")
    (hit,) = search(home, "zanzibarneedle")
    assert hit["event_id"] == f"turn-{SID}-1"
    # The answer stays with its turn when the next read still does not find it in the file.
    t.add("assistant", "one more line")
    stop(home, t.path)
    assert "zanzibarneedle" in search(home, "zanzibarneedle")[0]["summary"]


@pytest.mark.parametrize("where", ["deleted", "never_written", "no_path"])
def test_the_final_answer_is_kept_when_the_transcript_cannot_be_read(tmp_path, where):
    """The transcript deleted, not yet written or on another machine: the payload still holds
    the final answer, stored as a turn row of its own and redacted as the same answer is in a
    turn read from a transcript."""
    secret = "ghp_" + "Qv7Lm2Xc9Zt4" * 3
    answer = f"Done:\nthe quokka index is rebuilt, pushed with {secret}"
    seen = tmp_path / "seen"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    t.add("user", "rebuild the index")
    stop(seen, t.path, last_assistant_message=answer)
    (read,) = turn_rows(seen)

    home = tmp_path / "home"
    path = {"deleted": t.path, "never_written": tmp_path / "later" / f"{SID}.jsonl", "no_path": ""}[where]
    if where == "deleted":
        t.path.unlink()
    stop(home, path, last_assistant_message=answer)
    stop(home, path, last_assistant_message=answer)  # Stop again: the same event, not a second one
    rows = turn_rows(home)
    assert [r["event_id"] for r in rows] == [rows[0]["event_id"]] * 2
    row = rows[-1]
    assert row["event_id"].startswith(f"turn-{SID}-answer-")
    assert row["summary"] == "Done: the quokka index is rebuilt, pushed with [REDACTED:github-token]"
    assert read["summary"] == "rebuild the index " + row["summary"]
    assert (row["type"], row["provider"], row["session"], row["cwd"], row["answer_only"]) == (
        "transcript", "claude", SID, "/w/proj", True)
    assert row.get("transcript_path") == (str(path) or None) and "turn_idx" not in row
    assert [h["event_id"] for h in search(home, "quokka")] == [row["event_id"]]
    assert not [p for p in home.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


@pytest.mark.parametrize("held", ["empty", "no_prompt_yet", "unreadable_lines"])
def test_the_final_answer_is_kept_when_the_transcript_holds_no_turn_yet(tmp_path, held):
    """The transcript is there but holds no turn to give the answer to (empty, only a line
    before the first prompt, only lines that are not JSON): the answer is the row a missing
    transcript leaves, with the same id; once the file holds the turn, that turn has it and no
    further answer row is written."""
    answer = "the capybara migration is applied"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    t.path.write_text({
        "empty": "",
        "no_prompt_yet": json.dumps({"type": "summary", "summary": "older work", "leafUuid": "x"}) + "\n",
        "unreadable_lines": '{"type": "user", "mess\nnot json at all\n',
    }[held])
    missing = tmp_path / "missing"
    stop(missing, tmp_path / "gone" / f"{SID}.jsonl", last_assistant_message=answer)
    (gone,) = turn_rows(missing)

    home = tmp_path / "home"
    stop(home, t.path, last_assistant_message=answer)
    stop(home, t.path, last_assistant_message=answer)  # Stop again: the same event
    rows = turn_rows(home)
    assert [r["event_id"] for r in rows] == [gone["event_id"]] * 2
    assert (rows[0]["summary"], rows[0]["answer_only"], rows[0]["transcript_path"]) == (
        answer, True, str(t.path))
    assert [h["event_id"] for h in search(home, "capybara")] == [gone["event_id"]]

    t.add("user", "apply the migration")  # the turn is written: it keeps the answer itself
    stop(home, t.path, last_assistant_message=answer)
    new = turn_rows(home)[2:]
    assert [(r["event_id"], r.get("answer_only")) for r in new] == [(f"turn-{SID}-1", None)]
    assert new[0]["summary"] == f"apply the migration {answer}"


def test_a_transcript_that_holds_the_answer_gets_no_answer_row(tmp_path):
    """The answer is in the turn the read gives, on the first Stop and on one fired again for
    the same turn: never a second row of its own."""
    home = tmp_path / "home"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    t.add("user", "count the herons")
    t.add("assistant", "there are seven herons")
    for _ in range(2):
        stop(home, t.path, last_assistant_message="there are seven herons")
    assert [r["event_id"] for r in turn_rows(home)] == [f"turn-{SID}-1"]
    assert hook_log(home) == []


def test_a_long_turn_keeps_its_final_answer_within_the_body_limit(tmp_path):
    home = tmp_path / "home"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    t.add("user", "refactor everything")
    for n in range(40):
        t.add("assistant", f"step {n} " + "filler words " * 20)
    t.add("assistant", "All done: the quetzal module is split in three")
    stop(home, t.path)
    (row,) = turn_rows(home)
    assert len(row["summary"]) <= 2000
    assert row["summary"].startswith("refactor everything step 0")
    assert row["summary"].endswith("All done: the quetzal module is split in three")


def _own_by_another_user(path: Path) -> None:
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)
    else:  # pragma: no cover - a non-root run: a file this user cannot chown; root's own
        pytest.skip("needs root to make a file another user's")


@pytest.mark.parametrize("case", ["missing", "fifo", "folder", "other_user", "no_path"])
def test_bad_transcript_paths_exit_zero_write_nothing_and_log_one_line(tmp_path, case):
    home = tmp_path / "home"
    target = tmp_path / "t.jsonl"
    expect = {"missing": "does not exist", "fifo": "a FIFO, not a regular file", "folder": "a folder",
              "other_user": "belongs to another user", "no_path": "no transcript_path"}[case]
    if case == "fifo":
        os.mkfifo(target)
    elif case == "folder":
        target.mkdir()
    elif case in ("other_user",):
        t = Transcript(target)
        t.add("user", "a secret question")
        _own_by_another_user(target)
    started = time.monotonic()
    stop(home, "" if case == "no_path" else target)
    assert time.monotonic() - started < 30  # a FIFO must not block the hook
    assert not (home / "turns.jsonl").exists()
    lines = hook_log(home)
    assert len(lines) == 1 and expect in lines[0], lines


def test_an_unreadable_transcript_exits_zero_writes_nothing_and_logs_one_line(tmp_path, monkeypatch):
    """Unreadable as a permission error (as root, a mode of 000 does not stop a read, so the
    open itself is made to fail the way it does for another user)."""
    from carto_core.capture import hookpath

    t = Transcript(tmp_path / "t.jsonl")
    t.add("user", "hello")
    real_open = os.open

    def refuse(path, flags, *args, **kwargs):
        if os.fspath(path) == str(t.path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    home = Home(tmp_path / "home")
    payload = {"session_id": SID, "transcript_path": str(t.path), "cwd": "/w", "hook_event_name": "Stop"}
    assert hookpath.run("claude", "Stop", json.dumps(payload).encode(), home) is None
    monkeypatch.setattr(os, "open", real_open)
    assert not home.log("turns").exists()
    lines = (home.state / "hook.log").read_text().splitlines()
    assert len(lines) == 1 and "not readable (permission denied)" in lines[0]


def test_ingest_and_the_stop_hook_share_one_checkpoint_and_never_repeat_a_row(tmp_path):
    from carto_claude.transcripts import ClaudeSource
    from carto_core.capture import live
    from carto_core.ingest.runner import run_ingest

    home = tmp_path / "home"
    projects = tmp_path / "projects"
    t = Transcript(projects / "-w-proj" / f"{SID}.jsonl")
    t.add("user", "first question")
    t.add("assistant", "first answer")
    t.add("user", "second question")
    stop(home, t.path)
    assert len(turn_rows(home)) == 2
    key = f"transcript:{t.path}"
    before = live.load_state(Home(home), "claude", key)["checkpoint"]

    def ingest():
        return run_ingest(ClaudeSource({"roots": [str(projects)], "history": False}), Home(home))

    first = ingest()  # the backfill has no checkpoint of its own: it starts from the live one
    assert (first.rows_written, first.already_present, first.open_rows) == (0, 1, 1)
    t.add("assistant", "second answer")
    grown = ingest()
    assert (grown.rows_written, grown.revised) == (1, 1)
    after = live.load_state(Home(home), "claude", key)
    assert after["checkpoint"]["size"] > before["size"]  # the runner moved the live checkpoint
    stop(home, t.path)  # the hook sees what the runner wrote: nothing to add
    assert [r["summary"] for r in turn_rows(home)] == [
        "first question first answer", "second question", "second question second answer"]


def test_a_large_backlog_or_a_busy_lock_is_handed_to_a_detached_child(tmp_path):
    """More than CARTO_LIVE_MAX_BYTES to read (no checkpoint) is not parsed by the hook: a
    detached child reads it all, and keeps the payload's final answer."""
    from carto_core.capture import detached, live

    home = tmp_path / "home"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    for n in range(20):
        t.add("user", f"question {n} " + "padding " * 20)
        t.add("assistant", f"answer {n}")
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0",
           "CARTO_LIVE_MAX_BYTES": "2000"}
    payload = {"session_id": SID, "transcript_path": str(t.path), "cwd": "/w/proj",
               "hook_event_name": "Stop", "last_assistant_message": "the pangolin answer"}
    started = time.monotonic()
    done = subprocess.run([*CARTO, "hook", "claude", "Stop"], input=json.dumps(payload).encode(),
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(turn_rows(home)) < 20:
        time.sleep(0.1)
    rows = turn_rows(home)
    assert [r["turn_idx"] for r in rows] == list(range(1, 21))
    assert rows[-1]["open"] is True and rows[-1]["summary"].endswith("the pangolin answer")
    assert hook_log(home) == []
    # A busy lock: the hook waits a quarter of a second, then hands over; the child waits.
    t.add("assistant", "one more line about the armadillo")
    with detached.exclusive(Home(home), live.lock_name("claude")) as held:
        assert held
        stop(home, t.path)
        time.sleep(1.0)
        assert len(turn_rows(home)) == 20  # nothing written while the lock is held
    while time.monotonic() < deadline and len(turn_rows(home)) < 21:
        time.sleep(0.1)
    assert "armadillo" in turn_rows(home)[-1]["summary"]
    assert time.monotonic() - started < 60


def test_a_subagent_transcript_written_after_its_subagentstop_is_read_at_the_next_stop(tmp_path):
    """The genuine client can fire SubagentStop before `<session>/subagents/agent-<id>.jsonl`
    exists: that hook reads nothing (one hook.log line), and the session's next Stop reads the
    subagent's turns; a Stop after that reads them no more."""
    home = tmp_path / "home"
    t = Transcript(tmp_path / "projects" / "-w-proj" / f"{SID}.jsonl")
    t.add("user", "check the notes with a helper")
    t.add("assistant", "asking a helper to read the notes")
    agent = Transcript(t.path.with_suffix("") / "subagents" / "agent-a1b2c3.jsonl")
    payload = {"session_id": SID, "transcript_path": str(t.path), "cwd": "/w/proj",
               "hook_event_name": "SubagentStop", "agent_id": "a1b2c3",
               "agent_transcript_path": str(agent.path)}
    done = run(home, "hook", "claude", "SubagentStop", stdin=json.dumps(payload).encode())
    assert done.returncode == 0
    assert any("agent-a1b2c3.jsonl: does not exist" in line for line in hook_log(home))
    assert not [r for r in turn_rows(home) if r.get("agent_id")]

    agent.add("user", "read the notes about the pelican migration")  # the client writes it now
    agent.add("assistant", "the notes say the pelicans left in March")
    stop(home, t.path)
    mine = [r["event_id"] for r in turn_rows(home) if r.get("agent_id") == "a1b2c3"]
    assert mine and all(e.startswith(f"turn-{SID}-agent-a1b2c3-") for e in mine)
    assert search(home, "pelican")[0]["event_id"] == mine[0]
    from carto_core.capture.live import state_path

    state = state_path(Home(home), "claude", f"transcript:{agent.path}")
    before = (len(turn_rows(home)), state.stat().st_mtime_ns)
    stop(home, t.path)  # nothing changed since: the subagent's transcript is not read again
    assert (len(turn_rows(home)), state.stat().st_mtime_ns) == before

    # a subagent's own subagent, a folder deeper (`subagents/**/agent-<id>.jsonl`), likewise
    nested = Transcript(agent.path.parent / "agent-a1b2c3" / "agent-d4e5f6.jsonl")
    nested.add("user", "count the albatross sightings in the notes")
    nested.add("assistant", "three albatross sightings")
    stop(home, t.path)
    assert [r["event_id"] for r in turn_rows(home) if r.get("agent_id") == "d4e5f6"]
    assert len(turn_rows(home)) > before[0]
