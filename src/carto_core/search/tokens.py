"""Text to index terms: the `Analyzer` base and upstream's analyzer, `upstream`.

An analyzer is a pure function of a row's text (no state but caches), so a streaming or
incremental build can call it on each row alone. It is chosen by name (`--analyzer`,
`search.analyzer`, `CARTO_ANALYZER`); analyzers register through `carto_register_analyzers`
(carto-rankers holds `unicode` and `english`), and the keyword index
records the analyzer's `signature`, so choosing another one rebuilds the index instead of
scoring its terms against postings made by a different analyzer.

`upstream` is upstream's awk/JS rule: lowercase, split on `[^a-z0-9]+`, accented Latin letters
folded to their base letter first (upstream's JS NFD step), every other script a separator. It
is kept as a named option for comparison; it cannot find a word in Cyrillic, Japanese, Arabic...

Stdlib only; a term's id on disk is a stable 64-bit hash (blake2b), because Python's own
`hash()` changes per process.
"""

from __future__ import annotations

import re
from typing import ClassVar

from carto_core.util.records import FrozenRecord

try:  # the C module itself: `hashlib` would first load OpenSSL (a cold search pays for it)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b

_TOKEN = re.compile(r"[a-z0-9]+")
#: A query word ending in `*` asks for every indexed term that starts with it.
_PREFIX = re.compile(r"([^\W_]\w*)\*", re.UNICODE)
#: Shorter prefixes would expand to most of the vocabulary.
PREFIX_MIN = 2

#: Row fields whose text is indexed, in upstream's order (awk: summary, description, prompt,
#: url, query, event_id, milestone; JS adds title). `cwd` is left out: it repeats the project
#: path on every row and would make a project name match everything in that project.
#: `commit_hash` (carto's): a commit row's summary names 7 characters and its url is one word
#: to the analyzers, so a longer sha found nothing without it; one term per commit. It comes
#: before `event_id`, which stays last (`index_build.context_part`).
DOC_FIELDS: tuple[str, ...] = (
    "summary", "description", "prompt", "url", "query", "title", "milestone", "commit_hash",
    "event_id",
)


class AnalyzedQuery(FrozenRecord):
    """A query as the index sees it: distinct terms in first-seen order, and prefixes
    (`deploy*` -> "deploy") that expand to every indexed term starting with them. A plain
    frozen record (carto_core.util.records: no dataclass to generate on every cold search)."""

    __slots__ = _fields = ("terms", "prefixes", "question", "compounds")
    terms: tuple[str, ...]
    prefixes: tuple[str, ...]
    #: A question in one's own words ("what did I ...?"), not a list of remembered words.
    question: bool
    #: Each hyphenated word's terms, its whole first (`Query.compounds`).
    compounds: tuple[tuple[str, ...], ...]

    def __init__(self, terms: tuple[str, ...], prefixes: tuple[str, ...] = (),
                 question: bool = False, compounds: tuple[tuple[str, ...], ...] = ()):
        setattr_ = object.__setattr__
        setattr_(self, "terms", terms)
        setattr_(self, "prefixes", prefixes)
        setattr_(self, "question", question)
        setattr_(self, "compounds", compounds)


class Analyzer:
    """Subclass, set `name` (and bump `version` whenever the terms of some text change) and
    implement `terms`. `query` applies the same analysis to a query, plus `word*` prefixes;
    an analyzer with a stop list drops its words from queries there."""

    name: ClassVar[str] = ""
    version: ClassVar[int] = 1
    description: ClassVar[str] = ""

    @property
    def signature(self) -> str:
        """What the index records: a different signature means different terms."""
        return f"{self.name}/{self.version}"

    def terms(self, text: str) -> list[str]:
        """Every index term of `text`, in order, repeats kept."""
        raise NotImplementedError

    def prefix_term(self, word: str) -> str:
        """How a `word*` prefix is matched against indexed terms (folded, never stemmed)."""
        return word.lower()

    def query(self, text: str) -> AnalyzedQuery:
        prefixes = []
        for match in _PREFIX.finditer(text):
            prefix = self.prefix_term(match.group(1))
            if len(prefix) >= PREFIX_MIN:
                prefixes.append(prefix)
        rest = _PREFIX.sub(" ", text) if prefixes else text
        terms = tuple(dict.fromkeys(self.query_terms(rest)))
        return AnalyzedQuery(terms, tuple(dict.fromkeys(prefixes)), self.is_question(text),
                             self.compounds(rest))

    def compounds(self, text: str) -> tuple[tuple[str, ...], ...]:
        """The query's hyphenated words, each as its terms with the whole first (`Query.
        compounds`); none unless the analyzer indexes a compound whole beside its parts."""
        return ()

    def is_question(self, text: str) -> bool:
        """Whether the query is a question in one's own words (the analyzer knows the
        language's question words); False unless an analyzer says otherwise."""
        return False

    def asks_the_assistant(self, text: str) -> bool:
        """Whether a question is put to the assistant ("what did you suggest?"): it asks for
        the assistant's reply (`search.answers` ranks the reply above the question); False
        unless an analyzer knows its language's "you"."""
        return False

    def asks_about_someone(self, text: str) -> bool:
        """Whether a query asks about someone else, in no word of the first or second person
        ("What motivated Adaeze to attempt a marathon?"): the names it gives are of the people
        whose chat is searched, and the semantic ladder also asks it without them; False
        unless an analyzer knows its language's "I", "my", "we" and "you"."""
        return False

    def said_by(self, text: str, start: int, end: int) -> str:
        """`text`, a question asked about the person it names at `text[start:end]` ("Emi",
        "Emi's"), as that person would ask it of their own words: "What breed is Hana's dog?"
        as "What breed is my dog?", "What did she sign up for?" as "What did I sign up for?".
        The rows that answer it are theirs, told in the first person ("I adopted two old
        cats"), and the semantic ladder asks it this way (`asks_about_someone`); `text` as it
        is unless an analyzer knows its language's persons."""
        return text

    def names_a_month(self, text: str) -> tuple[int, int] | None:
        """(year, month) of a month of a year the query names ("What position was Hana
        offered in November 2025?"): the decay policy lifts the rows said in that month and
        the next; None unless an analyzer knows its language's month names."""
        return None

    def opens_a_question(self, sentence: str) -> bool:
        """Whether a sentence opens as a question does, with a question word or an auxiliary
        ("how do I stop it", typed without its mark), or asks inside a message dictated without
        marks ("... I hung up did I do the right thing he says"): `search.answers` then lends a
        row that asks this way its reply; False unless an analyzer knows the language's ways."""
        return False

    def asks_how_things_are_now(self, text: str) -> bool:
        """Whether a question asks how something stands now ("where does Dad live now?",
        "what am I using at the moment?"): `search.current` puts a turn that says how things
        are now above its neighbours on the page; False unless an analyzer knows the words."""
        return False

    def says_how_things_are_now(self, text: str) -> bool:
        """Whether a text tells how something stands now ("my go-to spot now is...",
        "switched to oxtail soup"); False unless an analyzer knows the words."""
        return False

    def asks_with(self, word: str) -> bool:
        """Whether a word of a query is one a question asks with rather than about
        ("remind", "told", "anything" in "can you remind me if I told you anything about the
        boiler"): the relevance floor's second look leaves it unjudged, as it does on a home
        where some row holds it; False unless an analyzer knows its language's."""
        return False

    def query_terms(self, text: str) -> list[str]:
        return self.terms(text)

    def content_query(self, text: str) -> str:
        """The words of a query that carry its topic, as text (an embedder that averages word
        vectors gets them without "what did I ... now"); the query itself by default."""
        return text


def fold(text: str) -> str:
    lowered = text.lower()
    if lowered.isascii():
        return lowered
    import unicodedata  # non-ASCII text only (an extension module a cold search need not load)

    decomposed = unicodedata.normalize("NFD", lowered)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def tokenize(text: str) -> list[str]:
    """upstream's tokens of `text`, in order, repeats kept."""
    return _TOKEN.findall(fold(text))


def query_tokens(text: str) -> tuple[str, ...]:
    """Distinct upstream tokens of a query, in first-seen order."""
    return tuple(dict.fromkeys(tokenize(text)))


class UpstreamAnalyzer(Analyzer):
    name = "upstream"
    description = "upstream's tokens: lowercase [a-z0-9]+ after folding accents (no other script)"

    def terms(self, text: str) -> list[str]:
        return tokenize(text)

    def prefix_term(self, word: str) -> str:
        return "".join(tokenize(word))


def row_text(row: dict) -> str:
    """The indexed text of a row: its DOC_FIELDS string values joined by spaces."""
    parts = []
    for key in DOC_FIELDS:
        value = row.get(key)
        if isinstance(value, str) and value:
            parts.append(value)
    return " ".join(parts)


def term_hash(term: str) -> int:
    """Stable unsigned 64-bit id of a term (UTF-8; ASCII terms hash as they always did)."""
    return int.from_bytes(blake2b(term.encode("utf-8"), digest_size=8).digest(), "little")
