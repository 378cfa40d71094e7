"""`carto hook claude ...` never blocks and never loses a row to its input or its home:
a FIFO where git files should be, a stdin that never ends (the wall-clock cap), lone
surrogates in any field, a full or read-only home (faults injected; no root needed)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from carto_core.capture import hookpath
from carto_core.logio.home import Home
from carto_core.logio.reader import ReadReport, iter_lines

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
#: Long enough for a loaded CI machine, far shorter than "forever".
PATIENCE = 30


def environment(home: Path, **extra) -> dict:
    return {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", **extra}


def hook(home: Path, event: str, payload: dict | bytes, **env) -> subprocess.CompletedProcess:
    stdin = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run([*CARTO, "hook", "claude", event], input=stdin, capture_output=True,
                          env=environment(home, **env), timeout=PATIENCE)


def rows(home: Path, label: str) -> list[dict]:
    return [line.row for line in iter_lines(Home(home).log(label), ReadReport(label))]


def hook_log(home: Path) -> str:
    path = home / ".carto" / "hook.log"
    return path.read_text() if path.exists() else ""


@pytest.fixture
def fifo_repo(tmp_path):
    """A repository whose HEAD, reflog and packed-refs are FIFOs nobody writes to."""
    repo = tmp_path / "repo"
    (repo / ".git" / "logs").mkdir(parents=True)
    (repo / ".git" / "refs" / "heads").mkdir(parents=True)
    for name in ("HEAD", "logs/HEAD", "packed-refs"):
        os.mkfifo(repo / ".git" / name)
    return repo


@pytest.mark.parametrize("event, extra", [
    ("PostToolUse", {"tool_name": "Bash", "tool_input": {"command": "git commit -m 'fix: x'"},
                     "duration_ms": 40}),
    ("PostToolUse", {"tool_name": "Edit", "tool_input": {"file_path": "REPO/src/a.py"}}),
    ("PreCompact", {"trigger": "auto"}),
    ("SessionEnd", {"reason": "other"}),
    ("SubagentStop", {"agent_type": "Explore"}),
])
def test_a_fifo_in_the_repository_never_blocks_the_hook(tmp_path, fifo_repo, event, extra):
    home = tmp_path / "home"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    extra = json.loads(json.dumps(extra).replace("REPO", str(fifo_repo)))
    payload = {"session_id": "s1", "cwd": str(fifo_repo), "transcript_path": str(transcript), **extra}
    started = time.monotonic()
    # The cap is off: what is tested is that nothing waits on the FIFOs in the first place.
    done = hook(home, event, payload, CARTO_HOOK_TIMEOUT="0")
    assert done.returncode == 0 and time.monotonic() - started < PATIENCE
    if event == "PostToolUse" and extra["tool_name"] == "Edit":
        assert [r["summary"] for r in rows(home, "tool-use")] == [f"Modified: {fifo_repo}/src/a.py"]
    elif event != "PostToolUse":
        milestone = rows(home, "milestones")
        assert len(milestone) == 1 and milestone[0]["git_branch"] == ""  # HEAD was not read


def test_the_wall_clock_cap_ends_a_hook_whose_stdin_never_closes(tmp_path):
    home = tmp_path / "home"
    proc = subprocess.Popen([*CARTO, "hook", "claude", "PostToolUse"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=environment(home, CARTO_HOOK_TIMEOUT="1"))
    proc.stdin.write(b'{"session_id": "s1", "cwd": "/x", ')  # the agent never sends the rest
    proc.stdin.flush()
    try:
        code = proc.wait(timeout=PATIENCE)
    finally:
        proc.kill()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    assert code == 0
    assert "wall-clock cap" in hook_log(home) and "claude PostToolUse" in hook_log(home)


SURROGATE_FIELDS = ["session_id", "cwd", "transcript_path", "file_path", "command"]


@pytest.mark.parametrize("field", SURROGATE_FIELDS)
def test_a_lone_surrogate_in_any_field_is_replaced_and_the_row_kept(tmp_path, field):
    home = tmp_path / "home"
    payload = {"session_id": "s1", "cwd": "/src/shop", "transcript_path": "/t/s1.jsonl"}
    tool = "Edit" if field == "file_path" else "Bash"
    tool_input = {"file_path": "/src/shop/a.py"} if tool == "Edit" else {"command": "make test"}
    payload.update({"tool_name": tool, "tool_input": tool_input})
    cut = "cut\ud83d"  # a JavaScript agent cutting an emoji in half sends this escape
    if field in tool_input:
        tool_input[field] = tool_input[field] + cut
    else:
        payload[field] = payload[field] + cut
    raw = json.dumps(payload).encode()  # ensure_ascii: the surrogate travels as "\ud83d"
    assert b"\\ud83d" in raw
    done = hook(home, "PostToolUse", raw)
    assert done.returncode == 0
    written = rows(home, "tool-use")
    assert len(written) == 1, hook_log(home)
    text = json.dumps(written[0], ensure_ascii=False)
    assert "cut\ufffd" in text and "\\ud83d" not in text
    assert len(rows(home, "changelog")) == 1


def test_bytes_that_are_not_utf8_do_not_lose_the_payload(tmp_path):
    home = tmp_path / "home"
    raw = (b'{"session_id": "s1", "cwd": "/src/caf\xe9", "tool_name": "Bash", '
           b'"tool_input": {"command": "make test"}}')
    assert hook(home, "PostToolUse", raw).returncode == 0
    assert [r["cwd"] for r in rows(home, "tool-use")] == ["/src/caf\ufffd"]


def _refuse(monkeypatch, home: Path, code: int) -> None:
    real_write = os.write

    def write(fd, data):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target.startswith(str(home) + os.sep):
            raise OSError(code, os.strerror(code))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_a_full_or_read_only_home_spills_rows_and_the_next_hook_flushes_them(tmp_path, monkeypatch, code):
    home = Home(tmp_path / "home")
    payload = {"session_id": "s1", "cwd": "/src/shop", "tool_name": "Bash"}
    first = json.dumps({**payload, "tool_input": {"command": "make first"}}).encode()
    second = json.dumps({**payload, "tool_input": {"command": "make second"}}).encode()
    hookpath.run("claude", "PostToolUse", b'{"session_id": "s0", "cwd": "/x", "tool_name": "Bash", '
                 b'"tool_input": {"command": "make warm"}}', home)  # the dispatch cache exists
    with monkeypatch.context() as patch:
        _refuse(patch, home.root, code)
        hookpath.run("claude", "PostToolUse", first, home)
    summaries = [r["summary"].strip() for r in rows(home.root, "tool-use")]  # upstream ends "Ran: x "
    assert summaries == ["Ran: make warm"]
    spill_dir = Path(os.environ["CARTO_SPILL_DIR"])
    assert [p.suffix for p in sorted(spill_dir.iterdir())] == [".log", ".jsonl"]
    assert "kept in the spill file" in next(spill_dir.glob("*.hook.log")).read_text()
    hookpath.run("claude", "PostToolUse", second, home)
    summaries = [r["summary"].strip() for r in rows(home.root, "tool-use")]  # upstream ends "Ran: x "
    # The flush follows the first append that succeeds (tool-use's): the order in each log is
    # then the order the rows landed in, not the order of the calls.
    assert summaries == ["Ran: make warm", "Ran: make second", "Ran: make first"]
    assert sorted(r["summary"].strip() for r in rows(home.root, "changelog")) == sorted(summaries)
    assert not list(spill_dir.glob("*.jsonl"))
    assert "spilled row(s) flushed" in hook_log(home.root)
