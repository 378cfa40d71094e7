"""Autocomplete and co-terms (`/api/terms/complete`, `/api/terms/co`) against an independent
reading of what the keyword index holds: the index's own analyzer over every document's text."""

from __future__ import annotations

import math
from collections import Counter

from carto_core.logio.appendlog import append_rows
from carto_core.search.tokens import row_text
from carto_core.util.timeparse import format_timestamp, utcnow


def _documents(app):
    engine = app.state.carto.engines.search_engine()
    engine.refresh()
    index = engine.index
    analyzer = index.analyzer
    rows = index.rows([i for i in range(len(index)) if index.cols["alive"][i]])
    return index, analyzer, [set(analyzer.terms(row_text(r))) for r in rows]


def test_complete_is_the_vocabulary_by_document_frequency(client, app):
    answer = client.get("/api/terms/complete", params={"prefix": "Dis", "limit": 5}).json()
    index, analyzer, docs = _documents(app)
    df = Counter(t for terms in docs for t in terms)
    want = sorted((t for t in df if t.startswith("dis")), key=lambda t: (-df[t], t))[:5]
    assert answer["folded"] == "dis"
    assert [t["term"] for t in answer["terms"]] == want and want
    assert [t["df"] for t in answer["terms"]] == [df[t] for t in want]


def test_complete_sees_a_new_row_at_once(client, home):
    before = client.get("/api/terms/complete", params={"prefix": "zebrafish"}).json()
    assert before["terms"] == []
    append_rows(home.log("changelog"), [{"event_id": "evt-zebra", "timestamp": format_timestamp(utcnow()),
                                         "type": "tool_bash", "summary": "Ran: zebrafishctl migrate",
                                         "project": "zoo", "session_id": "s-zoo", "provider": "claude"}])
    after = client.get("/api/terms/complete", params={"prefix": "zebrafish"}).json()
    assert [t["term"] for t in after["terms"]] == ["zebrafishctl"] and after["terms"][0]["df"] == 1


def test_co_terms_score(client, app):
    answer = client.get("/api/terms/co", params={"term": "discount", "limit": 50}).json()
    index, analyzer, docs = _documents(app)
    holders = [terms for terms in docs if "discount" in terms]
    assert answer["documents"] == len(holders) and answer["sample"] == len(holders)
    df = Counter(t for terms in docs for t in terms)
    # words the analyzer leaves out of a query (its stop list: english's "and", "the") carry no topic
    stop = analyzer.stop
    together = Counter(t for terms in holders for t in terms
                       if t != "discount" and t not in stop and not t.startswith(("evt-", "turn-"))
                       and not (len(t) >= 12 and all(c in "0123456789abcdef" for c in t))
                       and any(c.isalpha() for c in t))  # numbers and versions carry no topic
    assert {"and", "the"} <= {t for terms in holders for t in terms}
    want = sorted(({"term": t, "together": n, "df": df[t],
                    "score": round(n * math.log(1 + index.n_alive / df[t]), 4)} for t, n in together.items()),
                  key=lambda x: (-x["score"], x["term"]))
    assert [{k: v for k, v in t.items() if k != "word"} for t in answer["co_terms"]] == want[:50]
    for t in answer["co_terms"]:  # each with a word that folds to it
        assert t["term"] in analyzer.terms(t["word"])
    assert all(t["term"] not in ("discount", "and", "the", "to") for t in answer["co_terms"])
    assert not any(t["term"].startswith("evt-") for t in answer["co_terms"])


def test_terms_bad_input(client):
    assert client.get("/api/terms/complete").status_code == 400
    assert client.get("/api/terms/complete", params={"prefix": "   "}).json()["code"] == "PARAM_INVALID"
    assert client.get("/api/terms/complete", params={"prefix": "a", "limit": 51}).status_code == 400
    assert client.get("/api/terms/co", params={"term": "   "}).status_code == 400
    nothing = client.get("/api/terms/co", params={"term": "qwertyuiopasdf"}).json()
    assert nothing["documents"] == 0 and nothing["co_terms"] == []


def test_a_suggestion_is_the_word_people_write_not_the_stem(client, home):
    """The english analyzer's terms are stems ("quokka" of "quokkas", "reconcili" of
    "reconciling"): a suggestion names the word its newest documents write, which folds to the
    same term, and the term itself when no word of them does."""
    now = format_timestamp(utcnow())
    append_rows(home.log("changelog"), [
        {"event_id": f"evt-quokka{i}", "timestamp": now, "type": "tool_bash", "summary": text,
         "project": "zoo", "session_id": "s-zoo", "provider": "claude"}
        for i, text in enumerate(["Ran: count the quokkas", "Ran: feed the quokkas", "Ran: reconciling ledgers"])])
    answer = client.get("/api/terms/complete", params={"prefix": "quokk"}).json()
    assert [(t["term"], t["word"]) for t in answer["terms"]] == [("quokka", "quokkas")]
    answer = client.get("/api/terms/complete", params={"prefix": "reconcil"}).json()
    term = answer["terms"][0]
    assert term["word"] == "reconciling" and term["term"] != "reconciling"
    co = client.get("/api/terms/co", params={"term": "quokkas", "limit": 20}).json()
    assert {"feed", "count"} <= {t["word"] for t in co["co_terms"]}


def test_a_stem_that_does_not_start_as_its_word_still_finds_the_word(app, home):
    """The english analyzer's "whi" is "why", "tri" is "tries", "uber" is "Über": the word is
    found by what it folds to, whatever its first letters; a compound's word stays its whole
    term's ("HTTPServer" is no word for "server")."""
    from carto_core.search.surface import surface_words

    now = format_timestamp(utcnow())
    append_rows(home.log("changelog"), [
        {"event_id": f"evt-whi{i}", "timestamp": now, "type": "tool_bash", "summary": text,
         "project": "zoo", "session_id": "s-zoo", "provider": "claude"}
        for i, text in enumerate(["Ran: why tries HTTPServer", "Ran: why Über flies",
                                  "Ran: a general-purpose multiPurpose agent"])])
    engine = app.state.carto.engines.search_engine()
    engine.refresh()
    index = engine.index
    said = surface_words(index, index.analyzer, ["whi", "tri", "uber", "fli", "httpserver", "server",
                                                 "purpos", "generalpurpos"])
    # a term held only as a compound's part is that part as typed, lower-cased: "purpos", the
    # stem, is no word a person can type back (it folds to "purpo")
    assert said == {"whi": "why", "tri": "tries", "uber": "Über", "fli": "flies",
                    "httpserver": "HTTPServer", "server": "server", "purpos": "purpose",
                    "generalpurpos": "general-purpose"}


def test_a_word_as_long_as_a_query_takes_is_answered(client, home):
    """A 500-character query made the page ask /api/terms/co for its word, refused (400) past
    200 characters though the search takes 2,048 and the index keeps a long token whole."""
    word = "kq" * 250
    append_rows(home.log("changelog"), [{"event_id": "evt-long-term", "timestamp": format_timestamp(utcnow()),
                                         "type": "tool_bash", "summary": f"Ran: walrus {word}",
                                         "project": "zoo", "session_id": "s-zoo", "provider": "claude"}])
    co = client.get("/api/terms/co", params={"term": word})
    assert co.status_code == 200, co.text
    assert co.json()["documents"] == 1 and "walrus" in [t["term"] for t in co.json()["co_terms"]]
    done = client.get("/api/terms/complete", params={"prefix": word[:300]})
    assert done.status_code == 200 and [t["term"] for t in done.json()["terms"]] == [word]
    assert client.get("/api/terms/co", params={"term": "k" * 2049}).status_code == 400
