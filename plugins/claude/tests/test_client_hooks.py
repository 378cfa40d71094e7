"""`carto hook claude` fed the payloads Claude Code 2.1.328 itself sent (recorded from the real
client by `shared/realclients/claude/run.sh`, scrubbed: `fixtures/claude-2.1.328/payloads/`,
with `{REPO}`, `{TRANSCRIPT}`, `{SESSION}` standing for the run's paths), replayed against a git
repository built here so that the commits they name exist."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from carto_core.logio.home import Home
from carto_core.capture.hookpath import run
from carto_core.logio.reader import iter_lines

PAYLOADS = Path(__file__).parent / "fixtures" / "claude-2.1.328" / "payloads"
SESSION = "2a1c0000-0000-4000-8000-00000000aaaa"


def git(repo: Path, *args: str, when: float | None = None) -> str:
    env = {**os.environ}
    if when is not None:
        env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"] = f"@{int(when)} +0000"
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env,
                          check=True).stdout.strip()


@pytest.fixture
def client(tmp_path, monkeypatch):
    """A repository whose previous commit was made 3 s before the session's first line (what the
    real run saw: `init`, then Claude Code started), and the session's transcript."""
    for key, value in {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "CARTO_CATCHUP": "0",
                       "GIT_AUTHOR_NAME": "Mock", "GIT_AUTHOR_EMAIL": "m@example.invalid",
                       "GIT_COMMITTER_NAME": "Mock", "GIT_COMMITTER_EMAIL": "m@example.invalid"}.items():
        monkeypatch.setenv(key, value)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("# scratch\n")
    git(repo, "add", "README.md")
    now = time.time()
    git(repo, "commit", "-q", "-m", "init", when=now - 3)
    transcript = tmp_path / "projects" / "-repo" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    started = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(now - 2))
    transcript.write_text(json.dumps({"type": "queue-operation", "operation": "enqueue", "timestamp": started,
                                      "sessionId": SESSION, "content": "please add a file and commit it"}) + "\n")
    return {"repo": repo, "transcript": transcript, "home": Home(tmp_path / "home")}


def payload(client, name: str, **swap: str) -> dict:
    text = (PAYLOADS / name).read_text()
    for old, new in {"{REPO}": str(client["repo"]), "{TRANSCRIPT}": str(client["transcript"]),
                     "{SESSION}": SESSION, **swap}.items():
        text = text.replace(old, new)
    return json.loads(text)


def fire(client, body: dict) -> str | None:
    return run("claude", body["hook_event_name"], json.dumps(body).encode(), client["home"])


def rows(client, log: str = "changelog") -> list[dict]:
    return [line.row for line in iter_lines(client["home"].log(log))]


def the_commit(client) -> str:
    """Run the recorded Bash command for real: a.txt written by `echo >`, committed."""
    subprocess.run("echo hello > a.txt && git add a.txt && git commit -q -m 'feat: add a'", shell=True,
                   cwd=client["repo"], check=True, env=os.environ)
    return git(client["repo"], "rev-parse", "HEAD")


def test_the_commit_row_names_exactly_the_commit_the_client_reported(client):
    """Real run: the previous commit, made seconds before the session, was logged as the
    session's too (the reflog window is the call's duration + 5 s). gitOperation names one."""
    sha = the_commit(client)
    body = payload(client, "PostToolUse-Bash-1.json", **{"8cd9945": sha[:7]})
    assert body["tool_response"]["gitOperation"] == {"commit": {"sha": sha[:7], "kind": "committed", "branch": "main"}}
    fire(client, body)
    commits = [r for r in rows(client) if r["type"] == "git_commit"]
    assert [r["summary"].split(" Commit ")[1].split(":")[0] for r in commits] == [sha]
    assert commits[0]["commit_action"] == "commit" and commits[0]["tool_use_id"] == body["tool_use_id"]


def test_without_gitoperation_the_reflog_never_reaches_before_the_session(client):
    sha = the_commit(client)
    body = payload(client, "PostToolUse-Bash-1.json")
    del body["tool_response"]["gitOperation"]
    body["tool_response"]["stdout"] = ""  # nothing names the commit: the reflog fallback
    fire(client, body)
    assert [r["summary"] for r in rows(client) if r["type"] == "git_commit"] == [
        f"[feature] Commit {sha}: feat: add a | files: a.txt"]


def test_a_shell_redirection_is_an_edit_from_bash_edit_diff(client):
    """`echo hello > a.txt`: today's heuristic knows cat, tee, sed and open; the client lists
    the file in `bashEditDiff.changedFiles`, which wins over any heuristic."""
    sha = the_commit(client)
    body = payload(client, "PostToolUse-Bash-1.json", **{"8cd9945": sha[:7]})
    body["tool_response"]["bashEditDiff"]["changedFiles"].append(str(client["repo"] / "generated.txt"))
    fire(client, body)
    edits = [r["summary"] for r in rows(client) if r["type"] == "tool_file_edit"]
    assert edits == [f"Modified: {client['repo']}/a.txt (via bash)", f"Modified: {client['repo']}/generated.txt (via bash)"]


def test_a_failed_call_logs_the_commit_its_error_output_names(client):
    the_commit(client)
    (client["repo"] / "README.md").write_text("# scratch repo\n")
    git(client["repo"], "commit", "-q", "-am", "fix: readme title")
    sha = git(client["repo"], "rev-parse", "HEAD")
    body = payload(client, "PostToolUseFailure-Bash-1.json", **{"396cba8": sha[:7]})
    assert "tool_response" not in body and f"[main {sha[:7]}] fix: readme title" in body["error"]
    fire(client, body)
    assert [r["summary"] for r in rows(client) if r["type"] == "git_commit"] == [
        f"[fix] Commit {sha}: fix: readme title | files: README.md"]


def test_post_tool_batch_captures_only_calls_no_post_tool_use_recorded(client):
    sha = the_commit(client)
    bash = payload(client, "PostToolUse-Bash-1.json", **{"8cd9945": sha[:7]})
    fire(client, bash)
    before = rows(client)
    batch = payload(client, "PostToolBatch-1.json", **{"8cd9945": sha[:7]})
    assert [c["tool_use_id"] for c in batch["tool_calls"]] == [bash["tool_use_id"]]
    fire(client, batch)
    assert rows(client) == before  # its PostToolUse ran: nothing twice
    write = payload(client, "PostToolBatch-2.json")  # the Write's PostToolUse never ran here
    fire(client, write)
    new = rows(client)[len(before):]
    assert [(r["type"], r["summary"], r["tool_use_id"]) for r in new] == [
        ("tool_file_edit", f"Modified: {client['repo']}/test_b.py", write["tool_calls"][0]["tool_use_id"])]
    fire(client, write)
    assert len(rows(client)) == len(before) + 1  # a batch replayed adds nothing


def test_session_start_before_the_transcript_exists_logs_no_problem(client):
    body = payload(client, "SessionStart-1.json")
    body["transcript_path"] = str(client["transcript"].with_name("not-written-yet.jsonl"))
    fire(client, body)
    assert not (client["home"].state / "hook.log").exists()
