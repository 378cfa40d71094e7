"""The agent tree and the tag facets in a real browser at 1400x1000, on a home backfilled from
the shared fixtures: what the page shows is read against the API's own answer, and a
screenshot of each view is kept (CARTO_SCREENSHOTS names a folder to look at them)."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.serve.app import create_app
from carto_core.transcript.resolver import TranscriptRoots

from .browserkit import api, assert_not_blank
from .conftest import LiveServer

SHOWCASE = "55550000-0000-4000-8000-000000000001"  # 2.1.x: Agent calls, a subagent file
DEMO = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"      # 1.0.x: Task calls, inline sidechains


@pytest.fixture(scope="module")
def server(tmp_path_factory, shared_fixtures):
    base = tmp_path_factory.mktemp("sessions")
    home = base / "home"
    claude = base / "claude"
    shutil.copytree(shared_fixtures / "claude", claude, ignore=shutil.ignore_patterns("*.md"))
    codex = base / "codex"
    shutil.copytree(shared_fixtures / "codex" / "claude-code-log" / "sessions", codex)
    _write_rtl_session(claude / "-work-rtl" / f"{RTL_SESSION}.jsonl")
    for provider, root in (("claude", claude), ("codex", codex)):
        done = CliRunner().invoke(cli, ["ingest", provider, "--root", str(root), "--json"],
                                  env={"CARTO_HOME": str(home), "CARTO_SEMANTIC": "0"})
        assert done.exit_code == 0, done.output
    app = create_app(Home(home), transcript_roots=TranscriptRoots(claude=(claude,), codex=(codex,)),
                     poll_seconds=0.2, heartbeat_seconds=1.0)
    with LiveServer(app) as live:
        yield live


RTL_SESSION = "a7a70000-0000-4000-8000-0000000000a7"
RTL_FILE = "/work/src/\u202etxt.exe"


def _write_rtl_session(path):
    """A Claude session whose one Edit names a file with a right-to-left override (U+202E)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    base = {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/work/rtl",
            "sessionId": RTL_SESSION, "version": "2.0.1"}
    rows = [
        {"type": "user", "message": {"role": "user", "content": "edit the kingfisher file"}},
        {"type": "assistant", "message": {
            "id": "m1", "type": "message", "role": "assistant", "model": "m",
            "content": [{"type": "text", "text": "editing"}, {"type": "tool_use", "id": "t1", "name": "Edit",
                        "input": {"file_path": RTL_FILE, "old_string": "a", "new_string": "b"}}],
            "usage": {"input_tokens": 1, "output_tokens": 1}}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    ]
    path.write_text("".join(json.dumps({**base, **row, "uuid": f"00000000-0000-4000-8000-00000000000{i}",
                                        "timestamp": f"2026-01-05T10:0{i}:00.000Z"}) + "\n"
                            for i, row in enumerate(rows)))


def _walk(node):
    yield node
    for turn in node["turns"]:
        for call in turn["tools"]:
            if "agent" in call:
                yield from _walk(call["agent"])
    for child in node["agents"]:
        yield from _walk(child)


def test_session_tree_view(page, server, tmp_path):
    for sid in (SHOWCASE, DEMO):
        page.goto(server.url + f"#/session/{sid}")
        page.wait_for_function("() => document.body.dataset.ready === 'session'")
        truth = api(server, f"/api/sessions/{sid}/tree")
        nodes = list(_walk(truth["tree"]))
        shown = page.locator("#session-tree .tree-node")
        assert shown.count() == len(nodes) == truth["counts"]["agents"] + 1 > 1
        assert [shown.nth(i).get_attribute("data-agent") for i in range(shown.count())] == [n["agent"] for n in nodes]
        assert [shown.nth(i).locator(":scope > summary .tree-path").inner_text() for i in range(shown.count())] == \
            [n["transcript_path"] or "no transcript" for n in nodes]
        assert page.locator("#session-tree .tree-turn").count() == truth["counts"]["turns"]
        # each subagent sits inside the call that started it
        for n in nodes[1:]:
            if n["spawned_by"]:
                parent = page.locator(f'#session-tree .tree-call[data-call="{n["spawned_by"]}"]')
                assert parent.locator(f':scope > .tree-node[data-agent="{n["agent"]}"]').count() == 1
        assert f"{truth['counts']['tool_calls']} tool call" in page.locator("#tree-stats").inner_text()
    assert_not_blank(page, tmp_path, "session-tree")
    # a subagent's own transcript, read in place from its node
    sub = page.locator('#session-tree .tree-node[data-kind="sidechain"]').first
    sub.locator(":scope > summary .read-node-transcript").click()
    sub.locator(":scope > .tree-transcript .messages").wait_for()
    assert sub.locator(":scope > .tree-transcript .messages li").count() > 0


def test_desk_tag_facets_filter(page, server, tmp_path):
    page.goto(server.url + "#/desk?days=3650")
    page.wait_for_selector("#desk-tags .tag-facet")
    truth = api(server, "/api/desk?days=3650")
    buttons = page.locator("#desk-tags .tag-facet")
    assert [buttons.nth(i).get_attribute("data-tag") for i in range(buttons.count())] == [
        tag for values in truth["tag_facets"]["tags"].values() for tag in values]
    assert not [t for t in truth["tag_facets"]["tags"] if t == "topic"]
    # topics only when asked: the button asks, and the page shows the API's topic facets
    page.locator("#desk-tags .show-topics").click()
    page.wait_for_function("() => location.hash.includes('topics=true') && document.body.dataset.ready === 'desk'")
    page.wait_for_selector('#desk-tags .tag-kind[data-kind="topic"] .tag-facet')
    topical = api(server, "/api/desk?days=3650&topics=true")["tag_facets"]["tags"]["topic"]
    shown = page.locator('#desk-tags .tag-kind[data-kind="topic"] .tag-facet')
    assert [shown.nth(i).get_attribute("data-tag") for i in range(shown.count())] == list(topical)
    assert_not_blank(page, tmp_path, "desk-tags")
    page.goto(server.url + "#/desk?days=3650")
    page.wait_for_selector("#desk-tags .tag-facet")
    page.locator('#desk-tags .tag-facet[data-tag="outcome:failure"]').click()
    page.wait_for_function("() => location.hash.includes('tag=outcome') && document.body.dataset.ready === 'desk'")
    page.wait_for_selector('#desk-tags .chosen-tag[data-tag="outcome:failure"]')
    want = [s["session_id"] for s in api(server, "/api/desk?days=3650&tag=outcome:failure")["sessions"]]
    cards = page.locator("#desk-sessions .desk-card")
    assert [cards.nth(i).get_attribute("data-session") for i in range(cards.count())] == want
    assert 0 < len(want) < truth["total"]
    # a second tag narrows (AND); the chosen one removed widens again
    page.locator('#desk-tags .tag-facet[data-tag="provider:claude"]').click()
    page.wait_for_function("() => decodeURIComponent(location.hash).includes('outcome:failure,provider:claude')")
    page.wait_for_selector('#desk-tags .chosen-tag[data-tag="provider:claude"]')
    both = [s["session_id"] for s in api(server, "/api/desk?days=3650&tag=outcome:failure,provider:claude")["sessions"]]
    assert page.locator("#desk-sessions .desk-card").count() == len(both) <= len(want)
    page.locator('#desk-tags .chosen-tag[data-tag="outcome:failure"]').click()
    page.wait_for_function("() => !decodeURIComponent(location.hash).includes('outcome:failure')")
    page.wait_for_selector('#desk-tags .chosen-tag[data-tag="provider:claude"]')


def test_search_tag_facets_filter(page, server, tmp_path):
    page.goto(server.url + "#/search?q=file")
    page.wait_for_selector("#search-tags .tag-facet")
    body = {"contract_version": 1, "query": "file", "limit": 30, "tag_facets": True}
    truth = api(server, "/api/recall", body)
    buttons = page.locator("#search-tags .tag-facet")
    assert [buttons.nth(i).get_attribute("data-tag") for i in range(buttons.count())] == [
        tag for values in truth["tag_facets"]["tags"].values() for tag in values]
    page.locator('#search-tags .tag-facet[data-tag="provider:codex"]').click()
    page.wait_for_function("() => location.hash.includes('tag=provider') && document.body.dataset.ready === 'search'")
    page.wait_for_selector("#result-list")
    scoped = api(server, "/api/recall", {**body, "tags": ["provider:codex"]})
    shown = page.locator("#result-list .result")
    assert [shown.nth(i).get_attribute("data-event-id") for i in range(shown.count())] == [
        hit["event_id"] for hit in scoped["results"]]
    assert scoped["results"] and all(hit["provider"] == "codex" for hit in scoped["results"])
    assert_not_blank(page, tmp_path, "search-tags")


def test_a_sub_agent_thread_links_its_parent_session(page, server):
    """A Codex sub-agent thread named its parent session as plain text: the id could not be
    followed."""
    child, parent = "33333333-3333-4333-8333-333333333333", "22222222-2222-4222-8222-222222222222"
    assert api(server, f"/api/sessions/{child}/tree")["parent_session"] == parent
    page.goto(server.url + f"#/session/{child}")
    page.wait_for_selector("#tree-stats")
    link = page.locator("#tree-stats a")
    assert link.get_attribute("href") == f"#/session/{parent}"
    assert "a sub-agent thread of" in page.inner_text("#tree-stats")
    link.click()
    page.wait_for_selector(f"#session-title:has-text('{parent[:8]}')")


def test_a_transcript_analysis_address_takes_the_short_id(page, server):
    page.goto(server.url + f"#/analysis/{DEMO[:8]}")
    page.wait_for_selector("#analysis-title")
    assert page.url.endswith(f"#/analysis/{DEMO}"), page.url
    assert page.locator("main .error").count() == 0
    from urllib.parse import quote

    path = api(server, f"/api/sessions/{DEMO}")["session"]["transcript_path"]
    truth = api(server, f"/api/transcript/analysis?session_id={DEMO}&path={quote(path)}&limit=500")
    assert page.locator("#analysis-turns tbody tr").count() == len(truth["turns"]) > 0


def test_the_agent_tree_shows_a_direction_override_in_a_call_s_input(page, server):
    """The Edit of /work/src/\u202etxt.exe read "#1 Edit /work/src/exe.txt" in the tree (its
    input put in the page raw); it is shown as the characters it holds, like every other view."""
    page.goto(server.url + f"#/session/{RTL_SESSION}")
    call = page.locator("#session-tree .tree-call").first
    call.wait_for()
    assert call.inner_text().startswith("#1 Edit /work/src/⟨U+202E⟩txt.exe"), call.inner_text()
    assert "\u202e" not in page.inner_text("#session-tree")
