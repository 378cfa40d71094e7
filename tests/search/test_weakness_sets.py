"""The weakness packs (evaluation.weakness): reproducible by seed, and each case is the
weakness it names: a context answer shares no content word with its question while the turn
before it does; a multi case has two or more evidence turns; a recency case's truth is the
newest row holding both words, with newer rows holding one."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from carto_core.evaluation import agecurve
from carto_core.evaluation.weakness import HELD_OUT, PACKS, weakness_home
from carto_rankers.analyzers import EnglishAnalyzer

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def _rows(root) -> dict[str, dict]:
    out = {}
    for path in root.glob("*.jsonl"):
        if path.name == "cases.jsonl":
            continue
        for line in path.read_text().splitlines():
            row = json.loads(line)
            out[row["event_id"]] = row
    return out


def test_a_pack_is_the_same_for_a_seed_and_another_for_another(tmp_path):
    a = weakness_home(tmp_path / "a", pack="ctx-1", seed=1, now=NOW)
    b = weakness_home(tmp_path / "b", pack="ctx-1", seed=1, now=NOW)
    c = weakness_home(tmp_path / "c", pack="ctx-1", seed=2, now=NOW)
    assert (a / "turns.jsonl").read_bytes() == (b / "turns.jsonl").read_bytes()
    assert (a / "cases.jsonl").read_text() == (b / "cases.jsonl").read_text()
    assert (a / "turns.jsonl").read_bytes() != (c / "turns.jsonl").read_bytes()
    assert set(HELD_OUT) <= set(PACKS) and {PACKS[p] for p in HELD_OUT} == {"context", "multi", "recency"}


def test_a_pack_drawn_as_another_is_that_pack_under_its_own_ids(tmp_path, monkeypatch):
    """rec-4 keeps the random stream it was first measured with (`draw`): the same texts at
    the same times as a pack of that name has, under event ids of its own."""
    from carto_core.evaluation import weakness, weakness_packs

    spec = dict(weakness_packs.RECENCY["rec-4"])
    drawn = spec.pop("draw")
    monkeypatch.setitem(weakness_packs.RECENCY, drawn, spec)
    monkeypatch.setitem(weakness.PACKS, drawn, "recency")
    a = _rows(weakness_home(tmp_path / "a", pack="rec-4", seed=1, now=NOW))
    b = _rows(weakness_home(tmp_path / "b", pack=drawn, seed=1, now=NOW))

    def shape(rows):
        return sorted((r["timestamp"], r["summary"]) for r in rows.values())

    assert shape(a) == shape(b) and len(a) > 1500
    assert not set(a) & {e for e in b if "rec-" in e or "rp-" in e}


def test_a_context_answer_holds_none_of_its_questions_words(tmp_path):
    english = EnglishAnalyzer()
    root = weakness_home(tmp_path / "h", pack="ctx-2", seed=1, now=NOW)
    rows = _rows(root)
    cases = agecurve.read_cases(root / "cases.jsonl")
    assert len(cases) == 16
    for case in cases:
        (answer_id,) = case.expect
        session, turn = answer_id.rsplit("-", 1)
        asking = rows[f"{session}-{int(turn) - 1}"]["summary"]
        asked = set(english.query(case.query).terms)
        assert not asked & set(english.terms(rows[answer_id]["summary"])), case.query
        assert asked & set(english.terms(asking)), (case.query, asking)


@pytest.mark.parametrize("pack", ["multi-1", "multi-4", "multi-5", "multi-6", "multi-7",
                                  "multi-8", "multi-9", "multi-10"])
def test_a_multi_case_needs_two_turns_or_more(tmp_path, pack):
    root = weakness_home(tmp_path / "h", pack=pack, seed=3, now=NOW)
    cases = agecurve.read_cases(root / "cases.jsonl")
    assert cases and all(len(c.expect) >= 2 for c in cases)
    rows = _rows(root)
    assert all(e in rows for c in cases for e in c.expect)


@pytest.mark.parametrize("pack", ["rec-1", "rec-8", "rec-9", "rec-10", "rec-11", "rec-12",
                                  "rec-13", "rec-14", "rec-15", "rec-16"])
def test_a_recency_truth_is_the_newest_row_holding_both_words(tmp_path, pack):
    """Whatever else the query says ("recap", "catch me up on"), its two topic words are the
    ones the truth holds, and no newer row holds both."""
    english = EnglishAnalyzer()
    root = weakness_home(tmp_path / "h", pack=pack, seed=1, now=NOW)
    rows = _rows(root)
    for case in agecurve.read_cases(root / "cases.jsonl"):
        words = set(english.query(case.query).terms) & set(english.terms(
            rows[case.expect[0]]["summary"]))
        assert len(words) == 2, case.query
        holding = {eid: row for eid, row in rows.items()
                   if words <= set(english.terms(row["summary"]))}
        newest = max(holding.values(), key=lambda r: r["timestamp"])
        assert newest["event_id"] == case.expect[0]
        newer_one_word = [r for r in rows.values() if r["timestamp"] > newest["timestamp"]
                          and words & set(english.terms(r["summary"]))]
        assert newer_one_word, case.query  # the filler that buried it
