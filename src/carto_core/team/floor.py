"""Whether the team's rows found anything: the relevance floor (carto_core.search.floor) over
what the server returned.

A search with `--team` whose home found nothing is answered by the team's rows alone, and the
server always ranks something: a row holding one common word of the query, and the nearest
vectors above the model's `min_score`. So the team's rows are judged as the home's
candidates are (`floor.judge`): a keyword row is evidence when it holds `COVERAGE` of the
query's idf mass (the team's counts), a vector row from the embedder's evidence floor when it is
a turn of a conversation and from its band when it is a record that holds a word of the query
(one the server's keyword side returned) or a prompt (the band itself: how many records the
team holds is the server's, so none is judged as a home of few records). The
second look in the band (minilm's alignment of the words the home never holds) reads the home's
index, which holds neither the team's words nor its rows, so it is not asked: a turn in the
band counts, as it did before the band.

Only the rows the server returned are judged (its fused list: twice the page, at least 20),
and only when the home's own search found nothing: once one candidate is evidence the page is
the one fusion ranked, as for one home.
"""

from __future__ import annotations

from carto_core.search.floor import FloorReport, judge


def team_verdict(answer: dict, floors: tuple[float | None, float | None], *,
                 enabled: bool = True) -> FloorReport:
    """The floor's verdict on `answer` (`team.search.run`: its hits and their `evidence`,
    (keyword coverage, cosine) per hit). `floors`: the team vector ladder's evidence floor and
    band on the query's scale ((None, None): the model states none, every row is evidence)."""
    import numpy as np

    from carto_core.search.answers import TURN_LOGS
    from carto_core.search.api import Ladder

    hits, marks = answer.get("hits") or [], answer.get("evidence") or []
    floor, band = floors
    ladders = []
    covered = [(n, cov) for n, (cov, _) in enumerate(marks) if cov is not None]
    if covered:
        indices = np.asarray([n for n, _ in covered], np.int64)
        coverage = np.asarray([float(cov) for _, cov in covered])
        ladders.append(Ladder("team-keyword", indices, coverage, coverage=coverage))
    near = [(n, cos) for n, (_, cos) in enumerate(marks) if cos is not None]
    if near:
        ladders.append(Ladder("team-vector", np.asarray([n for n, _ in near], np.int64),
                              np.asarray([float(cos) for _, cos in near]), evidence_floor=floor,
                              evidence_band=band))
    turns = np.asarray([hit[6] in TURN_LOGS for hit in hits], bool)
    # the rows holding a word of the query (the server's keyword side returned them), and
    # prompts, a person's words, as for one home (`search.pipeline`)
    worded = np.asarray([hit[6] == "prompts" for hit in hits], bool)
    worded[[n for n, cov in covered if cov]] = True
    return judge(ladders, len(hits), [floor] if floor is not None else [], enabled=enabled,
                 conversation=lambda indices: turns[np.asarray(indices, np.int64)],
                 holding=lambda indices: worded[np.asarray(indices, np.int64)])
