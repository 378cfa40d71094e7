"""`get` with a start several event ids share answers as `carto search --get` does: ambiguous,
with the ids, not "never existed"."""

from __future__ import annotations

import pytest

from carto_core.evaluation.sample import build_sample_home
from carto_core.logio.appendlog import append_rows
from carto_core.mcp.server import CartoMcp
from carto_core.mcp.tools import ToolError
from carto_core.search.engine import SearchEngine
from carto_core.search.fetch import fetch_records


def test_a_prefix_several_ids_share_is_ambiguous_with_its_candidates(tmp_path):
    home = build_sample_home(tmp_path / "h")
    state = CartoMcp(home)
    prefix = "evt-abcdef01"
    append_rows(home.log("changelog"), [{
        "event_id": f"{prefix}{tail}", "timestamp": "2026-03-02T10:00:00+00:00", "type": "tool_bash",
        "provider": "claude", "session_id": "s-x", "project": "webshop", "summary": f"Ran: make {tail}"}
        for tail in ("aaaa", "bbbb")])
    cli = fetch_records(SearchEngine(home, persist=False), [prefix])  # what --get --json prints
    assert cli["ambiguous"] == [prefix] and len(cli["candidates"][prefix]) > 1
    with pytest.raises(ToolError) as refused:
        state.call("get", {"ids": prefix})
    error = refused.value.as_dict("get")["error"]
    assert error["code"] == "invalid_arguments" and error["status"] == 400
    assert error["ambiguous"] == [prefix]
    assert error["candidates"][prefix] == cli["candidates"][prefix][:20]
    assert "event ids start with" in error["message"] and "never existed" not in error["message"]
    # With one id found beside it, the answer is the records and the ambiguity, as before.
    found = cli["candidates"][prefix][0]
    both = state.call("get", {"ids": [found, prefix], "max_chars": 200000})
    assert found in both["found"] and both["ambiguous"] == [prefix]
