"""Recall telemetry (`/api/telemetry`): calls joined with what they served and what was used,
written by the real telemetry writer (`search.telemetry.Telemetry` through `run_search`)."""

from __future__ import annotations

import json

from carto_core.logio.appendlog import append_rows
from carto_core.search import SearchRequest, run_search
from carto_core.search.telemetry import Telemetry, search_calls_path


def _search(home, query, session, call_id, purpose="manual"):
    telemetry = Telemetry(home, session_id=session, provider="claude", purpose=purpose,
                          call_id=call_id, call_id_given=True)
    return run_search(SearchRequest(query=query, limit=3, all=True), home=home, telemetry=telemetry)


def test_calls_served_used_fetched(client, home):
    first = _search(home, "discount codes", "sess-1", "call-one")
    second = _search(home, "terraform staging", "sess-2", "call-two", purpose="prompt")
    assert first.results and second.results
    used_id = first.results[1].event_id
    fetched_id = first.results[0].event_id
    Telemetry(home, session_id="sess-1", call_id="call-one", call_id_given=True).record_access([used_id], "result_used")
    # no call id on the row: joins the latest call of its session that served the id
    Telemetry(home, session_id="sess-1").record_access([fetched_id], "result_fetched")
    # an access to an id no call served joins nothing
    Telemetry(home, session_id="sess-1").record_access(["evt-never-served"], "result_used")
    body = client.get("/api/telemetry").json()
    calls = {c["call_id"]: c for c in body["calls"]}
    assert set(calls) == {"call-one", "call-two"}
    one = calls["call-one"]
    assert one["query"] == "discount codes" and one["session_id"] == "sess-1" and one["logged"]
    assert [s["event_id"] for s in one["served"]] == [h.event_id for h in first.results]
    assert [s["rank"] for s in one["served"]] == [h.rank for h in first.results]
    marks = {s["event_id"]: (s["used"], s["fetched"]) for s in one["served"]}
    assert marks[used_id] == (True, False) and marks[fetched_id] == (False, True)
    assert one["counts"] == {"served": len(first.results), "used": 1, "fetched": 1}
    assert one["served"][0]["in_corpus"] and one["served"][0]["summary"] == first.results[0].summary
    assert calls["call-two"]["counts"]["used"] == 0 and calls["call-two"]["purpose"] == "prompt"
    assert body["summary"]["used"] == 1 and body["summary"]["calls_with_use"] == 1
    assert body["summary"]["served"] == len(first.results) + len(second.results)
    assert body["summary"]["purposes"] == {"manual": 1, "prompt": 1}
    # filters
    only = client.get("/api/telemetry", params={"session_id": "sess-2"}).json()
    assert [c["call_id"] for c in only["calls"]] == ["call-two"]
    assert [c["call_id"] for c in client.get("/api/telemetry", params={"purpose": "prompt"}).json()["calls"]] == ["call-two"]
    assert [c["call_id"] for c in client.get("/api/telemetry", params={"q": "DISCOUNT"}).json()["calls"]] == ["call-one"]
    assert client.get("/api/telemetry", params={"days": 3651}).status_code == 400


def test_reads_again_only_when_a_file_changed(client, home, app):
    _search(home, "discount codes", "sess-1", "call-one")
    reader = app.state.carto.telemetry
    client.get("/api/telemetry")
    client.get("/api/telemetry")
    assert reader.reads == 1
    append_rows(search_calls_path(home), [{"call_id": "call-late", "timestamp": json.loads(
        search_calls_path(home).read_text().splitlines()[0])["timestamp"], "query": "late"}])
    assert "call-late" in {c["call_id"] for c in client.get("/api/telemetry").json()["calls"]}
    assert reader.reads == 2


def test_no_telemetry_is_an_empty_answer(client):
    body = client.get("/api/telemetry").json()
    assert body["calls"] == [] and body["summary"]["used_pct"] is None and body["files"] == {}
