"""Prompt → the results worth showing: key terms, the engine's ranking, the gate.

`find(view, components, prompt, ...)` returns the first `limit` results, in the order of the
engine's ranking (`carto_core.search.lite`: fusion and decay of `carto search`), whose own text
clears the gate and says something the prompt does not (an earlier identical prompt is an echo,
not a memory); documents of the current session and ids already served to it are out of
scope before anything is ranked. What a person said (a prompt, a turn) and every row of another
project than the current one must also hold a key term that is not an everyday instruction
word (`gate.generic_terms`: the rule that keeps "run the tests again" silent on a home of 30
events as on one of 200k); the current project's results come first. Stdlib only.
"""

from __future__ import annotations

from carto_core.model.session import row_session
from carto_core.recall.gate import Gate
from carto_core.search.index_view import LOG_LABELS

#: The logs of what people said (a prompt; a turn, which starts with its prompt).
CONVERSATIONAL = frozenset({"prompts", "turns"})


class Recalled:
    """One result to show: its document, row and why it cleared the gate."""

    __slots__ = ("doc", "event_id", "row", "score", "margin", "coverage", "held", "own", "also")

    def __init__(self, doc, event_id, row, score, margin, coverage, held, own=True):
        self.doc, self.event_id, self.row, self.score = doc, event_id, row, score
        self.margin, self.coverage, self.held = margin, coverage, held
        #: Of the current project (or no project was given).
        self.own = own
        #: The ids of the rows of the same exchange given this one's place (served with it).
        self.also: list[str] = []


class Found:
    def __init__(self, key_terms: list[tuple[str, int]], results: list[Recalled], ranked: int,
                 ms: float):
        self.key_terms = key_terms
        self.results = results
        self.ranked = ranked
        self.ms = ms


def find(view, components, prompt: str, *, session_id: str = "", served_ids=(), now=None,
         limit: int = 3, gate: Gate | None = None, accesses: dict | None = None,
         scan: int = 60, skip=None, project: str = "", folder: str = "") -> Found:
    """The results to show for `prompt` (at most `limit`; `scan`: how far down the ranking
    the gate looks; `skip`: a predicate on rows that are never shown, nor set the bar for the
    next ones; `project`: the current project, whose results come first, each measured by
    FOLLOW against the first of its own project, and without which every row is its own;
    `folder`: the current project's folder: a project is a folder's last name, and a row
    recorded in another folder of the same name is another project's)."""
    from carto_core.recall.gate import generic_terms
    from carto_core.recall.snippet import row_text
    from carto_core.search import lite

    gate = gate or Gate()
    generic = generic_terms(components.analyzer) if gate.min_specific else frozenset()
    key = gate.key_terms(view, lite.query_terms(components, prompt))
    if len(key) < gate.min_terms or not key:
        return Found(key, [], 0, 0.0)
    result = lite.search(view, components, prompt, terms=[term for term, _ in key],
                         exclude_sessions=frozenset({session_id}) if session_id else frozenset(),
                         served_ids=served_ids, now=now, accesses=accesses)
    asked = set(lite.query_terms(components, prompt))
    here = project.casefold()
    cleared: list[Recalled] = []
    shown: set[str] = set()
    best = {True: None, False: None}  # the first score cleared, the current project's and any
    for fused in result.ranked[:scan]:
        own = not here or view.string("projects", fused.index).casefold() == here
        if own and here and folder and not _in_folder(view.row(fused.index).get("cwd"), folder):
            own = False
        bar = best[True] if own else best[False]
        if bar is not None and fused.score < gate.follow * bar:
            if best[True] is not None and fused.score < gate.follow * best[True]:
                break  # the rest rank too far below the first result (of this project too)
            continue
        margin, coverage, held = gate.evidence(view, fused.index, result.terms, result.n_docs)
        # what a person said (a prompt, a turn's question) and any other project's row must
        # name something an everyday instruction does not; the current project's work rows
        # need only the margin
        strict = not own or LOG_LABELS[view.cols["source"][fused.index]] in CONVERSATIONAL
        specific = sum(term.term not in generic for term in held) if strict else None
        if not gate.clears(margin, coverage, held, specific):
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
        found = Recalled(fused.index, view.event_id(fused.index), row, fused.score, margin,
                         coverage, [t.term for t in held], own)
        # a turn starts with the prompt it answers, and Claude Code's prompts are also in its
        # prompt history: the two rows are one exchange, given one place, as the turn (it
        # holds the answer too), where the first of them ranked
        asked_first = _one_exchange(cleared, found, text)
        if asked_first is not None:
            kept = cleared[asked_first]
            if len(text) > len(row_text(kept.row)):
                found.also = [*kept.also, kept.event_id]
                cleared[asked_first] = found
            else:
                kept.also.append(found.event_id)
            continue
        cleared.append(found)
        for group in {own, False}:  # an own result also sets the bar for any result
            if best[group] is None:
                best[group] = fused.score
        if sum(r.own for r in cleared) >= limit:
            break
    # the current project's results first, each part in the engine's order
    out = sorted(cleared, key=lambda r: not r.own)[:limit]
    return Found(key, out, len(result.ranked), result.ms)


def _in_folder(cwd, folder: str) -> bool:
    """A row recorded in `folder` (or below it), or that names no folder."""
    import os

    if not isinstance(cwd, str) or not cwd:
        return True
    path, folder = os.path.normpath(cwd), os.path.normpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _one_exchange(cleared: list[Recalled], found: Recalled, text: str) -> int | None:
    """The place among `cleared` of a row of the same exchange as `found` (a prompt and the
    turn that starts with it, of one session), or None."""
    from carto_core.recall.snippet import row_text

    session = row_session(found.row)
    if not text or not session:
        return None
    for place, other in enumerate(cleared):
        if row_session(other.row) != session:
            continue
        said = row_text(other.row)
        short, long = sorted((said, text), key=len)
        if short and long.startswith(short) and (len(long) == len(short)
                                                 or not long[len(short)].isalnum()):
            return place
    return None


def _echo(components, row: dict, asked: set[str]) -> bool:
    """True when the row says nothing the prompt does not (an earlier "thanks, looks good"
    found by "thanks, looks good"): every term of its text is one of the prompt's."""
    from carto_core.recall.snippet import row_text

    terms = set(components.analyzer.query(row_text(row)).terms)
    return terms <= asked
