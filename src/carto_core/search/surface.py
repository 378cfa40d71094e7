"""An index term as people write it: the word of the newest documents holding the term that the
analyzer turns into it. A stemming analyzer's terms are not words ("discountcod", "claud",
"decim"); a person picking a suggestion wants the word ("discountCode", "Claude", "decimal"),
which folds to the same term, so a search for it finds the same documents."""

from __future__ import annotations

import re
from collections import Counter

from carto_core.search.floor import TYPED_WORD
from carto_core.search.tokens import row_text

_WORD = re.compile(TYPED_WORD)
#: How many of a term's newest documents are read for its word.
PER_TERM = 3


def surface_words(index, analyzer, terms: list[str], per_term: int = PER_TERM) -> dict[str, str]:
    """`{term: word}`: for each term, the commonest word (as typed) of its `per_term` newest
    documents whose analysed terms include it; the term itself when none does. The documents
    of every term are read back in one pass."""
    docs_of = {term: [int(d) for d in index.own_docs(term)[-per_term:]] for term in terms}
    wanted = sorted({d for docs in docs_of.values() for d in docs})
    rows = dict(zip(wanted, index.rows(wanted))) if wanted else {}
    out: dict[str, str] = {}
    for term, docs in docs_of.items():
        seen: Counter = Counter()
        head = term[:3]
        for doc in docs:
            for word in _WORD.findall(row_text(rows[doc] or {})):
                # a stem keeps its word's first letters: only those words are analysed
                if word[:3].casefold() == head and term in analyzer.terms(word):
                    seen[word] += 1
        out[term] = seen.most_common(1)[0][0] if seen else term
    return out
