"""An index term as people write it: the word of the newest documents holding the term that the
analyzer turns into it. A stemming analyzer's terms are not words ("discountcod", "claud",
"decim", "whi"); a person picking a suggestion wants the word ("discountCode", "Claude",
"decimal", "why"), which folds to the same term, so a search for it finds the same documents."""

from __future__ import annotations

import re
from collections import Counter

from carto_core.search.floor import TYPED_WORD
from carto_core.search.tokens import row_text

_WORD = re.compile(TYPED_WORD)
#: The parts of a typed compound, as its analyzer splits it ("general-purpose", "multiPurpose",
#: "HTTPServer"): hyphens and apostrophes, then case changes.
_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[^\W\dA-Z_]+|\d+")
#: How many of a term's newest documents are read for its word.
PER_TERM = 3


def surface_words(index, analyzer, terms: list[str], per_term: int = PER_TERM) -> dict[str, str]:
    """`{term: word}`: for each term, the commonest word (as typed) of its `per_term` newest
    documents that folds to the term as a whole; else the commonest part of a compound there
    that does, lower-cased ("purpose" of "general-purpose": the stem "purpos" is no word a
    person can type back); the term itself when neither does. A word folds to its analyzer's
    first term of it (a compound's whole comes before its parts: "HTTPServer" is the word of
    "httpserver", not of "http"). The documents of every term are read back in one pass, and
    each distinct word of them (or part of one) is analysed once."""
    docs_of = {term: [int(d) for d in index.own_docs(term)[-per_term:]] for term in terms}
    wanted = sorted({d for docs in docs_of.values() for d in docs})
    rows = dict(zip(wanted, index.rows(wanted))) if wanted else {}
    # A word is matched by what it folds to, not by its letters: a stem need not start as its
    # word does ("why" is "whi", "Über" is "uber")
    folds: dict[str, tuple[str, ...]] = {}

    def fold(word: str) -> tuple[str, ...]:
        if word not in folds:
            folds[word] = tuple(analyzer.terms(word))
        return folds[word]

    out: dict[str, str] = {}
    for term, docs in docs_of.items():
        seen: Counter = Counter()
        parts: Counter = Counter()
        for doc in docs:
            for word in _WORD.findall(row_text(rows[doc] or {})):
                folded = fold(word)
                if folded[:1] == (term,):
                    seen[word] += 1
                elif term in folded[1:]:
                    parts.update(part.lower() for part in _PART.findall(word)
                                 if fold(part)[:1] == (term,))
        found = seen or parts
        out[term] = found.most_common(1)[0][0] if found else term
    return out
