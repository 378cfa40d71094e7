"""digest (kind=session) and wrapup take a session as the CLI does: the full id or a unique start
of it (the 8 characters `carto sessions` and standup's `short` show); an ambiguous start lists
its candidates and an unknown one is not_found, as session_tree and handoff answer."""

from __future__ import annotations

import pytest

from carto_core.evaluation.sample import build_sample_home
from carto_core.mcp.server import CartoMcp
from carto_core.mcp.tools import ToolError

SESSION = "5a1e0000-aaaa-4000-8000-00000000000a"


@pytest.fixture
def state(tmp_path):
    return CartoMcp(build_sample_home(tmp_path / "h"))


def _without_page(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "page"}


def test_digest_and_wrapup_take_a_unique_start_of_the_id(state):
    whole = state.call("digest", {"kind": "session", "session_id": SESSION})
    assert whole["session_id"] == SESSION and whole["event_count"] == 7  # its wrapup left out
    assert _without_page(state.call("digest", {"kind": "session", "session_id": SESSION[:8]})) == _without_page(whole)
    wrapup = state.call("wrapup", {"session_id": SESSION[:8], "dry_run": True})
    assert wrapup["row"]["session_id"] == SESSION
    assert wrapup["receipt"] == {"log_outcome": "dry_run", "event_id": wrapup["row"]["event_id"]}
    assert (_without_page(state.call("wrapup", {"session_id": SESSION, "dry_run": True}))["row"]["event_id"]
            == wrapup["row"]["event_id"])


@pytest.mark.parametrize("tool,extra", [("digest", {"kind": "session"}), ("wrapup", {"dry_run": True})])
def test_an_ambiguous_or_unknown_start_is_said_as_session_tree_says_it(state, tool, extra):
    with pytest.raises(ToolError) as ambiguous:
        state.call(tool, {**extra, "session_id": "5a"})
    assert ambiguous.value.code == "invalid_arguments"
    assert ambiguous.value.data["candidates"] == ["5a1e0000-aaaa-4000-8000-00000000000a",
                                                   "5a7e0000-aaaa-4000-8000-00000000001a"]
    with pytest.raises(ToolError) as unknown:
        state.call(tool, {**extra, "session_id": "zz9"})
    assert (unknown.value.code, unknown.value.status) == ("not_found", 404)
    assert unknown.value.message == f"no session id starts with 'zz9' in {state.home.root}"


def test_standup_takes_a_unique_start_of_the_callers_session_as_standup_me_does(state):
    whole = state.call("standup", {"since": "400d", "session_id": SESSION, "no_git": True})
    mine = [s["id"] for s in whole["sessions"] if s["is_self"]]
    assert whole["self"] == SESSION and mine == [SESSION]
    short = state.call("standup", {"since": "400d", "session_id": SESSION[:8], "no_git": True})
    assert (short["self"], [s["id"] for s in short["sessions"] if s["is_self"]]) == (SESSION, mine)
    # an id no row holds yet (a session that has only just begun) is kept as given
    assert state.call("standup", {"since": "400d", "session_id": "new-session", "no_git": True})["self"] == "new-session"
    with pytest.raises(ToolError) as ambiguous:
        state.call("standup", {"since": "400d", "session_id": "5a", "no_git": True})
    assert ambiguous.value.code == "invalid_arguments"
