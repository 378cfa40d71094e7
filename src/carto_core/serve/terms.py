"""`/api/terms/complete` and `/api/terms/co`: the keyword index's own vocabulary as the search
box's autocomplete, and the terms that occur with a term.

Both read the warm engine's `KeywordIndex` (refreshed from the logs first, as a search is), so
a suggestion is a term some document holds now, with its document frequency; a prefix is folded
by the index's analyzer exactly as a `word*` query term is (`Analyzer.prefix_term`), so a
completion finds what the search would. Terms are index terms (the analyzer's output: folded,
stemmed when the analyzer stems).

Co-terms: the documents whose own text holds every term of the query word (session context
left out: `own_docs`), the newest `CO_SAMPLE` of them read back and analysed again; each other
term scores `together x log(1 + N / df)`: often beside the word, rare elsewhere; the
analyzer's stop words (`english`'s question and function words) and event ids or hashes are
left out.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from carto_core.search.tokens import row_text
from carto_core.serve.spec import ApiError

CO_SAMPLE = 300
#: Event ids and hashes are terms of one document each; as co-terms they say nothing.
IDLIKE = re.compile(r"^(?:(?:evt|git|turn|hermes)-|[0-9a-f]{12,}$)")
#: Candidate co-terms whose document frequency is looked up (the most frequent in the sample).
CO_CANDIDATES = 400


def _index(engine):
    engine.refresh()
    return engine.index


def complete(engine, prefix: str, limit: int) -> dict:
    index = _index(engine)
    analyzer = index.analyzer or engine.analyzer
    folded = analyzer.prefix_term(prefix.strip())
    if not folded:
        raise ApiError(400, "PARAM_INVALID", "prefix holds no indexable character")
    words = index.prefix_terms(folded, limit=max(limit, 64))
    ranked = sorted(((w, index.df(w)) for w in words), key=lambda item: (-item[1], item[0]))
    return {"prefix": prefix, "folded": folded,
            "terms": [{"term": w, "df": df} for w, df in ranked[:limit] if df],
            "documents": index.n_alive, "index_generation": index.generation}


def co_terms(engine, word: str, limit: int) -> dict:
    index = _index(engine)
    analyzer = index.analyzer or engine.analyzer
    asked = list(dict.fromkeys(analyzer.terms(word)))
    if not asked:
        raise ApiError(400, "PARAM_INVALID", "term holds no indexable word")
    docs = None
    for term in asked:
        own = np.unique(index.own_docs(term))
        docs = own if docs is None else np.intersect1d(docs, own, assume_unique=True)
    holders = int(len(docs)) if docs is not None else 0
    out = {"term": word, "terms": asked, "documents": holders, "sample": 0, "co_terms": [],
           "index_generation": index.generation}
    if not holders:
        return out
    sample = sorted(int(d) for d in docs[-CO_SAMPLE:])
    together: Counter = Counter()
    for row in index.rows(sample):
        together.update(set(analyzer.terms(row_text(row))) - set(asked))
    total = max(1, index.n_alive)
    stop = getattr(analyzer, "stop", None) or frozenset()
    scored = []
    for term, count in together.most_common(CO_CANDIDATES):
        if term in stop or IDLIKE.match(term):
            continue  # a stop word or an id/hash: no topic
        df = index.df(term)
        if df:
            scored.append({"term": term, "together": count, "df": df,
                           "score": round(count * math.log(1 + total / df), 4)})
    scored.sort(key=lambda item: (-item["score"], item["term"]))
    out.update({"sample": len(sample), "co_terms": scored[:limit]})
    return out
