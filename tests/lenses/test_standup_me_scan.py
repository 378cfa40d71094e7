"""`carto standup --me PREFIX` and the MCP standup's `session_id` name the caller's session by
one resolver (`lenses.sessions.resolve_known`): a unique start of an id is the whole id, an id no
row holds yet is kept as given, and the logs are read for the prefix once (the CLI read them
twice: once to ask whether any row held it, again to resolve it)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses import sessions
from carto_core.mcp.server import CartoMcp


def test_the_resolver_keeps_an_unheld_id_and_resolves_a_held_prefix(tmp_path, scans):
    home = build_sample_home(tmp_path / "h")
    assert sessions.resolve_known(home, " 5b2e ") == SESSIONS["b"]
    assert sessions.resolve_known(home, " new-session ") == " new-session "
    with pytest.raises(sessions.AmbiguousSession) as ambiguous:
        sessions.resolve_known(home, "5a")
    assert ambiguous.value.candidates == [SESSIONS["a"], SESSIONS["g"]]
    assert scans == ["5b2e", "new-session", "5a"]


def test_standup_me_and_the_mcp_standup_read_the_logs_once(tmp_path, scans):
    home = build_sample_home(tmp_path / "h")
    done = CliRunner().invoke(cli, ["standup", "--me", "5b2e", "--since", "400d", "--no-git", "--json"],
                              env={"CARTO_HOME": str(home.root)})
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["self"] == SESSIONS["b"]
    assert scans == ["5b2e"]
    answer = CartoMcp(home).call("standup", {"since": "400d", "session_id": "5b2e", "no_git": True})
    assert answer["self"] == SESSIONS["b"]
    assert scans == ["5b2e", "5b2e"]
