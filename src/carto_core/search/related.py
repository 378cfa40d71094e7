"""What occurs with a term, a file or a session: co-occurring terms and related sessions, from the
keyword index (the explorer's `/api/terms/co` and `carto related` share this).

- **documents of a query**: a term: the documents whose own text holds every index term of the
  word (session context left out: `own_docs`); a file: the same for the words of its name,
  kept to the documents whose row names the path's base name; a session: its own documents.
- **co-terms**: the newest `CO_SAMPLE` of those documents are read back and analysed again;
  each other term scores `together x log(1 + N / df)` (often beside the query, rare elsewhere);
  the analyzer's stop words, event ids or hashes and terms without a letter (numbers,
  versions) are left out. For a session, `together`
  is the term's count over the session's documents (the session's characteristic words).
- **related sessions**: a term or file: the sessions of its documents, `documents x log(1 + N /
  df)` summed over the query's terms (a session that holds the query often, of a rare term,
  comes first); a session: the other sessions that hold its top `SESSION_TERMS` terms, each
  shared term adding its `log(1 + N / df)` (idf-weighted overlap; `documents` counts their
  documents holding one), the session itself left out.

Read-only; the index is the warm engine's (refreshed first, as a search is).
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter, defaultdict
from datetime import datetime, timezone

import numpy as np

from carto_core.search.tokens import row_text
from carto_core.util.timeparse import format_timestamp

CO_SAMPLE = 300
#: Event ids and hashes are terms of one document each; as co-terms they say nothing.
IDLIKE = re.compile(r"^(?:(?:evt|git|turn|hermes)-|[0-9a-f]{12,}$)")
#: Candidate co-terms whose document frequency is looked up (the most frequent in the sample).
CO_CANDIDATES = 400
#: A session's top terms that look for related sessions, and the documents read per term.
SESSION_TERMS = 12
TERM_DOCS = 2000


class RelatedError(ValueError):
    """A query with nothing to look up (no indexable word, an unknown session)."""


def _idf(index, df: int) -> float:
    return math.log(1 + max(1, index.n_alive) / df) if df else 0.0


def holders(index, terms: list[str]) -> np.ndarray:
    """Documents whose own text holds every one of `terms` (sorted)."""
    docs = None
    for term in terms:
        own = np.unique(index.own_docs(term))
        docs = own if docs is None else np.intersect1d(docs, own, assume_unique=True)
    return docs if docs is not None else np.zeros(0, np.int64)


def score_terms(index, analyzer, counts: Counter, skip: set, limit: int) -> list[dict]:
    """Co-terms from `counts` (term -> documents or occurrences beside the query)."""
    stop = getattr(analyzer, "stop", None) or frozenset()
    scored = []
    for term, count in counts.most_common(CO_CANDIDATES):
        if term in skip or term in stop or IDLIKE.match(term) or not any(c.isalpha() for c in term):
            continue  # a stop word, an id or hash, a number or version: no topic
        df = index.df(term)
        if df:
            scored.append({"term": term, "together": count, "df": df,
                           "score": round(count * _idf(index, df), 4)})
    scored.sort(key=lambda item: (-item["score"], item["term"]))
    return scored[:limit]


def co_terms(index, analyzer, word: str, limit: int) -> dict:
    """`/api/terms/co`: the terms that occur with `word`. RelatedError when it holds no word."""
    asked = list(dict.fromkeys(analyzer.terms(word)))
    if not asked:
        raise RelatedError("term holds no indexable word")
    docs = holders(index, asked)
    out = {"term": word, "terms": asked, "documents": int(len(docs)), "sample": 0, "co_terms": [],
           "index_generation": index.generation}
    if not len(docs):
        return out
    sample = sorted(int(d) for d in docs[-CO_SAMPLE:])
    together: Counter = Counter()
    for row in index.rows(sample):
        together.update(set(analyzer.terms(row_text(row))) - set(asked))
    out.update({"sample": len(sample), "co_terms": score_terms(index, analyzer, together, set(asked), limit)})
    return out


def _session_names(index) -> list[str]:
    return index.strings["sessions"]


def _sessions_of(index, docs) -> Counter:
    codes = index.cols["session"][np.asarray(docs, dtype=np.int64)] if len(docs) else []
    names = _session_names(index)
    out: Counter = Counter()
    for code, n in Counter(int(c) for c in codes).items():
        name = names[code] if 0 <= code < len(names) else ""
        if name and name.lower() != "unknown":
            out[name] += n
    return out


def _session_rows(index, sessions: dict[str, float], docs_by: dict[str, int], limit: int) -> list[dict]:
    """The `limit` best sessions with their last document's time and project."""
    ts, codes, names = index.cols["ts"], index.cols["session"], _session_names(index)
    wanted = {name: i for i, name in enumerate(names) if name in sessions}
    last: dict[str, float] = {}
    projects: dict[str, str] = {}
    if wanted:
        mask = np.isin(codes, np.fromiter(wanted.values(), dtype=codes.dtype))
        for doc in np.nonzero(mask)[0]:
            name = names[int(codes[doc])]
            stamp = float(ts[doc])
            if stamp == stamp and stamp > last.get(name, float("-inf")):
                last[name] = stamp
                projects[name] = index.strings["projects"][int(index.cols["project"][doc])]
    ranked = sorted(sessions.items(), key=lambda kv: (-kv[1], -last.get(kv[0], 0.0), kv[0]))
    return [{"session_id": sid, "score": round(score, 4), "documents": docs_by.get(sid, 0),
             "project": projects.get(sid) or None,
             "last": format_timestamp(datetime.fromtimestamp(last[sid], timezone.utc)) if sid in last else None}
            for sid, score in ranked[:limit]]


def related_to_docs(index, analyzer, terms: list[str], docs, limit: int) -> dict:
    """Co-terms and sessions of the documents `docs` that hold `terms`."""
    sample = sorted(int(d) for d in docs[-CO_SAMPLE:])
    together: Counter = Counter()
    for row in index.rows(sample):
        together.update(set(analyzer.terms(row_text(row))) - set(terms))
    weight = sum(_idf(index, index.df(t)) for t in terms) or 1.0
    per_session = _sessions_of(index, docs)
    sessions = {sid: n * weight for sid, n in per_session.items()}
    return {"documents": int(len(docs)), "sample": len(sample),
            "co_terms": score_terms(index, analyzer, together, set(terms), limit),
            "sessions": _session_rows(index, sessions, per_session, limit)}


def related_to_session(index, analyzer, session_id: str, limit: int) -> dict:
    names = _session_names(index)
    try:
        code = names.index(session_id)
    except ValueError:
        raise RelatedError(f"no document of session {session_id} in the index") from None
    docs = np.nonzero(index.cols["session"] == code)[0]
    docs = docs[np.asarray(index.cols["alive"])[docs].astype(bool)]
    sample = sorted(int(d) for d in docs[-CO_SAMPLE:])
    counts: Counter = Counter()
    for row in index.rows(sample):
        counts.update(analyzer.terms(row_text(row)))
    top = score_terms(index, analyzer, counts, set(), max(limit, SESSION_TERMS))
    scores: dict[str, float] = defaultdict(float)
    shared: Counter = Counter()
    held = []  # the documents holding a shared term: one holding two of them counts once
    for entry in top[:SESSION_TERMS]:
        idf = _idf(index, entry["df"])
        own = index.own_docs(entry["term"])[-TERM_DOCS:]
        held.append(np.asarray(own, dtype=np.int64))
        for sid in _sessions_of(index, own):
            if sid != session_id:
                scores[sid] += idf
                shared[sid] += 1
    hits = _sessions_of(index, np.unique(np.concatenate(held))) if held else Counter()
    return {"documents": int(len(docs)), "sample": len(sample), "co_terms": top[:limit],
            "sessions": [{**row, "shared_terms": shared[row["session_id"]]}
                         for row in _session_rows(index, dict(scores), dict(hits), limit)]}


def query_kind(query: str) -> str:
    """`file` for a path (a slash, an existing file, a name with an extension), else `term` (a
    session id is recognised by the caller, which can look it up in the home)."""
    name = os.path.basename(query.rstrip("/"))
    if "/" in query or os.path.isfile(query) or re.match(r"^[^\s.][^\s]*\.[A-Za-z0-9]{1,10}$", name):
        return "file"
    return "term"


def related(engine, query: str, *, kind: str, limit: int = 20) -> dict:
    """`carto related`: `kind` is `term`, `file` (a path: its base name's words, documents naming
    it) or `session` (a full session id). RelatedError when there is nothing to look up."""
    engine.refresh()
    index = engine.index
    analyzer = index.analyzer or engine.analyzer
    query = query.strip()
    if not query:
        raise RelatedError("nothing to relate: give a term, a file or a session")
    out = {"query": query, "kind": kind, "index_generation": index.generation,
           "documents_total": int(index.n_alive)}
    if kind == "session":
        out.update({"session_id": query, **related_to_session(index, analyzer, query, limit)})
        return _with_words(index, analyzer, out)
    name = os.path.basename(query.rstrip("/")) if kind == "file" else query
    terms = list(dict.fromkeys(analyzer.terms(name)))
    if not terms:
        raise RelatedError(f"{query!r} holds no indexable word")
    docs = holders(index, terms)
    if kind == "file" and len(docs):
        recent = [int(d) for d in docs[-TERM_DOCS:]]
        docs = np.asarray([d for d, row in zip(recent, index.rows(recent)) if name in row_text(row)], dtype=np.int64)
    out.update({"terms": terms, **related_to_docs(index, analyzer, terms, docs, limit)})
    return _with_words(index, analyzer, out)


def _with_words(index, analyzer, out: dict) -> dict:
    """Each co-term's `word`, as the explorer's `/api/terms/co` gives it: an index term is a stem
    ("decim", "modifi"), and a person reads, and types into a search, the word ("decimal"). The
    CLI and the MCP tool answer the same document."""
    from carto_core.search.surface import surface_words

    said = surface_words(index, analyzer, [t["term"] for t in out["co_terms"]])
    for entry in out["co_terms"]:
        entry["word"] = said[entry["term"]]
    return out
