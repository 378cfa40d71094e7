"""The turn after a found question (search.answers): in a home of one row per utterance the
answer to a question is the next row of its session, and shares none of the query's words."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from carto_core.logio.home import Home
from carto_core.search import SearchRequest, run_search
from carto_core.search import answers
from carto_core.search.engine import SearchEngine
from carto_rankers.analyzers import EnglishAnalyzer

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
ASK = "What's a good first houseplant for someone who forgets to water?"
ANSWER = "Go for a ponytail palm: it stores water in its trunk and copes with neglect."


def _home(tmp_path, sessions: dict[str, list[tuple[int, str]]]) -> tuple[Home, dict]:
    """turns.jsonl of `sessions` (session -> [(minutes before NOW, text)]); ids by text."""
    rows, by_text = [], {}
    for sid, turns in sessions.items():
        for n, (minutes, text) in enumerate(turns, 1):
            eid = f"turn-{sid}-{n}"
            by_text[text] = eid
            stamp = (NOW - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
            rows.append({"event_id": eid, "timestamp": stamp, "project": "notes",
                         "type": "transcript", "provider": "claude", "summary": text,
                         "session": sid, "turn_idx": n})
    rows.sort(key=lambda r: r["timestamp"])
    (tmp_path / "turns.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    filler = [(9000 + i, f"Unrelated note number {i} about the weather and trains.") for i in range(30)]
    (tmp_path / "turns.jsonl").open("a").write("".join(
        json.dumps({"event_id": f"turn-zz-{i}", "timestamp": (NOW - timedelta(minutes=m)).strftime(
            "%Y-%m-%dT%H:%M:%SZ"), "project": "notes", "type": "transcript",
            "summary": text, "session": "zz", "turn_idx": i}) + "\n" for i, (m, text) in enumerate(filler)))
    return Home(tmp_path), by_text


def _ids(home, query, **kw) -> list[str]:
    request = SearchRequest(query=query, semantic=False, limit=10, now=NOW, all=True, **kw)
    return [h.event_id for h in run_search(request, engine=SearchEngine(home)).results]


def test_a_found_question_brings_the_turn_after_it(tmp_path):
    home, by = _home(tmp_path, {"s1": [(600, ASK), (599, ANSWER), (598, "Thanks!")]})
    found = _ids(home, "Which houseplant suits someone forgetful?")
    assert found[:2] == [by[ANSWER], by[ASK]]  # the reply takes its question's place
    assert by["Thanks!"] not in found  # the answer lends nothing on: it asks nothing


def test_only_a_question_lends_and_only_to_a_question_query(tmp_path, monkeypatch):
    home, by = _home(tmp_path, {"s1": [(600, "I love houseplants, even when I forget them."),
                                       (599, ANSWER)],
                                "s2": [(500, ASK), (499, "Cacti, obviously.")]})
    found = _ids(home, "Which houseplant suits someone forgetful?")
    assert by[ANSWER] not in found  # its row before does not ask
    assert found.index(by["Cacti, obviously."]) == found.index(by[ASK]) - 1
    # a lookup (no question) is left as the ladders ranked it
    assert by["Cacti, obviously."] not in _ids(home, "houseplant forgets")
    monkeypatch.setattr(answers, "SHARE", 0.0)
    monkeypatch.setattr(answers, "SHARE_ASKED", 0.0)
    assert by["Cacti, obviously."] not in _ids(home, "Which houseplant suits someone forgetful?")


def test_the_next_turn_is_of_the_same_session_and_in_scope(tmp_path):
    home, by = _home(tmp_path, {"s1": [(600, ASK), (100, ANSWER)],
                                "s2": [(300, "A cactus in the window?")]})
    found = _ids(home, "Which houseplant suits someone forgetful?")
    assert found[:2] == [by[ANSWER], by[ASK]]  # next in time within s1, not s2's later row
    windowed = _ids(home, "Which houseplant suits someone forgetful?",
                    before=NOW - timedelta(minutes=200))
    assert by[ASK] in windowed and by[ANSWER] not in windowed


def test_the_lent_score_is_a_share_of_the_question_s(tmp_path):
    home, by = _home(tmp_path, {"s1": [(600, ASK), (599, ANSWER)]})
    request = SearchRequest(query="Which houseplant suits someone forgetful?", semantic=False,
                            limit=10, now=NOW, all=True)
    hits = {h.event_id: h for h in run_search(request, engine=SearchEngine(home)).results}
    # a row that is only a question: its reply takes its place, just above it
    assert hits[by[ANSWER]].score == pytest.approx(answers.SHARE_ASKED * hits[by[ASK]].score)
    assert "answer" in hits[by[ANSWER]].sources
    # a row holding more than its question lends SHARE
    both = "I repotted the fern. What's a good first houseplant for someone who forgets to water?"
    (tmp_path / "more").mkdir()
    home, by = _home(tmp_path / "more", {"s1": [(600, both), (599, ANSWER)]})
    hits = {h.event_id: h for h in run_search(request, engine=SearchEngine(home)).results}
    assert hits[by[ANSWER]].score == pytest.approx(answers.SHARE * hits[by[both]].score)


def test_a_question_put_to_the_assistant_ranks_the_reply_above_its_question(tmp_path):
    home, by = _home(tmp_path, {"s1": [(600, ASK), (599, ANSWER), (598, "Thanks!")]})
    query = "Which houseplant did you suggest for someone forgetful?"
    request = SearchRequest(query=query, semantic=False, limit=10, now=NOW, all=True)
    hits = run_search(request, engine=SearchEngine(home)).results
    assert [h.event_id for h in hits[:2]] == [by[ANSWER], by[ASK]]
    assert hits[0].score == pytest.approx(answers.SHARE_ASKED * hits[1].score)
    # asked of oneself too: the question row does not hold the answer, its reply does
    assert _ids(home, "Which houseplant did I want for someone forgetful?")[:2] == [by[ANSWER], by[ASK]]
    # a lookup (no question) is left as the ladders ranked it
    assert _ids(home, "houseplant forgets")[0] == by[ASK]


def test_a_question_asked_after_its_topic_ranks_the_reply_above_its_question(tmp_path):
    """"the houseplant for someone forgetful, which one did you suggest": the topic first, the
    question after a comma, its mark left off. It is a question put to the assistant as much
    as the one written the usual way, so the reply goes first (it went second)."""
    home, by = _home(tmp_path, {"s1": [(600, ASK), (599, ANSWER), (598, "Thanks!")]})
    for query in ("the houseplant for someone forgetful, which one did you suggest",
                  "houseplant for someone forgetful - what was your pick"):
        assert _ids(home, query)[:2] == [by[ANSWER], by[ASK]], query
    assert _ids(home, "houseplant forgets, water")[0] == by[ASK]  # no question: as ranked


def test_a_row_holding_a_reply_that_asks_keeps_its_place_above_the_next_turn(tmp_path):
    """A message and its reply in one row (carto's own turn rows) ends in a question mark when
    the reply asks one; the next turn answers the assistant, not the query: lent 0.8 only."""
    both = ("What's a good first houseplant for someone who forgets to water? "
            "Go for a ponytail palm: it copes with neglect. Want me to list a few more?")
    home, by = _home(tmp_path, {"s1": [(600, both), (599, "Yes please, and cheap ones.")]})
    found = _ids(home, "Which houseplant did you suggest for someone forgetful?")
    assert found[:2] == [by[both], by["Yes please, and cheap ones."]]


#: A person's request that says something before it asks.
REQUEST = ("My fourteen-year-old is on her phone until two in the morning. "
           "How do I deal with it without a massive row?")
ADVICE = "Agree a house rule together: every phone charges in the kitchen from ten."


def test_a_request_put_to_the_assistant_lends_its_reply_its_place(tmp_path):
    """Asked of the assistant ("what did you suggest"), a row that ends in its only question
    lends its reply just above itself; asked otherwise, or from a row that asks twice (a
    message and a reply that asks back), the reply is lent 0.8."""
    twice = ("My fourteen-year-old is on her phone until two in the morning, any ideas? "
             "Happy to help. Do you want tips on the phone or on the row?")
    home, by = _home(tmp_path, {"s1": [(600, REQUEST), (599, ADVICE)],
                                "s2": [(500, twice), (499, "On the phone, please.")]})
    request = SearchRequest(query="What did you suggest about my fourteen-year-old's phone?",
                            semantic=False, limit=10, now=NOW, all=True)
    hits = {h.event_id: h.score for h in run_search(request, engine=SearchEngine(home)).results}
    assert hits[by[ADVICE]] == pytest.approx(answers.SHARE_ASKED * hits[by[REQUEST]])
    assert hits[by["On the phone, please."]] == pytest.approx(answers.SHARE * hits[by[twice]])
    mine = SearchRequest(query="What did my fourteen-year-old do with her phone?",
                         semantic=False, limit=10, now=NOW, all=True)
    hits = {h.event_id: h.score for h in run_search(mine, engine=SearchEngine(home)).results}
    assert hits[by[ADVICE]] == pytest.approx(answers.SHARE * hits[by[REQUEST]])


#: Typed without its question mark.
UNMARKED = "is it worth overpaying my student loan or should i just put the money in savings"
LOAN_ADVICE = "Clear any card debt first, then keep three months of savings before overpaying."


def test_a_question_typed_without_its_mark_lends_its_reply_its_place(tmp_path):
    """A person often leaves the question mark off; one utterance that opens as a question
    and never ends a sentence asks all the same, and its reply is the answer."""
    statement = "is what it is with the student loan and the savings, honestly"
    home, by = _home(tmp_path, {"s1": [(600, UNMARKED), (599, LOAN_ADVICE)],
                                "s2": [(500, "the student loan savings plan is sorted."),
                                       (499, "Brilliant, well done.")],
                                "s3": [(400, statement + ". Anyway."), (399, "Right you are.")]})
    found = _ids(home, "Did you think I should put spare savings on my student loan?")
    assert found[:2] == [by[LOAN_ADVICE], by[UNMARKED]]
    # a row that says it ends ("... is sorted.", a second sentence) asks nothing
    assert {by["the student loan savings plan is sorted."], by[statement + ". Anyway."]} < set(found)
    assert by["Brilliant, well done."] not in found and by["Right you are."] not in found


#: A message dictated with no marks at all, the question inside it.
SCAM = ("a man rang this morning saying my pension will stop unless I give my bank details I hung up "
        "did I do the right thing he says he calls back at five")
SCAM_ADVICE = "You did the right thing: no pension office rings for bank details. Do not answer at five."


def test_a_question_dictated_without_marks_lends_its_reply_its_place(tmp_path):
    """Speech typed by a phone has no marks: the question inside the message ("did I do the
    right thing") makes it ask, and the query asked the same way ("the phone call about the
    pension what was your advice") is a question put to the assistant: the reply goes first."""
    home, by = _home(tmp_path, {"s1": [(600, SCAM), (599, SCAM_ADVICE)],
                                "s2": [(500, "the pension came in late again this month the bank says"),
                                       (499, "That is annoying, it should settle next month.")]})
    found = _ids(home, "the phone call about my pension and the bank details what was your advice")
    assert found[:2] == [by[SCAM_ADVICE], by[SCAM]]


#: A request whose last sentence asks, unmarked.
DEW = "my telescope's covered in dew an hour after I set up, every single time. how do I stop it"
DEW_ADVICE = "Fit a dew shield that sticks out past the tube and wrap a heater strap round it."


def test_a_request_whose_last_sentence_asks_unmarked_lends_its_reply_its_place(tmp_path):
    """Put to the assistant, the reply takes the place of a request whose only question is
    its last sentence, typed without its mark; asked otherwise, it is lent 0.8."""
    home, by = _home(tmp_path, {"s1": [(600, DEW), (599, DEW_ADVICE)]})
    request = SearchRequest(query="What did you say would stop the dew on my telescope?",
                            semantic=False, limit=10, now=NOW, all=True)
    hits = {h.event_id: h.score for h in run_search(request, engine=SearchEngine(home)).results}
    assert hits[by[DEW_ADVICE]] == pytest.approx(answers.SHARE_ASKED * hits[by[DEW]])
    mine = SearchRequest(query="What happens to my telescope with the dew?", semantic=False,
                         limit=10, now=NOW, all=True)
    hits = {h.event_id: h.score for h in run_search(mine, engine=SearchEngine(home)).results}
    assert hits[by[DEW_ADVICE]] == pytest.approx(answers.SHARE * hits[by[DEW]])


@pytest.mark.parametrize("text, alone, last", [
    (UNMARKED, True, True), ("how do i stay awake on the M1 at 4am", True, True),
    ("Any luck with the boiler", True, True), (DEW, False, True),
    ("whats the best way to get the moss off", True, True),
    ("what a day!", False, False), ("Which one. I forget", False, False),
    ("Dad keeps ringing me at six", False, False), ("is it worth it? I think so", False, False),
    ("Any ideas? Noted. how about this", False, False), ("Is it done?", False, False),
    ("", False, False)])
def test_an_unmarked_question_opens_as_one_and_ends_unmarked(text, alone, last):
    """`alone`: the whole row is the question; `last`: its last sentence is, and no other
    sentence asks."""
    opens = EnglishAnalyzer().opens_a_question
    assert answers._asks_unmarked(text, opens) is alone
    assert answers._asks_unmarked(text, opens, False) is last


def test_an_analyzer_that_knows_no_openings_reads_no_unmarked_question(tmp_path):
    """The openings are the analyzer's (english's words): under one that knows none, a
    request typed without its mark is a statement, and its reply is lent nothing."""
    from carto_core.search.tokens import Analyzer
    from carto_rankers.analyzers import UnicodeAnalyzer

    for analyzer in (Analyzer(), UnicodeAnalyzer()):
        assert not answers._asks_unmarked(UNMARKED, analyzer.opens_a_question)
        assert not answers._asks_unmarked(DEW, analyzer.opens_a_question, False)
    home, by = _home(tmp_path, {"s1": [(600, DEW), (599, DEW_ADVICE)]})
    request = SearchRequest(query="What happens to my telescope with the dew?", semantic=False,
                            limit=10, now=NOW, all=True)
    lent = {h.event_id: h.sources for h in run_search(request, engine=SearchEngine(home)).results}
    assert "answer" in lent[by[DEW_ADVICE]]
    unicode = SearchEngine(home, analyzer="unicode")
    lent = {h.event_id: h.sources for h in run_search(request, engine=unicode).results}
    assert "answer" not in lent.get(by[DEW_ADVICE], [])


def test_a_question_search_reads_each_row_from_its_log_once(tmp_path, monkeypatch):
    """The answers step, the formulas step, the page of a "now" question and its render read
    the same first rows: each is read back from its log once a search (`Index.rows`'
    `known`), and the page is as before."""
    import os

    home, by = _home(tmp_path, {"s1": [(600, DEW), (599, DEW_ADVICE)],
                               "s2": [(500, "my telescope is new now, the dew is gone")]})
    engine = SearchEngine(home)
    engine.ensure_loaded()
    reads: list[int] = []
    pread = os.pread
    monkeypatch.setattr(os, "pread", lambda fd, n, off: reads.append(off) or pread(fd, n, off))
    for query in ("What happens to my telescope with the dew?", "What is my telescope like now?"):
        for collapse in (True, False):
            reads.clear()
            result = run_search(SearchRequest(query=query, semantic=False, limit=10, now=NOW,
                                              all=True, collapse=collapse), engine=engine)
            assert result.results and reads and len(reads) == len(set(reads)), (query, collapse)
            assert by[DEW_ADVICE] in [h.event_id for h in result.results]


FORMULA = "Sure. Shout if you want more detail."


@pytest.mark.parametrize("copies, lent", [(0, True), (1, True), (2, False), (5, False)])
def test_a_reply_said_word_for_word_after_other_questions_is_not_lent(tmp_path, copies, lent):
    """A formula said after many questions ("Sure. Shout if you want more detail.") answers
    none of them: it is not lent its question's place; a reply said once, or twice, is."""
    others = {f"o{n}": [(900 - 10 * n, f"Can you list some {word} ideas?"), (899 - 10 * n, FORMULA)]
              for n, word in enumerate(["garden", "knitting", "picnic", "birthday", "holiday"][:copies])}
    home, by = _home(tmp_path, {"s1": [(600, "Why do bees die after they sting?"), (599, FORMULA)],
                                **others})
    request = SearchRequest(query="Why do my bees die when they sting?", semantic=False, limit=10,
                            now=NOW, all=True)
    hits = run_search(request, engine=SearchEngine(home)).results
    ids = [h.event_id for h in hits]
    assert ids[0 if not lent else 1] == by["Why do bees die after they sting?"]
    assert ("turn-s1-2" in ids) is lent
    if lent:
        assert ids[0] == "turn-s1-2"


def test_a_reply_whose_words_other_rows_hold_in_longer_texts_is_lent(tmp_path):
    """Only the same text word for word is a copy: replies that say more are not."""
    others = {f"o{n}": [(900 - 10 * n, "Can you explain the hive?"),
                        (899 - 10 * n, f"{FORMULA} The {word} part is the hard one.")]
              for n, word in enumerate(["queen", "brood", "honey"])}
    home, by = _home(tmp_path, {"s1": [(600, "Why do bees die after they sting?"), (599, FORMULA)],
                                **others})
    request = SearchRequest(query="Why do my bees die when they sting?", semantic=False, limit=10,
                            now=NOW, all=True)
    assert [h.event_id for h in run_search(request, engine=SearchEngine(home)).results][0] == "turn-s1-2"


SETTLED = "Of course, and I hope your sister's having a settled day."


@pytest.mark.parametrize("copies, last", [(1, False), (2, True), (4, True)])
def test_a_formula_goes_under_the_rows_that_may_answer_a_question(tmp_path, copies, last):
    """"Has my sister had any good days recently?": a reply said word for word in other
    sessions holds "sister" and "day" and went first; it answers no question. Under a
    question it goes below the window's other results, kept on the page; a lookup is left
    as the ladders ranked it."""
    sessions = {f"f{n}": [(800 - 10 * n, f"Busy morning number {n} with the tea."),
                          (799 - 10 * n, SETTLED)] for n in range(copies + 1)}
    told = "My sister laughed till she cried at an old photo of us at the beach."
    phoned = "My sister phoned from the bus."
    home, by = _home(tmp_path, {**sessions, "s1": [(600, told), (599, "Lovely to hear.")],
                                "s2": [(500, phoned)]})
    found = _ids(home, "Has my sister had any good days recently?")
    formula = [i for i, e in enumerate(found) if e.startswith("turn-f")]
    assert formula, "the formula stays on the page"
    below = min(formula) > max(found.index(by[told]), found.index(by[phoned]))
    assert below is last
    assert _ids(home, "sister settled day")[0] != by[told]


def test_only_a_formula_over_the_window_moves_and_only_a_turn_is_one(tmp_path):
    """A formula already under the window's other results keeps its score; a row of another
    log said word for word many times ("Ran: npm test") may be what a question asks for."""
    from carto_core.search.api import Fused

    sessions = {f"f{n}": [(800 - 10 * n, SETTLED)] for n in range(4)}
    home, by = _home(tmp_path, {**sessions, "s1": [(600, "My sister phoned.")]})
    engine = SearchEngine(home)
    engine.ensure_loaded()
    doc = engine.index_of

    def order(scores: dict[str, float]) -> list[tuple[str, float]]:
        fused = [Fused(doc(e), s, fused_score=s) for e, s in scores.items()]
        fused.sort(key=lambda f: -f.score)
        out = answers.formulas_last(engine, fused)
        return [(engine.index.event_id(f.index), round(f.score, 6)) for f in out]

    assert order({"turn-s1-1": 2.0, "turn-f0-1": 1.0, "turn-f1-1": 0.5}) == [
        ("turn-s1-1", 2.0), ("turn-f0-1", 1.0), ("turn-f1-1", 0.5)]
    first = order({"turn-f0-1": 3.0, "turn-s1-1": 2.0, "turn-f1-1": 1.0})
    assert [e for e, _ in first] == ["turn-s1-1", "turn-f0-1", "turn-f1-1"]
    assert first[0][1] == 2.0 and first[1][1] < 2.0
    # the same rows in the prompts' log: a prompt said many times is no turn's formula
    prompts = tmp_path / "p"
    prompts.mkdir()
    (prompts / "prompt-history.jsonl").write_text((tmp_path / "turns.jsonl").read_text())
    engine = SearchEngine(Home(prompts))
    engine.ensure_loaded()
    fused = [Fused(engine.index_of("turn-f0-1"), 3.0, fused_score=3.0),
             Fused(engine.index_of("turn-s1-1"), 2.0, fused_score=2.0)]
    assert [f.score for f in answers.formulas_last(engine, fused)] == [3.0, 2.0]


def test_the_measured_formula_copies():
    """docs/ranking.md ("A reply said word for word elsewhere"): two other rows."""
    assert answers.FORMULA_COPIES == 2


@pytest.mark.parametrize("text, once", [
    (REQUEST, True), ("my cat keeps weeing on the bathmat, any idea why??", True),
    ("Any ideas for a rainy-day activity? Noted. Is there anything else on your mind?", False),
    ("I'm flying to Tokyo on Sunday.", False), ("", False)])
def test_a_row_asks_once_when_its_only_question_ends_it(text, once):
    assert answers._asks_once({"summary": text}, EnglishAnalyzer().opens_a_question) is once


def test_which_questions_are_put_to_the_assistant():
    from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer

    english = EnglishAnalyzer()
    assert english.asks_the_assistant("What did you suggest for the potluck?")
    assert english.asks_the_assistant("Which tent was your advice?")
    assert not english.asks_the_assistant("What did I bring to the potluck?")
    assert not english.asks_the_assistant("youtube upload script")  # a word, not a question
    assert not UnicodeAnalyzer().asks_the_assistant("What did you suggest?")  # no stop list


def test_the_measured_window_and_share():
    """docs/ranking.md ("Bridging the vocabulary"): 0.5 lent too little to reach the top 10 of
    set d, 0.8 took five more answers and moved no question of a or b; a question put to the
    assistant lends just above itself ("The reply to a question put to the assistant")."""
    assert (answers.WINDOW, answers.SHARE, answers.SHARE_ASKED) == (10, 0.8, 1.05)
