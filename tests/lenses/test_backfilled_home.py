"""Every lens on a home made only by `carto ingest claude` (no hook ever ran: how a user starts).

The home is built from the shared real transcripts (`shared/fixtures/claude`) and the two
Claude Code 2.1.328 sessions recorded from the real client (`plugins/claude/tests/fixtures/
claude-2.1.328`), copied into a temporary `~/.claude/projects`. What each lens must show is
read off the fixtures themselves (the `FACTS` below say where), not off carto's output.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli

CLIENT = Path(__file__).resolve().parents[2] / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328"

DEMO_INIT = "1af7fc5e-8455-4414-9ccd-011d40f70b2a"   # cwd /path/to/Demo: Bash find + ls, a refused Write
DEMO_ORCH = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"   # cwd /path/to/Demo: Edit refused, then MultiEdit CLAUDE.md
SHOWCASE = "55550000-0000-4000-8000-000000000001"    # example-app: two MCP calls, two Agent calls
COMMITTED = "2a1c0000-0000-4000-8000-000000000001"   # echo > a.txt + git commit "feat: add a", Write test_b.py
FAILED_COMMIT = "2a1c0000-0000-4000-8000-000000000002"  # Edit README.md, git commit "fix: readme title" && exit 3


def _run(*args: str, ok: tuple[int, ...] = (0,)) -> dict | str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return json.loads(result.stdout) if "--json" in args else result.stdout


@pytest.fixture
def home(shared_fixtures, tmp_path, monkeypatch):
    """HOME/.claude/projects holding the fixtures, ingested by `carto ingest claude` alone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    projects = Path(os.environ["HOME"]) / ".claude" / "projects"
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", projects)
    shutil.copytree(shared_fixtures / "claude" / "claude-code-log", projects / "claude-code-log",
                    ignore=shutil.ignore_patterns("*.md"))
    shutil.copytree(CLIENT, projects / "-home-dev-repo", ignore=shutil.ignore_patterns("*.md"))
    old = time.time() - 3 * 86400
    for path in projects.rglob("*"):
        os.utime(path, (old, old))
    summary = _run("ingest", "claude", "--json")
    assert summary["written"]["turns"] > 0
    carto_home = Path(os.environ["CARTO_HOME"])
    assert sorted(p.name for p in carto_home.glob("*.jsonl")) == ["turns.jsonl"]  # no hook log at all
    yield carto_home
    monkeypatch.delenv("TZ")
    time.tzset()


def _turns(home: Path) -> list[dict]:
    return [json.loads(line) for line in (home / "turns.jsonl").read_text().splitlines()]


def test_turn_rows_record_the_tool_calls_the_fixtures_hold(home):
    rows = {r["event_id"]: r for r in _turns(home)}
    orch = rows[f"turn-{DEMO_ORCH}-1"]
    by_name = [(t["name"], t.get("failed", False), t.get("edits")) for t in orch["tools"]]
    # The Edit of CLAUDE.md was refused ("File has not been read yet"): no edit; the MultiEdit
    # after the Read made one.
    assert ("Edit", True, None) in by_name
    assert ("MultiEdit", False, ["/path/to/Demo/CLAUDE.md"]) in by_name
    init = rows[f"turn-{DEMO_INIT}-1"]
    write = next(t for t in init["tools"] if t["name"] == "Write")
    assert write["failed"] is True and "edits" not in write  # "Claude requested permissions ..."
    assert orch["cwd"] == "/path/to/Demo"


def test_standup_roster_and_contention_come_from_turns(home):
    doc = _run("standup", "--since", "3650d", "--no-git", "--json")
    sessions = {s["id"]: s for s in doc["sessions"]}
    assert {DEMO_INIT, DEMO_ORCH, SHOWCASE, COMMITTED, FAILED_COMMIT} <= set(sessions)
    assert {s["evidence"] for s in doc["sessions"]} == {"turns"}
    orch = sessions[DEMO_ORCH]
    assert orch["projects"] == ["Demo"] and orch["provider"] == "claude"
    # 4 turns: the prompt, two inline Task sidechains, the agent file beside the session.
    assert orch["turns"] == 4
    assert orch["types"]["tool_file_edit"] == 1          # the MultiEdit
    assert orch["types"]["milestone_agent_general-purpose"] == 2  # the Task calls that ran
    assert sessions[COMMITTED]["commits"] == [{"sha": "995f281", "subject": "feat: add a", "type": "feature",
                                               "project": "repo"}]
    assert [c["sha"] for c in sessions[FAILED_COMMIT]["commits"]] == ["396cba8"]  # from the failed call
    projects = {item["project"]: item["sessions"] for item in doc["contention"]["projects"]}
    assert projects["Demo"] == sorted([DEMO_INIT, DEMO_ORCH])
    assert projects["repo"] == sorted([COMMITTED, FAILED_COMMIT])
    text = _run("standup", "--since", "3650d", "--no-git")
    assert "Demo — 2 sessions" in text and "(no hook rows)" in text


def test_session_digest_reads_the_sessions_turns(home):
    doc = _run("digest", "session", "--session", DEMO_ORCH, "--json")
    assert doc["evidence"] == "turns" and doc["turns"] == 4
    assert doc["counts"]["edits"] == 1 and doc["counts"]["subagents"] == 2
    assert doc["counts"]["bash"] == 1  # find ... (ls is noise; tree failed)
    assert doc["files"] == [{"path": "/path/to/Demo/CLAUDE.md", "touches": 1}]
    assert doc["projects"] == ["Demo"]
    committed = _run("digest", "session", "--session", COMMITTED, "--json")
    assert [(c["sha"], c["subject"]) for c in committed["commits"]] == [("995f281", "feat: add a")]
    assert {f["path"] for f in committed["files"]} == {"/home/dev/repo/a.txt", "/home/dev/repo/test_b.py"}


def test_day_digest_with_turns_and_no_changelog_is_not_an_outage(home):
    doc = _run("digest", "day", "2025-09-07", "--no-git", "--json")
    day_rows = [r for r in _turns(home) if r["timestamp"].startswith("2025-09-07")]
    assert doc["totals"]["events"] == len(day_rows) == 3
    assert doc["from_turns"]["sessions"] == [DEMO_ORCH]
    (demo,) = doc["projects"]
    assert demo["name"] == "Demo" and demo["files"] == [{"path": "/path/to/Demo/CLAUDE.md", "touches": 1}]
    recorded = _run("digest", "day", "2026-12-01", "--no-git", "--json")
    commits = {c["sha"]: c for p in recorded["projects"] for c in p["commits"]}
    assert set(commits) == {"995f281", "396cba8"}
    assert {c["status"] for c in commits.values()} == {"unverified"}
    text = _run("digest", "day", "2025-09-07", "--no-git")
    assert "files: /path/to/Demo/CLAUDE.md ×1" in text


def test_wrapup_drafts_from_turns_and_writes_once(home):
    doc = _run("wrapup", "--session", COMMITTED, "--json")
    row = doc["row"]
    assert doc["receipt"]["log_outcome"] == "written"
    assert row["decisions"] == ["feat: add a (995f281)"]
    # a.txt went into the commit (the same call); test_b.py was written after it.
    assert row["unresolved"] == ["uncommitted edits: test_b.py"]
    assert row["project"] == "repo" and row["provider"] == "claude"
    again = _run("wrapup", "--session", COMMITTED, "--json")
    assert again["receipt"]["log_outcome"] == "already_present"
    orch = _run("wrapup", "--session", DEMO_ORCH, "--dry-run", "--json")["row"]
    assert orch["decisions"] == [] and orch["unresolved"] == ["uncommitted edits: CLAUDE.md"]
    assert orch["key_insight"] == "work concentrated in CLAUDE.md (1 edit)"
    # The wrapup row is carto's own: the session's digest still reads its turns.
    assert _run("digest", "session", "--session", COMMITTED, "--json")["evidence"] == "turns"


def test_profile_counts_turn_commits_and_tool_calls(home):
    doc = _run("profile", "--window", "3650d", "--no-write", "--json")
    text = doc["markdown"]
    demo = sum(1 for r in _turns(home) if r["project"] == "Demo")
    assert f"- Demo: last seen 2025-09-07, {demo} events, 0 commits" in text
    assert "- repo: last seen 2026-12-01, 2 events, 2 commits" in text
    assert "- commit types: feature 1, fix 1" in text or "- commit types: fix 1, feature 1" in text
    line = text.split("- tool calls (transcripts): ", 1)[1].split("\n", 1)[0]
    tools = dict(item.rsplit(" ", 1) for item in line.split(", "))
    assert tools["mcp:plugin_showcase_example"] == "2" and tools["MultiEdit"] == "2"
    # Bash: 8 calls in the shared fixtures, 3 in the recorded sessions.
    assert tools["Bash"] == "11"


def test_trustmap_names_mcp_servers_and_clis_from_turns(home):
    doc = _run("trustmap", "--window", "3650d", "--min", "1", "--json")
    assert [(e["id"], e["hits"]) for e in doc["mcp_servers"]] == [("plugin_showcase_example", 2)]
    clis = {e["id"] for e in doc["clis"]} | set(doc["clis_unresolved"])
    assert clis == {"pytest"}  # `pytest -q || true`; find/python are builtins, ls is noise, tree failed


def test_a_session_with_hook_rows_is_read_from_them_alone(home):
    """Hooks and the transcript saw the same commit: it is counted once, from the hook row."""
    from carto_core.logio.appendlog import append_rows

    append_rows(home / "changelog.jsonl", [{
        "event_id": "evt-hook0commit", "timestamp": "2026-12-01T08:49:44.300Z", "type": "git_commit",
        "provider": "claude", "session_id": COMMITTED, "project": "repo", "cwd": "/home/dev/repo",
        "summary": "[feature] Commit 995f281: feat: add a | files: a.txt", "commit_type": "feature"}])
    doc = _run("standup", "--since", "3650d", "--no-git", "--json")
    committed = next(s for s in doc["sessions"] if s["id"] == COMMITTED)
    # Its rows: the hook row and its one turn (counted as rows, never read for work).
    assert committed["evidence"] == "hooks" and committed["events"] == 2 and committed["turns"] == 1
    assert [c["sha"] for c in committed["commits"]] == ["995f281"]
    other = next(s for s in doc["sessions"] if s["id"] == FAILED_COMMIT)
    assert other["evidence"] == "turns"  # its neighbour logged nothing: still read from its turns
    digest = _run("digest", "session", "--session", COMMITTED, "--json")
    assert digest["evidence"] == "hooks" and digest["counts"]["commits"] == 1
    profile = _run("profile", "--window", "3650d", "--no-write", "--json")["markdown"]
    assert "- repo: last seen 2026-12-01, 3 events, 2 commits" in profile  # 995f281 once, 396cba8


def test_day_digest_of_a_home_of_prompts_alone_is_not_an_outage(tmp_path, monkeypatch):
    """A person typed prompts and the agent ran no tool: `carto sessions` and `standup` list
    the session, and the day digest counted it as an outage of the hooks."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.home import Home
    from carto_core.logio.logs import order_row

    root = tmp_path / "home"
    root.mkdir()
    monkeypatch.setenv("CARTO_HOME", str(root))
    append_rows(Home(root).log("prompts"), [order_row("prompts", {
        "event_id": "evt-p00000000001", "timestamp": "2026-12-01T10:00:00Z", "type": "prompt",
        "provider": "claude", "summary": "fix the zephyrquill deploy", "project": "shop",
        "cwd": "/work/shop", "session_id": "s-prompt-only", "salience": 0.6})])
    doc = _run("digest", "day", "2026-12-01", "--no-git", "--json")
    assert doc["totals"]["events"] == 1
    assert [p["name"] for p in doc["projects"]] == ["shop"]
