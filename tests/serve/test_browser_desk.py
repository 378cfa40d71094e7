"""The memory-desk views (issue 21) in a real browser at 1400x1000: transcript analysis, ...
Each test reads what the page shows against the API's own answer, and keeps a screenshot (set
CARTO_SCREENSHOTS to a folder to look at them)."""

from __future__ import annotations

import pytest

from carto_core.sample import SESSIONS, build_sample_home
from carto_core.serve.app import create_app
from carto_core.transcripts import TranscriptRoots

from .browserkit import api, assert_not_blank
from .conftest import LiveServer
from .test_analysis import claude_lines, write


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("desk")
    home = build_sample_home(base / "home")
    claude = base / "claude-projects"
    write(claude / "-work-webshop" / f"{SESSIONS['a']}.jsonl", claude_lines())
    app = create_app(home, transcript_roots=TranscriptRoots(claude=(claude,), codex=()),
                     poll_seconds=0.2, heartbeat_seconds=1.0)
    with LiveServer(app) as live:
        yield live


def test_transcript_analysis_view(page, server, tmp_path):
    sid = SESSIONS["a"]
    page.goto(server.url + f"#/session/{sid}")
    page.wait_for_selector("#open-analysis")
    page.click("#open-analysis")
    page.wait_for_selector("#analysis-turns")
    truth = api(server, f"/api/transcript/analysis?session_id={sid}")
    rows = page.locator("#analysis-turns tbody tr")
    assert rows.count() == truth["turns_total"] == 2
    assert rows.nth(0).locator("td").nth(2).inner_text() == "fix the cart rounding"
    # the injected recall is shown as injected, carto's, not as a prompt
    injected = page.locator("#analysis-injected li")
    assert injected.count() == 2
    assert injected.nth(0).locator(".badge").inner_text() == "injected · carto recall"
    assert "turn 1" in injected.nth(0).inner_text()
    assert injected.nth(1).locator(".badge").inner_text() == "injected · hook"
    # tools table and compactions as the API says
    tools = page.locator("#analysis-tools tbody tr")
    assert [tools.nth(i).locator("td").first.inner_text() for i in range(tools.count())] == \
        [t["name"] for t in truth["tools"]]
    assert "150,000 tokens before" in page.locator("#analysis-compactions").inner_text()
    # token shares: one segment per category with tokens, widths set (the CSP allows no inline style)
    segments = page.locator("#token-shares rect.share")
    assert segments.count() == sum(1 for c in truth["categories"].values() if c["estimated_tokens"])
    meter = page.locator("#analysis-turns .meter > span").first
    assert meter.evaluate("n => n.getBoundingClientRect().width") > 0
    assert_not_blank(page, tmp_path, "analysis")
