"""Every credential of the corpus, pushed through every writer, then the WHOLE home grepped.

Writers: the live hooks of Claude and Codex (Bash, WebFetch, WebSearch, PostCompact, a problem
for hook.log), Claude transcripts and prompt history, Codex rollouts, git commit messages,
Hermes sessions, a wrapup, search telemetry (a query holding a secret) and `carto index`
(keyword index, semantic index with the LSA vocabulary). The grep reads every file under the
home, caches under .carto included, as UTF-8, UTF-16 and UTF-32 (numpy keeps strings as
UTF-32), lower-cased (analyzers lower-case terms), for every long alphanumeric fragment of each
secret (tokenizers split on punctuation).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.capture.hookpath import log_problem, run
from carto_core.ingest.runner import run_ingest

CORPUS = json.loads((Path(__file__).parent / "data" / "secrets_corpus.json").read_text("utf-8"))
POSITIVES = CORPUS["positives"]
GIT_ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
           "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com"}


def fragments(secret: str) -> list[str]:
    """What must not be found anywhere: every alphanumeric run of 10+ characters, cut to 12
    (a stemmer may change a word's end; 12 random characters do not occur by chance)."""
    runs = [run[:12] for run in re.findall(r"[A-Za-z0-9]{10,}", secret)]
    return runs or [secret]


def home_haystacks(root: Path) -> list[tuple[str, bytes]]:
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        out.append((str(path.relative_to(root)), path.read_bytes().lower()))
    return out


def leaks(root: Path, secrets: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    haystacks = home_haystacks(root)
    for secret in secrets:
        for fragment in fragments(secret):
            needle = fragment.lower()
            encodings = [needle.encode(e) for e in ("utf-8", "utf-16-le", "utf-32-le")]
            where = [name for name, data in haystacks if any(e in data for e in encodings)]
            if where:
                found.setdefault(secret, []).extend(where)
    return found


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, env={**os.environ, **GIT_ENV}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def hook(provider: str, event: str, payload: dict, home: Home, repo: Path) -> None:
    base = {"session_id": f"sess-{provider}", "cwd": str(repo), "hook_event_name": event,
            "transcript_path": f"/nonexistent/{provider}.jsonl"}
    run(provider, event, json.dumps({**base, **payload}).encode(), home)


def claude_transcript(folder: Path) -> None:
    lines = []
    for n, case in enumerate(POSITIVES):
        text = case["text"]
        stamp = f"2026-01-01T00:{n // 60:02d}:{n % 60:02d}Z"
        lines.append({"type": "user", "uuid": f"u{n}", "sessionId": "sess-t", "cwd": "/w/proj", "timestamp": stamp,
                      "message": {"role": "user", "content": [{"type": "text", "text": text}]}})
        lines.append({"type": "assistant", "uuid": f"a{n}", "sessionId": "sess-t", "cwd": "/w/proj",
                      "timestamp": stamp, "message": {"role": "assistant", "id": f"msg_{n}", "content": [
                          {"type": "text", "text": f"running it: {text}"},
                          {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": text}}]}})
        lines.append({"type": "user", "uuid": f"r{n}", "sessionId": "sess-t", "cwd": "/w/proj", "timestamp": stamp,
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": f"output: {text}"}]}})
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sess-t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    old = path.stat().st_mtime - 86_400
    os.utime(path, (old, old))


def codex_rollout(codex_home: Path) -> None:
    def line(kind, payload, ts="2026-02-01T10:00:00.000Z"):
        return json.dumps({"timestamp": ts, "type": kind, "payload": payload})

    lines = [line("session_meta", {"id": "cdx-1", "timestamp": "2026-02-01T10:00:00.000Z", "cwd": "/w/proj"})]
    for n, case in enumerate(POSITIVES):
        text = case["text"]
        lines += [
            line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}),
            line("response_item", {"type": "function_call", "name": "shell", "call_id": f"c{n}",
                                   "arguments": json.dumps({"command": ["bash", "-lc", text]})}),
            line("response_item", {"type": "function_call_output", "call_id": f"c{n}",
                                   "output": json.dumps({"output": text, "metadata": {"exit_code": 0}})}),
            line("response_item", {"type": "message", "role": "assistant",
                                   "content": [{"type": "output_text", "text": f"done: {text}"}]}),
            line("event_msg", {"type": "task_complete"}),
        ]
    path = codex_home / "sessions" / "2026" / "02" / "01" / "rollout-2026-02-01T10-00-00-cdx-1.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(item + "\n" for item in lines), "utf-8")
    old = path.stat().st_mtime - 86_400
    os.utime(path, (old, old))


def hermes_sessions(tmp_path: Path, home: Home) -> None:
    from carto_hermes.fixtures import T0, HermesHome
    from carto_hermes.policy import load_policy
    from carto_hermes.source import HermesSource

    hermes = HermesHome(tmp_path / "hermes")
    db = hermes.db()
    db.session("h1", cwd=str(tmp_path / "dev" / "proj"), title="secrets everywhere")
    db.conversation("h1", [(case["text"], f"ok: {case['text']}") for case in POSITIVES], start=T0 + 1)
    policy = tmp_path / "hermes.json"
    (tmp_path / "dev").mkdir(exist_ok=True)
    policy.write_text(json.dumps({"hermes_home": str(hermes.root), "sources": ["desktop"], "min_user_prompts": 1,
                                  "default_project": "hermes", "corpus_root": str(tmp_path / "dev")}), "utf-8")
    run_ingest(HermesSource({"policy": load_policy(str(policy)), "_now": T0 + 30 * 86400}), home)


@pytest.mark.slow
def test_no_secret_survives_any_writer(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    monkeypatch.setenv("CARTO_CATCHUP", "0")
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    runner = CliRunner()

    # 1. Live hooks, both agents; a problem line for hook.log.
    for provider in ("claude", "codex"):
        for case in POSITIVES:
            text = case["text"]
            hook(provider, "PostToolUse", {"tool_name": "Bash", "tool_input": {"command": text},
                                           "tool_response": {"stdout": text, "stderr": ""}}, home, repo)
            hook(provider, "PostToolUse", {"tool_name": "WebSearch", "tool_input": {"query": text}}, home, repo)
            hook(provider, "PostToolUse", {"tool_name": "WebFetch", "tool_input": {
                "url": f"https://api.example.com/v1/items?access_token={quote(case['secret'], safe='')}",
                "prompt": text}}, home, repo)
        hook(provider, "PostCompact", {"trigger": "auto",
                                       "compact_summary": "\n".join(c["text"] for c in POSITIVES)}, home, repo)
    for case in POSITIVES:
        log_problem(f"claude PostToolUse: could not read {case['text']}", home)

    # 2. Claude transcripts and prompt history; 3. Codex rollouts.
    claude_transcript(tmp_path / "projects" / "-w-proj")
    history = tmp_path / "history.jsonl"
    history.write_text("".join(json.dumps({"display": c["text"], "timestamp": 1765606729001 + n, "project": "/w/proj"})
                               + "\n" for n, c in enumerate(POSITIVES)), "utf-8")
    result = runner.invoke(cli, ["ingest", "claude", "--root", str(tmp_path / "projects"), "--history", str(history)])
    assert result.exit_code == 0, result.output
    codex_rollout(tmp_path / "codex")
    result = runner.invoke(cli, ["ingest", "codex", "--root", str(tmp_path / "codex")])
    assert result.exit_code == 0, result.output

    # 4. Git commit messages (one commit per credential).
    for n, case in enumerate(POSITIVES):
        (repo / "f.txt").write_text(str(n))
        git(repo, "add", "f.txt")
        git(repo, "commit", "-q", "-m", f"chore: rotate\n\n{case['text']}")
    result = runner.invoke(cli, ["ingest", "git", "--repo", str(repo), "--all-authors", "--limit", "1000"])
    assert result.exit_code == 0, result.output

    # 5. Hermes; 6. a wrapup typed with a secret; 7. search telemetry and a knowledge gap.
    hermes_sessions(tmp_path, home)
    monkeypatch.setenv("CARTO_SESSION_ID", "sess-claude")
    result = runner.invoke(cli, ["wrapup", "--session", "sess-claude", *[a for c in POSITIVES[:20] for a in ("--decision", c["text"])]])
    assert result.exit_code in (0, 3), result.output
    for case in POSITIVES[::7]:
        runner.invoke(cli, ["search", case["text"][:200], "--json"])

    # 8. Every index: keyword, semantic (LSA vocabulary), facts.
    result = runner.invoke(cli, ["index", "--rebuild"])
    assert result.exit_code in (0, 3), result.output
    runner.invoke(cli, ["facts", "census", "--json"])

    written = [p for p in home.root.rglob("*") if p.is_file()]
    assert len(written) > 20, "the writers wrote nothing to grep"
    turns = home.log("turns").read_text()
    assert "[REDACTED:" in turns and "[REDACTED:" in home.log("changelog").read_text()
    assert leaks(home.root, [c["secret"] for c in POSITIVES]) == {}


def test_the_grep_finds_a_secret_where_it_is(tmp_path):
    """The check above can fail: a fragment stored in any encoding or case is found."""
    import numpy as np

    secret = "Zq8TrvX31kLmPw09"
    (tmp_path / "a.jsonl").write_text(json.dumps({"summary": f"token {secret.lower()}"}))
    np.save(tmp_path / "terms.npy", np.array(["other", secret[:13]]))
    assert sorted(leaks(tmp_path, [secret])[secret]) == ["a.jsonl", "terms.npy"]
    assert leaks(tmp_path, ["nothing-like-it-9X7q2"]) == {}
