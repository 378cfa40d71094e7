"""Claude Code's memory files as a source: the contract suite, and what a person sees: a revised
MEMORY.md is found by its new text and not by the text it dropped, a deleted file is marked and
not erased, carto's own generated section is never ingested as if a person wrote it, and the
CLAUDE.md of a project the home has seen is read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_claude.memory import ClaudeMemorySource
from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.testing import SourceContract

pytest_plugins = ["carto_core.testing"]

CARTO_SECTION = ("<!-- carto:memory begin (written by `carto memory --write`; edit outside these "
                 "markers, this part is rewritten) -->\n# webshop: what carto remembers\n"
                 "- zeppelinword decision from carto <!-- evt-aaaaaaaaaaaa -->\n<!-- carto:memory end -->\n")


def projects_root(base: Path) -> Path:
    folder = base / "projects" / "-work-webshop"
    (folder / "memory").mkdir(parents=True)
    (folder / "s1.jsonl").write_text(json.dumps({"type": "user", "cwd": "/work/webshop", "sessionId": "s1"}) + "\n")
    return base / "projects"


class TestClaudeMemoryContract(SourceContract):
    min_rows = 2

    @pytest.fixture
    def source(self, tmp_path):
        root = projects_root(tmp_path)
        memory = root / "-work-webshop" / "memory"
        (memory / "MEMORY.md").write_text("# Webshop memory\n\n- prices are in cents\n- use pnpm\n")
        (memory / "testing.md").write_text("# Testing\n\nrun pytest -q before committing\n")
        return ClaudeMemorySource({"roots": [str(root)], "claude_md": False})

    @pytest.fixture
    def garbage_source(self, tmp_path):
        root = projects_root(tmp_path)
        memory = root / "-work-webshop" / "memory"
        (memory / "empty.md").write_text("")
        (memory / "carto-only.md").write_text(CARTO_SECTION)
        (memory / "bytes.md").write_bytes(b"# Notes\n\xff\xfe not utf-8 \x80\n")
        return ClaudeMemorySource({"roots": [str(root)], "claude_md": False})


def run(*args, ok=(0,)):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return json.loads(result.stdout) if "--json" in args else result


def search_ids(word: str) -> set[str]:
    doc = run("search", word, "--json", "--all", "--no-semantic", "--limit", "50", ok=(0, 3))
    return {r["event_id"] for r in doc["results"]}


@pytest.fixture
def home():
    return Home(os.environ["CARTO_HOME"])


def test_revised_memory_is_found_by_its_new_text_and_not_by_what_it_dropped(tmp_path, home):
    root = projects_root(tmp_path)
    memory = root / "-work-webshop" / "memory" / "MEMORY.md"
    memory.write_text("# Webshop memory\n\n- prices are kept in albatrosscents\n" + CARTO_SECTION)
    run("ingest", "claude-memory", "--root", str(root), "--json")
    [first] = search_ids("albatrosscents")
    assert first.startswith("memory-claude-")
    assert search_ids("zeppelinword") == set()  # carto's own section is not a person's memory
    row = next(json.loads(l) for l in home.log("changelog").read_text().splitlines())
    assert row["carto_section"] is True and "zeppelinword" not in json.dumps(row)
    assert row["memory_key"] == "claude-memory:-work-webshop/MEMORY.md" and row["project"] == "webshop"
    memory.write_text("# Webshop memory\n\n- prices are kept in integer cormorantcents\n")
    run("ingest", "claude-memory", "--root", str(root), "--json")
    assert search_ids("cormorantcents") == {first}
    assert search_ids("albatrosscents") == set()  # the superseded revision is not found
    revisions = [json.loads(l) for l in home.log("changelog").read_text().splitlines()]
    assert [r["memory_revision"] for r in revisions] == [1, 2]  # both kept in the log
    assert revisions[1]["supersedes_hash"] == revisions[0]["memory_hash"]
    # nothing changed: nothing written
    assert run("ingest", "claude-memory", "--root", str(root), "--json")["rows_written"] == 0
    # deleted: marked, not erased
    memory.unlink()
    run("ingest", "claude-memory", "--root", str(root), "--json")
    rows = [json.loads(l) for l in home.log("changelog").read_text().splitlines()]
    assert len(rows) == 3 and rows[-1]["memory_state"] == "deleted" and rows[-1]["event_id"] == first
    assert search_ids("cormorantcents") == set()
    got = run("search", "--get", first, "--json")["found"][first]
    assert got["memory_state"] == "deleted"


def test_claude_md_of_projects_the_home_has_seen(tmp_path, home):
    project = tmp_path / "work" / "shop"
    (project / ".claude").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# Shop\n\nnever force push bitternbranch\n")
    (project / ".claude" / "CLAUDE.md").write_text("# Local\n\nthe staging db is reset nightly\n")
    elsewhere = tmp_path / "unseen"
    elsewhere.mkdir()
    (elsewhere / "CLAUDE.md").write_text("# Unseen\n\nosprey\n")
    append_rows(home.log("turns"), [{"event_id": "turn-s1-1", "timestamp": "2026-11-01T00:00:00Z",
                                     "project": "shop", "type": "transcript", "provider": "claude",
                                     "summary": "hi", "session": "s1", "turn_idx": 1, "cwd": str(project)}])
    user = Path(os.environ["HOME"]) / ".claude"
    user.mkdir(exist_ok=True)
    (user / "CLAUDE.md").write_text("# Me\n\nI prefer short answers\n")
    summary = run("ingest", "claude-memory", "--root", str(tmp_path / "none"), "--json")
    rows = [json.loads(l) for l in home.log("changelog").read_text().splitlines()]
    keys = sorted(r["memory_key"] for r in rows)
    assert keys == sorted([f"claude-md:{project}/.claude/CLAUDE.md", f"claude-md:{project}/CLAUDE.md",
                           f"claude-md:{user}/CLAUDE.md"]), keys
    assert {r["project"] for r in rows if "shop" in r["memory_key"]} == {"shop"}
    assert summary["rows_written"] == 3
    assert search_ids("bitternbranch") and not search_ids("osprey")
