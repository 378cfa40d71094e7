"""Budgets and cursors without the protocol: every page fits, pages add up, cursors verify."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.mcp.budget import MIN_MAX_CHARS, paginate
from carto_core.privacy.envelope import OVERHEAD
from carto_core.mcp.cursor import CursorCodec, CursorError, load_key

CODEC = CursorCodec(b"k" * 32)

item = st.fixed_dictionaries({
    "event_id": st.from_regex(r"evt-[0-9a-f]{12}", fullmatch=True),
    "summary": st.text(max_size=3000),
    "tags": st.lists(st.text(max_size=20), max_size=5),
})
document = st.fixed_dictionaries({
    "query": st.text(max_size=200),
    "facets": st.dictionaries(st.text(min_size=1, max_size=10), st.integers(-10**9, 10**9), max_size=30),
    "results": st.lists(item, max_size=40),
})


def pages(doc, path, max_chars):
    offset, out = 0, []
    for _ in range(1000):
        page = paginate(doc, path, offset, max_chars, lambda o: CODEC.encode({"t": "x", "o": o}))
        out.append(page)
        if page.next_offset is None:
            return out
        assert page.next_offset > offset  # progress on every page
        offset = page.next_offset
    raise AssertionError("paging did not end")


@settings(max_examples=60, deadline=None)
@given(document, st.integers(min_value=MIN_MAX_CHARS, max_value=20000))
def test_every_page_fits_and_the_pages_add_up(doc, max_chars):
    all_pages = pages(doc, "results", max_chars)
    ids = []
    for page in all_pages:
        assert len(page.text) <= max_chars
        assert json.loads(page.text) == json.loads(json.dumps(page.document))
        ids += [r["event_id"] for r in page.document.get("results", [])]
        meta = page.document["page"]
        assert meta["total"] == len(doc["results"])
        if page is not all_pages[-1]:
            assert meta["cut"] and meta["next_cursor"]
    if all("trimmed" not in p.document["page"] for p in all_pages):
        # Nothing was shortened or dropped: the pages hold exactly the original list, in order.
        assert ids == [r["event_id"] for r in doc["results"]]
        assert [r for p in all_pages for r in p.document["results"]] == doc["results"]


def test_small_answer_is_whole_and_not_cut():
    doc = {"results": [{"event_id": "evt-1", "summary": "a"}], "total": 1}
    page = paginate(doc, "results", 0, 12000, lambda o: "unused")
    assert page.document == {**doc, "page": {"offset": 0, "returned": 1, "total": 1, "cut": False,
                                              "next_cursor": None, "max_chars": 12000}}


def test_a_single_oversized_item_is_shortened_and_said_so():
    doc = {"results": [{"event_id": "evt-1", "summary": "x" * 50000}]}
    page = paginate(doc, "results", 0, 2000, lambda o: "c")
    assert len(page.text) <= 2000
    assert page.document["results"][0]["event_id"] == "evt-1"
    assert page.document["results"][0]["summary"].endswith("…")
    assert page.document["page"]["cut"] and page.document["page"]["trimmed"] == {"strings_shortened": 1}


def test_an_oversized_envelope_says_which_lists_it_cut():
    doc = {"facets": {"projects": [{"name": f"p{i}", "count": i} for i in range(500)]},
           "results": [{"event_id": "evt-1"}]}
    page = paginate(doc, "results", 0, 3000, lambda o: "c")
    kept = len(page.document["facets"]["projects"])
    assert len(page.text) <= 3000 and page.document["results"] == [{"event_id": "evt-1"}]
    assert page.document["page"]["trimmed"]["facets.projects"] == 500 - kept


def test_an_envelope_too_big_in_its_count_maps_loses_entries_not_the_first_item():
    # A search envelope's facets are mappings of counts (by day, project, type): with no list
    # left to halve they must give way, or a small budget returns no result at all.
    days = {f"2026-{m:02d}-{d:02d}": d for m in range(1, 4) for d in range(1, 21)}
    floor = {"enabled": True, "found": True, "coverage_min": 0.5, "below": 0, "reason": "r" * 1100}
    doc = {"query": "q", "facets": {"days": days, "window": 9, "span": ["2026-01-01", "2026-12-28"]},
           "floor": floor,
           "results": [{"event_id": "evt-1", "summary": "s" * 300}, {"event_id": "evt-2"}]}
    page = paginate(doc, "results", 0, 2500, lambda o: "c" * 40)
    meta = page.document["page"]
    assert len(page.text) <= 2500
    assert page.document["results"] == doc["results"]
    kept = page.document["facets"]["days"]
    assert 0 < len(kept) < len(days) and all(days[k] == v for k, v in kept.items())
    assert meta["trimmed"] == {"facets.days": len(days) - len(kept)} and meta["cut"]
    assert page.document["facets"]["window"] == 9
    # a record's fields (flags, text saying why) and a small list stay whole
    assert page.document["floor"] == floor and page.document["facets"]["span"] == doc["facets"]["span"]


def test_mapping_pages_by_entries():
    doc = {"found": {f"evt-{i}": {"summary": "y" * 300} for i in range(30)}, "missing": ["evt-x"]}
    seen = []
    for page in pages(doc, "found", 2000):
        if page.document["page"]["offset"] == 0:
            assert page.document["missing"] == ["evt-x"]
        else:  # continuation pages carry the paged mapping and the scalars only
            assert "missing" not in page.document and page.document["page"]["continued"]
        seen += list(page.document["found"])
    assert seen == list(doc["found"])


def test_cursor_round_trip_and_tampering():
    cursor = CODEC.encode({"t": "search", "a": {"query": "q"}, "o": 15})
    assert CODEC.decode(cursor, tool="search")["o"] == 15
    body, tag = cursor.split(".")
    payload = json.loads(__import__("base64").urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload["o"] = 0
    forged_body = __import__("base64").urlsafe_b64encode(
        json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()).rstrip(b"=").decode()
    for bad in (f"{forged_body}.{tag}", cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB"),
                "nodot", "", body + "."):
        with pytest.raises(CursorError):
            CODEC.decode(bad, tool="search")
    with pytest.raises(CursorError, match="belongs to tool 'search'"):
        CODEC.decode(cursor, tool="get")
    with pytest.raises(CursorError, match="another carto home"):
        CursorCodec(b"z" * 32).decode(cursor)


def test_cursor_key_is_per_home_and_private(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    key = load_key(tmp_path / "a" / ".carto")
    assert load_key(tmp_path / "a" / ".carto") == key  # stable across restarts
    assert load_key(tmp_path / "b" / ".carto") != key
    assert (tmp_path / "a" / ".carto" / "mcp-cursor.key").stat().st_mode & 0o777 == 0o600
    # A home that does not exist is not created for a key (no accidental homes).
    assert len(load_key(tmp_path / "missing" / ".carto")) == 32
    assert not (tmp_path / "missing").exists()


def test_a_search_envelope_at_the_smallest_budget_still_returns_a_result():
    """At max_chars 2000, the least the tools accept, a real search answer (ladders, floor,
    semantic state, facets: about 2,400 characters around its results; a search of a
    generated 20k-event home, data/search_answer.json) came back with no result and 'raise
    max_chars': the envelope's records cannot be halved. The page now leaves the envelope's
    objects out, as a continuation page does, and names them."""
    from pathlib import Path

    doc = json.loads((Path(__file__).parent / "data" / "search_answer.json").read_text("utf-8"))
    # the server's cursor: the tool, its arguments, the offset, the answer's set and digest
    def cursor_for(o):
        return CODEC.encode({"t": "search", "a": {"query": doc["query"], "limit": 50, "max_chars": 2000},
                             "o": o, "s": "set-20261205T024512-1234abcd", "d": "f" * 32, "m": 2000})

    budget = MIN_MAX_CHARS - OVERHEAD  # what the server leaves the answer (the record envelope)
    page = paginate(doc, "results", 0, budget, cursor_for)
    meta = page.document["page"]
    assert len(page.text) <= budget
    assert meta["returned"] >= 1
    assert page.document["results"][0]["event_id"] == doc["results"][0]["event_id"]
    assert meta["next_cursor"] and meta["cut"]
    assert page.document["query"] == doc["query"] and page.document["total"] == doc["total"]
    assert {"floor", "ladders", "semantic", "facets"} <= set(meta["left_out"])
    assert not set(meta["left_out"]) & set(page.document)
    roomy = paginate(doc, "results", 0, 6000, cursor_for)
    assert "left_out" not in roomy.document["page"] and roomy.document["floor"] == doc["floor"]
