"""Before initialize, ids holding a lone surrogate, and the budget a page reports."""

from __future__ import annotations

import json

from carto_core.evaluation.sample import build_sample_home
from carto_core.mcp.budget import DEFAULT_MAX_CHARS
from carto_core.mcp.framing import Framing, encode
from carto_core.mcp.server import CartoMcp

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


def test_a_request_before_initialize_is_told_the_session_is_not_initialized():
    framing = Framing(require_initialize=True)
    forwards, answers = framing.inbound(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
    assert not forwards and answers[0]["id"] == 1 and "not initialized" in answers[0]["error"]["message"]
    assert framing.inbound(b'{"jsonrpc":"2.0","id":2,"method":"ping"}')[0]  # ping is allowed
    assert framing.inbound(json.dumps(INIT).encode())[0]
    assert framing.inbound(b'{"jsonrpc":"2.0","id":3,"method":"tools/list"}') == (
        [{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}], [])


def test_an_id_with_a_lone_surrogate_is_answered_under_that_very_id():
    framing = Framing()
    framing.inbound(json.dumps(INIT).encode())
    forwards, _ = framing.inbound(b'{"jsonrpc":"2.0","id":"s\\ud83d","method":"ping","params":{"x":"a\\ud83d"}}')
    assert forwards[0]["id"] == "s\ud83d" and forwards[0]["params"]["x"] == "a\ufffd"
    line = encode({"jsonrpc": "2.0", "id": "s\ud83d", "result": {}})
    line.decode("utf-8")  # valid UTF-8 on the wire
    assert b'"id":"s\\ud83d"' in line and json.loads(line)["id"] == "s\ud83d"


def test_page_max_chars_is_the_budget_the_docs_name(tmp_path):
    page = CartoMcp(build_sample_home(tmp_path / "h")).call("decisions", {})["page"]
    assert page["max_chars"] == DEFAULT_MAX_CHARS == 12000
    page = CartoMcp(build_sample_home(tmp_path / "h2")).call("search", {"query": "rounding", "max_chars": 3000})["page"]
    assert page["max_chars"] == 3000
