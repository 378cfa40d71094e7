"""The explorer page in a real browser: Debian's chromium (installed by `.ci/system-packages`)
driven by Playwright, against `carto serve`'s app on 127.0.0.1 under uvicorn. Without chromium on
PATH (or CARTO_CHROMIUM) the tests skip with one line naming the package; CI
(CARTO_REQUIRE_BINARIES, set by .ci/run) fails them instead.

One server and one browser for the module (the fixtures and screenshot checks are shared with
the other browser modules: conftest.py, browserkit.py). Each test checks what the page shows
against the API's own answer.
"""

from __future__ import annotations

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.serve.app import create_app

from .browserkit import api, assert_not_blank, distinct_colours
from .conftest import LiveServer, write_transcript


XSS_SUMMARY = '<img src=x onerror="window.__pwned=1"> zanzibar <script>window.__pwned=2</script>'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from carto_core.transcript.resolver import TranscriptRoots

    base = tmp_path_factory.mktemp("browser")
    home = build_sample_home(base / "home")
    append_rows(home.log("research"), [{
        "event_id": "evt-xss", "timestamp": "2026-01-01T00:00:00Z", "type": "fetch",
        "url": "javascript:window.__pwned=3", "prompt": XSS_SUMMARY, "project": "webshop",
        "session": SESSIONS["c"], "salience": 0.5}])
    claude = base / "claude"
    write_transcript(claude / "-work-webshop" / f"{SESSIONS['a']}.jsonl", SESSIONS["a"],
                     [("user", "add discount codes to the cart"),
                      ("assistant", "I'll add a DiscountCode model.")])
    app = create_app(home, transcript_roots=TranscriptRoots(claude=(claude,), codex=()),
                     poll_seconds=0.1, heartbeat_seconds=1.0)
    with LiveServer(app) as live:
        live.home = home
        yield live


def test_blank_check_can_fail(page):
    page.set_content("<body style='background:#fff'></body>")
    assert distinct_colours(page, page.screenshot()) < 5


def test_search_shows_results_and_their_ladders(page, server, tmp_path):
    page.goto(server.url + "#/search")
    page.fill("#q", "discount codes")
    page.press("#q", "Enter")
    page.wait_for_selector("#result-list .result")
    expected = api(server, "/api/recall", {"query": "discount codes", "limit": 30})
    shown = page.eval_on_selector_all("#result-list .result", "els => els.map(e => e.dataset.eventId)")
    assert shown == [r["event_id"] for r in expected["results"]] and shown
    first = page.locator("#result-list .result").first
    badges = first.locator(".meta .badge").all_inner_texts()
    assert badges == expected["results"][0]["sources"]
    facet_projects = page.locator(".facets li").first.inner_text()
    assert "webshop" in facet_projects
    assert_not_blank(page, tmp_path, "search")


def test_open_a_session_from_a_result(page, server, tmp_path):
    page.goto(server.url + "#/search?q=discount%20codes")
    page.wait_for_selector("#result-list .result")
    page.locator("#result-list .open-session").first.click()
    page.wait_for_selector("#session-title")
    sid = page.url.rsplit("/", 1)[1]
    detail = api(server, f"/api/sessions/{sid}")
    assert page.locator("#session-events tbody tr").count() == len(detail["events"])
    assert page.locator("#session-commits li").count() == len(detail["commits"])
    assert page.locator("#session-files tbody tr").count() == len(detail["files"])
    assert sid == SESSIONS["a"]
    page.click("#load-transcript")
    page.wait_for_selector("#transcript .messages li")
    assert page.locator("#transcript .messages li").count() == 2
    assert "DiscountCode" in page.locator("#transcript").inner_text()
    assert_not_blank(page, tmp_path, "session")


def test_contention_view(page, server, tmp_path):
    page.goto(server.url + "#/standup?since=7d")
    page.wait_for_selector("#contention .contention-file")
    standup = api(server, "/api/standup?since=7d")
    files = page.locator("#contention .contention-file code").all_inner_texts()
    assert files == [f["path"] for f in standup["contention"]["files"]]
    assert "/work/webshop/src/cart.py" in files
    assert page.locator("#roster .card").count() == len(standup["sessions"])
    assert_not_blank(page, tmp_path, "standup")


def test_timeline_and_charts(page, server, tmp_path):
    page.goto(server.url + "#/timeline?days=365")
    page.wait_for_selector(".timeline-svg a.session-bar")
    sessions = api(server, "/api/sessions?days=365&limit=500")["sessions"]
    assert page.locator(".timeline-svg a.session-bar").count() == len(sessions)
    assert_not_blank(page, tmp_path, "timeline")
    page.goto(server.url + "#/activity")
    page.wait_for_selector("#census-by_project rect")
    page.wait_for_selector(".tempo-chart rect")
    census = api(server, "/api/facts", {"contract_version": 1, "call_id": "t", "verb": "census",
                                        "top": 12, "sample": 1})
    assert page.locator("#census-by_project rect").count() == len(census["facts"]["by_project"])
    assert_not_blank(page, tmp_path, "activity")


def test_keyboard(page, server):
    page.goto(server.url + "#/timeline")
    page.wait_for_selector("#timeline")
    page.keyboard.press("/")
    page.wait_for_selector("#q")
    page.keyboard.press("Escape")
    page.keyboard.press("g")
    page.keyboard.press("u")
    page.wait_for_selector("#contention")
    page.goto(server.url + "#/search?q=discount%20codes")
    page.wait_for_selector("#result-list .result")
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert page.locator("#result-list .result.selected").count() == 1
    assert page.evaluate("document.activeElement.classList.contains('open-session')")
    page.keyboard.press("Enter")
    page.wait_for_selector("#session-title")


def test_light_and_dark(browser, server):
    colours = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(server.url + "#/search")
        page.wait_for_selector("#q")
        colours[scheme] = page.evaluate(
            "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
        context.close()
    assert colours["light"] != colours["dark"]
    assert colours["light"][0] != colours["light"][1] and colours["dark"][0] != colours["dark"][1]


def test_corpus_text_is_never_html(page, server):
    page.goto(server.url + "#/search?q=zanzibar")
    page.wait_for_selector("#result-list .result")
    result = page.locator('#result-list .result[data-event-id="evt-xss"]')
    assert XSS_SUMMARY in result.locator(".summary").inner_text()
    assert result.locator("img, script").count() == 0
    assert page.evaluate("window.__pwned") is None
    # The javascript: URL from the corpus is not a link anywhere.
    page.goto(server.url + f"#/session/{SESSIONS['c']}")
    page.wait_for_selector("#session-events")
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    assert not [h for h in hrefs if h.lower().startswith("javascript")]
    assert page.evaluate("window.__pwned") is None


def test_live_stream_updates_the_page(page, server):
    page.goto(server.url + "#/timeline")
    page.wait_for_selector("#live:has-text('live')")
    append_rows(server.home.log("tool-use"), [{
        "event_id": "evt-browser-live", "timestamp": "2026-01-01T00:00:00Z", "type": "tool_bash",
        "summary": "Ran: make live", "project": "webshop", "session": SESSIONS["b"]}])
    page.wait_for_selector("#live:has-text('1 new')", timeout=10_000)
