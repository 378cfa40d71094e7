"""The page ordered by how near each result is (`Fusion.closeness_page`): after the decay,
the first results take the page's scores again in the order of their `Fused.nearer` times what
the decay made of each. Which rows are on the page, and its scores, stay as rank fusion and the
decay made them (docs/ranking.md, "How near, on the first page")."""

from __future__ import annotations

from carto_core.search.api import Fused


def nearest_first(fused: list[Fused], page: int) -> list[Fused]:
    """`fused` (best first) with its first `page` results ordered by nearness: each one's
    `nearer` times its score over its fused score (the decay's part). Unchanged when one of
    them has no `nearer` (no ladder said how near) or the page holds fewer than two."""
    top = fused[:page]
    if len(top) < 2 or any(f.nearer is None for f in top):
        return fused

    def nearness(f: Fused) -> float:
        return f.nearer * (f.score / f.fused_score if f.fused_score else 1.0)

    return page_reordered(fused, page, nearness)


def page_reordered(fused: list[Fused], page: int, key) -> list[Fused]:
    """`fused` (best first) with its first `page` results ordered by `key`, highest first,
    ties in the order they had; they are given the page's scores in that order, so the page
    keeps its rows and its scores."""
    top = fused[:page]
    scores = [f.score for f in top]
    order = sorted(top, key=key, reverse=True)
    for result, score in zip(order, scores):
        result.score = score
    return order + fused[page:]
