"""Builders of `capture.tooluse` and `capture.webtools` that mutmut 3 changed with the suite still
passing (docs/testing.md): which web tools are handled (the caller goes on when not), the URL
keys a fetch may use, the commits a client reports, the counts the builders return, and the
project of an edit in another repository."""

from __future__ import annotations

import subprocess

import pytest

from carto_core.capture.context import Context, Outcome
from carto_core.capture.tooluse import capture_file_edit, capture_patch, capture_shell, reported_commits
from carto_core.capture.webtools import capture_web_tool
from carto_core.logio.home import Home


def _ctx(tmp_path, payload=None):
    return Context(Home(tmp_path / "home"), "claude", "PostToolUse",
                   {"session_id": "s1", "cwd": str(tmp_path), **(payload or {})}, now=1_800_000_000.0)


@pytest.mark.parametrize("tool, tool_input, kind, value", [
    ("WebFetch", {"url": "https://a.example/x"}, "fetch", "https://a.example/x"),
    ("web__run", {"uri": "https://b.example/y"}, "fetch", "https://b.example/y"),
    ("mcp__browser__open_page", {"href": "https://c.example/z"}, "fetch", "https://c.example/z"),
    ("WebSearch", {"query": "carto rrf"}, "search", "carto rrf"),
    ("mcp__brave__web_search", {"q": "bm25 idf"}, "search", "bm25 idf"),
])
def test_each_web_tool_is_handled_with_its_own_input_key(tmp_path, tool, tool_input, kind, value):
    out = Outcome()
    assert capture_web_tool(_ctx(tmp_path), out, tool=tool, tool_input=tool_input) is True
    research = [row for log, row in out.rows if log == "research"]
    assert research[0]["type"] == kind
    assert research[0]["url" if kind == "fetch" else "query"] == value


@pytest.mark.parametrize("tool", ["Read", "Bash", "MCP__brave__search", "fetch_page", "mcp__fs__read_file"])
def test_other_tools_are_left_to_the_caller(tmp_path, tool):
    out = Outcome()
    assert capture_web_tool(_ctx(tmp_path), out, tool=tool, tool_input={"url": "https://a.example"}) is False
    assert out.rows == []


def test_the_commits_a_client_reports():
    assert reported_commits("git commit -m x", "/r", operation={"commit": {"sha": " 1a2b3c4d5e6f "}}) == ["1a2b3c4d5e6f"]
    output = "[main 9f8e7d6] fix: the parser\n 1 file changed\n"
    assert reported_commits("git commit -m 'fix: the parser'", "/r", output=output) == ["9f8e7d6"]
    # the same commit reported both ways is one commit
    assert reported_commits("git commit -m x", "/r", output="[main 1a2b3c4] x\n",
                            operation={"commit": {"sha": "1a2b3c4d5e6f"}}) == ["1a2b3c4d5e6f"]
    # a `[...] ` line in the output of a command that commits nothing is no commit
    assert reported_commits("cat notes.txt", "/r", output="[main 1a2b3c4] x\n") == []


def test_builders_return_how_many_row_pairs_they_added(tmp_path):
    ctx, out = _ctx(tmp_path), Outcome()
    out.add("changelog", {"event_id": "earlier"})
    assert capture_file_edit(ctx, out, tool="Edit", paths=["a.py", "node_modules/x.js", "b.py"]) == 2
    assert capture_patch(ctx, out, tool="apply_patch", patch="no file headers here") == 0
    assert capture_shell(ctx, out, tool="Bash", command="make test") == 2  # its tool-use + changelog rows
    assert capture_shell(ctx, out, tool="Bash", command="echo hi > notes.md") == 2  # the write's pair
    assert capture_shell(ctx, out, tool="Bash", command="make test", failed=True) == 0
    assert len(out.rows) == 1 + 2 * 2 + 2 + 2


def test_an_edit_in_another_repository_is_that_repositorys_project(tmp_path):
    other = tmp_path / "elsewhere" / "lib-repo"
    other.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    ctx, out = _ctx(tmp_path / "space"), Outcome()
    (tmp_path / "space").mkdir()
    capture_file_edit(ctx, out, tool="Edit", paths=[str(other / "mod.py")])
    assert {row["project"] for _, row in out.rows} == {"lib-repo"}
