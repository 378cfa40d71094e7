"""The explorer's agent tree (`GET /api/sessions/{id}/tree`) and tag facets (`tag` on `/api/desk`
and `/api/sessions`, `tags` and `tag_facets` in a recall body), on a home backfilled from the
shared fixtures (Claude Code 1.0.x and 2.1.x subagents, a Codex thread tree).

The tree is `carto session ID --tree --json`'s document; a tag filter keeps exactly the sessions
whose tags (as `carto sessions --json` lists them) hold every tag asked for, `topic:` as `carto
sessions --tag` answers it; facets count the listed sessions holding each tag."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.serve.app import create_app
from carto_core.serve.sessiontags import PER_KIND
from carto_core.transcript.resolver import TranscriptRoots

from .conftest import BASE, bearer

SHOWCASE = "55550000-0000-4000-8000-000000000001"  # 2.1.x: two Agent calls, one subagent file
DEMO = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"      # 1.0.x: Task calls, inline sidechains
CODEX_PARENT = "22222222-2222-4222-8222-222222222222"


def _cli(*argv: str) -> dict:
    result = CliRunner().invoke(cli, [*argv, "--json"])
    assert result.exit_code == 0, (argv, result.output)
    return json.loads(result.stdout)


@pytest.fixture
def fixture_app(shared_fixtures, tmp_path):
    claude = tmp_path / "claude"
    shutil.copytree(shared_fixtures / "claude", claude, ignore=shutil.ignore_patterns("*.md"))
    codex = tmp_path / "codex"
    shutil.copytree(shared_fixtures / "codex" / "claude-code-log" / "sessions", codex)
    _cli("ingest", "claude", "--root", str(claude))
    _cli("ingest", "codex", "--root", str(codex))
    app = create_app(Home(os.environ["CARTO_HOME"]),
                     transcript_roots=TranscriptRoots(claude=(claude,), codex=(codex,)))
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        yield client


def test_tree_route_is_the_cli_tree(fixture_app):
    for sid in (SHOWCASE, DEMO, CODEX_PARENT):
        answer = fixture_app.get(f"/api/sessions/{sid}/tree")
        assert answer.status_code == 200
        assert answer.json() == _cli("session", sid, "--tree")
    showcase = fixture_app.get(f"/api/sessions/{SHOWCASE[:8]}/tree").json()  # a prefix resolves
    assert showcase["session_id"] == SHOWCASE
    spawned = [call for turn in showcase["tree"]["turns"] for call in turn["tools"] if "agent" in call]
    assert spawned and all(call["agent"]["spawned_by"] == call["event_id"] for call in spawned)
    assert {call["agent"]["kind"] for call in spawned} == {"file"}
    assert all(call["agent"]["transcript_path"] != showcase["transcript_path"] for call in spawned)
    codex = fixture_app.get(f"/api/sessions/{CODEX_PARENT}/tree").json()
    assert codex["tree"]["turns"][0]["tools"][0]["agent"]["kind"] == "thread"


def test_tree_route_errors(fixture_app):
    missing = fixture_app.get("/api/sessions/zzzz/tree")
    assert missing.status_code == 404 and missing.json()["code"] == "SESSION_NOT_FOUND"
    ambiguous = fixture_app.get("/api/sessions/5/tree")
    assert ambiguous.status_code == 400 and ambiguous.json()["code"] == "AMBIGUOUS_SESSION"
    assert SHOWCASE in ambiguous.json()["error"]
    no_token = fixture_app.get(f"/api/sessions/{SHOWCASE}/tree", headers={"authorization": "Bearer x"})
    assert no_token.status_code == 401


def _top_per_kind(counts: Counter) -> dict:
    """The counts as facets show them: per kind, the PER_KIND most held (ties by name)."""
    out: dict = {}
    for tag, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        kind = out.setdefault(tag.split(":")[0], {})
        if len(kind) < PER_KIND:
            kind[tag] = n
    return out


def _plain(facets: dict) -> dict:
    return {kind: values for kind, values in facets["tags"].items() if kind != "topic"}


def _desk(client, tag: str = "", **more) -> dict:
    answer = client.get("/api/desk", params={"days": 3650, **({"tag": tag} if tag else {}), **more})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_desk_tag_filter_keeps_the_sessions_holding_every_tag(fixture_app):
    listed = _cli("sessions", "--since", "3650d", "--limit", "1000")["sessions"]
    tags_of = {s["session_id"]: set(s["tags"]) for s in listed}
    everything = _desk(fixture_app)
    assert {s["session_id"] for s in everything["sessions"]} == set(tags_of)
    counts = Counter(tag for tags in tags_of.values() for tag in tags)
    facets = everything["tag_facets"]
    assert facets["sessions"] == len(tags_of) and facets["chosen"] == []
    assert "topic" not in facets["tags"] and facets["topics_over"] == 0  # topics only when asked
    assert _plain(facets) == _top_per_kind(counts)
    assert len(counts) > sum(map(len, _plain(facets).values()))  # the fixtures call > PER_KIND tools
    assert set(facets["tags"]) >= {"provider", "tool", "outcome"}
    for tag in counts:
        kept = {s["session_id"] for s in _desk(fixture_app, tag)["sessions"]}
        assert kept == {sid for sid, tags in tags_of.items() if tag in tags}, tag
    pair = ["provider:claude", "outcome:failure"]
    both = _desk(fixture_app, ",".join(pair))
    assert {s["session_id"] for s in both["sessions"]} == {
        sid for sid, tags in tags_of.items() if set(pair) <= tags} != set()
    assert both["tag_facets"]["chosen"] == pair
    # every listed session holds the chosen tags, so each counts all of them
    assert all(both["tag_facets"]["tags"][t.split(":")[0]][t] == both["total"] for t in pair)


def test_topic_tags_filter_as_the_cli_does(fixture_app):
    facets = _desk(fixture_app, topics="true")["tag_facets"]
    topics = facets["tags"].get("topic", {})
    assert topics and facets["topics_over"] == facets["sessions"]
    topic = next(iter(topics))
    api = fixture_app.get("/api/sessions", params={"days": 3650, "tag": topic, "limit": 2000}).json()
    cli_answer = _cli("sessions", "--since", "3650d", "--limit", "1000", "--tag", topic)
    assert [s["session_id"] for s in api["sessions"]] == [s["session_id"] for s in cli_answer["sessions"]]
    assert len(api["sessions"]) == topics[topic]


def test_bad_tags_are_refused(fixture_app):
    for tag in ("colour:red", "tool:", "nokind"):
        answer = fixture_app.get("/api/desk", params={"tag": tag})
        assert answer.status_code == 400 and answer.json()["code"] == "TAG_INVALID", tag
    team = fixture_app.get("/api/sessions", params={"tag": "tool:bash", "team": "true"})
    assert team.status_code == 400
    body = {"contract_version": 1, "query": "structure"}
    assert fixture_app.post("/api/recall", json={**body, "tags": ["size:big"]}).json()["code"] == "TAG_INVALID"
    assert fixture_app.post("/api/recall", json={**body, "tags": "tool:bash"}).status_code == 400
    assert fixture_app.post("/api/recall", json={**body, "tag_facets": "yes"}).status_code == 400
    assert fixture_app.post("/api/recall", json={**body, "tag_topics": 1}).status_code == 400


def test_recall_tags_scope_the_results_and_facets_count_their_sessions(fixture_app):
    listed = _cli("sessions", "--since", "3650d", "--limit", "1000")["sessions"]
    tags_of = {s["session_id"]: set(s["tags"]) for s in listed}
    body = {"contract_version": 1, "query": "file", "limit": 50}
    plain = fixture_app.post("/api/recall", json=body).json()
    assert "tag_facets" not in plain
    sessions = {hit["session_id"] for hit in plain["results"]}
    assert {"provider:claude" in tags_of.get(sid, ()) for sid in sessions} == {True, False}
    faceted = fixture_app.post("/api/recall", json={**body, "tag_facets": True}).json()
    assert faceted["results"] == plain["results"]
    counted = Counter(tag for sid in sessions for tag in tags_of.get(sid, ()))
    assert _plain(faceted["tag_facets"]) == _top_per_kind(counted)
    scoped = fixture_app.post("/api/recall", json={**body, "tags": ["provider:Claude"], "tag_facets": True}).json()
    assert scoped["results"] and all("provider:claude" in tags_of[hit["session_id"]] for hit in scoped["results"])
    assert [h["event_id"] for h in scoped["results"]] == [
        h["event_id"] for h in plain["results"] if "provider:claude" in tags_of.get(h["session_id"], ())][:len(scoped["results"])]
    assert scoped["tag_facets"]["chosen"] == ["provider:claude"]
    assert "topic" not in faceted["tag_facets"]["tags"]
    topical = fixture_app.post("/api/recall", json={**body, "tag_facets": True, "tag_topics": True}).json()
    assert topical["tag_facets"]["topics_over"] == len(sessions) and topical["tag_facets"]["tags"]["topic"]
    assert _plain(topical["tag_facets"]) == _plain(faceted["tag_facets"])
