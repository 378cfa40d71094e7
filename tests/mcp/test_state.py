"""The protocol-free server state: budget settings, replayed pages, the catalogue."""

from __future__ import annotations

import json

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.mcp.budget import DEFAULT_MAX_CHARS
from carto_core.mcp.server import CartoMcp, max_chars_setting, state_for, tool_catalogue
from carto_core.mcp.tools import TOOLS, ToolError
from carto_core.evaluation.sample import build_sample_home


def test_max_chars_from_env_then_config_then_default(tmp_path, monkeypatch):
    from carto_core.model.config import load_config

    assert max_chars_setting(env={}) == DEFAULT_MAX_CHARS
    assert max_chars_setting(env={"CARTO_MCP_MAX_CHARS": "5000"}) == 5000
    assert max_chars_setting(env={"CARTO_MCP_MAX_CHARS": "10"}) == 2000  # clamped, not refused
    config = tmp_path / "config.toml"
    config.write_text("[mcp]\nmax_chars = 7000\n")
    monkeypatch.setenv("CARTO_CONFIG", str(config))
    assert max_chars_setting(env={}, config=load_config()) == 7000
    assert state_for().max_chars == 7000
    monkeypatch.setenv("CARTO_MCP_MAX_CHARS", "9000")
    assert state_for().max_chars == 9000


def test_replayed_page_after_restart_says_when_the_answer_changed(tmp_path):
    home = build_sample_home(tmp_path / "h")
    query = "rounding decimal cart discount terraform tax coupon"
    first = CartoMcp(home).call("search", {"query": query, "max_chars": 2500, "limit": 15})
    cursor = first["page"]["next_cursor"]
    # A new server (empty page cache) replays the search; nothing changed yet.
    same = CartoMcp(home).call("search", {"cursor": cursor})
    assert "changed" not in same["page"] and same["page"]["offset"] == first["page"]["returned"]
    # An event that ranks first arrives; the replayed answer is a different list and says so.
    append_rows(home.log("changelog"), [{
        "event_id": "evt-arrived00001", "timestamp": first["results"][0]["timestamp"],
        "type": "tool_bash", "provider": "claude", "session_id": "s-late", "project": "webshop",
        "summary": f"Ran: {query} {query}", "salience": 1.0}])
    changed = CartoMcp(home).call("search", {"cursor": cursor})
    assert "changed" in changed["page"]


def test_a_replay_never_writes_telemetry(tmp_path):
    home = build_sample_home(tmp_path / "h")
    state = CartoMcp(home)
    first = state.call("search", {"query": "rounding decimal cart discount terraform tax coupon",
                                  "max_chars": 2500, "session_id": "s1"})
    served = home.log("served").read_text().splitlines()
    assert len(served) == first["page"]["total"]  # the whole result was served by the call
    CartoMcp(home).call("search", {"cursor": first["page"]["next_cursor"]})
    assert home.log("served").read_text().splitlines() == served


def test_unknown_tool_never_reaches_a_lens_and_bounds_are_checked(tmp_path):
    home = build_sample_home(tmp_path / "h")
    state = CartoMcp(home)
    with pytest.raises(KeyError):
        state.call("nope", {})  # the SDK wrapper turns this into -32602 before it gets here
    with pytest.raises(ToolError) as bad:
        state.call("facts", {"verb": "census", "top": 0})
    assert bad.value.code == "invalid_arguments" and "top" in bad.value.message


def test_catalogue_is_documented_and_every_tool_pages_or_says_it_does_not():
    names = [tool["name"] for tool in tool_catalogue()]
    assert names == ["search", "get", "thread", "orient", "facts", "standup", "digest", "wrapup", "decisions",
                     "decide", "collision", "session_tree", "related", "handoff"]
    for spec in TOOLS:
        schema = spec.input_schema
        assert schema["additionalProperties"] is False
        for name, prop in schema["properties"].items():
            assert "type" in prop or "anyOf" in prop or "enum" in prop, (spec.name, name)
        json.dumps(schema)
    writers = [spec.name for spec in TOOLS if not spec.read_only]
    assert writers == ["search", "wrapup", "decide"]


def test_an_engine_failure_is_an_internal_error_result_and_the_next_call_works(tmp_path, monkeypatch):
    import anyio
    from mcp import Client

    from carto_core.mcp.server import build_server

    home = build_sample_home(tmp_path / "h")
    state = CartoMcp(home)
    calls = {"n": 0}
    real = CartoMcp.facts

    def flaky(self, args):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("disk on fire")
        return real(self, args)

    monkeypatch.setattr(CartoMcp, "facts", flaky)

    async def main():
        async with Client(build_server(state)) as client:
            first = await client.call_tool("facts", {"verb": "census"})
            second = await client.call_tool("facts", {"verb": "census"})
            return first, second

    first, second = anyio.run(main)
    assert first.is_error and first.structured_content["error"]["code"] == "internal"
    assert first.structured_content["error"]["status"] == 500
    assert "disk on fire" in first.structured_content["error"]["message"]
    assert not second.is_error and second.structured_content["facts"]["events"] == 22


def test_the_requests_meta_can_name_the_session(tmp_path):
    import anyio
    from mcp import Client

    from carto_core.mcp.server import build_server

    home = build_sample_home(tmp_path / "h")

    async def main():
        async with Client(build_server(CartoMcp(home, env={}))) as client:
            named = await client.call_tool("search", {"query": "rounding decimal"},
                                           meta={"session_id": "sess-in-meta"})
            junk = await client.call_tool("search", {"query": "terraform"},
                                          meta={"session_id": "../../etc/passwd"})
            return named, junk

    named, junk = anyio.run(main)
    assert not named.is_error and not junk.is_error
    rows = [json.loads(line) for line in home.log("served").read_text().splitlines()]
    ids = [r["event_id"] for r in named.structured_content["results"]]
    assert [r["event_id"] for r in rows if r["session_id"] == "sess-in-meta"] == ids != []
    # A _meta session that is not a session id is ignored (no env either: no session).
    assert {r["session_id"] for r in rows if r["query"] == "terraform"} == {None}


def test_cli_lists_the_catalogue_and_says_when_the_sdk_is_missing(monkeypatch):
    import sys

    from click.testing import CliRunner

    from carto_core.cli import cli

    result = CliRunner().invoke(cli, ["mcp", "--list-tools", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(json.dumps({"tools": tool_catalogue()}))
    text = CliRunner().invoke(cli, ["mcp", "--list-tools"]).stdout
    assert "wrapup" in text and "[writes the session_wrapup milestone]" in text
    monkeypatch.setitem(sys.modules, "mcp", None)  # as if carto-core[mcp] were not installed
    missing = CliRunner().invoke(cli, ["mcp"])
    assert missing.exit_code == 75 and "carto-core[mcp]" in missing.stderr


def test_help_names_every_tool_the_server_offers():
    """`carto mcp --help` listed eleven tools; the server offers session_tree, related and
    handoff too, which a person reading the help never learned of."""
    import re

    from click.testing import CliRunner

    from carto_core.cli import cli
    from carto_core.mcp.server import tool_catalogue

    text = " ".join(CliRunner().invoke(cli, ["mcp", "--help"]).output.split())
    listed = re.search(r"Tools: (.*?)\. Every answer", text).group(1)
    names = set(re.findall(r"[a-z_]+", listed)) - {"and", "the", "ones", "that", "write"}
    assert names == {tool["name"] for tool in tool_catalogue()}


def test_list_tools_keeps_its_name_column_for_a_long_name():
    """'session_tree A session's agents' ran the name into its title (a column of 10)."""
    from click.testing import CliRunner

    from carto_core.cli import cli

    import re

    lines = CliRunner().invoke(cli, ["mcp", "--list-tools"]).stdout.splitlines()
    heads = [line for line in lines if line and not line.startswith(" ")]
    starts = {re.match(r"\S+ +", line).end() for line in heads}
    assert len(starts) == 1, heads  # every title starts in the same column
    assert any(line.startswith("session_tree ") for line in heads)


def test_a_malformed_decision_id_is_refused_in_words_not_a_pattern(tmp_path):
    """`decide` answered "id: 'nope' does not match '^[a-z]{3}-[0-9a-f]{4,10}$'": a regular
    expression where the agent needs to hear what a decision id looks like."""
    home = build_sample_home(tmp_path / "home")
    with pytest.raises(ToolError) as refused:
        CartoMcp(home).call("decide", {"action": "supersede", "id": "nope", "by": "42"})
    message = refused.value.message
    assert "[a-z]" not in message and "^" not in message, message
    assert "id: 'nope' is not a record id" in message and "by: '42' is not a record id" in message, message
    assert "dec-" in message and "decisions" in message, message
    # the schema an agent reads says the same
    decide = next(t for t in TOOLS if t.name == "decide").input_schema["properties"]
    assert "dec-" in decide["id"]["description"] and "dec-" in decide["by"]["description"]
