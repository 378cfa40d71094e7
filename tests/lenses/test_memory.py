"""`carto memory`: the curated MEMORY.md, on the sample home, on a home made by backfill alone,
and at its limits."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.lenses.memory import BEGIN, END, MAX_BYTES, MAX_LINES, build_memory, render
from carto_core.evaluation.sample import build_sample_home

CLIENT = Path(__file__).resolve().parents[2] / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328"
_IDS = re.compile(r"<!-- ([^>]+) -->$")


def _invoke(home: Home, *args, env=None):
    return CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(home.root), **(env or {})})


def _logged_ids(home: Home) -> set[str]:
    ids = set()
    for path in home.root.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            try:
                ids.add(json.loads(line)["event_id"])
            except (ValueError, KeyError):
                continue
    return ids


def assert_traceable_and_within_limits(home: Home, text: str) -> list[str]:
    assert len(text.splitlines()) <= MAX_LINES and len(text.encode()) <= MAX_BYTES
    logged = _logged_ids(home)
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert bullets, text
    for line in bullets:
        match = _IDS.search(line)
        assert match, f"untraceable line: {line}"
        ids = [i.strip() for i in match.group(1).split(",")]
        assert ids and all(i.split(" +")[0] in logged for i in ids), line
    return bullets


def test_memory_of_the_sample_home_is_traceable_and_a_second_write_changes_nothing(tmp_path):
    home = build_sample_home(tmp_path / "h")
    printed = _invoke(home, "memory", "--project", "webshop")
    assert printed.exit_code == 0, printed.output
    bullets = assert_traceable_and_within_limits(home, printed.output)
    assert any("apply discounts before tax" in b for b in bullets)        # a wrapup decision
    assert any("bundles and coupons stacking" in b for b in bullets)      # its open thread
    assert any("Conventional Commits" in b for b in bullets)              # the commits' convention
    target = tmp_path / "claude" / "projects"
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    first = _invoke(home, "memory", "--project", "webshop", "--write", env=env)
    assert first.exit_code == 0, first.output
    assert first.output.startswith("--- ")  # the diff comes before the write
    written = next(target.glob("*/memory/MEMORY.md"))
    assert written.parent.parent.name == re.sub(r"[^A-Za-z0-9]", "-", "/work/webshop")
    before = written.read_bytes()
    second = _invoke(home, "memory", "--project", "webshop", "--write", env=env)
    assert second.exit_code == 0 and "unchanged" in second.output
    assert written.read_bytes() == before


def test_write_keeps_what_a_person_wrote_outside_the_marked_section(tmp_path):
    home = build_sample_home(tmp_path / "h")
    memory_file = tmp_path / "MEMORY.md"
    memory_file.write_text("# Team notes\n- deploys on Fridays are frozen\n")
    assert _invoke(home, "memory", "--project", "webshop", "--write", "--file", str(memory_file)).exit_code == 0
    text = memory_file.read_text()
    assert text.startswith("# Team notes\n- deploys on Fridays are frozen\n")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    # The person edits their part and carto's part goes stale; a rewrite keeps theirs, renews ours.
    text = text.replace("are frozen", "are frozen (since June)") + "\n## After carto\nstill mine\n"
    text = text.replace("apply discounts before tax", "something stale")
    memory_file.write_text(text)
    assert _invoke(home, "memory", "--project", "webshop", "--write", "--file", str(memory_file)).exit_code == 0
    again = memory_file.read_text()
    assert "are frozen (since June)" in again and again.endswith("## After carto\nstill mine\n")
    assert "apply discounts before tax" in again and "something stale" not in again


def test_the_budget_keeps_200_lines_and_25_kb_newest_and_most_reused_first(tmp_path):
    home = Home(tmp_path / "h")
    home.root.mkdir()
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    rows = []
    for n in range(300):
        rows.append({"event_id": f"evt-wrap{n:08d}", "timestamp": (start + timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "milestone": "session_wrapup", "provider": "claude", "description": "d",
                     "session_id": f"s{n}", "project": "big", "decisions": [f"decision number {n} " + "x" * 150],
                     "unresolved": [f"thread {n}"], "key_insight": f"insight {n}"})
    append_rows(home.log("milestones"), rows)
    append_rows(home.log("access"), [{"event_id": "evt-wrap00000007", "timestamp": "2026-12-01T00:00:00Z",
                                      "source": "result_used", "session_id": "x"}] * 3)
    memory = build_memory(home, "big")
    text = render(memory)
    assert_traceable_and_within_limits(home, text)
    decisions = [line for line in text.splitlines() if line.startswith("- decision number")]
    numbers = [int(line.split()[3]) for line in decisions]
    assert numbers[0] == 7                                    # reused three times: first
    assert numbers[1:] == sorted(numbers[1:], reverse=True)   # then the newest
    small = render(memory, max_lines=40, max_bytes=4000)
    assert len(small.splitlines()) <= 40 and len(small.encode()) <= 4000
    assert small.startswith(BEGIN) and small.rstrip().endswith(END)


def test_preferences_failures_and_fixes(tmp_path):
    home = Home(tmp_path / "h")
    home.root.mkdir()
    base = datetime(2026, 11, 1, tzinfo=timezone.utc)

    def at(hours):
        return (base + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")

    append_rows(home.log("prompts"), [
        {"event_id": "evt-pref00000001", "timestamp": at(1), "type": "prompt", "summary":
         "Always run ruff before committing. Fix the parser.", "project": "app", "session_id": "a"},
        {"event_id": "evt-pref00000002", "timestamp": at(30), "type": "prompt", "summary":
         "always run ruff before committing!", "project": "app", "session_id": "b"},
        {"event_id": "evt-pref00000003", "timestamp": at(31), "type": "prompt", "summary":
         "should we never cache this?", "project": "app", "session_id": "b"},
    ])
    tool = lambda failed: {"name": "Bash", "input": "pytest tests/test_parser.py -q", **({"failed": True} if failed else {})}
    append_rows(home.log("turns"), [
        {"event_id": "turn-a-1", "timestamp": at(2), "project": "app", "type": "transcript", "summary": "x",
         "session": "a", "turn_idx": 1, "tools": [tool(True)]},
        {"event_id": "turn-b-1", "timestamp": at(32), "project": "app", "type": "transcript", "summary": "y",
         "session": "b", "turn_idx": 1, "tools": [tool(True), {"name": "Bash", "input": "git commit -m 'fix(parser): quote paths'",
                                                                "commit": {"sha": "abc1234", "subject": "fix(parser): quote paths"}}]},
    ])
    memory = build_memory(home, "app")
    prefs = memory.sections["preferences"]
    assert [p.text for p in prefs] == ["Always run ruff before committing."]
    assert prefs[0].ids == ["evt-pref00000001", "evt-pref00000002"] and prefs[0].detail == "2 prompts"
    failures = memory.sections["failures"]
    assert len(failures) == 1 and failures[0].text == "`pytest tests/test_parser.py` failed"
    assert "2× in 2 sessions" in failures[0].detail and "fix(parser): quote paths" in failures[0].detail
    assert set(failures[0].ids) == {"turn-a-1", "turn-b-1"}
    assert_traceable_and_within_limits(home, render(memory))


@pytest.fixture
def backfilled(shared_fixtures, tmp_path, monkeypatch):
    """A home made by `carto ingest claude` alone (as tests/lenses/test_backfilled_home.py)."""
    projects = Path(os.environ["HOME"]) / ".claude" / "projects"
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", projects)
    shutil.copytree(CLIENT, projects / "-home-dev-repo", ignore=shutil.ignore_patterns("*.md"))
    old = time.time() - 3 * 86400
    for path in projects.rglob("*"):
        os.utime(path, (old, old))
    assert CliRunner().invoke(cli, ["ingest", "claude"]).exit_code == 0
    return Home(os.environ["CARTO_HOME"])


def test_memory_of_a_backfilled_home(backfilled, tmp_path):
    done = _invoke(backfilled, "memory", "--project", "repo")
    assert done.exit_code == 0, done.output
    bullets = assert_traceable_and_within_limits(backfilled, done.output)
    # The fixtures' two commits, known only from the transcripts: "feat: add a", "fix: readme title".
    assert any("Conventional Commits" in b and "2 of 2" in b for b in bullets), bullets
    memory_file = tmp_path / "MEMORY.md"
    assert _invoke(backfilled, "memory", "--project", "repo", "--write", "--file", str(memory_file)).exit_code == 0
    once = memory_file.read_bytes()
    again = _invoke(backfilled, "memory", "--project", "repo", "--write", "--file", str(memory_file))
    assert "unchanged" in again.output and memory_file.read_bytes() == once


def _home_of_one_row(tmp_path, label: str, row: dict) -> Home:
    home = Home(tmp_path / "h")
    home.root.mkdir()
    append_rows(home.log(label), [{"timestamp": "2026-01-01T00:00:00Z", "session_id": "s1", **row}])
    return home


def test_a_project_of_transcript_turns_only_says_what_a_memory_is_made_of(tmp_path):
    home = _home_of_one_row(tmp_path, "turns", {"event_id": "turn-1", "type": "transcript",
                                                "project": "lonely",
                                                "summary": "we talked about the parser"})
    done = _invoke(home, "memory", "--project", "lonely")
    assert done.exit_code == 3
    assert "none is recorded" in done.output and "transcript turns alone" in done.output


def test_usage_errors(tmp_path):
    home = build_sample_home(tmp_path / "h")
    assert _invoke(home, "memory", "--project", "nope").exit_code == 3
    assert _invoke(home, "memory", "--print", "--write").exit_code == 2
    assert _invoke(home, "memory", "--file", "x.md").exit_code == 2
    two = _invoke(home, "memory", "--project", "o")  # webshop and infra-tools both hold an "o"
    assert two.exit_code == 2 and "webshop" in two.output


def test_a_project_whose_rows_hold_nothing_to_remember_says_so_and_not_that_none_is_recorded(tmp_path):
    """A project with a prompt that states no preference: its memory read "(nothing recorded for
    this project yet: ...)", printed and written into MEMORY.md, while `carto search` found
    that prompt. It now says the rows hold nothing to remember and what would make a line; a
    second --write still changes nothing (the line is carto's, not moved above the section)."""
    home = _home_of_one_row(tmp_path, "prompts", {"event_id": "evt-ship00000001", "type": "prompt",
                                                  "project": "webshop",
                                                  "summary": "make the shipping fee free above 50 euros"})
    done = _invoke(home, "memory", "--project", "webshop")
    assert done.exit_code == 0, done.output
    assert "nothing recorded" not in done.output
    assert "nothing to remember yet" in done.output and "carto wrapup" in done.output
    memory_file = tmp_path / "MEMORY.md"
    assert _invoke(home, "memory", "--project", "webshop", "--write", "--file", str(memory_file)).exit_code == 0
    once = memory_file.read_text()
    again = _invoke(home, "memory", "--project", "webshop", "--write", "--file", str(memory_file))
    assert "unchanged" in again.output and memory_file.read_text() == once and once.startswith(BEGIN)
