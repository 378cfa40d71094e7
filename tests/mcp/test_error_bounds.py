"""Error results stay within the smallest budget: what they quote of a refused value is cut."""

from __future__ import annotations

import pytest

from carto_core.logio.home import Home
from carto_core.mcp.budget import MIN_MAX_CHARS, dumps
from carto_core.mcp.server import CartoMcp, bounded_error
from carto_core.mcp.tools import ToolError


def _error(state: CartoMcp, tool: str, args: dict) -> dict:
    with pytest.raises(ToolError) as refused:
        state.call(tool, args)
    return bounded_error(refused.value.as_dict(tool))


@pytest.mark.parametrize("tool, args, size", [
    ("search", {"query": "x" * 200_000, "max_chars": 2000}, "200,000 characters"),
    ("get", {"ids": ["x"] * 10_000}, "10,000 items"),
])
def test_a_huge_invalid_argument_is_quoted_by_its_start_and_its_size(tmp_path, tool, args, size):
    document = _error(CartoMcp(Home(tmp_path / "h")), tool, args)
    text = dumps(document)
    assert len(text) <= MIN_MAX_CHARS, len(text)
    message = document["error"]["message"]
    assert document["error"]["code"] == "invalid_arguments" and size in message, message
    assert "trimmed" not in document["error"]  # the quote was cut, nothing else had to be


def test_any_error_document_is_bounded_and_says_what_it_cut(tmp_path):
    document = _error(CartoMcp(Home(tmp_path / "h")), "get", {"ids": ",".join(["y" * 199] * 60)})
    assert len(dumps(document)) <= MIN_MAX_CHARS and document["error"]["trimmed"]
    big = bounded_error({"error": {"code": "internal", "status": 500, "tool": "search",
                                   "message": "RuntimeError: " + "z" * 50_000, "missing": ["a"] * 5000}})
    assert len(dumps(big)) <= MIN_MAX_CHARS and big["error"]["code"] == "internal" and big["error"]["trimmed"]


def test_a_short_error_is_left_whole(tmp_path):
    document = _error(CartoMcp(Home(tmp_path / "h")), "search", {"query": ""})
    assert "trimmed" not in document["error"] and "…" not in document["error"]["message"]


def test_on_the_wire_an_error_result_is_bounded(tmp_path):
    from tests.mcp.test_jsonrpc_wire import Wire

    wire = Wire(tmp_path / "home")
    try:
        wire.ask({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "test", "version": "1"}}})
        wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for i, (name, args) in enumerate([("search", {"query": "x" * 200_000, "max_chars": 2000}),
                                          ("get", {"ids": ["x"] * 10_000}),
                                          ("x" * 100_000, {})], 1):
            answer = wire.ask({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                               "params": {"name": name, "arguments": args}})
            text = (answer["result"]["content"][0]["text"] if "result" in answer
                    else answer["error"]["message"])
            assert len(text) <= MIN_MAX_CHARS, (name[:10], len(text))
    finally:
        wire.close()
