"""How things are now, on a question's first page (search.current)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from carto_core.logio.home import Home
from carto_core.search import SearchRequest, current, run_search
from carto_core.search.api import Fused
from carto_core.search.engine import SearchEngine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
RING = "My ears ring all the time, a proper whistle like a kettle."
SWAPPED = "Swapped a single aid in my left ear for a TV listener headset, and what a difference."
DOCTOR = "The ear doctor was running late again."


def _home(tmp_path, log: str = "turns.jsonl", texts=(SWAPPED, RING, DOCTOR)) -> Home:
    rows = [{"event_id": f"turn-s{n}-1", "timestamp": (NOW - timedelta(days=30 - n)).strftime(
        "%Y-%m-%dT%H:%M:%SZ"), "project": "notes", "type": "transcript", "summary": text,
        "session": f"s{n}", "turn_idx": 1} for n, text in enumerate(texts)]
    (tmp_path / log).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return Home(tmp_path)


def _page(engine, scores: dict[str, float], **options) -> list[tuple[str, float]]:
    fused = [Fused(engine.index_of(e), s, fused_score=s) for e, s in scores.items()]
    out = current.current_first(engine, fused, **options)
    return [(engine.index.event_id(f.index), f.score) for f in out]


def test_a_turn_that_says_how_things_are_now_goes_up_within_the_lift(tmp_path):
    engine = SearchEngine(_home(tmp_path))
    engine.ensure_loaded()
    # within 30 % of the row above it (0.8 x 1.3 over 1.0): the change told goes over it,
    # the scores stay
    assert _page(engine, {"turn-s1-1": 1.0, "turn-s0-1": 0.8, "turn-s2-1": 0.5}) == [
        ("turn-s0-1", 1.0), ("turn-s1-1", 0.8), ("turn-s2-1", 0.5)]
    # further under than the lift (0.75 x 1.3 under 1.0): it stays
    assert [e for e, _ in _page(engine, {"turn-s1-1": 1.0, "turn-s0-1": 0.75})] == [
        "turn-s1-1", "turn-s0-1"]
    # no turn says how things are now: as it was
    assert [e for e, _ in _page(engine, {"turn-s1-1": 1.0, "turn-s2-1": 0.99})] == [
        "turn-s1-1", "turn-s2-1"]


def test_only_a_conversation_turn_is_read_as_telling_how_things_are(tmp_path):
    """"now run the tests" in a prompt is an instruction, not a state."""
    engine = SearchEngine(_home(tmp_path, "prompt-history.jsonl"))
    engine.ensure_loaded()
    assert [e for e, _ in _page(engine, {"turn-s1-1": 1.0, "turn-s0-1": 0.9})] == [
        "turn-s1-1", "turn-s0-1"]


def test_a_search_asking_how_things_are_now_puts_the_change_first(tmp_path, monkeypatch):
    home = _home(tmp_path)

    def first(query: str) -> str:
        request = SearchRequest(query=query, semantic=False, limit=5, now=NOW, all=True)
        return run_search(request, engine=SearchEngine(home)).results[0].event_id

    asked = "What am I using for my ears at the moment?"
    assert first(asked) == "turn-s0-1"
    assert first("What am I using for my ears?") != "turn-s0-1"  # not asked how things are now
    monkeypatch.setattr(current, "LIFT", 0.0)
    assert first(asked) != "turn-s0-1"


@pytest.mark.parametrize("text, asks", [
    ("Where does Dad live now?", True), ("what am I using at the moment", True),
    ("Where do we live at present?", True), ("What is present at the party?", False),
    ("Which programme is our current evening pick?", True),
    ("What have I been up to lately?", False), ("ears now", False)])
def test_which_questions_ask_how_things_are_now(text, asks):
    from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer

    assert EnglishAnalyzer().asks_how_things_are_now(text) is asks
    assert UnicodeAnalyzer().asks_how_things_are_now(text) is False  # no question words


@pytest.mark.parametrize("text, says", [
    (SWAPPED, True), ("my go-to spot now is the Harthope Valley", True),
    ("Moved on to a new target: the Whirlpool Galaxy.", True), ("No longer at the market.", True),
    (RING, False), (DOCTOR, False), ("Nowe.py is fixed", False)])
def test_which_texts_say_how_things_are_now(text, says):
    from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer

    assert EnglishAnalyzer().says_how_things_are_now(text) is says
    assert UnicodeAnalyzer().says_how_things_are_now(text) is False  # no English words known


def test_the_measured_lift():
    """docs/ranking.md ("How things are now"): 0.3 over the first 50 results (0.15 first,
    when it read ten: half the losses then; with thirty read, 0.3 gave nine more first
    places of 1,866 and two of 66 on a set never run before; fifty then found two answers
    more and lost none)."""
    assert (current.LIFT, current.PAGE) == (0.3, 50)


def test_a_change_told_under_the_first_ten_can_join_them(tmp_path):
    """Eleven rows of talk about the topic, then the turn telling the change within the lift of
    the tenth: it comes into the first ten (the rows read stop at `PAGE`)."""
    talk = [f"My ears ring all the time, day {n}, a proper whistle." for n in range(11)]
    engine = SearchEngine(_home(tmp_path, texts=[*talk, SWAPPED]))
    engine.ensure_loaded()
    scores = {f"turn-s{n}-1": 1.0 - 0.01 * n for n in range(12)}  # the change 12th, 0.89
    assert [e for e, _ in _page(engine, scores)].index("turn-s11-1") == 0
    # the change not read: it stays
    assert [e for e, _ in _page(engine, scores, page=11)][-1] == "turn-s11-1"


def test_a_change_told_in_the_forties_is_read(tmp_path):
    """The rows read are the first fifty: a change told 45th, within the lift of the tenth,
    comes into the first ten; at the 51st it is not read."""
    for place, read in ((45, True), (51, False)):
        folder = tmp_path / str(place)
        folder.mkdir()
        talk = [f"My ears ring all the time, day {n}, a proper whistle." for n in range(place - 1)]
        engine = SearchEngine(_home(folder, texts=[*talk, SWAPPED]))
        engine.ensure_loaded()
        scores = {f"turn-s{n}-1": 1.0 - 0.004 * n for n in range(place)}  # the change last
        order = [e for e, _ in _page(engine, scores)]
        assert (order.index(f"turn-s{place - 1}-1") < 10) is read, place
