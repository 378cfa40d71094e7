"""The chats between two people (`evaluation/pairs.py`) and the hand-written sets of them."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from carto_core.evaluation import agecurve, pairs

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
SETS = Path(__file__).resolve().parents[2] / "benchmarks" / "search" / "pair_sets"

CHAT = {
    "speaker_a": "Ann", "speaker_b": "Bo",
    "sessions": [
        {"date_time": "2:05 pm on 14 March, 2025", "turns": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "How was the pottery class?"},
            {"speaker": "Bo", "dia_id": "D1:2", "text": "Messy, my bowl came out lopsided."}]},
        {"date_time": "9:00 am on 2 May, 2025", "turns": [
            {"speaker": "Bo", "dia_id": "D2:1", "text": "We adopted a beagle yesterday!"},
            {"speaker": "Ann", "dia_id": "D2:2", "text": "Congrats."}]}],
    "qa": [
        {"question": "What hobby did Bo take up?", "evidence": ["D1:2"],
         "category": "single-hop"},
        {"question": "When did Bo adopt a dog?", "evidence": ["D2:1; D1:1"],
         "category": "temporal"},
        {"question": "What is Ann's cat called?", "evidence": [], "category": "adversarial"}],
}


def _rows(root):
    return [json.loads(line) for line in (root / "turns.jsonl").read_text().splitlines()]


def test_every_turn_is_a_row_naming_its_speaker_at_its_sessions_date(tmp_path):
    root = pairs.pair_home(tmp_path / "h", CHAT, now=NOW, background=0)
    rows = _rows(root)
    assert [r["summary"] for r in rows] == [
        "Ann: How was the pottery class?", "Bo: Messy, my bowl came out lopsided.",
        "Bo: We adopted a beagle yesterday!", "Ann: Congrats."]
    assert [r["timestamp"][:10] for r in rows] == ["2025-03-14"] * 2 + ["2025-05-02"] * 2
    assert len({r["session"] for r in rows}) == 2
    assert all(r["event_id"].startswith("turn-") and r["provider"] == "claude" for r in rows)


def test_cases_name_the_evidence_rows_and_keep_the_unanswerable_apart(tmp_path):
    root = pairs.pair_home(tmp_path / "h", CHAT, now=NOW, background=0)
    by_text = {r["summary"]: r["event_id"] for r in _rows(root)}
    cases = agecurve.read_cases(root / "cases.jsonl")
    assert [(c.bucket, c.query) for c in cases] == [
        ("single", "What hobby did Bo take up?"), ("temporal", "When did Bo adopt a dog?")]
    assert cases[0].expect == [by_text["Bo: Messy, my bowl came out lopsided."]]
    # evidence written as one string "D2:1; D1:1" is two turns
    assert cases[1].expect == [by_text["Bo: We adopted a beagle yesterday!"],
                               by_text["Ann: How was the pottery class?"]]
    unanswerable = [json.loads(line) for line in
                    (root / "unanswerable.jsonl").read_text().splitlines()]
    assert [u["query"] for u in unanswerable] == ["What is Ann's cat called?"]


def test_bare_rows_and_a_chat_ending_after_now_moved_before_it(tmp_path):
    late = {**CHAT, "sessions": [{**CHAT["sessions"][0], "date_time": "2:05 pm on 14 March, 2027"},
                                 {**CHAT["sessions"][1], "date_time": "9:00 am on 2 May, 2027"}]}
    root = pairs.pair_home(tmp_path / "h", late, now=NOW, bare=True, background=0)
    rows = _rows(root)
    assert rows[0]["summary"] == "How was the pottery class?"
    last = datetime.fromisoformat(rows[-1]["timestamp"].replace("Z", "+00:00"))
    assert NOW - last < timedelta(days=3) and last < NOW
    first = datetime.fromisoformat(rows[0]["timestamp"].replace("Z", "+00:00"))
    assert (last - first).days == 48  # the gaps between sessions are kept


def test_a_date_carto_cannot_read_is_an_error_that_says_so():
    with pytest.raises(ValueError, match="cannot read"):
        pairs.parse_date("the fourteenth of March")


@pytest.mark.parametrize("name", pairs.PAIR_SETS)
def test_the_written_sets_point_at_turns_that_exist(name):
    if not (SETS / f"{name}.json").exists():
        pytest.fail(f"{name} is named in PAIR_SETS but {SETS / name}.json is missing")
    chat = pairs.read_chat(SETS, name)
    turns = {t["dia_id"] for s in chat["sessions"] for t in s["turns"]}
    dates = [pairs.parse_date(s["date_time"]) for s in chat["sessions"]]
    assert dates == sorted(dates)
    assert {t["speaker"] for s in chat["sessions"] for t in s["turns"]} == {
        chat["speaker_a"], chat["speaker_b"]}
    asked = [q for q in chat["qa"] if pairs.evidence_ids(q)]
    assert len(asked) >= 80
    assert all(e in turns for q in asked for e in pairs.evidence_ids(q))
    assert {pairs.BUCKETS[q["category"]] for q in asked} == set(pairs.BUCKETS.values())
