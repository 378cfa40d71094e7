"""Golden rows for a fixed set of Claude Code hook payloads, fired in a git repository the test
builds (upstream's `tests/fixtures/hook-rows` scenario, re-expressed here).

Everything a run cannot hold constant is masked (event ids, timestamps, the temp path, shas);
the rest of every row is compared byte for byte with `golden/hook-rows.txt`, so key order,
summaries, salience, parent threading and commit detection are all pinned. Regenerate with
`CARTO_REGEN_GOLDEN=1` and review the diff.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

from carto_core.logio.home import Home
from carto_core.capture.hookpath import run

GOLDEN = Path(__file__).parent / "golden" / "hook-rows.txt"
LOGS = ("tool-use-log.jsonl", "changelog.jsonl", "research-log.jsonl", "session-milestones.jsonl")


def _git(repo: Path, *args: str, env: dict | None = None) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    return done.stdout


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_CATCHUP", "0")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    for key, value in {"GIT_AUTHOR_NAME": "Fixture", "GIT_AUTHOR_EMAIL": "fixture@example.invalid",
                       "GIT_COMMITTER_NAME": "Fixture", "GIT_COMMITTER_EMAIL": "fixture@example.invalid"}.items():
        monkeypatch.setenv(key, value)
    ws = tmp_path / "space"
    repo = ws / "fixrepo"
    (repo / "src").mkdir(parents=True)
    home = Home(ws / "home")
    _git(ws, "init", "-q", "-b", "main", str(repo))
    (repo / "README.md").write_text("seed\n")
    (repo / "src" / "app.js").write_text("console.log(0)\n")
    _git(repo, "add", "-A")
    # Backdated so the seed sits outside every reflog window.
    _git(repo, "commit", "-q", "-m", "chore: seed",
         env={"GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z", "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z"})
    transcript = ws / "claude" / "projects" / "-space-fixrepo" / "sess-claude-1.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text(json.dumps({"type": "user", "cwd": str(repo), "message": {"role": "user", "content": "hi"}}) + "\n")
    return ws, repo, home, transcript


def fire(home, event: str, payload: dict) -> str | None:
    return run("claude", event, json.dumps(payload).encode(), home)


def scenario(ws: Path, repo: Path, home: Home, transcript: Path) -> None:
    base = {"session_id": "sess-claude-1", "transcript_path": str(transcript), "cwd": str(repo)}

    def bash(command: str, stdout: str = "", event: str = "PostToolUse", **extra) -> None:
        fire(home, event, {**base, "hook_event_name": event, "tool_name": "Bash", "tool_use_id": "toolu_1",
                           "tool_input": {"command": command},
                           "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False}, **extra})

    def tool(name: str, tool_input: dict, **extra) -> None:
        fire(home, "PostToolUse", {**base, "hook_event_name": "PostToolUse", "tool_name": name,
                                   "tool_input": tool_input, **extra})

    def commit(message: str, content: str, path: str = "src/app.js") -> None:
        (repo / path).write_text(content)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", message)

    bash('npm test -- --grep "foo bar"', "ok")                                    # Ran:
    bash(f"cd {repo} && ls -la")                                                  # noise
    bash(f"cat > {repo}/src/app.js <<'EOF'\nconsole.log(1)\nEOF")                # shell write
    bash(f"cd {repo} && python3 - <<'PY'\np='src/notes.md'\nopen(p,'w').write('x')\nPY")
    bash("node -e 'console.log(\"héllo wörld — ünïcode\")'", "héllo")
    bash('printf %s "' + "a" * 600 + '" > /dev/null')                            # 200-byte cut
    tool("Edit", {"file_path": f"{repo}/src/app.js", "old_string": "0", "new_string": "1"})
    tool("Write", {"file_path": f"{ws}/outside.md", "content": "x"})
    tool("MultiEdit", {"file_path": f"{repo}/node_modules/x/index.js", "edits": []})  # noise path
    tool("Read", {"file_path": "x"})                                              # other tool
    commit("feat(app): log two", "console.log(2)\n")
    bash(f"git -C {repo} add -A && git -C {repo} commit -q -m 'feat(app): log two'", duration_ms=30000)
    bash(f"git -C {repo} commit -q -m 'feat(app): log two'", duration_ms=1000)   # already logged
    commit("fix: three", "console.log(3)\n")
    bash(f"git -C {repo} commit -m 'fix: three'", "[main 1234567] fix: three")    # Codex-shaped: HEAD
    bash(f"git -C {repo} commit -m 'nothing here'", "nothing to commit, working tree clean")
    bash(f"git -C {repo} push origin main", "fatal: no remote")                   # Pushed:
    bash("npm test", "boom", event="PostToolUseFailure")                          # failed: nothing
    bash("node -e 'x" + "x" * 20100 + f"' && git -C {repo} commit -m 'never seen'", "ok")
    commit("fix(core): tidy — \"quoted\" 'single'", "console.log(4)\n")
    bash(f"cd {repo} && git add -A && git commit -q -F - <<'MSG'\nfix(core): tidy — \"quoted\" 'single'\nMSG",
         duration_ms=30000)
    commit("docs: note", "docs: note\n", path="msg.txt")
    bash(f"cat {repo}/msg.txt | git -C {repo} commit -q -F -")                     # pipe hides noise
    commit("chore: via var", "console.log(5)\n")
    bash(f'W={repo}; git -C "$W" commit -q -m "chore: via var"', duration_ms=30000)
    (repo / "src" / "app.js").write_text("console.log(6)\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "feat: before the failure")
    (repo / "src" / "extra.js").write_text("x\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--amend", "--no-edit")
    bash(f"git -C {repo} commit -q -m 'feat: before the failure' && git -C {repo} commit --amend --no-edit && false",
         event="PostToolUseFailure", duration_ms=30000)                           # two commits, chained
    bash(f"sed -i '' 's/5/7/' {repo}/src/app.js")
    bash(f"tee -a {repo}/notes.log <<<'x'")
    bash(f"cd {repo} && python3 - <<'PY'\n# {'c' * 520}\nopen('src/gen.py','w').write('x')\nPY")
    bash("ls \\\n  -la")                                                         # continued noise
    bash(f'echo "x" ; git -C {repo} status')                                     # one real segment
    bash("# git commit -m x\nnpm run build")                                     # a comment
    bash("cat > /tmp/scratch-carto.txt <<'EOF'\nx\nEOF")                          # scratch path
    tool("WebFetch", {"url": "https://arxiv.org/abs/2401.00001", "prompt": "summarise"})
    tool("WebSearch", {"query": "bm25 saturation"}, tool_response={
        "query": "bm25 saturation",
        "results": [{"tool_use_id": "srv", "content": [
            {"title": "Okapi BM25", "url": "https://en.wikipedia.org/wiki/Okapi_BM25"},
            {"title": "bm25s", "url": "https://github.com/xhluca/bm25s"}]}, "summary text"]})
    tool("mcp__fetch__fetch", {"url": "https://medium.com/p/1"})
    fire(home, "Stop", {**base, "hook_event_name": "Stop", "stop_hook_active": False})
    fire(home, "PreCompact", {**base, "hook_event_name": "PreCompact", "trigger": "auto"})
    fire(home, "SubagentStop", {**base, "hook_event_name": "SubagentStop", "agent_type": "Explore"})
    fire(home, "SubagentStop", {**base, "hook_event_name": "SubagentStop", "agent_type": "Bash"})
    (repo / "README.md").write_text("seed\ndirty\n")
    (repo / "untracked.txt").write_text("new\n")
    _git(repo, "checkout", "-q", "--detach")
    fire(home, "PreCompact", {**base, "hook_event_name": "PreCompact", "trigger": "manual"})
    _git(repo, "checkout", "-q", "main")
    fire(home, "SubagentStop", {**base, "hook_event_name": "SubagentStop", "agent_type": "Plan"})
    fire(home, "PostCompact", {**base, "hook_event_name": "PostCompact", "trigger": "manual",
                               "compact_summary": "We fixed\nthe parser. token ghp_" + "a" * 36})
    fire(home, "SessionEnd", {**base, "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"})
    missing = str(transcript.parent / "missing.jsonl")
    fire(home, "SessionEnd", {**base, "transcript_path": missing, "cwd": str(ws), "reason": "other"})
    fire(home, "SessionEnd", {**base, "session_id": "sess-empty", "transcript_path": missing, "reason": "other"})
    fire(home, "UserPromptSubmit", {**base, "prompt": "hello"})


def masked(ws: Path, home: Home) -> str:
    out = []
    ws_text = str(ws)
    ws_enc = quote(ws_text, safe="")
    for name in LOGS:
        out.append(f"== {name}")
        path = home.root / name
        if not path.exists():
            continue
        for line in path.read_text("utf-8").splitlines():
            line = re.sub(r'"(event_id|parent_event_id)":"evt-[a-z0-9]{12}"', r'"\1":"<EID>"', line)
            line = re.sub(r'"related_ids":\["evt-[a-z0-9]{12}"\]', '"related_ids":["<EID>"]', line)
            line = re.sub(r'"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"', '"timestamp":"<TS>"', line)
            line = line.replace(ws_enc, "<WS_ENC>").replace(ws_text, "<WS>")
            line = re.sub(r"Commit [0-9a-f]{40}", "Commit <SHA>", line)
            line = re.sub(r'(recent_commits":"|\|)[0-9a-f]{7} ', r"\1<SHA7> ", line)
            out.append(line)
    return "\n".join(out) + "\n"


def test_hook_rows_match_golden(workspace):
    ws, repo, home, transcript = workspace
    scenario(ws, repo, home, transcript)
    text = masked(ws, home)
    if os.environ.get("CARTO_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, "utf-8")
    assert text == GOLDEN.read_text("utf-8")


def test_commits_are_chained_oldest_first_and_never_relogged(workspace):
    ws, repo, home, transcript = workspace
    scenario(ws, repo, home, transcript)
    rows = [json.loads(line) for line in (home.root / "tool-use-log.jsonl").read_text().splitlines()]
    commits = [row for row in rows if row["type"] == "git_commit"]
    shas = [re.search(r"Commit ([0-9a-f]{40})", row["summary"]).group(1) for row in commits]
    # Independent truth: every commit git made after the seed, oldest first, except the one the
    # amend replaced (it is in the reflog, and was made during that failed call too).
    made = _git(repo, "reflog", "--format=%H %gs").split("\n")
    reflog = [line.split(" ", 1)[0] for line in reversed(made) if line and not line.split(" ", 1)[1].startswith(("checkout", "commit (initial)"))]
    assert sorted(shas) == sorted(set(reflog))
    assert len(shas) == len(set(shas))  # never logged twice
    # The failed call's two commits: the plain one first, then the amend, which points at it.
    last_two = commits[-2:]
    assert [row.get("commit_action") for row in last_two] == ["commit", "amend"]
    assert last_two[1]["parent_event_id"] == last_two[0]["event_id"]
    # Every changelog copy carries the same id as its tool-use row.
    changelog_ids = {json.loads(line)["event_id"] for line in (home.root / "changelog.jsonl").read_text().splitlines()}
    assert {row["event_id"] for row in rows} <= changelog_ids


def test_redaction_applies_before_writing(workspace):
    ws, repo, home, transcript = workspace
    secret = "ghp_" + "b" * 36
    fire(home, "PostToolUse", {"session_id": "s", "cwd": str(repo), "transcript_path": str(transcript),
                               "tool_name": "Bash", "tool_input": {"command": f"curl -H 'Authorization: token {secret}' x"}})
    text = (home.root / "changelog.jsonl").read_text()
    assert secret not in text and "[REDACTED:github-token]" in text


def test_tool_use_capture_can_be_turned_off(workspace, monkeypatch):
    ws, repo, home, transcript = workspace
    monkeypatch.setenv("CARTO_CAPTURE_TOOL_USE", "0")
    fire(home, "PostToolUse", {"session_id": "s", "cwd": str(repo), "transcript_path": str(transcript),
                               "tool_name": "Bash", "tool_input": {"command": "make"}})
    tool_payload = {"session_id": "s", "cwd": str(repo), "transcript_path": str(transcript),
                    "tool_name": "WebFetch", "tool_input": {"url": "https://docs.python.org"}}
    fire(home, "PostToolUse", tool_payload)
    assert not (home.root / "tool-use-log.jsonl").exists()
    assert (home.root / "research-log.jsonl").exists()  # research is not tool-use capture
