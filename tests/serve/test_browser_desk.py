"""The memory-desk views (issue 21) in a real browser at 1400x1000: transcript analysis, the
desk, a day, a review of a commit and of a file.
Each test reads what the page shows against the API's own answer, and keeps a screenshot (set
CARTO_SCREENSHOTS to a folder to look at them)."""

from __future__ import annotations

import pytest

import subprocess

from carto_core.logio.appendlog import append_rows
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.search.telemetry import access_ledger_path, search_calls_path, served_log_path
from carto_core.util.timeparse import format_timestamp, utcnow
from carto_core.serve.app import create_app
from carto_core.transcript.resolver import TranscriptRoots

from .browserkit import api, assert_not_blank
from .conftest import LiveServer
from .test_analysis import claude_lines, write
from .test_desk import _git

REVIEWED = "review-session-0001"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("desk")
    home = build_sample_home(base / "home")
    claude = base / "claude-projects"
    write(claude / "-work-webshop" / f"{SESSIONS['a']}.jsonl", claude_lines())
    repo = base / "repo"
    (repo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "src" / "cart.py").write_text("def total(items):\n    return sum(items)\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "cart: a total")
    (repo / "src" / "cart.py").write_text("from decimal import Decimal\n\ndef total(items):\n    return sum(Decimal(i) for i in items)\n")
    sha = _git(repo, "commit", "-qam", "cart: totals in Decimal")
    now = format_timestamp(utcnow())
    append_rows(home.log("changelog"), [
        {"event_id": "evt-rv-1", "timestamp": now, "type": "tool_file_edit", "summary": f"Modified: {repo}/src/cart.py",
         "project": "repo", "session_id": REVIEWED, "provider": "claude", "cwd": str(repo)},
        {"event_id": "evt-rv-2", "timestamp": now, "type": "git_commit", "summary": f"Committed: [main {sha[:7]}] cart: totals in Decimal",
         "commit_hash": sha, "project": "repo", "session_id": REVIEWED, "provider": "claude", "cwd": str(repo)}])
    import json

    known = [json.loads(line)["event_id"] for line in home.log("changelog").read_text().splitlines()[:2]]
    served = [*known, "evt-never-there"]
    append_rows(search_calls_path(home), [{"call_id": "call-b1", "timestamp": now, "query": "discount codes",
                                           "session_id": SESSIONS["b"], "provider": "codex", "purpose": "manual",
                                           "elapsed_ms": 41.5, "result_count": 3}])
    append_rows(served_log_path(home), [{"timestamp": now, "call_id": "call-b1", "session_id": SESSIONS["b"],
                                         "query": "discount codes", "event_id": eid, "rank": n + 1, "source": "bm25"}
                                        for n, eid in enumerate(served)])
    append_rows(access_ledger_path(home), [{"event_id": served[1], "timestamp": now, "session_id": SESSIONS["b"],
                                            "source": "result_used", "call_id": "call-b1"}])
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


def test_desk_view_filters(page, server, tmp_path):
    page.goto(server.url + "#/desk?days=30")
    page.wait_for_selector("#desk-sessions")
    truth = api(server, "/api/desk?days=30")
    cards = page.locator("#desk-sessions .desk-card")
    assert cards.count() == truth["total"]
    assert [cards.nth(i).get_attribute("data-session") for i in range(cards.count())] == \
        [s["session_id"] for s in truth["sessions"]]
    card_a = page.locator(f'.desk-card[data-session="{SESSIONS["a"]}"]')
    assert "Cart.total() is the single place prices combine" in card_a.inner_text()
    assert card_a.locator(".badge").all_inner_texts() == ["commits", "edits", "wrapup", "unresolved"]
    # only a transcript this machine holds is offered for analysis (b's is not here)
    for card, session in zip((cards.nth(i) for i in range(cards.count())), truth["sessions"]):
        links = card.locator(".card-links")
        analysed = links.locator('a[href^="#/analysis/"]').count()
        assert analysed == (1 if session["transcript_available"] else 0), session["session_id"]
        assert ("transcript not on this machine" in links.inner_text()) is (not session["transcript_available"])
    assert truth["sessions"][0]["transcript_available"] is not None
    assert {s["session_id"]: s["transcript_available"] for s in truth["sessions"]}.get(SESSIONS["b"]) is False
    assert card_a.locator('.card-links a[href^="#/analysis/"]').count() == 1
    assert_not_blank(page, tmp_path, "desk")
    # the evidence filter is the API's
    page.select_option("#desk-evidence", "no_wrapup")
    page.wait_for_function("() => location.hash.includes('evidence=no_wrapup') && document.body.dataset.ready === 'desk'")
    page.wait_for_selector("#desk-sessions")
    want = [s["session_id"] for s in api(server, "/api/desk?days=30&evidence=no_wrapup")["sessions"]]
    got = page.locator("#desk-sessions .desk-card")
    assert [got.nth(i).get_attribute("data-session") for i in range(got.count())] == want
    assert SESSIONS["a"] not in want and want


def test_day_view(page, server, tmp_path):
    day = utcnow().strftime("%Y-%m-%d")
    page.goto(server.url + f"#/day/{day}")
    page.wait_for_selector("#day-stats")
    truth = api(server, f"/api/desk/day?day={day}")
    assert f"{truth['totals']['events']} events" in page.locator("#day-stats").inner_text()
    assert page.locator(".day-project").count() == len(truth["projects"])
    assert page.locator(".hours .hour").count() == 24
    # Each hour label on one line (12h, 15h, 18h and 21h wrapped onto two in a 1.2rem box).
    lines = page.eval_on_selector_all(".hours-axis span", """spans => spans.filter(s => s.textContent)
        .map(s => { const r = document.createRange(); r.selectNodeContents(s);
                    return [s.textContent, new Set([...r.getClientRects()].map(q => Math.round(q.top))).size]; })""")
    assert len(lines) == 8 and all(n == 1 for _, n in lines), lines
    assert_not_blank(page, tmp_path, "day")


@pytest.mark.parametrize("width", [400, 700, 1400])
def test_the_hour_labels_sit_under_their_bars(page, server, tmp_path, width):
    """At 400 px the bars shrank to the window and their labels did not: "9h" sat 49 px right of
    hour 9's bar, and the page scrolled sideways (478 px wide)."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(server.url + "#/day/today")
    page.wait_for_selector("#day-stats")
    bars = page.eval_on_selector_all(".hours .hour", "els => els.map(e => e.getBoundingClientRect().left)")
    labels = page.eval_on_selector_all(".hours-axis span", """spans => spans.map((s, h) => [h, s.textContent,
        s.getBoundingClientRect().left])""")
    shown = [(h, x) for h, text, x in labels if text]
    assert [h for h, _ in shown] == list(range(0, 24, 3)), labels
    assert all(abs(x - bars[h]) <= 1 for h, x in shown), (bars, shown)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert_not_blank(page, tmp_path, f"day-{width}")


def test_review_views(page, server, tmp_path):
    page.goto(server.url + "#/desk?days=1&project=repo")
    page.wait_for_selector(f'.desk-card[data-session="{REVIEWED}"]')
    page.locator(f'.desk-card[data-session="{REVIEWED}"] ul.commits a').first.click()
    page.wait_for_selector("#review-text")
    assert page.locator("#review-title").inner_text().endswith("cart: totals in Decimal")
    assert page.locator("#review-text .add").filter(has_text="from decimal import Decimal").count() == 1
    assert page.locator("#review-text .del").filter(has_text="return sum(items)").count() == 1
    assert page.locator("#review-files li").all_inner_texts() == ["M src/cart.py"]
    # every line of the hunk on its own row, context included (an inline-block layout lost them)
    assert page.locator("#review-text .line").all_inner_texts()[-5:] == [
        "+", " def total(items):", "-    return sum(items)", "+    return sum(Decimal(i) for i in items)", " "]
    assert_not_blank(page, tmp_path, "review-commit")
    page.goto(server.url + f"#/review/{REVIEWED}?path=src/cart.py")
    page.wait_for_function("() => document.body.dataset.ready === 'review'")
    assert "sum(Decimal(i) for i in items)" in page.locator("#review-text").inner_text()
    # outside the repository: the API's refusal is shown, nothing else
    page.goto(server.url + f"#/review/{REVIEWED}?path=/etc/passwd")
    page.wait_for_function("() => document.body.dataset.ready === 'review'")
    assert "outside the session's repository" in page.locator(".error").inner_text()
    assert page.locator("#review-text").count() == 0


def test_recall_telemetry_view(page, server, tmp_path):
    page.goto(server.url + "#/recall")
    page.wait_for_selector("#recall-calls")
    truth = api(server, "/api/telemetry")
    call = page.locator('#recall-calls [data-call="call-b1"]')
    assert call.locator(".query strong").inner_text() == "discount codes"
    items = call.locator("ol.served li")
    assert items.count() == len(truth["calls"][0]["served"]) == 3
    # the used one is marked, the one the corpus lost says so
    assert items.nth(1).locator(".badge").first.inner_text() == "used"
    assert "no longer in the corpus" in items.nth(2).inner_text()
    assert "1 used" in page.locator("#recall-stats").inner_text()
    assert_not_blank(page, tmp_path, "recall")


def test_internals_view(page, server, tmp_path):
    page.goto(server.url + "#/search?q=discount%20codes")
    page.wait_for_selector("#open-internals")
    page.click("#open-internals")
    page.wait_for_function("() => document.body.dataset.ready === 'internals'")
    assert page.locator("#internals-results").count() == 1, page.locator("main").inner_text()
    truth = api(server, "/api/recall", {"query": "discount codes", "limit": 25, "explain": True})
    rows = page.locator("#internals-results tbody tr")
    assert [rows.nth(i).get_attribute("data-event") for i in range(rows.count())] == \
        [h["event_id"] for h in truth["results"]]
    # one rank column per ladder, each cell the result's rank in that ladder (or a dash)
    ladders = list(truth["explain"]["ladders"])
    heads = page.locator("#internals-results thead th").all_inner_texts()
    assert heads[2:2 + len(ladders)] == [f"rank · {name}" for name in ladders]
    first = truth["results"][0]
    cells = rows.nth(0).locator("td").all_inner_texts()
    assert cells[2:2 + len(ladders)] == [str(first["why"]["ranks"].get(name, "—")) for name in ladders]
    assert f"{truth['explain']['candidates']} candidates" in page.locator("#internals-call").inner_text()
    assert page.locator("#internals-stages rect.stage").count() == len(
        [k for k in truth["stages_ms"] if k != "total"])
    assert page.locator("#internals-ladders tbody tr").count() == len(truth["ladders"])
    assert_not_blank(page, tmp_path, "internals")


def test_autocomplete_and_co_terms(page, server, tmp_path):
    page.goto(server.url + "#/search?q=discount")
    page.wait_for_selector("#co-terms .chip")
    truth = api(server, "/api/terms/co?term=discount&limit=10")
    assert page.locator("#co-terms .chip").all_inner_texts() == [t["word"] for t in truth["co_terms"]]
    # the box suggests indexed terms for the word being typed
    page.fill("#q", "cart disc")
    page.wait_for_function("() => document.querySelector('#q-terms').dataset.prefix === 'disc'")
    options = page.eval_on_selector_all("#q-terms option", "os => os.map(o => o.value)")
    want = [f"cart {t['word']}" for t in api(server, "/api/terms/complete?prefix=disc&limit=8")["terms"]]
    assert options == want and "cart discount" in options
    assert_not_blank(page, tmp_path, "search-co-terms")
    # a chip adds its term to the query
    first = truth["co_terms"][0]["word"]
    page.locator("#co-terms .chip").first.click()
    page.wait_for_function(f"() => decodeURIComponent(location.hash).includes('q=discount+{first}') || decodeURIComponent(location.hash).includes('q=discount {first}')")


def test_one_session_links_its_files_and_commits_to_review(page, server, tmp_path):
    page.goto(server.url + f"#/session/{REVIEWED}")
    page.wait_for_selector("#session-files a.review")
    assert page.locator("#session-commits a.review").count() == 1
    assert_not_blank(page, tmp_path, "session")
    page.locator("#session-files a.review").first.click()
    page.wait_for_function("() => document.body.dataset.ready === 'review'")
    assert "sum(Decimal(i) for i in items)" in page.locator("#review-text").inner_text()
    page.go_back()
    page.wait_for_selector("#session-commits a.review")
    page.locator("#session-commits a.review").first.click()
    page.wait_for_function("() => document.body.dataset.ready === 'review' && !!document.querySelector('#review-files')")
    assert page.locator("#review-title").inner_text().endswith("cart: totals in Decimal")


def test_keys_reach_the_new_views(page, server):
    page.goto(server.url + "#/search")
    page.wait_for_function("() => document.body.dataset.ready === 'search'")
    for key, view in (("d", "desk"), ("r", "recall"), ("i", "internals")):
        page.keyboard.press("g")
        page.keyboard.press(key)
        page.wait_for_function(f"() => document.body.dataset.ready === '{view}'")
        assert page.evaluate("location.hash").startswith(f"#/{view}")
