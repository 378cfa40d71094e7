"""The explorer's warts (issue 21), each shown in a real browser: every test here failed on the
page before its fix (checked by running it against the previous app.js).

- `#/timeline?days=400` showed its selector as "last 1 day";
- over long windows sessions shrank to slivers (a 2-hour session in a 120-day span: 5 px);
- a project with one day of data drew a solid grey block;
- tempo charts titled "3 events" were empty (the events were older than the 30 days drawn);
- the search box had focus on load, so `/` typed a slash into the query.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.serve.app import create_app
from carto_core.util.timeparse import format_timestamp, utcnow
from carto_core.transcript.resolver import TranscriptRoots

from .browserkit import api, assert_not_blank
from .conftest import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("warts")
    home = build_sample_home(base / "home")
    now = utcnow()
    # A project whose three events are all older than a month, and one with a single day.
    append_rows(home.log("changelog"), [
        {"event_id": f"evt-old-{n}", "timestamp": format_timestamp(now - timedelta(days=40 + n)),
         "type": "tool_bash", "summary": f"Ran: make notes {n}", "project": "old-notes",
         "session_id": "old-notes-session", "provider": "claude"} for n in range(3)] + [
        {"event_id": f"evt-fresh-{n}", "timestamp": format_timestamp(now - timedelta(seconds=n)),
         "type": "tool_bash", "summary": f"Ran: make fresh {n}", "project": "fresh-repo",
         "session_id": "fresh-session", "provider": "claude"} for n in range(2)] + [
        # A session no project was recorded for (a shell outside any repository).
        {"event_id": "evt-loose-1", "timestamp": format_timestamp(now - timedelta(minutes=5)),
         "type": "tool_bash", "summary": "Ran: ls ~", "session_id": "loose-session", "provider": "claude"}])
    app = create_app(home, transcript_roots=TranscriptRoots(claude=(), codex=()),
                     poll_seconds=0.2, heartbeat_seconds=1.0)
    with LiveServer(app) as live:
        yield live


def test_a_window_outside_the_presets_is_the_one_shown(page, server, tmp_path):
    page.goto(server.url + "#/timeline?days=400")
    page.wait_for_selector("#session-table")
    assert page.eval_on_selector("#days", "s => s.value") == "400"
    assert page.eval_on_selector("#days", "s => s.selectedOptions[0].textContent") == "last 400 days"
    sessions = api(server, "/api/sessions?days=400&limit=500")["sessions"]
    assert page.locator("#session-table tbody tr").count() == len(sessions)
    assert_not_blank(page, tmp_path, "timeline-400-days")


def test_a_long_window_gives_a_short_session_room(page, server):
    """Session b: two bursts (2 h ago and 20 min ago) inside a 120-day span of sessions. Its
    marks must be readable and its two bursts visibly apart."""
    page.goto(server.url + "#/timeline?days=400")
    page.wait_for_selector(".timeline-svg a.session-bar rect")
    plot = page.locator(".timeline-svg").bounding_box()
    rects = page.locator(f'.timeline-svg a.session-bar[href="#/session/{SESSIONS["b"]}"] rect')
    boxes = [rects.nth(i).bounding_box() for i in range(rects.count())]
    assert boxes and min(box["width"] for box in boxes) >= 8
    spread = max(b["x"] + b["width"] for b in boxes) - min(b["x"] for b in boxes)
    assert spread >= 0.05 * plot["width"], (spread, plot["width"])
    # Every session's every mark, not only b's.
    widths = page.eval_on_selector_all(".timeline-svg a.session-bar rect",
                                       "els => els.map(e => e.getBoundingClientRect().width)")
    assert min(widths) >= 8


def test_the_timeline_s_dates_name_the_time_at_their_place(page, server):
    """A period's first label sat at its left edge, a margin (at least 5 minutes) before its
    first event, and named that event: the axis read 08:29, 08:27, 08:30."""
    page.goto(server.url + "#/timeline?days=7")
    page.wait_for_selector(".timeline-svg a.session-bar rect")
    labels = page.eval_on_selector_all(".timeline-svg text.period-label",
                                       "els => els.map(e => [Number(e.getAttribute('x')), e.textContent])")
    labels.sort()
    assert len(labels) >= 2, labels
    texts = [text for _, text in labels]
    assert texts == sorted(texts), texts
    marks = page.eval_on_selector_all(".timeline-svg rect.mark",
                                      "els => els.map(e => [Number(e.getAttribute('x')), e.dataset.start])")
    x, start = min(marks)
    assert abs(labels[0][0] - x) < 1 and start.startswith(labels[0][1].replace(" ", "T")), (labels[0], x, start)


def _tempo_charts(page):
    page.wait_for_selector(".tempo-chart")
    return page.eval_on_selector_all("#tempo figure", """figs => figs.map(f => ({
        caption: f.querySelector('figcaption').textContent,
        label: f.querySelector('svg').getAttribute('aria-label'),
        chart: f.querySelector('svg').getBoundingClientRect().width,
        bars: [...f.querySelectorAll('rect')].map(r => r.getBoundingClientRect().width)}))""")


def test_a_one_day_project_is_not_a_block(page, server, tmp_path):
    page.goto(server.url + "#/activity")
    charts = _tempo_charts(page)
    fresh = next(c for c in charts if c["caption"].startswith("fresh-repo"))
    assert sum(fresh["bars"]) <= 0.1 * fresh["chart"], fresh
    assert "not scored" in fresh["caption"]
    assert_not_blank(page, tmp_path, "activity")


def test_a_tempo_chart_draws_every_event_its_caption_counts(page, server):
    page.goto(server.url + "#/activity")
    charts = _tempo_charts(page)
    assert any(c["caption"].startswith("old-notes") for c in charts)
    for chart in charts:
        caption = int(re.search(r"(\d+) events", chart["caption"]).group(1))
        # aria-label: "project: <day or week> <count>, ..."
        drawn = sum(int(item.rsplit(" ", 1)[1]) for item in chart["label"].split(": ", 1)[1].split(", "))
        assert drawn == caption, chart


def test_slash_focuses_the_search_box_without_typing_a_slash(page, server):
    page.goto(server.url + "#/search")
    page.wait_for_selector("#q")
    assert page.evaluate("document.activeElement.id") != "q"
    page.keyboard.press("/")
    page.keyboard.type("abc")
    assert page.eval_on_selector("#q", "e => e.value") == "abc"


def test_events_without_a_project_are_counted_and_named(page, server, tmp_path):
    """By project left out the events without one (a census of 23 events drew bars summing to
    15); the Timeline table and the session page left their project blank."""
    page.goto(server.url + "#/activity")
    page.wait_for_selector("#census-by_project")
    events = int(re.search(r"(\d+) events", page.inner_text("#census h2")).group(1))
    label = page.get_attribute("#census-by_project", "aria-label").split(": ", 1)[1]
    bars = dict(item.rsplit(" ", 1) for item in label.split(", "))
    assert "no project" in bars and sum(map(int, bars.values())) == events, (events, bars)
    page.goto(server.url + "#/timeline?days=7")
    row = page.locator("#session-table tbody tr", has=page.locator("a[href='#/session/loose-session']"))
    assert row.locator("td").nth(1).inner_text() == "no project"
    page.goto(server.url + "#/session/loose-session")
    page.wait_for_selector("#session-title")
    assert page.locator("dt:text-is('projects') + dd").inner_text() == "no project"
    # the day view headed the same work "outside any repo" (the digest's pseudo-project name)
    # and the desk counted its sessions under "?"
    page.goto(server.url + "#/day/today")
    page.wait_for_selector("#day-stats")
    headings = page.locator(".day-project h2").all_inner_texts()
    assert any(h.startswith("no project · ") for h in headings), headings
    assert "outside any repo" not in page.inner_text("main")
    assert_not_blank(page, tmp_path, "day-no-project")
    page.goto(server.url + "#/desk?days=7")
    page.wait_for_selector("#desk-stats")
    stats = page.inner_text("#desk-stats")
    assert "no project 1" in stats and "?" not in stats, stats
    card = page.locator('.desk-card[data-session="loose-session"] h3')
    assert card.inner_text().startswith("no project · "), card.inner_text()
