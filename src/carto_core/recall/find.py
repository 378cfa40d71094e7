"""Prompt → the results worth showing: key terms, the engine's ranking, the gate.

`find(view, components, prompt, ...)` returns the first `limit` results, in the order of the
engine's ranking (`carto_core.search.lite`: fusion and decay of `carto search`), whose own text
clears the gate and says something the prompt does not (an earlier identical prompt is an echo,
not a memory); documents of the current session and ids already served to it are out of
scope before anything is ranked. Stdlib only.
"""

from __future__ import annotations

from carto_core.recall.gate import Gate


class Recalled:
    """One result to show: its document, row and why it cleared the gate."""

    __slots__ = ("doc", "event_id", "row", "score", "margin", "coverage", "held")

    def __init__(self, doc, event_id, row, score, margin, coverage, held):
        self.doc, self.event_id, self.row, self.score = doc, event_id, row, score
        self.margin, self.coverage, self.held = margin, coverage, held


class Found:
    def __init__(self, key_terms: list[tuple[str, int]], results: list[Recalled], ranked: int,
                 ms: float):
        self.key_terms = key_terms
        self.results = results
        self.ranked = ranked
        self.ms = ms


def find(view, components, prompt: str, *, session_id: str = "", served_ids=(), now=None,
         limit: int = 3, gate: Gate | None = None, accesses: dict | None = None,
         scan: int = 60, skip=None) -> Found:
    """The results to show for `prompt` (at most `limit`; `scan`: how far down the ranking
    the gate looks; `skip`: a predicate on rows that are never shown, nor set the bar for the
    next ones)."""
    from carto_core.recall.snippet import row_text
    from carto_core.search import lite

    gate = gate or Gate()
    key = gate.key_terms(view, lite.query_terms(components, prompt))
    if len(key) < gate.min_terms or not key:
        return Found(key, [], 0, 0.0)
    result = lite.search(view, components, prompt, terms=[term for term, _ in key],
                         exclude_sessions=frozenset({session_id}) if session_id else frozenset(),
                         served_ids=served_ids, now=now, accesses=accesses)
    asked = set(lite.query_terms(components, prompt))
    out: list[Recalled] = []
    shown: set[str] = set()
    for fused in result.ranked[:scan]:
        margin, coverage, held = gate.evidence(view, fused.index, result.terms, result.n_docs)
        if out and fused.score < gate.follow * out[0].score:
            break  # the rest rank too far below the first result
        if not gate.clears(margin, coverage, held):
            continue
        row = view.row(fused.index)
        if _echo(components, row, asked) or (skip is not None and skip(row)):
            continue
        # as `carto search` folds a repeated text into its best-ranked copy: three copies of
        # one line would fill the three places
        text = row_text(row)
        if text and text in shown:
            continue
        shown.add(text)
        out.append(Recalled(fused.index, view.event_id(fused.index), row, fused.score,
                            margin, coverage, [t.term for t in held]))
        if len(out) >= limit:
            break
    return Found(key, out, len(result.ranked), result.ms)


def _echo(components, row: dict, asked: set[str]) -> bool:
    """True when the row says nothing the prompt does not (an earlier "thanks, looks good"
    found by "thanks, looks good"): every term of its text is one of the prompt's."""
    from carto_core.recall.snippet import row_text

    terms = set(components.analyzer.query(row_text(row)).terms)
    return terms <= asked
