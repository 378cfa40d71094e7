"""`/api/terms/complete` and `/api/terms/co`: the keyword index's own vocabulary as the search
box's autocomplete, and the terms that occur with a term.

Both read the warm engine's `KeywordIndex` (refreshed from the logs first, as a search is), so
a suggestion is a term some document holds now, with its document frequency; a prefix is folded
by the index's analyzer exactly as a `word*` query term is (`Analyzer.prefix_term`), so a
completion finds what the search would. Terms are index terms (the analyzer's output: folded,
stemmed when the analyzer stems), each with the `word` people write for it
(`carto_core.search.surface`: "discountCode" for "discountcod"), which the page shows and puts
in the query.

Co-terms are `carto_core.search.related.co_terms` (`carto related` shares them): the documents
whose own text holds every term of the query word, the newest of them analysed again, each other
term scored `together x log(1 + N / df)`.
"""

from __future__ import annotations

from carto_core.search.surface import surface_words
from carto_core.serve.spec import ApiError


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
    ranked = [(w, df) for w, df in sorted(((w, index.df(w)) for w in words),
                                           key=lambda item: (-item[1], item[0]))[:limit] if df]
    said = surface_words(index, analyzer, [w for w, _ in ranked])
    return {"prefix": prefix, "folded": folded,
            "terms": [{"term": w, "df": df, "word": said[w]} for w, df in ranked],
            "documents": index.n_alive, "index_generation": index.generation}


def co_terms(engine, word: str, limit: int) -> dict:
    from carto_core.search.related import RelatedError, co_terms as co

    index = _index(engine)
    analyzer = index.analyzer or engine.analyzer
    try:
        document = co(index, analyzer, word, limit)
    except RelatedError as exc:
        raise ApiError(400, "PARAM_INVALID", str(exc)) from None
    said = surface_words(index, analyzer, [t["term"] for t in document["co_terms"]])
    document["co_terms"] = [{**t, "word": said[t["term"]]} for t in document["co_terms"]]
    return document
