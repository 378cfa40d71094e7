"""Internals: `SearchRequest.explain` (and `/api/recall` with `explain: true`) says why each
result ranked where it did, without changing what is returned."""

from __future__ import annotations

import math

from carto_core.search import SearchRequest, run_search
from carto_core.search.api import TRIM


def test_explain_changes_nothing_but_adds_the_reasons(home):
    plain = run_search(SearchRequest(query="discount codes", limit=10, all=True), home=home).to_dict()
    told = run_search(SearchRequest(query="discount codes", limit=10, all=True, explain=True), home=home).to_dict()
    assert "explain" not in plain and all("why" not in hit for hit in plain["results"])
    assert [(h["event_id"], h["score"], h["rank"]) for h in told["results"]] == \
        [(h["event_id"], h["score"], h["rank"]) for h in plain["results"]]
    explain = told["explain"]
    assert explain["fusion"] == told["fusion"] and explain["decay"]["policy"] == told["decay"]
    assert explain["trim"]["ratio"] == TRIM
    assert explain["trim"]["kept"] == told["total"]
    assert explain["trim"]["dropped"] == explain["candidates"] - explain["trim"]["kept"] >= 0
    assert set(explain["ladders"]) >= set(told["contributing_ladders"])
    gated = 0
    for hit in told["results"]:
        why = hit["why"]
        # the final score is the product of its parts
        assert math.isclose(why["fused_score"] * why["decay"] * why["boost"], hit["score"], rel_tol=1e-5)
        assert why["score"] == hit["score"]
        # ranked in the ladders it came from, and only those; every result passed the trim
        assert set(why["ranks"]) == set(hit["sources"]) and all(r >= 1 for r in why["ranks"].values())
        assert why["fused_score"] >= explain["trim"]["floor"]
        assert why["gated"] == hit["decay_gated"]
        gated += why["gated"]
    assert explain["gate"]["gated"] >= gated
    if gated:
        lookup = explain["gate"]["all_token_matches"]
        assert lookup is not None and 1 <= lookup <= explain["gate"]["lookup_max"]
        assert all(h["why"]["boost"] >= explain["decay"]["lift"] for h in told["results"] if h["why"]["gated"])


def test_recall_route_explains_on_request(client):
    told = client.post("/api/recall", json={"query": "discount codes", "explain": True}).json()
    assert "explain" in told and all("why" in hit for hit in told["results"])
    plain = client.post("/api/recall", json={"query": "discount codes"}).json()
    assert "explain" not in plain and all("why" not in hit for hit in plain["results"])
    assert [h["event_id"] for h in told["results"]] == [h["event_id"] for h in plain["results"]]
    assert set(told["stages_ms"]) >= {"ladders", "fusion", "trim", "decay", "render", "total"}
    bad = client.post("/api/recall", json={"query": "x", "explain": "yes"})
    assert bad.status_code == 400 and bad.json()["code"] == "RECALL_INVALID"
