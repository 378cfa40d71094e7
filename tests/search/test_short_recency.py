"""Short generic queries through the whole pipeline: the newest row holding every word of
"deploy staging" comes first, above newer rows holding one of the two and above older rows
holding both that the keyword ranking alone puts higher."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from carto_core.logio.home import Home
from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
NEWEST = "The logs step passed, so I went ahead to deploy staging after lunch today."


def _home(tmp_path, filler: int) -> Home:
    rows = [
        ("deploy staging", timedelta(days=40)),         # short: bm25's first of the full matches
        ("deploy staging again", timedelta(days=20)),
        (NEWEST, timedelta(hours=30)),                  # long: bm25's last of them
    ]
    rows += [(f"check the deploy {w} output", timedelta(hours=1 + i))
             for i, w in enumerate(["api", "worker", "cluster", "docs", "ci", "jobs", "db",
                                    "web", "cron", "edge"][:filler])]
    rows += [(f"the staging {w} looks wrong", timedelta(hours=2 + i))
             for i, w in enumerate(["config", "db", "queue", "cache", "logs", "keys", "api",
                                    "proxy", "mail", "auth"][:filler])]
    out = [{"event_id": f"evt-{n:012d}", "summary": text, "project": "platform",
            "type": "tool_bash", "salience": 0.2,
            "timestamp": (NOW - age).strftime("%Y-%m-%dT%H:%M:%SZ")}
           for n, (text, age) in enumerate(rows)]
    out += [{"event_id": f"evt-9{n:011d}", "summary": f"unrelated row {n} about lunch plans",
             "project": "platform", "type": "tool_bash", "salience": 0.2,
             "timestamp": (NOW - timedelta(days=3, minutes=n)).strftime("%Y-%m-%dT%H:%M:%SZ")}
            for n in range(30)]
    out.sort(key=lambda r: r["timestamp"])
    (tmp_path / "tool-use-log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in out))
    return Home(tmp_path)


def _summaries(home, query: str) -> list[str]:
    request = SearchRequest(query=query, semantic=False, limit=10, now=NOW, all=True)
    return [hit.summary for hit in run_search(request, engine=SearchEngine(home)).results]


def test_the_newest_row_holding_both_words_comes_first(tmp_path):
    home = _home(tmp_path, filler=6)
    for query in ("deploy staging", "staging deploy", "latest deploy staging",
                  "what's the latest on the deploy staging?"):
        got = _summaries(home, query)
        assert got[0] == NEWEST, (query, got[:3])
        # the other full matches next (weeks older than the newest: their own scores order
        # them), before any row holding one word
        assert sorted(got[1:3]) == ["deploy staging", "deploy staging again"], (query, got[:4])


def test_a_longer_lookup_with_a_rare_word_keeps_the_keyword_order(tmp_path):
    """Three words, one of them ("lunch") held by few rows besides: not short, not generic."""
    home = _home(tmp_path, filler=1)
    got = _summaries(home, "deploy staging lunch")
    assert got[0] == NEWEST  # the only row holding all three


def test_a_word_no_row_holds_does_not_stop_the_newest_full_match(tmp_path):
    """"recap", "new" and "happen" are in no row: the newest row holding the two held words
    (each held by 13 rows: generic) still comes first (before, no row held every word and
    the keyword order stood)."""
    home = _home(tmp_path, filler=10)
    for query in ("deploy staging recap", "what's new with the deploy staging",
                  "did the deploy staging happen yet"):
        got = _summaries(home, query)
        assert got[0] == NEWEST, (query, got[:3])
        assert sorted(got[1:3]) == ["deploy staging", "deploy staging again"], (query, got[:4])


@pytest.mark.parametrize("filler", [10, 6])
def test_the_prompt_time_recall_orders_a_word_no_row_holds_as_search_does(tmp_path, filler):
    """Generic held words (filler 10) and rarer ones (6): the same order and scores."""
    home = _home(tmp_path, filler=filler)
    for query, hits in _as_search_does(home, ("staging recap", "deploy staging recap quokka",
                                              "deploy staging recap", "deploy quokka recap")):
        assert any(h.holds_all_tokens for h in hits) is query.startswith("deploy staging")


def _as_search_does(home, queries):
    """(query, run_search's hits) for each query, once the prompt-time recall (`lite`) is
    checked to give the same first ten in the same order with the same scores."""
    from carto_core.search import lite
    from carto_core.search.index_view import IndexView

    engine = SearchEngine(home)
    engine.ensure_loaded()
    view = IndexView.open(home)
    for query in queries:
        mine = lite.search(view, lite.resolve_components(), query, now=NOW.timestamp())
        theirs = run_search(SearchRequest(query=query, semantic=False, limit=10, now=NOW,
                                          facets=False, collapse=False), engine=engine)
        assert [view.event_id(f.index) for f in mine.ranked[:10]] == \
            [h.event_id for h in theirs.results], query
        assert [round(f.score, 9) for f in mine.ranked[:10]] == \
            [round(h.score, 9) for h in theirs.results], query
        assert [f.holds_all_tokens for f in mine.ranked[:10]] == \
            [h.holds_all_tokens for h in theirs.results], query
        yield query, theirs.results


def test_beside_a_word_no_row_holds_rarer_words_are_no_lookup(tmp_path):
    """Each held word in 9 rows (not generic): the rows holding both are not taken for the
    full matches of "deploy staging recap" (neither lifted as a known item's lookup nor put
    first by date): it is ranked as when no row held every word."""
    home = _home(tmp_path, filler=6)
    request = SearchRequest(query="deploy staging recap", semantic=False, limit=10, now=NOW,
                            all=True)
    hits = run_search(request, engine=SearchEngine(home)).results
    assert hits and not any(h.gated for h in hits)
    # every word held: a short lookup, its full matches gated
    request = SearchRequest(query="deploy staging", semantic=False, limit=10, now=NOW, all=True)
    assert sum(h.gated for h in run_search(request, engine=SearchEngine(home)).results) == 3


def _with_going(tmp_path, filler: int, going: int) -> Home:
    """`_home`, and `going` rows saying "going" (never beside "deploy staging")."""
    home = _home(tmp_path, filler)
    rows = [{"event_id": f"evt-8{n:011d}", "summary": f"the {w} work is going fine",
             "project": "platform", "type": "tool_bash", "salience": 0.2,
             "timestamp": (NOW - timedelta(hours=3, minutes=n)).strftime("%Y-%m-%dT%H:%M:%SZ")}
            for n, w in enumerate(["api", "db", "queue", "auth", "mail", "ci", "web", "cron",
                                   "edge", "proxy", "docs", "jobs"][:going])]
    path = tmp_path / "tool-use-log.jsonl"
    out = [json.loads(line) for line in path.read_text().splitlines()] + rows
    out.sort(key=lambda r: r["timestamp"])
    path.write_text("".join(json.dumps(r) + "\n" for r in out))
    return Home(tmp_path)


TOPIC_QUERIES = ("deploy staging - how is it going?", "how is the deploy staging going?",
                 "deploy staging going")


def test_words_held_apart_from_the_topic_do_not_stop_its_newest_row(tmp_path):
    """"going" is in 12 rows, none of which says "deploy staging": the rows holding the
    topic are the full matches, question or not, and the newest comes first (before, no row
    held every word: the keyword order stood, the shortest row first)."""
    home = _with_going(tmp_path, filler=10, going=12)
    for query in TOPIC_QUERIES:
        got = _summaries(home, query)
        assert got[0] == NEWEST, (query, got[:3])
        assert sorted(got[1:3]) == ["deploy staging", "deploy staging again"], (query, got[:4])


@pytest.mark.parametrize("filler, going", [(10, 6), (6, 12)])
def test_a_rarer_word_apart_or_in_the_topic_is_no_lookup(tmp_path, filler, going):
    """A word held by few rows (10 or fewer: "going" in 6, or each topic word in 9) is not
    generic: a question whose topic is told in other words ("Which cities has Maya worked
    in?") is not ordered by the date of the rows holding part of it."""
    home = _with_going(tmp_path, filler=filler, going=going)
    for query in TOPIC_QUERIES:
        hits = run_search(SearchRequest(query=query, semantic=False, limit=10, now=NOW,
                                        all=True), engine=SearchEngine(home)).results
        assert hits and not any(h.gated for h in hits), query


@pytest.mark.parametrize("filler, going", [(10, 12), (10, 6)])
def test_the_prompt_time_recall_orders_a_topic_as_search_does(tmp_path, filler, going):
    """"going" generic (12 rows) and not (6): the same order and scores; the topic's three
    rows are the full matches either way."""
    home = _with_going(tmp_path, filler=filler, going=going)
    for query, hits in _as_search_does(home, TOPIC_QUERIES):
        assert sum(h.holds_all_tokens for h in hits) == 3, query


def _roomy(tmp_path, extra: int = 150) -> Home:
    """`_home` (filler 10) among `extra` more unrelated rows: "deploy" and "staging" (13 rows
    each) meet in 3 rows, 3.6 times what their frequencies predict over 203 rows; "lunch"
    (31 rows) and "staging" meet in one, half of it."""
    home = _home(tmp_path, filler=10)
    path = tmp_path / "tool-use-log.jsonl"
    out = [json.loads(line) for line in path.read_text().splitlines()]
    out += [{"event_id": f"evt-7{n:011d}", "summary": f"row {n} of other work on the parser",
             "project": "platform", "type": "tool_bash", "salience": 0.2,
             "timestamp": (NOW - timedelta(days=5, minutes=n)).strftime("%Y-%m-%dT%H:%M:%SZ")}
            for n in range(extra)]
    out.sort(key=lambda r: r["timestamp"])
    path.write_text("".join(json.dumps(r) + "\n" for r in out))
    return Home(tmp_path)


def test_a_question_whose_held_words_go_together_puts_their_newest_row_first(tmp_path):
    """No row says "came": a question in words the analyzer does not read as asking how
    things stand, whose held words go together (rows saying "deploy staging"), asks for the
    newest of them; one whose held words meet less than by chance ("lunch" and "staging")
    is ranked as before, no row gated."""
    home = _roomy(tmp_path)
    for query in ("what came of the deploy staging", "what came of the deploy staging?"):
        got = _summaries(home, query)
        assert got[0] == NEWEST, (query, got[:3])
        assert sorted(got[1:3]) == ["deploy staging", "deploy staging again"], (query, got[:4])
    hits = run_search(SearchRequest(query="what came of the lunch staging?", semantic=False,
                                    limit=10, now=NOW, all=True),
                      engine=SearchEngine(home)).results
    assert hits and not any(h.gated for h in hits)


def test_as_many_words_no_row_holds_as_held_ones_need_the_held_ones_to_go_together(tmp_path):
    """"coming" and "along" are in no row: the two held words are half the query, its topic
    when they go together ("deploy staging", 3.6 times chance over 203 rows), and not in a
    home where they meet as by chance (0.94 over 53 rows)."""
    (tmp_path / "roomy").mkdir()
    roomy = _roomy(tmp_path / "roomy")
    queries = ("how's the deploy staging coming along?", "deploy staging coming along")
    for query, hits in _as_search_does(roomy, queries):  # the prompt-time recall alike
        assert sum(h.gated for h in hits) == 3, query
    for query in queries:
        got = _summaries(roomy, query)
        assert got[0] == NEWEST, (query, got[:3])
        assert sorted(got[1:3]) == ["deploy staging", "deploy staging again"], (query, got[:4])
    (tmp_path / "small").mkdir()
    small = _home(tmp_path / "small", filler=10)
    hits = run_search(SearchRequest(query="deploy staging coming along", semantic=False,
                                    limit=10, now=NOW, all=True),
                      engine=SearchEngine(small)).results
    assert hits and not any(h.gated for h in hits)


def test_explain_says_what_the_policy_weighed_beside_the_count(tmp_path):
    # a person (or the explorer's internals view) can see why a topic's newest row came first
    home = _with_going(tmp_path, filler=10, going=12)
    request = SearchRequest(query=TOPIC_QUERIES[0], semantic=False, limit=10, now=NOW, all=True,
                            explain=True)
    gate = run_search(request, engine=SearchEngine(home)).explain["gate"]
    assert gate["unheld_words"] == 0 and gate["apart_words"] == 1
    assert gate["all_token_matches"] == 3 and gate["rarest_holders"] == 12
    assert gate["together"] > 1
    plain = SearchRequest(query="deploy staging", semantic=False, limit=10, now=NOW, all=True,
                          explain=True)
    gate = run_search(plain, engine=SearchEngine(home)).explain["gate"]
    assert gate["apart_words"] == 0 and gate["unheld_words"] == 0


def _with_up(tmp_path) -> Home:
    """`_home` (filler 10), and 12 rows saying "up" (never beside "deploy staging"); no row
    says "follow" or "followup"."""
    home = _home(tmp_path, filler=10)
    rows = [{"event_id": f"evt-6{n:011d}", "summary": f"the {w} service is up again",
             "project": "platform", "type": "tool_bash", "salience": 0.2,
             "timestamp": (NOW - timedelta(hours=4, minutes=n)).strftime("%Y-%m-%dT%H:%M:%SZ")}
            for n, w in enumerate(["api", "db", "queue", "auth", "mail", "ci", "web", "cron",
                                   "edge", "proxy", "docs", "jobs"])]
    path = tmp_path / "tool-use-log.jsonl"
    out = [json.loads(line) for line in path.read_text().splitlines()] + rows
    out.sort(key=lambda r: r["timestamp"])
    path.write_text("".join(json.dumps(r) + "\n" for r in out))
    return Home(tmp_path)


def test_a_hyphenated_word_no_row_holds_is_one_unheld_word(tmp_path):
    """"follow-up" is the terms followup, follow and up: counted as terms, two unheld ones
    and "up" held apart outnumbered the topic ("deploy staging"), and the keyword order
    stood (the shortest row first). It is one word no row holds beside two held ones: the
    rows saying "deploy staging" are the full matches, the newest first, in search and in
    the prompt-time recall alike."""
    home = _with_up(tmp_path)
    queries = ("deploy staging follow-up", "deploy staging wrap-up")
    for query in queries:
        got = _summaries(home, query)
        assert got[0] == NEWEST, (query, got[:3])
        assert sorted(got[1:3]) == ["deploy staging", "deploy staging again"], (query, got[:4])
    for query, hits in _as_search_does(home, queries):
        assert sum(h.gated for h in hits) == 3, query
    request = SearchRequest(query=queries[0], semantic=False, limit=10, now=NOW, all=True,
                            explain=True)
    gate = run_search(request, engine=SearchEngine(home)).explain["gate"]
    assert gate["unheld_words"] == 1 and gate["apart_words"] == 0
    assert gate["all_token_matches"] == 3


def _topic_holders(home, query: str):
    from carto_core.search.api import Query

    engine = SearchEngine(home)
    engine.ensure_loaded()
    analyzed = engine.analyzer.query(query)
    ladders = engine.ranker("bm25").rank(
        Query(query, analyzed.terms, analyzed.prefixes, analyzed.question, analyzed.compounds),
        engine.scope(), engine)
    found = {None if l.topic_holders is None else tuple(l.topic_holders) for l in ladders}
    assert len(found) == 1  # every log's ladder tells the same
    held = found.pop()
    return None if held is None else sorted(engine.index.event_id(d) for d in held)


def test_the_keyword_ladder_names_the_topic_whatever_the_words_no_row_holds(tmp_path):
    """"quick one - deploy staging, how did that pan out?": four words no row holds beside
    two held ones, so no full match for the decay policy; the rows saying "deploy staging"
    (3.6 times chance) are still its topic, for fusion. "lunch" and "staging" meet less than
    by chance: no topic."""
    roomy = _roomy(tmp_path)
    rows = [json.loads(line) for line in (tmp_path / "tool-use-log.jsonl").read_text().splitlines()]
    three = sorted(r["event_id"] for r in rows if "deploy staging" in r["summary"])
    assert len(three) == 3
    assert _topic_holders(roomy, "quick one - deploy staging, how did that pan out?") == three
    assert _topic_holders(roomy, "deploy staging") == three
    assert _topic_holders(roomy, "quick one - lunch staging, how did that pan out?") is None
    assert _topic_holders(roomy, "staging") is None  # one word: no topic to speak of
