"""Properties of the analyzers: any text finds itself, terms are clean, and the rules the
recall issue names (scripts, stems, identifiers, hyphens, prefixes, question words)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from carto_core.search.tokens import UpstreamAnalyzer
from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer, asks_how_it_stands

ANALYZERS = [EnglishAnalyzer(), UnicodeAnalyzer(), UpstreamAnalyzer()]
# `*` is left out: `word*` is query syntax (a prefix), not text a row holds.
TEXT = (st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",),
                                       exclude_characters="*"), max_size=80)
        | st.text(alphabet="abcXYZ_-./:'é東京猫がسلامмир 0123", max_size=80))


@pytest.mark.parametrize("analyzer", ANALYZERS, ids=lambda a: a.name)
@settings(max_examples=200, deadline=None)
@given(text=TEXT)
@example(text="\u0640")  # a lone tatweel, which the Arabic stemmer takes whole
@example(text="\u0633\u0640\u0640\u0640")
def test_a_text_finds_itself(analyzer, text):
    """Every term of a query is a term of the same text indexed: whatever someone pastes
    from a row, the row holds every query term (the lookup gate depends on it)."""
    index_terms = analyzer.terms(text)
    query = analyzer.query(text)
    assert set(query.terms) <= set(index_terms)
    assert all(t and not any(c.isspace() for c in t) for t in index_terms)
    assert analyzer.terms(text) == index_terms  # deterministic (the memo changes nothing)


@pytest.mark.parametrize("text,terms", [
    ("Researching camped deployments", ["research", "camp", "deploy"]),
    ("batch_batch_lock", ["batch_batch_lock", "batch", "batch", "lock"]),
    ("parseConfig", ["parseconfig", "pars", "config"]),
    ("src/cart/tax.py", ["src", "cart", "tax.py", "tax", "py"]),
    ("de-stress", ["destress", "de", "stress"]),
    ("evt-1a2b3c4d5e6f", ["evt-1a2b3c4d5e6f"]),
    ("Привет серверы", ["привет", "сервер"]),
    ("\u0640", ["\u0640"]),  # a word the stemmer would leave empty stays as written
    ("東京へ", ["東", "京", "へ", "東京", "京へ"]),
    ("café", ["cafe"]),
])
def test_english_terms(text, terms):
    assert EnglishAnalyzer().terms(text) == terms


def test_queries_drop_question_words_unless_nothing_else_is_left():
    english = EnglishAnalyzer()
    assert english.query("What did I say about the deployment?").terms == ("say", "deploy")
    assert english.query("what is it").terms == ("what", "is", "it")
    assert english.query("deploy* the cart").prefixes == ("deploy",)
    assert english.query("東京").terms == ("東京",)  # bigrams only: the row has them


def test_asking_for_the_latest_state_is_not_a_topic_word():
    """"now" stems to the "now" of nowe.py and matches "I changed my diet again, now vegan":
    the decay policy reads the recency words from the query text, the terms leave them out."""
    english = EnglishAnalyzer()
    assert english.query("What sport do I do now?").terms == ("sport",)
    assert english.query("which assignment do I have currently").terms == ("assign",)
    assert english.query("what am I reading these days").terms == ("read",)
    assert english.query("latest deploy").terms == ("deploy",)
    assert english.query("now").terms == ("now",)  # nothing else left: kept
    # a contraction of a stop word is that stop word ("what's" is "what"), not a term "what"
    assert english.query("what's the latest on the train classifier?").terms == ("train", "classifi")
    assert english.query("Where're the keys? It didn't rotate").terms == ("key", "rotat")
    assert english.query("the user's guide").terms == ("user", "guid")
    assert UnicodeAnalyzer().query("latest deploy").terms == ("latest", "deploy")


@pytest.mark.parametrize("query, terms", [
    # "last", "recent", "the last time": the newest is asked for, not a topic
    ("last deploy staging", ("deploy", "stage")),
    ("recent retrain model", ("retrain", "model")),
    ("when was the last time we deployed staging", ("deploy", "stage")),
    ("when did we last calibrate the thresholds?", ("calibr", "threshold")),
    ("have we done the lint styles yet?", ("lint", "style")),
    # how something stands: last, before on/of/about/with/for, or after "any"
    ("deploy staging status", ("deploy", "stage")),
    ("logs compact progress?", ("log", "compact")),
    ("status of the staging deploy", ("stage", "deploy")),
    ("any update on the index embeddings?", ("index", "embed")),
    ("any news on the crawler throttle?", ("crawler", "throttl")),
    ("rotate logs - anything new?", ("rotat", "log")),
    ("where did we leave the seed demo?", ("seed", "demo")),
    # ... unless the word is the topic: one other word, or a compound it starts
    ("http status", ("http", "status")),
    ("what is the status code for rate limits", ("status", "code", "rate", "limit")),
    ("news feed parser", ("news", "feed", "parser")),
    ("annual leave policy", ("annual", "leav", "polici")),
    # "last" inside an identifier is part of it
    ("last-modified header", ("lastmodifi", "last", "modifi", "header")),
    ("LastPass vault", ("lastpass", "last", "pass", "vault")),
    ("last", ("last",)),
])
def test_asking_for_the_newest_or_how_it_stands_is_not_a_topic(query, terms):
    assert EnglishAnalyzer().query(query).terms == terms


def test_a_question_and_its_content_words():
    english = EnglishAnalyzer()
    assert english.content_query("What did I give back to the person next door?") == \
        "give back person next door"
    assert english.content_query("What sport do I do now?") == "sport"
    assert english.content_query("what is it") == "what is it"
    for text in ("What sport do I do now?", "did we book the flights", "garden plans?",
                 "  Where does my sister live"):
        assert english.query(text).question, text
    for text in ("quokka ledger schema", "deploy pipeline", "the deploy pipeline", "whatever"):
        assert not english.query(text).question, text
    assert not UnicodeAnalyzer().query("what sport do I do?").question
    assert UpstreamAnalyzer().content_query("What sport?") == "What sport?"


def test_a_question_typed_without_its_apostrophe_is_a_question():
    """"whats the method you gave me ..." is "what's" typed fast: a question, and "whats" is
    no topic word (the index keeps "whats" whole, so it would match only rows typed alike)."""
    english = EnglishAnalyzer()
    for text in ("whats the method you gave me for the coursework", "whos our current foster",
                 "wheres the spare key", "hows the knee doing"):
        query = english.query(text)
        assert query.question, text
        assert not {"whats", "whos", "wheres", "hows"} & set(query.terms), text
    assert english.asks_the_assistant("whats the method you gave me for the coursework")
    assert not english.query("whatsapp group backup").question
    assert english.query("whatsapp group backup").terms[0] == "whatsapp"


@pytest.mark.parametrize("text", [
    "the foot thing where getting up was agony, what did you recommend",
    "the spot where my boy got his first pickerel, what lake",
    "the instrument that got damaged when she slipped, which one",
    "the one in my cages that went silent on me, who was it",
    "the guy at footy who used to play for Guiseley AFC, what's he offered to do for us",
    "the trouble with the people beside us, all of it, remind me",
    "the new boiler - how did it go",
    "the bus to the coast, is it running again",
    "the eve dinner place where my brother still owes me money, where",
    "the dentist for the kids, did u book it",
])
def test_a_question_asked_after_its_topic_is_a_question(text):
    """The topic first, then the question, its mark left off: the last clause, after a comma
    or a dash, opens as a question does (the reply rule and the question's ranking follow)."""
    assert EnglishAnalyzer().query(text).question


@pytest.mark.parametrize("text", [
    "the release notes, which we wrote yesterday",   # "which" opening a relative clause
    "the deploy script, which broke in prod",
    "the tip, which you gave",
    "the release, was a success",                     # an auxiliary with no subject after it
    "notes on the rollout, whatever works",           # a question word inside a word
    "staging deploy, rollback plan",
    "the what and the why, notes",                   # question words, but not a last clause
    "the list, what we shipped, in order",            # a question word in a middle clause
])
def test_a_clause_that_does_not_ask_is_no_question(text):
    assert not EnglishAnalyzer().query(text).question


@pytest.mark.parametrize("text", [
    "the phone call from the fake pension fellow what was your advice",
    "the fire behind the village when the warning came on my phone what did you say we should do",
    "my fathers fields showing no owner on the land records what should i do you said",
    "easter here in the village what have i told you about it",
    "the thing with my car what did u say to do",
])
def test_a_question_dictated_with_no_mark_at_all_is_a_question(text):
    """No comma, no mark: a question word, an auxiliary and then its subject, the order only a
    question has, with no sentence ending after it."""
    assert EnglishAnalyzer().query(text).question


@pytest.mark.parametrize("text", [
    "thats what i said about the pension",          # the subject before the verb
    "I know what was decided. Then we left",        # no subject after the auxiliary; a sentence ends
    "I asked what did she want. then we left",       # the sentence ended after the question
    "the olive press and the price of diesel",
])
def test_a_statement_with_a_question_word_inside_is_no_question(text):
    assert not EnglishAnalyzer().query(text).question


@pytest.mark.parametrize("sentence, asks", [
    ("so I hung up did I do the right thing he says he calls back at five", True),
    ("the wind is bringing it this way what do we do quick", True),
    ("my sister wants the big room should we let her have it", True),
    ("the olives are ready now where are we taking them this year", True),
    ("he did it and so did I", False),                # "so did I" agrees, it does not ask
    ("she went home early and so did I after the match", False),
    ("we are not going nor do we care", False),
    ("I did the shopping and went home", False),
    ("I know what I did was fine", False),            # the subject before the verb
])
def test_a_message_dictated_without_marks_asks_inside(sentence, asks):
    """A row that never marks its question asks when one stands inside it (`opens_a_question`,
    read by the answers step to lend the row's reply its place)."""
    assert EnglishAnalyzer().opens_a_question(sentence) is asks


def test_the_words_a_question_asks_with():
    """"remind", "told", "said", "everything": a question asks with them (the floor's second
    look leaves them unjudged); the words it asks about, and any analyzer without a stop list,
    are not."""
    from carto_core.search.tokens import Analyzer

    english = EnglishAnalyzer()
    for word in ("remind", "Told", "SAID", "mentioned", "recall", "remember", "tell", "say",
                 "everything", "Anything", "stuff"):
        assert english.asks_with(word), word
    for word in ("telescope", "reminder", "teller", "saying", "family", "sayonara", "thing"):
        assert not english.asks_with(word), word
    assert not UnicodeAnalyzer().asks_with("told") and not UpstreamAnalyzer().asks_with("told")
    assert not Analyzer().asks_with("told")


def test_upstream_is_wave_ones_tokens():
    from carto_core.search.tokens import tokenize

    text = "Ran: pytest tests/test_cart.py::test_discount Ünïcode 東京"
    assert UpstreamAnalyzer().terms(text) == tokenize(text) == [
        "ran", "pytest", "tests", "test", "cart", "py", "test", "discount", "unicode"]


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=127), max_size=80))
def test_the_ascii_fast_path_splits_as_the_unicode_pattern(text):
    from carto_rankers import analyzers

    assert analyzers._RAW_ASCII.findall(text) == analyzers._RAW.findall(text)


def test_ascii_text_never_compiles_the_unicode_patterns():
    """A cold search of an ASCII query over ASCII rows pays no compile of the large Unicode
    classes (~2 ms of CPU per cold process); the first non-ASCII text compiles them."""
    import subprocess
    import sys

    code = (
        "from carto_rankers import analyzers as a\n"
        "e = a.EnglishAnalyzer()\n"
        "e.terms('Ran: pytest tests/test_login.py::test_flaky camelCase user-agent')\n"
        "e.query_terms('How did we fix the flaky login_test.py now?')\n"
        "e.content_query('what changed in loginFlow?')\n"
        "print(a._RAW.compiled is None, a._CJK.compiled is None)\n"
        "print(e.terms('東京 café'))\n"
        "print(a._RAW.compiled is None, a._CJK.compiled is None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, terms, after = out.stdout.splitlines()
    assert before == "True True" and after == "False False"
    assert terms == str(EnglishAnalyzer().terms("東京 café"))


def test_the_identifier_patterns_compile_on_first_use_and_then_stand_in_the_module():
    """A query of lowercase words compiles none of the identifier patterns (`_HUMP`,
    `_CONNECTOR`, `_CAMEL`, `_EVENT_ID`: ~0.6 ms a cold process); the first identifier
    compiles the ones it needs, which then replace their stand-ins in the module (a build
    calls them once per new word), and the terms are those of the patterns compiled up front."""
    import subprocess
    import sys

    code = (
        "import re\n"
        "from carto_rankers import analyzers as a\n"
        "names = ('_HUMP', '_CONNECTOR', '_CAMEL', '_EVENT_ID')\n"
        "kind = lambda: [type(getattr(a, n)).__name__ for n in names]\n"
        "e = a.EnglishAnalyzer()\n"
        "e.query_terms('how did we fix the flaky login test?')\n"
        "print(kind())\n"
        "t = e.terms('parseConfig batch_batch_lock src/cart/tax.py evt-1a2b3c4d5e6f HTTPServer')\n"
        "print(kind())\n"
        "print(t)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after, terms = out.stdout.splitlines()
    assert before == str(["FirstUse"] * 4)
    assert after == str(["Pattern"] * 4)
    assert terms == str(["parseconfig", "pars", "config", "batch_batch_lock", "batch", "batch",
                         "lock", "src", "cart", "tax.py", "tax", "py", "evt-1a2b3c4d5e6f",
                         "httpserver", "http", "server"])


@pytest.mark.parametrize("query, compounds, words", [
    ("drain nodes follow-up", (("followup", "follow", "up"),), 3),
    ("relabel datasets wrap-up", (("wrapup", "wrap", "up"),), 3),
    # a part that is also a word of its own stays one
    ("up follow-up", (("followup", "follow"),), 2),
    ("check-in on utf-8", (("checkin", "check", "in"), ("utf8", "utf", "8")), 2),
    # paths, identifiers and event ids are not hyphenated words
    ("fix foo_bar-baz in src/a-b.py", (), None),
    ("evt-1a2b3c4d5e6f", (), 1),
    ("drain nodes", (), 2),
])
def test_a_hyphenated_word_is_one_word_of_the_query(query, compounds, words):
    from carto_core.search.api import Query

    analyzed = EnglishAnalyzer().query(query)
    assert analyzed.compounds == compounds
    every = {term for compound in compounds for term in compound}
    assert every <= set(analyzed.terms)  # the index is asked for every term, as before
    counted = Query(query, analyzed.terms, analyzed.prefixes, analyzed.question,
                    analyzed.compounds).words
    if words is not None:
        assert counted == words


# words that ask how things stand ("status", "last") are read from the text, not counted
_PLAIN = st.text(alphabet="abcdefgklmprstu", min_size=3, max_size=7).filter(
    lambda w: w not in EnglishAnalyzer.stop and not asks_how_it_stands(w))


@settings(max_examples=200, deadline=None)
@given(words=st.lists(_PLAIN, min_size=1, max_size=6), joins=st.lists(st.booleans(), max_size=5))
def test_a_hyphenated_word_counts_as_its_joined_spelling(words, joins):
    """"follow-up" is as many words of a query as "followup": whatever its parts, or the
    other words beside it, the count of the query's words is that of the text with its
    hyphens taken out (the terms asked of the index are not: the parts stay)."""
    from carto_core.search.api import Query

    analyzer = EnglishAnalyzer()
    pieces = [words[0]]
    for word, join in zip(words[1:], joins + [False] * len(words)):
        pieces.append(("-" if join else " ") + word)
    hyphenated = "".join(pieces)
    joined = hyphenated.replace("-", "")

    def counted(text):
        a = analyzer.query(text)
        return Query(text, a.terms, a.prefixes, a.question, a.compounds).words

    assert counted(hyphenated) == counted(joined) == len(analyzer.query(joined).terms)
    assert set(analyzer.query(joined).terms) <= set(analyzer.query(hyphenated).terms)


@pytest.mark.parametrize("text, terms, assistant, now", [
    ("what did u say about my little bro and the thing i found in his bag",
     ("say", "littl", "bro", "thing", "found", "bag"), True, False),
    ("that service for the little kid, what did u tell me", ("servic", "littl", "kid", "tell"), True, False),
    ("whats ur advice on the landlord", ("advic", "landlord"), True, False),
    ("which class is the hard one rn", ("class", "hard", "one"), False, True),
    ("where does my mom work rn", ("mom", "work"), False, True),
    # written in capitals they are other words: a registered nurse, a country
    ("where does my sister work as an RN", ("sister", "work", "rn"), False, False),
    ("what did the U.S. office say", ("u.s", "offic", "say"), False, False),
    ("What did U say", ("say",), False, False),
])
def test_texting_shorthand_asks_as_its_words_do(text, terms, assistant, now):
    """"u", "ur" and "rn" typed for "you", "your" and "right now": a question put to the
    assistant (its reply first), one that asks how things are now, and no topic words; in
    capitals they are other words ("RN", "U.S."), not asking."""
    english = EnglishAnalyzer()
    assert english.query(text).terms == terms
    assert english.asks_the_assistant(text) is assistant
    assert english.asks_how_things_are_now(text) is now


@pytest.mark.parametrize("text, assistant", [
    ("what have I told you about the boiler", False),
    ("rafas mum, what have i told u about her", False),
    ("what did I ask you to remember about the car", False),
    ("which photos have I sent you of the garden", False),
    ("what did you tell me about the boiler", True),
    ("the boiler, what did u say", True),
])
def test_you_told_or_asked_something_asks_for_the_persons_words(text, assistant):
    """"you" as the one told or asked ("what have I told you about X") asks for what the
    person said, not for the assistant's reply."""
    assert EnglishAnalyzer().asks_the_assistant(text) is assistant
