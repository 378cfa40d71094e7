"""The session tools of `carto mcp` (session_tree, ...), listed and called with the MCP SDK's own
client over stdio, each answer compared with the CLI's `--json` for the same call on a home
backfilled from the shared fixtures."""

from __future__ import annotations

import json
import os
import shutil
import sys

import anyio
from click.testing import CliRunner
from mcp import ClientSession, StdioServerParameters, stdio_client

from carto_core.cli import cli
from carto_core.privacy.envelope import unwrap

SHOWCASE = "55550000-0000-4000-8000-000000000001"
CODEX_PARENT = "22222222-2222-4222-8222-222222222222"


def _cli(*argv: str, ok=(0,)) -> dict:
    result = CliRunner().invoke(cli, [*argv, "--json"])
    assert result.exit_code in ok, (argv, result.output)
    return json.loads(result.stdout)


def _fixture_home(shared_fixtures, tmp_path) -> None:
    claude = tmp_path / "claude"
    shutil.copytree(shared_fixtures / "claude", claude, ignore=shutil.ignore_patterns("*.md"))
    codex = tmp_path / "codex"
    shutil.copytree(shared_fixtures / "codex" / "claude-code-log" / "sessions", codex)
    _cli("ingest", "claude", "--root", str(claude))
    _cli("ingest", "codex", "--root", str(codex))


def _conversation(calls: dict[str, tuple[str, dict]]) -> dict:
    params = StdioServerParameters(command=sys.executable, args=["-m", "carto_core", "mcp"], env=dict(os.environ))

    async def main():
        async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                out = {"tools": {t.name: t for t in (await session.list_tools()).tools}}
                for key, (tool, arguments) in calls.items():
                    result = await session.call_tool(tool, arguments)
                    document = result.structured_content
                    if not result.is_error:
                        assert json.loads(unwrap(result.content[0].text)) == document
                    out[key] = (result.is_error, document)
                return out

    return anyio.run(main)


def _page_free(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "page"}


def test_session_tree_is_listed_and_answers_like_the_cli(shared_fixtures, tmp_path):
    _fixture_home(shared_fixtures, tmp_path)
    out = _conversation({
        "showcase": ("session_tree", {"session_id": SHOWCASE[:8], "max_chars": 200000}),
        "codex": ("session_tree", {"session_id": CODEX_PARENT, "max_chars": 200000}),
        "missing": ("session_tree", {"session_id": "zzzz"}),
        "ambiguous": ("session_tree", {"session_id": "5"}),
    })
    tool = out["tools"]["session_tree"]
    assert tool.annotations.read_only_hint and set(tool.input_schema["properties"]) >= {"session_id"}
    for key, sid in (("showcase", SHOWCASE), ("codex", CODEX_PARENT)):
        is_error, document = out[key]
        assert not is_error and not document["page"]["cut"]
        assert _page_free(document) == _cli("session", sid, "--tree")
    assert out["codex"][1]["tree"]["turns"][0]["tools"][0]["agent"]["kind"] == "thread"
    assert out["missing"] == (True, out["missing"][1]) and out["missing"][1]["error"]["code"] == "not_found"
    ambiguous = out["ambiguous"][1]["error"]
    assert ambiguous["code"] == "invalid_arguments" and SHOWCASE in ambiguous["candidates"]


def test_related_is_listed_and_answers_like_the_cli(shared_fixtures, tmp_path):
    _fixture_home(shared_fixtures, tmp_path)
    out = _conversation({
        "term": ("related", {"query": "structure", "max_chars": 200000}),
        "file": ("related", {"query": "CLAUDE.md", "max_chars": 200000}),
        "session": ("related", {"query": SHOWCASE[:8], "max_chars": 200000}),
        "nothing": ("related", {"query": "...", "kind": "term"}),
    })
    assert out["tools"]["related"].annotations.read_only_hint
    for key, argv in (("term", ["structure"]), ("file", ["CLAUDE.md"]), ("session", [SHOWCASE[:8]])):
        is_error, document = out[key]
        assert not is_error and not document["page"]["cut"]
        cli = _cli("related", *argv, "--limit", "15")
        assert {k: v for k, v in _page_free(document).items() if k != "index_generation"} == {
            k: v for k, v in cli.items() if k != "index_generation"}
        assert document["kind"] == key
    assert out["session"][1]["session_id"] == SHOWCASE
    assert out["nothing"][1]["error"]["code"] == "invalid_arguments"


def test_handoff_is_listed_and_answers_like_the_cli(shared_fixtures, tmp_path):
    _fixture_home(shared_fixtures, tmp_path)
    demo = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
    out = _conversation({
        "session": ("handoff", {"session_id": demo[:8]}),
        "project": ("handoff", {"project": "Demo"}),
        "both": ("handoff", {"session_id": demo, "project": "Demo"}),
        "missing": ("handoff", {"session_id": "zzzz"}),
    })
    assert out["tools"]["handoff"].annotations.read_only_hint
    assert _page_free(out["session"][1]) == _cli("handoff", demo)
    assert _page_free(out["project"][1]) == _cli("handoff", "--project", "Demo")
    assert out["session"][1]["open_threads"][0]["text"] == "uncommitted edits: /path/to/Demo/CLAUDE.md"
    assert out["both"][1]["error"]["code"] == "invalid_arguments"
    assert out["missing"][1]["error"]["code"] == "not_found"
