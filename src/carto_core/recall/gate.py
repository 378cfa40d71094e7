"""Which of the prompt's words the recall searches for, and when a result is relevant enough
to show. The constants are chosen by measurement on the conversational-recall set and a set of
generic prompts (`carto_core.evaluation.promptrecall`; figures and the choice in
docs/ranking.md, "Prompt recall").

Key terms: the prompt's analysed terms that the index holds, rarest first, without the common
ones (in more than `KEY_DF_SHARE` of the documents, and more than `KEY_DF_FLOOR` of them: on a
small home every word is rare), at most `KEY_TERMS` of them and `KEY_POSTINGS` postings in all.
A prompt is mostly common words ("can you run the tests again"); the search is then the
engine's search for what is specific in it, and its cost is bounded.

Gate: a result is shown only when its own text holds at least `MIN_TERMS` key terms that are,
together, unlikely to meet by chance: the sum of their idf exceeds ln(1 + N) by `MARGIN` (the
expected number of documents holding that combination, were words independent, is below
e^-MARGIN; a single word cannot clear it, however rare), and they carry at least `COVERAGE` of
the key terms' idf; a second or third result is shown only when its score is at least `FOLLOW`
of the first's. Measured: MARGIN 1.0-2.0 give the same answers, 3.0 starts losing right ones,
below 1.0 a generic prompt speaks (0.5: precision 0.90, 0: 0.89); 1.5 is the middle. FOLLOW
0.8 keeps a weak second snippet out (without it precision falls from 0.925 to 0.833, and from
1.0 to 0.58 on dialogue variant c); COVERAGE 0.5 then buys no precision (0.917) and answers
about 10 % fewer questions (a multi-hop question names two facts and each evidence turn holds
the words of one), so it is off.

Home size: on a small home every word is rare, so two everyday words a generic prompt shares
with an everyday turn ("run the tests again", "analyze this codebase and write docs" against a
year-old `/init` turn) clear the margin. So a result that is what a person said (a prompt, a
turn) or a row of another project than the current one must also hold `MIN_SPECIFIC` key term
that is not an everyday instruction word (`generic_terms`: the software process's vocabulary
and English stop words, no application domain); the current project's work rows (edits,
commits, research, wrapups) need only the margin. Measured (docs/recall.md, "A gate that holds
back at every home size"): every generic prompt of four sets silent at 30, 1k, 20k and 200k
events, where without the rule 10-15 of the 120 spoke at every size; on the conversational set one
question of 156 fewer answered, precision unchanged.

Stdlib only.
"""

from __future__ import annotations

import math

KEY_DF_SHARE = 0.02
KEY_DF_FLOOR = 50
KEY_TERMS = 12
KEY_POSTINGS = 60_000
MARGIN = 1.5
COVERAGE = 0.0
MIN_TERMS = 2
#: A second or third snippet is shown only when its score is at least this share of the first's.
FOLLOW = 0.8
#: Key terms a result holds that are not everyday instruction words (`generic_terms`).
MIN_SPECIFIC = 1


class Gate:
    """The gate's parameters (defaults: the measured ones); the evaluation sweeps them."""

    def __init__(self, *, share: float = KEY_DF_SHARE, floor: int = KEY_DF_FLOOR,
                 terms: int = KEY_TERMS, postings: int = KEY_POSTINGS, margin: float = MARGIN,
                 coverage: float = COVERAGE, min_terms: int = MIN_TERMS,
                 follow: float = FOLLOW, min_specific: int = MIN_SPECIFIC):
        self.share, self.floor, self.terms, self.postings = share, floor, terms, postings
        self.margin, self.coverage, self.min_terms = margin, coverage, min_terms
        self.follow, self.min_specific = follow, min_specific

    def key_terms(self, view, terms: list[str]) -> list[tuple[str, int]]:
        """(term, df) of the key terms, rarest first (ties: the prompt's order)."""
        from carto_core.search.tokens import term_hash

        n_docs = view.stats()[0]
        cap = max(self.share * n_docs, self.floor)
        found = []
        for position, term in enumerate(dict.fromkeys(terms)):
            postings = view.postings(term_hash(term))
            if postings is not None and len(postings[0]) <= cap:
                found.append((len(postings[0]), position, term))
        found.sort()
        out, total = [], 0
        for df, _, term in found[: self.terms]:
            if total + df > self.postings:
                break
            total += df
            out.append((term, df))
        return out

    def held(self, view, doc: int, stats) -> list:
        """The key terms (`lite.TermStats`) the document's own text holds."""
        import bisect

        from carto_core.search.index_view import TF_SCALE

        out = []
        for term in stats:
            i = bisect.bisect_left(term.docs, doc)
            if i < len(term.docs) and term.docs[i] == doc and term.tfs[i] >= TF_SCALE:
                out.append(term)
        return out

    def evidence(self, view, doc: int, stats, n_docs: int) -> tuple[float, float, list]:
        """(margin, coverage, held terms) of a document."""
        held = self.held(view, doc, stats)
        mass = math.fsum(max(0.0, t.idf) for t in held)
        total = math.fsum(max(0.0, t.idf) for t in stats) or 1.0
        return mass - math.log1p(n_docs), mass / total, held

    def clears(self, margin: float, coverage: float, held: list, specific: int | None = None) -> bool:
        """`specific`: how many of the held terms are not everyday instruction words (None: not
        counted)."""
        return (len(held) >= self.min_terms and margin >= self.margin and coverage >= self.coverage
                and (specific is None or specific >= self.min_specific))


_GENERIC: dict[str, frozenset[str]] = {}


def generic_terms(analyzer) -> frozenset[str]:
    """The analyzer's terms of the words of everyday instructions to a coding agent
    (`generic_words.txt`: the software process's vocabulary and English stop words, written by
    benchmarks/recall/generic_words.py): what a prompt made of them alone asks is nothing
    earlier work can answer, at any home size."""
    signature = getattr(analyzer, "signature", "")
    found = _GENERIC.get(signature)
    if found is None:
        from pathlib import Path

        text = Path(__file__).with_name("generic_words.txt").read_text("utf-8")
        words = [line for line in text.splitlines() if line and not line.startswith("#")]
        found = _GENERIC[signature] = frozenset(analyzer.terms(" ".join(words)))
    return found
