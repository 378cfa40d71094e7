"""`carto hook codex` fed the payloads Codex CLI 0.169.0 itself sent (recorded from the real
client by `shared/realclients/codex/run.sh`, scrubbed: `fixtures/codex-0.169.0/payloads/`, with
`{REPO}`, `{TRANSCRIPT}`, `{SESSION}` for the run's paths), against a repository built here."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.capture.hookpath import run
from carto_core.logio.reader import iter_lines

PAYLOADS = Path(__file__).parent / "fixtures" / "codex-0.169.0" / "payloads"
SESSION = "01a230cd-0000-7000-8000-00000000bbbb"


def git(repo: Path, *args: str, when: float | None = None) -> str:
    env = {**os.environ}
    if when is not None:
        env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"] = f"@{int(when)} +0000"
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env,
                          check=True).stdout.strip()


@pytest.fixture
def client(tmp_path, monkeypatch):
    """A repository whose last commit was made 3 s before the rollout's session_meta."""
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
    git(repo, "commit", "-q", "-m", "initial commit", when=now - 3)
    rollout = tmp_path / ".codex" / "sessions" / "2026" / "12" / "01" / f"rollout-2026-12-01T08-51-17-{SESSION}.jsonl"
    rollout.parent.mkdir(parents=True)
    started = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(now - 2))
    rollout.write_text(json.dumps({"timestamp": started, "type": "session_meta",
                                   "payload": {"id": SESSION, "timestamp": started, "cwd": str(repo)}}) + "\n")
    return {"repo": repo, "transcript": rollout, "home": Home(tmp_path / "home")}


def payload(client, name: str, **swap: str) -> dict:
    text = (PAYLOADS / name).read_text()
    for old, new in {"{REPO}": str(client["repo"]), "{TRANSCRIPT}": str(client["transcript"]),
                     "{SESSION}": SESSION, **swap}.items():
        text = text.replace(old, new)
    return json.loads(text)


def fire(client, body: dict) -> None:
    run("codex", body["hook_event_name"], json.dumps(body).encode(), client["home"])


def rows(client, log: str = "changelog") -> list[dict]:
    return [line.row for line in iter_lines(client["home"].log(log))]


def test_the_commit_row_names_the_commit_the_output_announced_and_the_redirect_is_an_edit(client):
    subprocess.run("echo hi > b.txt && git add b.txt && git commit -q -m 'feat: add b'", shell=True,
                   cwd=client["repo"], check=True, env=os.environ)
    sha = git(client["repo"], "rev-parse", "HEAD")
    fire(client, payload(client, "PostToolUse.json", eb66598=sha[:7]))
    got = [(r["type"], r["summary"]) for r in rows(client)]
    assert got == [("git_commit", f"[feature] Commit {sha}: feat: add b | files: b.txt"),
                   ("tool_file_edit", "Modified: b.txt (via bash)")]


def test_a_commit_that_made_nothing_never_claims_the_commit_before_the_session(client):
    """`git commit` with nothing staged: HEAD is the repository's previous commit, younger than
    the 10-minute HEAD window but older than the session."""
    body = payload(client, "PostToolUse.json")
    body["tool_input"]["command"] = 'git commit -m "feat: add b"'
    body["tool_response"] = "On branch main\nnothing to commit, working tree clean\n"
    fire(client, body)
    assert [r["type"] for r in rows(client)] == ["tool_bash"]


def test_session_end_reason_other_is_a_milestone(client):
    body = payload(client, "SessionEnd.json")
    assert body["reason"] == "other" and set(body) == {"session_id", "transcript_path", "cwd",
                                                       "hook_event_name", "reason"}
    fire(client, body)
    (milestone,) = rows(client, "milestones")
    assert milestone["milestone"] == "session_end_other" and milestone["provider"] == "codex"
    assert milestone["transcript_verified"] is True
    assert [r["type"] for r in rows(client)] == ["milestone_session_end_other"]


def test_user_prompt_submit_is_a_prompt_found_before_any_ingest(client, monkeypatch):
    body = payload(client, "UserPromptSubmit.json")
    fire(client, body)
    fire(client, body)  # the same turn's prompt twice: one id
    prompts = rows(client, "prompts")
    assert {r["event_id"] for r in prompts} == {prompts[0]["event_id"]}
    assert prompts[0]["summary"] == "add a file and commit it" and prompts[0]["type"] == "prompt"
    assert prompts[0]["provider"] == "codex" and prompts[0]["session_id"] == SESSION
    assert prompts[0]["project"] == "repo"
    monkeypatch.setenv("CARTO_HOME", str(client["home"].root))
    found = CliRunner().invoke(cli, ["search", "add a file and commit", "--json", "--all"])
    assert prompts[0]["event_id"] in {r["event_id"] for r in json.loads(found.stdout)["results"]}


def test_a_pasted_log_of_megabytes_is_cut_and_a_credential_at_the_cut_is_not_kept(client):
    from carto_codex.capture import PROMPT_MAX, PROMPT_READ

    token = "ghp_" + "Zx8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd0Ef5Gh2Jk4"
    # the token straddles the end of what is read, after a run of spaces the fold removes, so a
    # cut inside it would keep its first half in the row
    prompt = "why does this fail? " + " " * (PROMPT_READ - 40) + token + " more" * 400_000
    body = {**payload(client, "UserPromptSubmit.json"), "prompt": prompt}
    fire(client, body)
    (row,) = rows(client, "prompts")
    assert row["summary"].startswith("why does this fail?")
    assert len(row["summary"]) <= PROMPT_MAX
    assert "ghp_" not in row["summary"] and "Zx8Kq2" not in row["summary"]
    body = {**body, "turn_id": "t-long", "prompt": "long: " + "word " * 1_000_000}
    fire(client, body)
    long = [r for r in rows(client, "prompts") if r["summary"].startswith("long:")]
    assert len(long) == 1 and len(long[0]["summary"]) == PROMPT_MAX and long[0]["summary"].endswith("…")
