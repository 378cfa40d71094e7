"""How things are now, on a question's first page: a question that asks how something stands
now ("Where does Dad live now?", "What am I using for my ears at the moment?") is answered by
the turn that tells the change ("Swapped a single aid for a TV listener headset"), and the
rows beside it on the page talk about the topic without saying how it stands ("My ears ring
all the time"). Of the first `PAGE` results, the conversation turns that say how things are
now (the analyzer's `says_how_things_are_now`) weigh `LIFT` more in their order, so a change
told under the first ten can join them; those results keep their rows and their scores
(docs/ranking.md, "How things are now").
"""

from __future__ import annotations

from carto_core.search.answers import turn_codes
from carto_core.search.api import Fused
from carto_core.search.nearness import page_reordered

#: How much more a turn that says how things are now weighs in the order of the first
#: results, and how many of them are read: fifty, not the ten of a page (a turn telling the
#: change, ranked under the first page beside talk of the topic, was never reached).
LIFT = 0.3
PAGE = 50


def current_first(engine, fused: list[Fused], page: int = PAGE,
                  read: dict | None = None) -> list[Fused]:
    """`fused` (best first, for a question asking how things are now) with its first `page`
    results ordered by score x (1 + `LIFT`) for a turn that says how things are now
    (`page_reordered`: those results keep their rows and scores; `read`: the rows the search
    read already)."""
    top = fused[:page]
    if len(top) < 2:
        return fused
    codes = turn_codes()  # a person's own words about their life, not an instruction
    source = engine.index.cols["source"]
    says = engine.analyzer.says_how_things_are_now
    rows = engine.index.rows([f.index for f in top], read)
    weight = [1.0 + LIFT if int(source[f.index]) in codes and says(str((row or {}).get("summary")
                                                                          or "")) else 1.0
              for f, row in zip(top, rows)]
    if all(w == 1.0 for w in weight):
        return fused
    weighed = {id(f): f.score * w for f, w in zip(top, weight)}
    return page_reordered(fused, page, lambda f: weighed[id(f)])
