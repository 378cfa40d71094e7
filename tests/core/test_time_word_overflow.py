"""A time word that overflows the calendar (`--since 9999999d`) is a usage error everywhere it is
read: exit 2 with a line (never a traceback) in every command, a 400 from the API, and MCP's
`invalid_arguments` error (its class for arguments a caller got wrong) instead of a 500."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home
from carto_core.logio.home import current_home

SPAN = "9999999d"

COMMANDS = [
    ["search", "discount", "--since", SPAN],
    ["search", "discount", "--before", SPAN],
    ["search", "discount", "--since", SPAN, "--json"],
    ["standup", "--since", SPAN],
    ["standup", "--live", SPAN],
    ["facts", "census", "--since", SPAN],
    ["facts", "tempo", "--since", SPAN, "--json"],
    ["report", "intents", "--since", SPAN],
    ["sessions", "--since", SPAN],
    ["trustmap", "--window", SPAN],
    ["profile", "--window", SPAN, "--no-write"],
    ["ingest", "claude", "--since", SPAN],
]


@pytest.fixture
def home():
    return build_sample_home(current_home().root)


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_every_command_says_usage_for_a_span_past_the_calendar(home, argv):
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output and SPAN in result.output


def test_mcp_standup_and_search_answer_invalid_arguments(home):
    from carto_core.mcp.server import CartoMcp
    from carto_core.mcp.tools import ToolError

    state = CartoMcp(home)
    for name, arguments in (("standup", {"since": SPAN}), ("standup", {"live": SPAN}),
                            ("search", {"query": "discount", "since": SPAN}),
                            ("facts", {"verb": "census", "since": SPAN}),
                            ("orient", {"project": "webshop", "since": SPAN})):
        with pytest.raises(ToolError) as caught:
            state.call(name, arguments)
        document = caught.value.as_dict(name)["error"]
        assert (document["code"], document["status"]) == ("invalid_arguments", 400), (name, document)


def test_the_api_answers_400(home):
    from starlette.testclient import TestClient

    from carto_core.serve.app import create_app

    app = create_app(home)
    with TestClient(app, base_url="http://127.0.0.1:8000",
                    headers={"authorization": f"Bearer {app.state.carto.token}"}) as client:
        standup = client.get("/api/standup", params={"since": SPAN})
        recall = client.post("/api/recall", json={"query": "discount", "since": SPAN})
        facts = client.post("/api/facts", json={"contract_version": 1, "verb": "census",
                                                "call_id": "x", "since": SPAN})
    assert [standup.status_code, recall.status_code, facts.status_code] == [400, 400, 400]
