"""Analyzers for the keyword index: `unicode` and `english` (the `Analyzer` base and upstream's
`upstream` live in carto_core.search.tokens).

`unicode`: words of every script (`\\w` runs), NFKC-normalised, case-folded; accents folded on
Latin, Greek and Cyrillic letters and Arabic vowel marks dropped (never the marks that spell a
word: Japanese dakuten, Devanagari vowel signs); Chinese, Japanese and Korean runs become
overlapping character bigrams plus single characters (a query uses the bigrams when it has
two characters or more, so a one-character query still finds its row); identifiers are kept
whole *and* split: `batch_batch_lock` -> batch_batch_lock, batch, batch, lock; `parseConfig`
-> parseconfig, parse, config; `src/cart/tax.py` -> src, cart, tax.py, tax, py; a hyphen is
folded out of the whole (`de-stress` -> destress, de, stress) and an apostrophe dropped.

`english`: `unicode`, then Snowball stemming (PyStemmer: English for Latin script, Russian for
Cyrillic, Arabic for Arabic; "Researching" -> research, "camped" -> camp), and a stop list of
question and function words left out of *queries* (never of the index, and never a query's
only words): "what did I say about the deploy" asks about "say" and "deploy".

Both are pure functions of the text; a memo of analysed raw tokens makes repeats cheap.
"""

from __future__ import annotations

import re
from itertools import chain

from carto_core.api import Analyzer, FirstUse, Lazy

#: A raw token: word characters joined by single connectors (paths, dotted names, hyphens).
_W = (r"[\w\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670"
      r"\u06d6-\u06ed\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f\u3099\u309a]")
#: Combining marks that spell a word (Devanagari vowel signs, Thai vowels) are word characters.
#: This pattern and `_CJK` are compiled on first use: their Unicode ranges cost the regex
#: compiler CPU time in every cold process, and ASCII text (most queries
#: and rows) never needs either.
_RAW = Lazy(f"{_W}+(?:['\u2019\\-./:]{_W}+)*")
#: The same for ASCII text (most rows): a small class matches several times faster.
_RAW_ASCII = re.compile(r"[A-Za-z0-9_]+(?:['\-./:][A-Za-z0-9_]+)*")


#: A word of letters and digits joined by hyphens only ("follow-up", "utf-8"): one word to
#: whoever wrote it (dots, slashes and underscores join the names of a path or an
#: identifier: not this). Compiled on first use, as the patterns below.
_HYPHENATED = FirstUse(globals(), "_HYPHENATED", r"[^\W_]+(?:-[^\W_]+)+")

#: These three and `_EVENT_ID` read identifiers (`snake_case`, `camelCase`, dotted paths, ids):
#: compiled on first use, as a query of lowercase words (most questions) needs none of them
#: (regex compiling every cold process would pay).
_CONNECTOR = FirstUse(globals(), "_CONNECTOR", r"['\u2019\-.:_]+")
_CAMEL = FirstUse(globals(), "_CAMEL", r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_HUMP = FirstUse(globals(), "_HUMP", r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_CJK = Lazy(
    "([\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+)")
#: carto's event ids are one term each (`evt-1a2b3c4d5e6f`, `turn-<session>-3`): split, their
#: common first part would make a query naming an unknown id match every row.
_EVENT_ID = FirstUse(globals(), "_EVENT_ID", r"(?:evt|git|turn|hermes)-[A-Za-z0-9_-]+")
#: Longer tokens are hashes, blobs, base64: kept whole, never split.
LONG = 64
#: Raw words memoised (about 130 B each with their terms): a bound lowered a streamed build's
#: peak RSS at the same CPU time (docs/performance.md).
_MEMO_MAX = 100_000

#: Question and function words dropped from queries (`english`), checked before stemming.
QUERY_STOP = frozenset("""
a about after all am an and any are as at be been before being but by can could did do does
doing done for from had has have having he her here hers him his how i if in into is it its
just me mine my myself of on or our ours over she should so some than that the their theirs
them then there these they this those to too us was we were what when where which while who
whom whose why will with would you your yours yourself ever yet whats wheres whos hows u ur
""".split())

#: Words and phrases of a query that ask for the *latest* state ("what do I drive now"): the
#: decay policy reads them from the query text (a stronger recency prior); as keywords they
#: only match unrelated rows ("now" stems to the "now" of "nowe.py", "I changed my diet
#: again, now vegan"), so `english` leaves them out of a query's terms too.
RECENCY = re.compile(r"\b(?:now|nowadays|currently|current|latest|newest|most recent(?:ly)?|"
                     r"recent|recently|lately|these days|anymore|at the moment|at present|right now|(?-i:rn)|"
                     r"(?<![-.])last(?: time)?(?![-.]\w))\b",
                     re.IGNORECASE)

#: Words of a question that ask how something stands *now* (not "lately": what happened of
#: late is events, not a state).
NOW = re.compile(r"\b(?:now|nowadays|these days|currently|current|at the moment|at present|right now|(?-i:rn)|"
                 r"latest|newest)\b", re.IGNORECASE)

#: Words of a text that tell how something stands now: a change made ("switched", "swapped",
#: "moved on to", "stopped", "gave up", "replaced", "instead", "no longer", "any more") or the
#: state named as current ("now", "these days", "new", "latest", "since").
SAYS_NOW = re.compile(r"\b(?:now|nowadays|these days|any ?more|instead|switched|swapped|"
                      r"moved (?:on|to)|new|latest|current(?:ly)?|no longer|stopped|replaced|"
                      r"gave up|since)\b", re.IGNORECASE)

#: Words that ask how something stands ("deploy staging status", "any update on the
#: migration?", "status of the backfill", "where did we leave the rollout?"): last in the
#: query, or before "on/of/about/with/for". Left out of a query's terms when at least two
#: other words carry its topic (a row about the deploy rarely says "status"); kept when they
#: are the topic ("http status", "status code").
STATE = re.compile(r"\b(?:(?:status|progress|news|updates?)(?=\W*$|\s+(?:on|of|about|with|for)\b)"
                   r"|anything new"
                   r"|where (?:did|do|does) (?:we|it|things) (?:leave|stand)(?: it| off)?)\b",
                   re.IGNORECASE)

#: Other ways of asking how something stands ("have we done the rollout yet?", "what's new
#: with the backfill?"), read by the decay policy only (the words stay query terms).
STANDING = re.compile(r"\byet\b|\bwhat(?:['\u2019]s| is) new\b", re.IGNORECASE)


#: The words a question asks with rather than about: verbs of remembering and telling ("can
#: you remind me what I told you about ...") and the pronouns that stand for what is asked
#: ("anything", "everything", "stuff"). No row answers them, so the second look does not
#: judge them (docs/ranking.md, "The verbs a question asks with are not judged").
ASKING = frozenset("""
remind reminded remember remembered recall recalled tell told say said mention mentioned
anything everything something stuff things
""".split())


def asks_how_it_stands(text: str) -> bool:
    """Whether a query asks for the latest state of something: a recency word ("now",
    "latest", "last"), a status phrase (`STATE`) or another way of asking (`STANDING`)."""
    return bool(RECENCY.search(text) or STATE.search(text) or STANDING.search(text))


#: A contraction's ending: "what's", "where're", "didn't" are their stop word ("what", "where",
#: "did") for the stop list (the index keeps them whole: "whats").
_CONTRACTION = re.compile(r"(?:['\u2019](?:s|re|ve|ll|d|m)|n['\u2019]t)$")

#: The words a question opens with: a question word (typed with or without its apostrophe)
#: or an auxiliary.
_QUESTION_WORDS = (r"whats|wheres|whos|hows|what|which|where|when|who|whom|whose|why|how|"
                   r"did|do|does|is|are|was|were|have|has|can|could|should|would|will")

#: A question in one's own words: it ends in a question mark or opens with a question word
#: or an auxiliary ("what sport do I do now", "did we book the flights").
#: A question asked after its topic, its mark left off ("the foot thing where getting up was
#: agony, what did you recommend", "the spot where my boy got his first pickerel, what lake"):
#: the last clause, after a comma or a dash, opens as a question does. "which", "who", "where"
#: and "when" open a relative clause as often ("the notes, which we wrote"): they ask only
#: with an auxiliary ("which one was it", "where is it") or a word at most ("which race").
_AUX = r"is|are|was|were|did|do|does|has|have|had|can|could|should|would|will"
_LAST_CLAUSE = (r"(?:[,;:\u2014\u2013]|\s-\s)\s*"
                r"(?:(?:whats|what|hows|how|why|remind me|tell me)\b"
                rf"|(?:which|whos|who|whom|whose|wheres|where|when)(?:['\u2019]\w+)?(?:\s+[\w']+)?\s+(?:{_AUX})\b"
                r"|(?:which|whos|who|whom|whose|wheres|where|when)(?:['\u2019]\w+)?(?:\s+[\w']+)?\s*$"
                rf"|(?:{_AUX})\s+(?:i|you|u|he|she|it|we|they|there)\b)"
                r"[^,;:.!?\u2014\u2013]*$")

#: A question dictated or typed after its topic with no mark at all ("the phone call from the
#: fake pension fellow what was your advice", "my fathers fields on the land records what
#: should i do you said"): a question word, an auxiliary and then its subject, the order only a
#: question has ("that's what I said" keeps the subject first), with no sentence ending after.
_INVERTED = (r"\b(?:whats|what|hows|how|why|which|whos|who|wheres|where|when)\s+"
             rf"(?:{_AUX})\s+(?:i|you|u|we|he|she|they|it|my|your|ur|our|his|her|their)\b[^.!?]*$")

QUESTION = re.compile(rf"\?\s*$|^\W*(?:{_QUESTION_WORDS}|had|remind me|tell me)\b|{_LAST_CLAUSE}"
                      rf"|{_INVERTED}", re.IGNORECASE)

#: How a sentence opens when it asks, its mark typed or not ("how do I stop it", "any luck
#: with the boiler"): the answers step reads such a row as asking.
OPENS_A_QUESTION = re.compile(rf"^\W*(?:{_QUESTION_WORDS}|shall|any)\b", re.IGNORECASE)

#: A question inside a message that never marks one, as dictated speech runs ("... I hung up
#: did I do the right thing he says he calls back at five", "... the wind is bringing it this
#: way what do we do quick"): the inverted order above, or "did/should/can/could/do" before
#: "I" or "we" and a word ("so did I", "nor do we" are not asking).
_ASKS_INSIDE = re.compile(rf"{_INVERTED}|(?<!\bso )(?<!\bnor )(?<!\bthan )(?<!\bas )"
                          r"\b(?:did|should|can|could|do)\s+(?:i|we)\s+\w", re.IGNORECASE)

#: A question put to the assistant ("what did you suggest for ...", "your advice on ..."): it
#: asks for what the assistant said, not for what the person asked. "you" told or asked
#: something ("what have I told you about her") is asked for the person's own words.
ASKS_THE_ASSISTANT = re.compile(r"(?<!\btold )(?<!\btell )(?<!\basked )(?<!\bask )(?<!\bshowed )(?<!\bsent )"
                                r"(?<!\bgave )(?<!\btexted )(?<!\bwrote )\b(?:you|your|(?-i:u|ur))\b", re.IGNORECASE)

#: A word of the first or second person ("u" and "ur" as texted): a query with none is about
#: someone else.
FIRST_OR_SECOND = re.compile(r"\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves|you|your|yours|"
                             r"yourself|yourselves|u|ur)\b", re.IGNORECASE)

#: A third person's words as that person says them (`said_by`): "her" is read as "my", the
#: more common of its two uses in a question about someone ("what did she name her cat?").
THIRD_TO_FIRST = {"he": "I", "she": "I", "him": "me", "her": "my", "his": "my", "hers": "mine",
                  "himself": "myself", "herself": "myself"}
_THIRD = re.compile(r"\b(?:" + "|".join(THIRD_TO_FIRST) + r")\b", re.IGNORECASE)
#: Words after which a capitalised word is no speaker of the rows asked about: a place or
#: someone met ("the newcomer from Gdansk", "Who helped Rafael", "to Tom"). A question about
#: one's own chat names its speaker first, as its subject or an owner.
BEFORE_AN_OBJECT = frozenset("""
to with for from about at of by on and help helped give gave tell told ask asked visit visited
meet met call called
""".split())
#: Family words written as names ("what's Dad watching?"): someone the rows talk about, never
#: the one who speaks in them.
FAMILY = frozenset("""
mum mom mam ma dad pa mummy mommy daddy nan nana gran granny grandma grandpa grandad granddad
auntie aunty uncle
""".split())
#: The months, as a query names one of a year ("in November 2025": `names_a_month`).
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
MONTH_OF_YEAR = re.compile(r"\b(" + "|".join(MONTHS) + r")\s+((?:19|20)\d\d)\b", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['\u2019]s$")
_TWICE = re.compile(r"\b(my|I) and \1\b")


def _fold(text: str) -> str:
    """NFKC, then accents off Latin/Greek/Cyrillic letters and Arabic vowel marks dropped;
    other combining marks are part of their letter and stay. Case is kept (camelCase)."""
    if text.isascii():
        return text
    import unicodedata  # non-ASCII text only (an extension module a cold search need not load)

    text = unicodedata.normalize("NFKC", text)
    decomposed = unicodedata.normalize("NFD", text)
    out = []
    base = 0
    for ch in decomposed:
        if unicodedata.combining(ch):
            code = ord(ch)
            if base < 0x0530 or 0x064B <= code <= 0x065F or code == 0x0670:
                continue
        else:
            base = ord(ch)
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _raw_words(text: str) -> list[str]:
    """The raw tokens of `text`, folded; ASCII text through the small-class pattern (the same
    tokens: a test holds them equal)."""
    return _RAW_ASCII.findall(text) if text.isascii() else _RAW.findall(_fold(text))


def _bigrams(run: str, unigrams: bool) -> list[str]:
    if len(run) == 1:
        return [run]
    grams = [run[i:i + 2] for i in range(len(run) - 1)]
    return list(run) + grams if unigrams else grams


class _Memo(dict):
    """raw token -> its index terms, computed on first sight; cleared when it grows past
    _MEMO_MAX (ids and hashes never repeat)."""

    def __init__(self, analyzer: "UnicodeAnalyzer"):
        super().__init__()
        self.analyzer = analyzer

    def __missing__(self, raw: str) -> tuple[str, ...]:
        if len(self) > _MEMO_MAX:
            self.clear()
        got = self[raw] = self.analyzer._expand(raw, True)
        return got


class UnicodeAnalyzer(Analyzer):
    name = "unicode"
    version = 1
    description = ("words of every script, case and accent folded, CJK bigrams, identifiers "
                   "whole and split, hyphens folded")
    stem = False
    stop = frozenset()

    def __init__(self):
        self._memo = _Memo(self)
        self._query_memo: dict[str, tuple[str, ...]] = {}
        self._stemmers: dict[str, object] = {}

    # ---- one word

    def _stem(self, word: str) -> str:
        return word

    def _plain(self, word: str) -> str:
        """A lowercase word with no connectors: stemmed when it is letters only."""
        return self._stem(word) if self.stem and word.isalpha() else word

    def _expand(self, raw: str, cjk_unigrams: bool) -> tuple[str, ...]:
        if raw.isascii() and raw.isalnum() and (raw.islower() or not _HUMP.search(raw)):
            return (self._plain(raw.lower()),)  # the common case: one plain word
        if not raw.isascii() and _CJK.search(raw):  # every CJK range is beyond ASCII
            out: list[str] = []
            for piece in _CJK.split(raw):
                if not piece:
                    continue
                if _CJK.fullmatch(piece):
                    out.extend(_bigrams(piece, cjk_unigrams))
                else:
                    out.extend(self._expand(piece, cjk_unigrams))
            return tuple(out)
        if len(raw) > LONG or _EVENT_ID.fullmatch(raw):
            return (raw.casefold(),)
        out = []
        for segment in raw.split("/"):
            if not segment:
                continue
            if not _CONNECTOR.search(segment) and not _HUMP.search(segment):
                out.append(self._plain(segment.casefold()))
                continue
            whole = segment.casefold().replace("-", "").replace("'", "").replace("\u2019", "")
            whole = whole.strip(".:_")
            parts = []
            for chunk in _CONNECTOR.split(segment):
                if not chunk:
                    continue
                pieces = (_CAMEL.findall(chunk) if chunk.isascii() and _HUMP.search(chunk)
                          else [chunk])
                parts.extend(p.casefold() for p in pieces or [chunk])
            if "'" in segment or "\u2019" in segment:
                parts = []  # don't -> dont; user's -> users (stemmed: user); no "t" or "s" parts
            if whole:
                out.append(self._plain(whole) if whole.isalpha() else whole)
            for part in parts:
                if part != whole and (len(part) > 1 or part.isdigit()):
                    out.append(self._plain(part))
        return tuple(out)

    # ---- the analyzer

    def terms(self, text: str) -> list[str]:
        raws = _raw_words(text)
        # one C-level pass: the memo computes a missing word itself (`_Memo.__missing__`)
        return list(chain.from_iterable(map(self._memo.__getitem__, raws)))

    def query_terms(self, text: str) -> list[str]:
        out: list[str] = []
        for raw in self.content_words(text):
            out.extend(self._expand(raw, False))
        return out

    def compounds(self, text: str) -> tuple[tuple[str, ...], ...]:
        """Each hyphenated content word's terms, the whole first, then the parts no other
        word of the query gave ("drain nodes follow-up": (followup, follow, up)). The index
        holds them all, as it does for any compound; the count of held and unheld words
        takes the compound for one word."""
        if "-" not in text:
            return ()
        hyphenated, standalone = [], set()
        for raw in self.content_words(text):
            terms = self._expand(raw, False)
            if len(terms) > 1 and _HYPHENATED.fullmatch(raw):
                hyphenated.append(terms)
            else:
                standalone.update(terms)
        wholes = {terms[0] for terms in hyphenated}
        out, claimed = {}, set()
        for whole, *parts in hyphenated:
            own = [p for p in dict.fromkeys(parts)
                   if p not in standalone and p not in wholes and p not in claimed]
            claimed.update(own)
            out.setdefault(whole, (whole, *own))
        return tuple(out.values())

    def content_words(self, text: str) -> list[str]:
        """The raw words of a query that carry its topic: without the stop list's words and
        the recency phrases (when the analyzer has a stop list), unless nothing else is left."""
        raws = _raw_words(text)
        if self.stop:
            kept = self._content(RECENCY.sub(" ", text))
            if STATE.search(text):
                without = self._content(STATE.sub(" ", RECENCY.sub(" ", text)))
                kept = without if len(without) >= 2 else kept
            raws = kept or raws
        return raws

    def _content(self, text: str) -> list[str]:
        return [r for r in _raw_words(text) if _CONTRACTION.sub("", r.casefold()) not in self.stop]

    def content_query(self, text: str) -> str:
        return " ".join(self.content_words(text))

    def is_question(self, text: str) -> bool:
        return bool(self.stop) and bool(QUESTION.search(text))

    def asks_the_assistant(self, text: str) -> bool:
        return self.is_question(text) and bool(ASKS_THE_ASSISTANT.search(text))

    def asks_about_someone(self, text: str) -> bool:
        return bool(self.stop) and not FIRST_OR_SECOND.search(text)

    def said_by(self, text: str, start: int, end: int) -> str:
        if not self.stop:
            return text
        before = text[:start].split()
        name = text[start:end]
        bare = _POSSESSIVE.sub("", name)
        # a person's name is a capital and small letters: "MCP", "JSON", "IndexError" are not
        if not (bare[:1].isupper() and bare[1:].isalpha() and bare[1:].islower()) or (
                bare.casefold() in FAMILY):
            return text
        if _POSSESSIVE.search(name):  # "to Marisol's old board" is hers all the same
            word = "my"
        elif before and before[-1].casefold() in BEFORE_AN_OBJECT:
            return text
        else:
            word = "I"
        told = _THIRD.sub(lambda m: THIRD_TO_FIRST[m.group(0).casefold()],
                          text[:start] + word + text[end:])
        return _TWICE.sub(r"\1", told)

    def names_a_month(self, text: str) -> tuple[int, int] | None:
        found = MONTH_OF_YEAR.search(text) if self.stop else None
        return (int(found.group(2)), MONTHS.index(found.group(1).casefold()) + 1) if found else None

    def opens_a_question(self, sentence: str) -> bool:
        return bool(self.stop) and bool(OPENS_A_QUESTION.match(sentence) or _ASKS_INSIDE.search(sentence))

    def asks_how_things_are_now(self, text: str) -> bool:
        return self.is_question(text) and bool(NOW.search(text))

    def says_how_things_are_now(self, text: str) -> bool:
        return bool(self.stop) and bool(SAYS_NOW.search(text))

    def asks_with(self, word: str) -> bool:
        return bool(self.stop) and _fold(word).casefold() in ASKING

    def prefix_term(self, word: str) -> str:
        return _fold(word).casefold()


class EnglishAnalyzer(UnicodeAnalyzer):
    name = "english"
    version = 2
    description = ("unicode + Snowball stemming (English; Russian for Cyrillic, Arabic for "
                   "Arabic script) + question words left out of queries")
    stem = True
    stop = QUERY_STOP

    def _stem(self, word: str) -> str:
        first = ord(word[0])
        language = ("english" if first < 0x0250 else "russian" if 0x0400 <= first < 0x0530
                    else "arabic" if 0x0600 <= first < 0x0700 else None)
        if language is None:
            return word
        stemmer = self._stemmers.get(language)
        if stemmer is None:
            import Stemmer  # PyStemmer: the C Snowball stemmers

            stemmer = self._stemmers[language] = Stemmer.Stemmer(language)
        # Arabic's takes a lone tatweel (U+0640) whole: an empty term no query can ask for
        return stemmer.stemWord(word) or word
