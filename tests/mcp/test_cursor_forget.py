"""A page cursor of a running server never serves what `carto forget` took out after the first page."""

from __future__ import annotations

from carto_core.evaluation.sample import build_sample_home
from carto_core.logio.tombstone import bury
from carto_core.mcp.server import CartoMcp

QUERY = "rounding decimal cart discount terraform tax coupon"


def _walk(state: CartoMcp, cursor: str | None, tool: str, key: str) -> tuple[list, list]:
    served, notes = [], []
    while cursor:
        page = state.call(tool, {"cursor": cursor, "max_chars": 6000})
        items = page.get(key) or []
        served += list(items) if isinstance(items, dict) else [i["event_id"] for i in items]
        notes.append(page["page"].get("changed"))
        cursor = page["page"].get("next_cursor")
    return served, notes


def test_a_cursor_page_drops_rows_forgotten_since_the_first_page_and_says_so(tmp_path):
    home = build_sample_home(tmp_path / "h")
    state = CartoMcp(home)
    first = state.call("search", {"query": QUERY, "max_chars": 2500, "limit": 15})
    total = first["page"]["total"]
    assert first["page"]["returned"] < total - 2, first["page"]
    everything = state.call("search", {"query": QUERY, "max_chars": 200000, "limit": 15})["results"]
    ids = [r["event_id"] for r in everything]
    shown = [r["event_id"] for r in first["results"]]
    later = [i for i in ids if i not in shown]
    gone = {shown[0], later[0], later[-1]}  # one already served, two still to come
    bury(home, gone)

    served, notes = _walk(state, first["page"]["next_cursor"], "search", "results")
    assert not gone & set(served)
    # Every row still there is served once: the offset moved back by the one already shown.
    assert sorted(served) == sorted(i for i in later if i not in gone)
    assert notes[0] and "forgotten" in notes[0]


def test_get_pages_drop_forgotten_records_too(tmp_path):
    home = build_sample_home(tmp_path / "h")
    state = CartoMcp(home)
    ids = [r["event_id"] for r in state.call("search", {"query": QUERY, "max_chars": 200000,
                                                           "limit": 15})["results"]]
    first = state.call("get", {"ids": ids, "max_chars": 2500})
    assert first["page"]["next_cursor"], first["page"]
    later = [i for i in ids if i not in first["found"]]
    bury(home, later[:2])
    served, notes = _walk(state, first["page"]["next_cursor"], "get", "found")
    assert not set(later[:2]) & set(served) and sorted(served) == sorted(later[2:])
    assert notes[0]
