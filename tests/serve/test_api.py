"""The JSON API answers from the same engines as the CLI, and its counts agree with independent
scans of the sample logs written here."""

from __future__ import annotations

import json
from collections import Counter

from carto_core.evaluation.sample import SESSIONS
from carto_core.search import SearchEngine, SearchRequest, run_search
from carto_core.serve.app import create_app
from starlette.testclient import TestClient

from .conftest import BASE, bearer


def raw_rows(home):
    """Every row of every searched log, read with json (not the corpus loader)."""
    out = []
    for label, path in home.searched_logs().items():
        if path.exists():
            out += [(label, json.loads(line)) for line in path.read_text().splitlines() if line]
    return out


def distinct(home):
    rows = {}
    for label, row in raw_rows(home):
        rows.setdefault(row["event_id"], row)
    return rows


def test_health_counts_events(client, home):
    body = client.get("/api/health").json()
    assert body["events"] == len(distinct(home))
    assert body["files"] == {label: path.exists() for label, path in home.searched_logs().items()}


def test_recall_is_run_search(client, home):
    body = client.post("/api/recall", json={"contract_version": 1, "query": "discount codes cart",
                                            "call_id": "c1"}).json()
    direct = run_search(SearchRequest(query="discount codes cart", all=True, limit=15),
                        engine=SearchEngine(home)).to_dict()
    assert [r["event_id"] for r in body["results"]] == [r["event_id"] for r in direct["results"]]
    assert body["results"], "the sample home has discount-code events"
    ladder_names = {ladder["name"] for ladder in body["ladders"]}
    for hit in body["results"]:
        assert set(hit["sources"]) <= ladder_names | {"semantic"}
        assert client.get(f"/api/events/{hit['event_id']}").status_code == 200
    assert body["call_id"] == "c1" and "total" in body["stages_ms"]


def test_recall_excluded_ids_and_limit(client):
    # "discount" matches 4 sample events ("cart" is in most of them: its idf clamps to 0).
    first = client.post("/api/recall", json={"query": "discount", "limit": 3}).json()["results"]
    assert len(first) == 3
    hidden = [first[0]["event_id"]]
    again = client.post("/api/recall", json={"query": "discount", "limit": 3,
                                             "excluded_event_ids": hidden}).json()
    ids = [r["event_id"] for r in again["results"]]
    assert len(ids) == 3 and hidden[0] not in ids
    assert ids[:2] == [r["event_id"] for r in first[1:]]
    assert again["meta"]["excluded_count"] == 1


def test_recall_refusals(client, home):
    assert client.post("/api/recall", json={"query": ""}).status_code == 400
    assert client.post("/api/recall", json={"query": "x", "limit": 0}).status_code == 400
    assert client.post("/api/recall", json={"query": "x", "since": "yesterdayish"}).status_code == 400
    assert client.post("/api/recall", json={"query": "x", "contract_version": 2}).status_code == 409
    assert client.post("/api/recall", json={"query": "x", "corpus_root": "/elsewhere"}).status_code == 409
    assert client.post("/api/recall", content=b"{not json").status_code == 400
    assert client.post("/api/recall", json=["query"]).status_code == 400


def test_facts_census_matches_independent_count(client, home):
    body = client.post("/api/facts", json={"contract_version": 1, "verb": "census",
                                           "call_id": "t", "top": 50}).json()
    expected = Counter(row["project"] for row in distinct(home).values())
    got = {b["name"]: b["count"] for b in body["facts"]["by_project"]}
    assert got == dict(expected)
    assert client.post("/api/facts", json={"contract_version": 9, "verb": "census",
                                           "call_id": "t"}).status_code == 409


def test_standup_shows_contention(client):
    body = client.get("/api/standup", params={"since": "7d"}).json()
    paths = {f["path"] for f in body["contention"]["files"]}
    assert "/work/webshop/src/cart.py" in paths
    cart = next(f for f in body["contention"]["files"] if f["path"].endswith("src/cart.py"))
    assert {SESSIONS["a"], SESSIONS["b"]} <= {s if isinstance(s, str) else s.get("id")
                                              for s in cart["sessions"]}
    assert client.get("/api/standup", params={"since": "not a time"}).status_code == 400


def test_sessions_match_independent_scan(client, home):
    rows = distinct(home).values()
    by_session = Counter(row.get("session_id") or row.get("session") for row in rows)
    # a session's events leave out its wrapup (carto's row about it, written afterwards)
    worked = Counter(row.get("session_id") or row.get("session") for row in rows
                     if row.get("type") != "milestone_session_wrapup" and row.get("milestone") != "session_wrapup")
    assert worked[SESSIONS["a"]] == by_session[SESSIONS["a"]] - 1
    body = client.get("/api/sessions", params={"days": 3650}).json()
    assert {s["session_id"]: s["events"] for s in body["sessions"]} == dict(worked)
    detail = client.get(f"/api/sessions/{SESSIONS['a']}").json()
    assert len(detail["events"]) == worked[SESSIONS["a"]]
    assert [c["event_id"] for c in detail["commits"]] == [
        r["event_id"] for r in rows if (r.get("session_id") or r.get("session")) == SESSIONS["a"]
        and r.get("type") == "git_commit"]
    assert {f["path"] for f in detail["files"]} == {"/work/webshop/src/cart.py",
                                                    "/work/webshop/src/discounts.py"}
    assert [t["event_id"] for t in detail["turns"]] == [f"turn-{SESSIONS['a']}-1"]
    assert detail["wrapup"][0]["decisions"] == ["apply discounts before tax"]
    assert client.get("/api/sessions/nope").status_code == 404


def test_a_session_says_whether_its_transcript_is_on_this_machine(client):
    """The page linked every session's transcript; one recorded elsewhere ended in "Could not
    load: no transcript found". Session a's transcript is under the roots, b's is not."""
    assert client.get(f"/api/sessions/{SESSIONS['a']}").json()["session"]["transcript_available"] is True
    assert client.get(f"/api/sessions/{SESSIONS['b']}").json()["session"]["transcript_available"] is False
    assert client.get(f"/api/transcript?session_id={SESSIONS['b']}").status_code == 404


def test_events_pages_cover_everything_once(client, home):
    total = client.get("/api/events", params={"all": "true", "limit": 1}).json()["total"]
    assert total == len(distinct(home))
    seen = []
    for offset in range(0, total, 5):
        page = client.get("/api/events", params={"all": "true", "limit": 5, "offset": offset}).json()
        seen += page["events"]
    assert len(seen) == total and len({e["event_id"] for e in seen}) == total
    stamps = [e["timestamp"] for e in seen if e["timestamp"]]
    assert stamps == sorted(stamps, reverse=True)
    only_a = client.get("/api/events", params={"session_id": SESSIONS["a"], "all": "1"}).json()
    assert {e["session_id"] for e in only_a["events"]} == {SESSIONS["a"]}
    assert client.get("/api/events", params={"limit": 501}).status_code == 400
    assert client.get("/api/events", params={"all": "maybe"}).status_code == 400


def test_projects_match(client, home):
    expected = Counter(row["project"] for row in distinct(home).values())
    body = client.get("/api/projects").json()
    assert {p["name"]: p["events"] for p in body["projects"]} == dict(expected)


def test_event_links_pass_the_allowlist(client, home):
    from carto_core.logio.appendlog import append_rows

    append_rows(home.log("research"), [
        {"event_id": "evt-js", "timestamp": "2026-01-01T00:00:00Z", "type": "fetch",
         "url": "javascript:alert(1)", "project": "webshop", "session": SESSIONS["a"]},
        {"event_id": "evt-ok", "timestamp": "2026-01-01T00:00:00Z", "type": "fetch",
         "url": "https://example.org/x", "project": "webshop", "session": SESSIONS["a"]},
    ])
    assert client.get("/api/events/evt-js").json()["url"] is None
    assert client.get("/api/events/evt-ok").json()["url"] == "https://example.org/x"


def test_openapi_describes_every_route(client, app):
    from carto_core.serve.app import ENDPOINTS

    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for endpoint in ENDPOINTS:
        operation = doc["paths"][endpoint.path][endpoint.method.lower()]
        assert "403" in operation["responses"]
        names = {p["name"] for p in operation.get("parameters", [])}
        assert names == {p.name for p in endpoint.params}


def test_an_ambiguous_session_prefix_names_its_candidates(client):
    """The page lists them as links (the sentence cuts them at five)."""
    answer = client.get("/api/sessions/5")
    assert answer.status_code == 400 and answer.json()["code"] == "AMBIGUOUS_SESSION"
    assert answer.json()["candidates"] == sorted(s for s in SESSIONS.values() if s.startswith("5"))


def test_a_day_of_a_new_home_is_no_outage(tmp_path, roots):
    from carto_core.logio.home import Home

    app = create_app(Home(tmp_path / "new"), transcript_roots=roots)
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        answer = client.get("/api/desk/day?day=today")
    assert answer.status_code == 404 and answer.json()["code"] == "EMPTY_HOME"
    assert "nothing is recorded in" in answer.json()["error"] and "outage" not in answer.json()["error"]


def _session_page(home, roots, session_id: str) -> dict:
    app = create_app(home, transcript_roots=roots)
    with TestClient(app, base_url=BASE, headers=bearer(app)) as test_client:
        return test_client.get(f"/api/sessions/{session_id}").json()


def test_a_session_page_lists_the_events_it_counts(home, roots):
    """A written wrapup is carto's row about a session, not one of its events: the page's
    count left it out while its event list (and `carto session ID`'s) still showed it, one
    more event listed than counted."""
    from click.testing import CliRunner

    from carto_core.cli import cli

    sid = SESSIONS["b"]
    its_rows = {row["event_id"] for row in distinct(home).values()
                if (row.get("session_id") or row.get("session")) == sid}
    before = _session_page(home, roots, sid)
    assert before["wrapup"] == []
    env = {"CARTO_HOME": str(home.root)}
    written = CliRunner().invoke(cli, ["wrapup", "--session", sid, "--json"], env=env)
    assert written.exit_code == 0, written.output
    wrapup_id = json.loads(written.output)["receipt"]["event_id"]
    after = _session_page(home, roots, sid)
    listed = [e["event_id"] for e in after["events"]]
    assert listed == [e["event_id"] for e in before["events"]]
    assert set(listed) == its_rows and wrapup_id not in listed
    assert after["session"]["events"] == before["session"]["events"] == len(listed) == 5
    assert [w["event_id"] for w in after["wrapup"]] == [wrapup_id]
    # `carto session ID` prints the same document and lists the same events
    cli_detail = json.loads(CliRunner().invoke(cli, ["session", sid, "--json"], env=env).output)
    assert [e["event_id"] for e in cli_detail["events"]] == listed
    text = CliRunner().invoke(cli, ["session", sid], env=env).output
    assert "5 events" in text and "events (5)" in text and f"wrapup   {wrapup_id}:" in text
    # session a of the sample home was written with its wrapup
    a = _session_page(home, roots, SESSIONS["a"])
    assert len(a["events"]) == a["session"]["events"] == 7
    assert a["wrapup"][0]["event_id"] not in {e["event_id"] for e in a["events"]}
