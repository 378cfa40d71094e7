"""The explorer as a person uses it, in chromium: what the page says when a search finds
nothing, counts that agree with their nouns, a phone-wide window, the keys, a home that changes
while the page is open, long results, an address that names no view. Each test failed on the
page before the change it covers."""

from __future__ import annotations

import re

from datetime import timedelta

import pytest

from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.logio.appendlog import append_rows
from carto_core.search import SearchRequest, run_search
from carto_core.search.telemetry import Telemetry
from carto_core.serve.app import create_app
from carto_core.transcript.resolver import TranscriptRoots
from carto_core.util.timeparse import format_timestamp, utcnow

from .browserkit import api
from .conftest import LiveServer

#: A turn as long as the ones real transcripts hold (a pasted plan, a summary of a survey).
LONG_TEXT = " ".join(["the zeppelin mooring plan covers the mast, the winch and the ground crew"] * 40)


RTL_SESSION = "a7a70000-0000-4000-8000-0000000000a7"
RTL_PROJECT = "gpj.\u202eexe"
RTL_FILE = "/work/src/\u202etxt.exe"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("person")
    home = build_sample_home(base / "home")
    append_rows(home.log("turns"), [
        {"event_id": "turn-zeppelin-1", "timestamp": format_timestamp(utcnow() - timedelta(minutes=30)),
         "type": "transcript", "summary": LONG_TEXT, "project": "webshop",
         "session_id": "zeppelin-session", "provider": "claude",
         "tools": [{"name": "mcp__plugin_showcase_example__inspect_repository_structure"}]}])
    # A project whose events are all older than the year tempo draws.
    append_rows(home.log("changelog"), [
        {"event_id": f"evt-ancient-{n}", "timestamp": format_timestamp(utcnow() - timedelta(days=400 + n)),
         "type": "tool_bash", "summary": f"Ran: make ancient {n}", "project": "ancient-notes",
         "session_id": "ancient-session", "provider": "claude"} for n in range(2)])
    # A year of work without a pause: a short session every three days.
    append_rows(home.log("tool-use"), [
        {"event_id": f"evt-yearly-{n}", "timestamp": format_timestamp(utcnow() - timedelta(days=5 + 3 * n)),
         "type": "tool_bash", "summary": f"Ran: make yearly {n}", "project": "yearly-notes",
         "session_id": f"yearly-session-{n}", "provider": "claude"} for n in range(120)])
    # A session whose cwd and edited file hold a right-to-left override (U+202E).
    spoof = format_timestamp(utcnow() - timedelta(minutes=3))
    append_rows(home.log("changelog"), [
        {"event_id": "evt-rtl-1", "timestamp": spoof, "type": "tool_file_edit",
         "summary": f"Modified: {RTL_FILE}", "file_path": RTL_FILE, "project": RTL_PROJECT,
         "cwd": f"/work/{RTL_PROJECT}", "session_id": RTL_SESSION, "provider": "claude"}])
    # One word of 20,000 characters (a minified line, a base64 blob) beside an ordinary one.
    append_rows(home.log("changelog"), [
        {"event_id": "evt-long-word", "timestamp": spoof, "type": "tool_bash",
         "summary": f"Ran: quokka {'abcdefghij' * 2000}", "project": "webshop",
         "session_id": "quokka-session", "provider": "claude"}])
    # One recall call, written by the real telemetry writer.
    telemetry = Telemetry(home, session_id=SESSIONS["a"], provider="claude", purpose="manual",
                          call_id="call-one", call_id_given=True)
    run_search(SearchRequest(query="discount codes", limit=3, all=True), home=home, telemetry=telemetry)
    app = create_app(home, transcript_roots=TranscriptRoots(claude=(), codex=()),
                     poll_seconds=0.2, heartbeat_seconds=1.0)
    with LiveServer(app) as live:
        live.home = home
        yield live


def _search(page, server, address):
    page.goto(server.url + address)
    page.wait_for_selector("#search-stats")
    return page.inner_text("#result-list")


def test_a_word_the_home_never_saw_says_nothing_found_and_why(page, server):
    text = _search(page, server, "#/search?q=zzyzxquux")
    assert "Nothing found for “zzyzxquux”" in text, text
    assert "no indexed document holds 'zzyzxquux'" in text, text


def test_a_project_without_the_word_says_the_matches_are_outside_it(page, server):
    text = _search(page, server, "#/search?q=discount&project=infra-tools")
    assert "Nothing found for “discount” in infra-tools" in text, text
    assert "every match is outside the scope" in text, text


def test_candidates_the_relevance_floor_left_out_say_so(page, server):
    """Every keyword ladder found "discount"; none holds a word starting as qqqzz does, so the
    floor judged the search to have found nothing: the ladders give no reason, the floor does."""
    answer = api(server, "/api/recall", {"query": "discount qqqzz*"})
    assert answer["results"] == [] and answer["floor"]["found"] is False
    text = _search(page, server, "#/search?q=discount%20qqqzz*")
    assert "Nothing found for “discount qqqzz*”" in text, text
    assert "below the relevance floor: no row holds a word starting as qqqzz* does" in text, text


def test_a_count_of_one_takes_the_singular(page, server):
    """Session a holds one commit, one prompt and one turn (its wrapup is no event of it);
    the zeppelin session one event; the recall log one call; one document holds "zeppelin"."""
    page.goto(server.url + f"#/session/{SESSIONS['a']}")
    page.wait_for_selector("#session-events")
    events = page.locator("dt:text-is('events') + dd").inner_text()
    assert events == "7 (1 commit, 2 edits, 1 prompt, 1 turn)", events

    page.goto(server.url + "#/desk?days=1")
    page.wait_for_selector(".desk-card")
    card = page.locator('.desk-card[data-session="zeppelin-session"]').inner_text()
    assert " · 1 event\n" in card and "1 events" not in card, card

    page.goto(server.url + "#/recall")
    page.wait_for_selector("#recall-stats")
    stats = page.inner_text("#recall-stats")
    assert stats.startswith("1 call · 3 served"), stats

    page.goto(server.url + "#/search?q=zeppelin")
    page.wait_for_selector("#co-terms")
    assert "(1 document)" in page.inner_text("#co-terms"), page.inner_text("#co-terms")
    assert page.inner_text("#search-stats").startswith("1 of 1 result ·"), page.inner_text("#search-stats")


def test_a_recall_call_takes_as_long_as_the_search_page_says_a_search_does(page, server):
    """The search's stats read "15 ms"; the recall log's call read "20.293 ms", the
    telemetry's stored precision."""
    page.goto(server.url + "#/recall")
    page.wait_for_selector('#recall-calls [data-call="call-one"]')
    meta = page.locator('#recall-calls [data-call="call-one"] .meta').inner_text()
    assert re.search(r"(^|\n)\d+ ms(\n|$)", meta), meta
    assert not re.search(r"\d\.\d+ ms", meta), meta


@pytest.mark.parametrize("address", [
    "#/search?q=discount", "#/desk", "#/timeline", "#/standup", "#/activity", "#/recall",
    "#/internals?q=discount", f"#/session/{SESSIONS['a']}"])
def test_a_phone_wide_window_never_scrolls_the_page_sideways(browser, server, address):
    """At 390 px a wide table scrolls inside its own box; the page, its header and footer
    keep the window's width."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(server.url + address)
        page.wait_for_selector("body[data-ready]", state="attached")
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
            .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'
                         && e.getBoundingClientRect().left + e.scrollWidth > 391)
            .map(e => e.tagName + ' ' + (e.textContent || '').slice(0, 40))""")
        assert width <= 390, f"{address}: the page is {width} px wide in a 390 px window: {wide}"
    finally:
        context.close()


def test_on_a_phone_the_results_come_before_the_facets(browser, server):
    """The facets of a search are a screen long at 390 px: the first result must not wait
    below them."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(server.url + "#/search?q=discount")
        page.wait_for_selector("#result-list .result")
        first = page.locator("#result-list .result").first.bounding_box()
        facets = page.locator("aside.facets").bounding_box()
        assert first["y"] < facets["y"], (first, facets)
        assert first["y"] < 844, f"the first result starts at {first['y']} px, below the window"
    finally:
        context.close()


@pytest.mark.parametrize("address", ["#/desk", "#/recall", f"#/session/{SESSIONS['a']}"])
def test_slash_on_a_view_without_the_box_opens_search_ready_to_type(page, server, address):
    page.goto(server.url + address)
    page.wait_for_selector("body[data-ready]", state="attached")
    page.keyboard.press("/")
    page.wait_for_selector("body[data-ready='search'] #q", state="attached")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("discount")
    page.keyboard.press("Enter")
    page.wait_for_selector("#search-stats")
    assert page.url.endswith("#/search?q=discount"), page.url


def test_the_footer_counts_the_events_a_hook_writes_while_the_page_is_open(page, server):
    page.goto(server.url + "#/search?q=walrus")
    page.wait_for_selector("#search-stats")
    page.wait_for_selector("#live:has-text('live')")
    before = api(server, "/api/health")["events"]
    assert page.inner_text("#corpus-status").startswith(f"{before} events ·")
    # Typed ten minutes ago: a session of one prompt is a session of the standup's window, and
    # the empty-window test below asks for the last minute of this same server.
    append_rows(server.home.log("prompts"), [
        {"event_id": "evt-walrus-1", "timestamp": format_timestamp(utcnow() - timedelta(minutes=10)), "type": "prompt",
         "summary": "teach the walrus to count", "project": "webshop",
         "session_id": "walrus-session", "provider": "claude"}])
    page.wait_for_selector("#live:has-text('1 new')")
    page.wait_for_selector(f"#corpus-status:has-text('{before + 1} events ·')", timeout=5000)
    page.click("#live button")
    page.wait_for_selector("#search-stats:has-text('1 of 1 result')")
    assert page.inner_text("#corpus-status").startswith(f"{before + 1} events ·")


def test_a_long_result_shows_a_few_lines_until_asked_for_all(page, server):
    """A turn of three thousand characters: four lines on the page, the rest one click away."""
    page.goto(server.url + "#/search?q=zeppelin")
    result = page.locator('#result-list .result[data-event-id="turn-zeppelin-1"]')
    result.wait_for()
    summary = result.locator(".summary")
    line = float(summary.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert summary.bounding_box()["height"] <= 4.5 * line, summary.bounding_box()
    result.get_by_role("button", name="show all").click()
    assert summary.bounding_box()["height"] > 10 * line
    assert summary.inner_text().strip() == LONG_TEXT
    result.get_by_role("button", name="show less").click()
    assert summary.bounding_box()["height"] <= 4.5 * line


@pytest.mark.parametrize("address", ["#/nosuchview", "#/sesion/abc", "#/session/"])
def test_an_address_naming_no_view_says_so(page, server, address):
    page.goto(server.url + address)
    page.wait_for_selector("body[data-ready]", state="attached")
    heading = page.inner_text("main h1")
    assert heading == "No such view", heading
    text = page.inner_text("main")
    assert address[1:] in text
    # Each says what is wrong with it: a view that does not exist never "needs its id".
    assert ("a session address names its session after the slash" in text) == (address == "#/session/"), text
    assert ("there is no view called" in text) == (address != "#/session/"), text
    assert page.locator("main a[href='#/search']").count() == 1
    assert page.locator("nav a[aria-current]").count() == 0


def test_the_skip_link_moves_to_the_content_and_keeps_the_view(page, server):
    page.goto(server.url + f"#/session/{SESSIONS['a']}")
    page.wait_for_selector("#session-events")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.inner_text("main h1").startswith("Session "), page.inner_text("main h1")
    assert page.evaluate("document.activeElement.id") == "main"


def test_a_browser_without_the_token_is_told_what_to_open(browser, server):
    """A bookmark of the bare address, or a browser that never had the cookie: a page saying
    what to open, not a JSON document; the API still answers scripts in JSON."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        page = context.new_page()
        response = page.goto(server.root)
        assert response.status == 401
        assert response.headers["content-type"].startswith("text/html")
        text = page.inner_text("body")
        assert "open the URL carto serve printed when it started" in text, text
        assert page.locator("code", has_text="carto serve").count() == 2
        assert "carto serve --new-token" in text, text
        assert page.title() == "carto explorer: the owner's token is needed"
    finally:
        context.close()
    import httpx

    refused = httpx.get(server.root + "api/health")
    assert refused.status_code == 401 and refused.json()["code"] == "token_required"


def test_an_open_page_whose_token_stopped_working_says_what_to_open(page, server):
    page.goto(server.url + "#/search")
    page.wait_for_selector("body[data-ready='search']", state="attached")
    page.context.clear_cookies()  # as after `carto serve --new-token`: the cookie is refused
    page.evaluate("location.hash = '#/desk'")
    page.wait_for_selector("main .error")
    text = page.inner_text("main .error")
    assert "carto serve answers its owner only: open the URL it printed" in text, text


def test_a_standup_window_without_sessions_says_so(page, server):
    assert api(server, "/api/standup?since=1m")["sessions"] == []
    page.goto(server.url + "#/standup?since=1m")
    page.wait_for_selector("#roster-empty")
    assert page.inner_text("#roster-empty") == "No session in the last 1m: a wider window shows older ones."


def test_a_standup_card_says_when_its_session_was_last_active(page, server):
    """A card read "webshop · 8 events · last 41m ago": last what, and "last ... ago" twice."""
    page.goto(server.url + "#/standup?since=7d")
    page.wait_for_selector("#roster .card")
    line = page.locator("#roster .card p.muted").first.inner_text()
    assert re.search(r" · last active \d+[mhd] ago$", line), line


def test_j_and_k_move_through_the_standup_sessions(page, server):
    sessions = api(server, "/api/standup?since=24h")["sessions"]
    assert len(sessions) >= 2
    page.goto(server.url + "#/standup?since=24h")
    page.wait_for_selector("#roster .card")
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert page.locator("#roster .card.selected").count() == 1
    second = sessions[1].get("id") or sessions[1]["session_id"]
    assert page.evaluate("document.activeElement.getAttribute('href')") == f"#/session/{second}"
    page.keyboard.press("k")
    page.keyboard.press("Enter")
    first = sessions[0].get("id") or sessions[0]["session_id"]
    page.wait_for_selector("#session-title")
    assert page.url.endswith(f"#/session/{first}")


def test_a_session_id_that_is_no_uuid_is_shown_whole(page, server):
    """A UUID is known by its first eight characters; an id such as 'zeppelin-session' (a
    transcript named by hand, an imported log) cut there would name another thing."""
    page.goto(server.url + "#/desk?days=1")
    page.wait_for_selector('.desk-card[data-session="zeppelin-session"]')
    assert page.inner_text('.desk-card[data-session="zeppelin-session"] h3') == "webshop · zeppelin-session"
    assert page.inner_text(f'.desk-card[data-session="{SESSIONS["a"]}"] h3') == f"webshop · {SESSIONS['a'][:8]}"
    page.goto(server.url + "#/session/zeppelin-session")
    page.wait_for_selector("#session-title")
    assert page.inner_text("#session-title") == "Session zeppelin-session · webshop"


@pytest.mark.parametrize("address", ["#/desk?days=1", "#/search?q=zeppelin"])
def test_a_long_tag_keeps_apart_from_its_count(page, server, address):
    """'mcp:plugin_showcase_example' and its count 1 ran together as 'example1'."""
    page.goto(server.url + address)
    facet = page.locator('button.tag-facet[data-tag="tool:mcp:plugin_showcase_example"]')
    facet.wait_for()
    label, count = facet.evaluate("""b => {
        const range = document.createRange();
        range.selectNodeContents(b.firstChild);
        const rects = [...range.getClientRects()];
        return [Math.max(...rects.map(r => r.right)), b.querySelector('.facet-count').getBoundingClientRect()];
    }""")
    assert count["left"] >= label + 4, (label, count)
    assert count["right"] <= facet.bounding_box()["x"] + facet.bounding_box()["width"] + 1


def test_tempo_says_it_draws_a_year_and_which_projects_are_older(page, server):
    """The activity view is 'all time'; tempo draws at most 366 days. ancient-notes' two events
    are 400 days old: the census counts them, tempo's chart of it was empty under '0 events
    over 366 days'."""
    page.goto(server.url + "#/activity")
    page.wait_for_selector("#tempo figure")
    assert "ancient-notes" in page.inner_text("#census")
    note = page.inner_text("#tempo-cut")
    assert note.startswith("Tempo draws at most 366 days"), note
    assert "the census above counts the whole window" in note, note
    figure = page.locator("#tempo figure", has_text="ancient-notes")
    assert figure.locator("figcaption").inner_text() == (
        "ancient-notes · no event in the 366 days drawn (the census counts its older ones)")
    assert figure.locator("rect").count() == 0


def test_a_year_of_steady_work_has_dates_along_the_timeline(page, server):
    """A year active every few days is one period of the compressed axis; it was labelled with
    its first day alone, so nothing said when any mark in it happened. Labels now run along it,
    in order, and every mark lies between the labels that bracket its day."""
    page.goto(server.url + "#/timeline?days=400")
    page.wait_for_selector(".timeline-svg a.session-bar rect")
    labels = page.eval_on_selector_all(".timeline-svg .period-label", """ts => ts.map(t => ({
        x: t.getBoundingClientRect().left, day: t.textContent.slice(0, 10)}))""")
    assert len(labels) >= 5, labels
    assert [l["day"] for l in labels] == sorted(l["day"] for l in labels), labels
    marks = page.eval_on_selector_all('.timeline-svg a.session-bar[data-session-id^="yearly-session-"] rect',
                                      "rs => rs.map(r => ({x: r.getBoundingClientRect().left, day: r.dataset.start.slice(0, 10)}))")
    for mark in marks:
        before = [l for l in labels if l["x"] <= mark["x"]]
        after = [l for l in labels if l["x"] > mark["x"] + 8]
        if before:
            assert before[-1]["day"] <= mark["day"], (mark, before[-1])
        if after:
            assert mark["day"] <= after[0]["day"], (mark, after[0])


def test_a_day_still_to_come_is_not_called_unfinished(page, server):
    day = (utcnow() + timedelta(days=400)).strftime("%Y-%m-%d")
    page.goto(server.url + f"#/day/{day}")
    page.wait_for_selector("#day-title")
    assert page.inner_text("#day-title") == f"Day {day} (UTC) · still to come"
    today = utcnow().strftime("%Y-%m-%d")
    page.goto(server.url + f"#/day/{today}")
    page.wait_for_selector(f"#day-title:has-text('{today}')")
    assert page.inner_text("#day-title") == f"Day {today} (UTC) · not over yet"


def test_a_rewritten_log_is_announced_as_a_change_not_as_new_events(page, server):
    """`carto forget` rewrites a log without the forgotten rows: the stream says `reload`. The
    indicator said '1 new' for it, as if something had been added."""
    log = server.home.log("prompts")
    append_rows(log, [{"event_id": "evt-forget-me", "timestamp": format_timestamp(utcnow()),
                       "type": "prompt", "summary": "a prompt to forget", "project": "webshop",
                       "session_id": "forget-session", "provider": "claude"}])
    page.goto(server.url + "#/search?q=forget")
    page.wait_for_selector("#search-stats:has-text('1 of 1 result')")
    page.wait_for_selector("#live:text-is('● live')")
    kept = [line for line in log.read_text().splitlines(True) if "evt-forget-me" not in line]
    rewritten = log.with_name(log.name + ".tmp")
    rewritten.write_text("".join(kept))
    rewritten.replace(log)
    page.wait_for_selector("#live button")
    live = page.inner_text("#live")
    assert "the home changed" in live and "new" not in live, live
    page.click("#live button")
    page.wait_for_selector("#search-stats:has-text('0 of 0 results')")


@pytest.mark.parametrize("where", ["#session-turns li", "#session-events td.summary"])
def test_a_long_turn_on_its_session_page_shows_a_few_lines_until_asked(page, server, where):
    """The session page printed a long turn whole twice: in its turns and in its events."""
    page.goto(server.url + "#/session/zeppelin-session")
    cell = page.locator(where).first
    cell.wait_for()
    text = cell.locator(".clamped")
    line = float(text.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert text.bounding_box()["height"] <= 4.5 * line, text.bounding_box()
    cell.get_by_role("button", name="show all").click()
    assert cell.locator(".turn-text, .event-text").inner_text().strip() == LONG_TEXT
    assert cell.locator(".turn-text, .event-text").bounding_box()["height"] > 4.5 * line


@pytest.mark.parametrize("address, select, shown", [
    ("#/desk?days=0", "#desk-days", "1"), ("#/desk?days=abc", "#desk-days", "7"),
    ("#/desk?days=99999", "#desk-days", "3650"), ("#/recall?days=-4", "#recall-days", "1")])
def test_a_window_outside_the_bounds_is_clamped_not_a_dead_end(page, server, address, select, shown):
    """A hand-typed window the API refuses left the desk and the recall page with an error and
    no controls to choose another; they now take the nearest window, as the timeline does."""
    page.goto(server.url + address)
    page.wait_for_selector("body[data-ready]", state="attached")
    assert page.locator(select).count() == 1, page.inner_text("main")
    assert page.eval_on_selector(select, "s => s.value") == shown
    assert page.locator("main .error").count() == 0


def test_the_project_searched_is_the_one_the_select_shows(page, server):
    """A search scoped to a project the home has no event of showed 'all projects' in its
    select beside zero results."""
    page.goto(server.url + "#/search?q=discount&project=nonexistent")
    page.wait_for_selector("#nothing-found")
    page.wait_for_selector("#project option[value='webshop']", state="attached")
    assert page.eval_on_selector("#project", "s => s.value") == "nonexistent"
    assert page.eval_on_selector("#project", "s => s.selectedOptions[0].textContent") == "nonexistent"
    assert "Nothing found for “discount” in nonexistent" in page.inner_text("#nothing-found")


def test_the_co_terms_name_the_word_without_the_query_s_punctuation(page, server):
    page.goto(server.url + "#/search?q=%22discount%20codes%22")
    page.wait_for_selector("#co-terms span")
    assert page.inner_text("#co-terms span").startswith("Often with “discount” ("), page.inner_text("#co-terms")


def test_an_activity_window_that_cannot_be_read_is_refused_once(page, server):
    """Census and tempo each said 'Could not load: cannot parse since value ...', one under the
    other, for the one window the address named."""
    page.goto(server.url + "#/activity?since=zz")
    page.wait_for_selector("main .error")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.wait_for_load_state("networkidle")
    errors = page.locator("main .error").all_inner_texts()
    assert errors == ["Could not load: cannot parse since value 'zz'"], errors


def test_suggestions_of_an_earlier_word_do_not_outlive_it(page, server):
    """The box suggested 'discount' for 'disc', and still did after the word was erased and 'a'
    (too short to ask) typed instead; a word no index term starts as shows none either."""
    page.goto(server.url + "#/search")
    page.wait_for_selector("#q")
    options = page.locator("#q-terms option")
    page.type("#q", "disc")
    page.wait_for_selector("#q-terms option[value='discount']", state="attached")
    for text in ("a", "zzq"):
        page.fill("#q", "")
        page.type("#q", text)
        page.wait_for_timeout(600)
        assert options.count() == 0, (text, options.evaluate_all("os => os.map(o => o.value)"))


@pytest.mark.parametrize("address, title", [
    (f"#/session/{SESSIONS['a']}", f"Session {SESSIONS['a'][:8]} · webshop · carto"),
    ("#/search?q=discount", "“discount” · Search · carto"),
    ("#/desk", "Memory desk · carto"),
    ("#/nosuchview", "No such view · carto")])
def test_each_view_names_its_tab(page, server, address, title):
    """Every tab and history entry was 'carto explorer': three sessions open in three tabs
    could not be told apart."""
    page.goto(server.url + address)
    page.wait_for_selector("body[data-ready]", state="attached")
    assert page.title() == title


def test_a_session_address_takes_the_short_id_people_see(page, server):
    """Every view, `carto sessions` and `carto standup` show a session by its first eight
    characters, and `carto session 5a1e0000` opens it; #/session/5a1e0000 said 'no events carry
    that session id'."""
    full = SESSIONS["a"]
    assert api(server, f"/api/sessions/{full[:8]}")["session"]["session_id"] == full
    page.goto(server.url + f"#/session/{full[:8]}")
    page.wait_for_selector("#session-title")
    assert page.inner_text("#session-title") == f"Session {full[:8]} · webshop"
    assert page.url.endswith(f"#/session/{full}"), page.url
    # A prefix several sessions share names them, as carto session does.
    page.goto(server.url + "#/session/yearly-sess")
    page.wait_for_selector("#session-candidates")
    assert page.inner_text("#session-candidates p") == "120 sessions start with that:"
    # Each candidate a link (they were cut-off plain text in an error).
    links = page.locator("#session-candidates li a")
    assert links.count() == 20 and links.first.get_attribute("href") == "#/session/yearly-session-0"
    assert page.locator("main .error").count() == 0


def test_a_project_facet_keeps_the_shown_topics(page, server):
    """Choosing a project dropped `topics=true`: the topic facets asked for went away."""
    page.goto(server.url + "#/search?q=discount&topics=true")
    page.wait_for_selector(".tag-kind[data-kind='topic']")
    page.click("aside.facets li button:has-text('webshop')")
    page.wait_for_url("**#/search?q=discount&project=webshop*")
    assert "topics=true" in page.url, page.url
    page.wait_for_selector(".tag-kind[data-kind='topic']")


#: Whether `word`, inside the element `selector` names, is drawn left to right (its first
#: character left of its last), as the page's own words must be.
READS_IN_ORDER = """([selector, word]) => {
    const walker = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const i = node.data.indexOf(word);
        if (i < 0) continue;
        const left = (k) => { const r = document.createRange(); r.setStart(node, k); r.setEnd(node, k + 1);
                              return r.getBoundingClientRect().left; };
        return left(i) < left(i + word.length - 1);
    }
    return null;
}"""


def test_a_direction_override_in_recorded_text_reverses_nothing_of_the_page(page, server):
    """A U+202E in a cwd turned the desk card's title into "gpj.00007a7a · exe", reversed
    "files touched" and showed the file /work/src/\u202etxt.exe as /work/src/exe.txt. Each
    recorded text is now isolated and a name shows its controls."""
    page.goto(server.url + "#/desk?days=1")
    title = f'.desk-card[data-session="{RTL_SESSION}"] h3'
    page.wait_for_selector(title)
    assert page.inner_text(title) == "gpj.⟨U+202E⟩exe · a7a70000"
    assert page.evaluate(READS_IN_ORDER, [title, "a7a70000"]) is True
    assert page.evaluate(READS_IN_ORDER, ["#desk-stats", "touched"]) is True
    page.goto(server.url + f"#/session/{RTL_SESSION}")
    page.wait_for_selector("#session-files")
    assert page.inner_text("#session-files tbody td.summary") == "/work/src/⟨U+202E⟩txt.exe"
    assert page.evaluate(READS_IN_ORDER, ["#session-files tbody td.summary", "txt.exe"]) is True
    assert page.evaluate(READS_IN_ORDER, ["#session-title", "Session"]) is True
    assert "\u202e" not in page.inner_text("#session-title")


@pytest.mark.parametrize("address", ["#/search?q=quokka", "#/search?q=" + "zz" * 250])
def test_one_long_word_never_scrolls_the_page_sideways(page, server, address):
    """A 20,000-character word as an "Often with" chip made the page 11,530 px wide, and so did
    a 500-character query echoed in "Nothing found for ..."."""
    page.goto(server.url + address)
    page.wait_for_selector("#search-stats")
    page.wait_for_load_state("networkidle")
    if "quokka" in address:
        page.wait_for_selector("#co-terms .chip")
        assert max(page.eval_on_selector_all("#co-terms .chip", "els => els.map(e => e.textContent.length)")) >= 20_000
    else:
        page.wait_for_selector("#nothing-found")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400


def test_an_event_id_is_copied_whole(page, server):
    """A double-click on "evt-9a001a08efb8" selected "9a001a08efb8" (a word ends at a hyphen);
    each result also has a button that copies its id."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(server.url + "#/search?q=quokka")
    result = page.locator("#result-list .result").first
    result.locator(".event-id").dblclick()
    assert page.evaluate("window.getSelection().toString()") == "evt-long-word"
    result.get_by_role("button", name="copy id").click()
    assert page.evaluate("navigator.clipboard.readText()") == "evt-long-word"


@pytest.fixture(scope="module")
def new_home(tmp_path_factory):
    """A home nothing was recorded in yet (`carto serve` right after `carto init`)."""
    from carto_core.logio.home import Home

    home = Home(tmp_path_factory.mktemp("new") / "home")
    app = create_app(home, transcript_roots=TranscriptRoots(claude=(), codex=()),
                     poll_seconds=0.2, heartbeat_seconds=1.0)
    with LiveServer(app) as live:
        yield live


@pytest.mark.parametrize("address, says", [
    ("#/search?q=%F0%9F%A6%93", "holds no letter or digit"),
    ("#/search?q=discount", "record some with `carto install`"),
    ("#/day/today", "Nothing is recorded in"),
])
def test_a_new_home_and_an_emoji_query_are_states_not_failures(page, new_home, address, says):
    """Each said "Could not load: ...", and Day on a new home "an outage, not a quiet day"."""
    page.goto(new_home.url + address)
    page.wait_for_selector("main .notice")
    text = page.inner_text("main")
    assert says in text and "Could not load" not in text and "outage" not in text, text
    assert page.locator("main .error").count() == 0


def test_a_new_home_s_census_has_no_stray_separator(page, new_home):
    page.goto(new_home.url + "#/activity")
    page.wait_for_selector("#census h2")
    assert page.inner_text("#census h2 + p") == "0 sessions"


@pytest.mark.parametrize("day", ["notaday", "2026-13-45", "2026-02-30"])
def test_a_day_address_that_is_no_day_says_so_in_words(page, server, day):
    """2026-13-45 has a day's shape: it was asked, and the page said "Could not load: cannot
    read day '2026-13-45'; ..."."""
    page.goto(server.url + f"#/day/{day}")
    page.wait_for_selector("#day-invalid")
    text = page.inner_text("main")
    assert f"“{day}” is not a day" in text and "^(" not in text and "Could not load" not in text, text


def test_the_page_says_what_the_cli_says_with_its_statuses(page, server):
    """The semantic status without `carto search`'s "fix: carto index", and a standup session
    read from transcript turns without the CLI's "from N transcript turns (no hook rows)"."""
    # A word no document holds: the semantic ladder is asked, and this home has no vectors.
    answer = api(server, "/api/recall", {"query": "xylophone"})
    fix = answer["semantic"]["fix"]
    assert fix
    page.goto(server.url + "#/search?q=xylophone")
    page.wait_for_selector("#search-stats")
    assert f"fix: {fix}" in page.inner_text("#search-stats")
    page.goto(server.url + "#/standup?since=24h")
    card = page.locator("#roster .card", has=page.locator("a[href='#/session/zeppelin-session']"))
    assert "from 1 transcript turn (no hook rows)" in card.inner_text(), card.inner_text()
