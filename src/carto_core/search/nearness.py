"""The page ordered by how near each result is (`Fusion.closeness_page`): after the decay,
the first results take the page's scores again in the order of their `Fused.nearer` times what
the decay made of each. Which rows are on the page, and its scores, stay as rank fusion and the
decay made them (docs/ranking.md, "How near, on the first page")."""

from __future__ import annotations

from carto_core.search.api import Fused


def nearest_first(fused: list[Fused], page: int) -> list[Fused]:
    """`fused` (best first) with its first `page` results ordered by nearness: each one's
    `nearer` times its score over its fused score (the decay's part), ties in the order they
    had; they are given the same scores, highest first. Unchanged when one of them has no
    `nearer` (no ladder said how near) or the page holds fewer than two."""
    top = fused[:page]
    if len(top) < 2 or any(f.nearer is None for f in top):
        return fused
    scores = [f.score for f in top]

    def nearness(f: Fused) -> float:
        return f.nearer * (f.score / f.fused_score if f.fused_score else 1.0)

    order = sorted(top, key=nearness, reverse=True)
    for result, score in zip(order, scores):
        result.score = score
    return order + fused[page:]
