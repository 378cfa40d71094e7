"""`carto hook codex <Event>`: Claude's row shapes where Codex fires the event, turn_stop on
Stop, apply_patch as `Modified: a,b`, commits from HEAD; the hooks file and its installer."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.capture.hookpath import run
from carto_core.logio.reader import iter_lines

from carto_codex import install as installer

CLAUDE_HOOKS = (Path(__file__).parents[2] / "claude" / "src" / "carto_claude" / "claude_plugin"
                / "hooks" / "hooks.json")
# Written here from reference/formats.md 2.9, independently of the plugin's list, plus what the
# real Codex CLI 0.169.0 was seen to fire (SessionEnd, reason "other": docs/providers/codex.md).
CODEX_FIRES = {"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
               "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "StopFailure",
               "SessionEnd"}
CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]


def test_codex_hooks_equal_claude_hooks_minus_events_codex_never_fires():
    claude = json.loads(CLAUDE_HOOKS.read_text())["hooks"]
    codex = installer.carto_hooks()
    expected = {event: json.loads(json.dumps(groups).replace("carto hook claude ", "carto hook codex "))
                for event, groups in claude.items() if event in CODEX_FIRES}
    assert {e: g for e, g in codex.items() if e not in installer.CODEX_ONLY} == expected
    assert set(claude) - set(codex) == set(installer.NOT_FIRED_BY_CODEX)
    assert set(codex) - set(claude) == set(installer.CODEX_ONLY) == {"UserPromptSubmit"}
    assert set(codex) <= CODEX_FIRES
    for groups in codex.values():
        for group in groups:
            for handler in group["hooks"]:
                assert re.fullmatch(r"carto hook codex [A-Za-z]+", handler["command"])


@pytest.fixture
def repo(tmp_path, monkeypatch):
    for key, value in {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull,
                       "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Fixture",
                       "GIT_AUTHOR_EMAIL": "f@example.invalid", "GIT_COMMITTER_NAME": "Fixture",
                       "GIT_COMMITTER_EMAIL": "f@example.invalid", "CARTO_CATCHUP": "0"}.items():
        monkeypatch.setenv(key, value)
    path = tmp_path / "shop"
    (path / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    (path / "README.md").write_text("seed\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "chore: seed", env={"GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z",
                                                        "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z"})
    return path


def git(repo: Path, *args: str, env: dict | None = None) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, check=True)
    return done.stdout.strip()


def rows(home: Home, log: str) -> list[dict]:
    return [line.row for line in iter_lines(home.log(log))]


def masked(home: Home) -> dict[str, list[dict]]:
    out = {}
    for log in ("tool-use", "changelog", "research", "milestones"):
        out[log] = [{k: ("<X>" if k in ("event_id", "timestamp", "parent_event_id", "provider",
                                        "transcript_path") else
                         [("<id>" if i.startswith("evt-") else i) for i in v] if k == "related_ids" else v)
                     for k, v in row.items()}
                    for row in rows(home, log)]
    return out


def base(repo: Path, provider: str, event: str) -> dict:
    payload = {"session_id": "sess-1", "transcript_path": f"/t/{provider}.jsonl", "cwd": str(repo),
               "hook_event_name": event}
    if provider == "codex":
        payload.update(model="gpt-5-codex", turn_id="turn-1", permission_mode="default")
    return payload


def test_shared_events_write_claudes_rows_stamped_codex(repo, tmp_path):
    """The same tool calls through both providers: identical rows but for provider and ids."""
    homes = {p: Home(tmp_path / f"home-{p}") for p in ("claude", "codex")}
    calls = [
        ("PostToolUse", {"tool_name": "Bash", "tool_input": {"command": "npm test -- --grep x"},
                         "tool_response": "ok"}),
        ("PostToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls -la"}}),  # noise
        ("PostToolUse", {"tool_name": "WebFetch", "tool_input": {"url": "https://arxiv.org/abs/1", "prompt": "p"}}),
        ("PostToolUse", {"tool_name": "WebSearch", "tool_input": {"query": "bm25 saturation"},
                         "tool_response": {"results": [{"url": "https://docs.python.org/x", "title": "T"}]}}),
        ("PreCompact", {"trigger": "manual"}),
        ("SubagentStop", {"agent_type": "Explore", "agent_id": "a", "stop_hook_active": False}),
    ]
    for provider, home in homes.items():
        for event, extra in calls:
            run(provider, event, json.dumps({**base(repo, provider, event), **extra}).encode(), home)
    claude, codex = masked(homes["claude"]), masked(homes["codex"])
    assert codex == claude
    assert sum(len(v) for v in codex.values()) == 2 + 2 + 3 + 2 + 2  # Ran, fetch, search(+result), 2 milestones
    assert {r["provider"] for log in ("tool-use", "changelog", "research", "milestones")
            for r in rows(homes["codex"], log)} == {"codex"}


def test_every_codex_subagent_is_an_agent_milestone_once(repo, tmp_path):
    """A subagent a spawn_agent call started is counted as Claude's Task/Agent subagents are
    (`milestone_agent_<type>`), whatever its role: Codex 0.169 sends `agent_type: "default"`
    for a call that names none. Its SubagentStop, fired after each of its turns, is one event."""
    home = Home(tmp_path / "home")
    child = "01a24455-a8da-7932-8809-93c38cf07017"
    stop = {**base(repo, "codex", "SubagentStop"), "agent_transcript_path": f"/t/rollout-{child}.jsonl",
            "stop_hook_active": False, "agent_id": child, "agent_type": "default",
            "last_assistant_message": "hello from the child"}
    for turn in ("turn-2", "turn-3"):  # two turns of the same subagent
        run("codex", "SubagentStop", json.dumps({**stop, "turn_id": turn}).encode(), home)
    run("codex", "SubagentStop", json.dumps({**stop, "agent_id": "a2", "agent_type": "code reviewer"}).encode(), home)
    run("codex", "SubagentStop", json.dumps({**stop, "agent_id": "a3", "agent_type": ""}).encode(), home)
    marks = [(r["milestone"], r["description"], r["event"]) for r in rows(home, "milestones")]
    assert marks == [("agent_default", "default agent completed", "SubagentStop")] * 2 + [
        ("agent_code-reviewer", "code-reviewer agent completed", "SubagentStop"),
        ("agent_default", "default agent completed", "SubagentStop")]
    ids = [r["event_id"] for r in rows(home, "changelog")]
    assert ids[0] == ids[1] and len(set(ids)) == 3
    assert ids == [r["event_id"] for r in rows(home, "milestones")]
    result = CliRunner().invoke(cli, ["digest", "session", "--session", "sess-1", "--json"],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["evidence"] == "hooks" and doc["counts"]["subagents"] == 3


def test_apply_patch_is_one_modified_row_with_every_path(repo, tmp_path):
    home = Home(tmp_path / "home")
    patch = ("*** Begin Patch\n*** Add File: src/discounts.py\n+x\n*** Update File: src/cart.py\n@@\n-a\n+b\n"
             "*** Update File: src/discounts.py\n@@\n+y\n*** End Patch\n")
    for tool_input in ({"input": patch}, {"command": ["apply_patch", patch]}, patch):
        run("codex", "PostToolUse", json.dumps({**base(repo, "codex", "PostToolUse"), "tool_name": "apply_patch",
                                                "tool_input": tool_input}).encode(), home)
    # The shell form Codex also uses: apply_patch as a heredoc in a Bash call.
    run("codex", "PostToolUse", json.dumps({**base(repo, "codex", "PostToolUse"), "tool_name": "Bash",
                                            "tool_input": {"command": f"apply_patch <<'EOF'\n{patch}EOF"}}).encode(), home)
    edits = rows(home, "tool-use")
    assert [r["summary"] for r in edits] == ["Modified: src/discounts.py,src/cart.py"] * 4
    assert {(r["type"], r["tool"], r["project"]) for r in edits} == {("tool_file_edit", "apply_patch", "shop")}


def test_commits_are_read_from_head_once(repo, tmp_path):
    home = Home(tmp_path / "home")
    (repo / "src" / "cart.py").write_text("cart\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feat: cart")
    sha = git(repo, "rev-parse", "HEAD")
    payload = {**base(repo, "codex", "PostToolUse"), "tool_name": "Bash",
               "tool_input": {"command": "git add -A && git commit -m 'feat: cart'"}}
    run("codex", "PostToolUse", json.dumps(payload).encode(), home)
    [commit] = [r for r in rows(home, "tool-use") if r["type"] == "git_commit"]
    assert commit["summary"] == f"[feature] Commit {sha}: feat: cart | files: src/cart.py"
    assert "commit_action" not in commit  # HEAD mode: upstream writes no action for Codex
    assert commit["provider"] == "codex" and commit["session"] == "sess-1"
    run("codex", "PostToolUse", json.dumps(payload).encode(), home)  # "nothing to commit" re-run
    assert [r["type"] for r in rows(home, "tool-use")] == ["git_commit", "tool_bash"]


def test_stop_is_a_turn_stop_milestone_and_finds_the_rollout_when_path_is_null(repo, tmp_path, monkeypatch):
    codex_home = tmp_path / "codex"
    rollout = codex_home / "sessions" / "2026" / "03" / "01" / "rollout-2026-03-01T10-00-00-sess-1.jsonl"
    rollout.parent.mkdir(parents=True)
    rollout.write_text("{}\n")
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    home = Home(tmp_path / "home")
    payload = {**base(repo, "codex", "Stop"), "transcript_path": None, "stop_hook_active": False,
               "last_assistant_message": "done"}
    run("codex", "Stop", json.dumps(payload).encode(), home)
    [milestone] = rows(home, "milestones")
    [copy] = rows(home, "changelog")
    assert (milestone["milestone"], milestone["description"], milestone["event"]) == \
        ("turn_stop", "Codex turn completed", "Stop")
    assert milestone["transcript_path"] == str(rollout) and milestone["transcript_verified"] is True
    assert milestone["deeplink"] == "" and milestone["salience"] == 0.5
    assert copy["type"] == "milestone_turn_stop" and copy["event_id"] == milestone["event_id"]
    assert copy["summary"] == "Codex turn completed [main, 0 dirty, 0 events]"


def test_claude_stop_writes_nothing_but_codex_stop_does(repo, tmp_path):
    homes = {p: Home(tmp_path / p) for p in ("claude", "codex")}
    for provider, home in homes.items():
        run(provider, "Stop", json.dumps(base(repo, provider, "Stop")).encode(), home)
    assert not homes["claude"].log("milestones").exists()
    assert len(rows(homes["codex"], "milestones")) == 1


@pytest.mark.parametrize("event", ["SessionStart", "PermissionRequest", "SessionEnd", "PostToolUseFailure"])
def test_events_without_rows(repo, tmp_path, event):
    home = Home(tmp_path / "home")
    run("codex", event, json.dumps({**base(repo, "codex", event), "source": "startup", "prompt": "hi",
                                    "tool_name": "Bash", "tool_input": {"command": "make"}}).encode(), home)
    assert list(home.root.glob("*.jsonl")) == []


def test_whole_process_bad_input_exits_zero_and_logs(tmp_path):
    home = tmp_path / "home"
    for stdin in (b"", b"{not json", json.dumps({"tool_name": "Bash", "tool_input": {"command": "make"}}).encode()):
        done = subprocess.run([*CARTO, "hook", "codex", "PostToolUse"], input=stdin, capture_output=True,
                              env={**os.environ, "CARTO_HOME": str(home)}, timeout=60)
        assert (done.returncode, done.stdout) == (0, b"")
    assert list(home.glob("*.jsonl")) == []
    problems = (home / ".carto" / "hook.log").read_text().splitlines()
    assert len(problems) == 3 and "no session_id" in problems[-1]


def test_install_merges_never_clobbers_and_is_idempotent(tmp_path):
    path = tmp_path / "codex" / "hooks.json"
    path.parent.mkdir()
    mine = {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter", "timeout": 5}]}
    path.write_text(json.dumps({"hooks": {"PostToolUse": [mine]}, "other": 1}))
    printed = CliRunner().invoke(cli, ["install", "codex", "--hooks-file", str(path), "--print"])
    assert printed.exit_code == 0 and "nothing written" in printed.output
    assert json.loads(path.read_text())["hooks"] == {"PostToolUse": [mine]}
    result = CliRunner().invoke(cli, ["install", "codex", "--hooks-file", str(path), "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    written = json.loads(path.read_text())
    assert written["other"] == 1 and written["hooks"]["PostToolUse"][0] == mine
    commands = {h["command"] for groups in written["hooks"].values() for g in groups for h in g["hooks"]}
    # Each carto command starts with the absolute launcher of this carto (the agent's PATH may
    # not hold the venv), then `hook codex <Event>`.
    launcher = shlex.join(document["launcher"])
    assert os.path.isabs(document["launcher"][0])
    assert commands == {"my-linter"} | {f"{launcher} hook codex {e}" for e in installer.carto_hooks()}
    assert len(document["changes"]) == sum(len(g["hooks"]) for gs in installer.carto_hooks().values() for g in gs)
    assert Path(document["backup"]).read_text() == json.dumps({"hooks": {"PostToolUse": [mine]}, "other": 1})
    again = CliRunner().invoke(cli, ["install", "codex", "--hooks-file", str(path)])
    assert again.exit_code == 0 and "already installed" in again.output
    assert json.loads(path.read_text()) == written


def test_install_refuses_a_file_it_cannot_merge_into(tmp_path):
    path = tmp_path / "hooks.json"
    for text in ("{broken", "[1]", '{"hooks": []}'):
        path.write_text(text)
        result = CliRunner().invoke(cli, ["install", "codex", "--hooks-file", str(path)])
        assert result.exit_code == 4, result.output
        assert path.read_text() == text


def test_install_default_path_and_mcp_delegation(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "cx"))
    result = CliRunner().invoke(cli, ["install", "codex", "--mcp", "--json"])
    document = json.loads(result.stdout)
    assert document["settings"] == str(tmp_path / "cx" / "hooks.json")
    try:
        import carto_core.install.mcp  # noqa: F401
    except ImportError:
        assert result.exit_code == 75 and "error" in document["mcp"]
    else:
        assert result.exit_code == 0, result.output
        assert document["mcp"]["changes"]
        assert "carto" in (tmp_path / "cx" / "config.toml").read_text()
