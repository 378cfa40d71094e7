"""Reciprocal rank fusion: `sum over ladders of 1 / (k + rank)`, k = 60, rank 1-based, one
contribution per (ladder, event); then multiplied once by the event's salience (clamped to
0.05..1, default 0.5 when missing or 0), as upstream's API does."""

from __future__ import annotations

from carto_core.search.api import RRF_K, Fused, Fusion, Ladder


class RRFFusion(Fusion):
    name = "rrf"
    description = "reciprocal rank fusion (k 60) x salience"
    k = RRF_K

    def fuse(self, ladders: list[Ladder], engine) -> list[Fused]:
        import numpy as np

        from carto_core.search.pipeline import salience_of

        merged: dict[int, Fused] = {}
        for ladder in ladders:
            holds = ladder.holds_all
            seen: set[int] = set()
            for position, index in enumerate(ladder.indices.tolist()):
                if index in seen:  # one contribution per (ladder, event)
                    continue
                seen.add(index)
                fused = merged.get(index)
                if fused is None:
                    fused = merged[index] = Fused(index=index, score=0.0)
                fused.score += 1.0 / (self.k + position + 1)
                fused.sources.append(ladder.name)
                fused.ranks[ladder.name] = position + 1
                if holds is not None and holds[position]:
                    fused.holds_all_tokens = True
        if not merged:
            return []
        cols = engine.index.cols
        positions = np.fromiter(merged, np.int64, len(merged))
        salience = np.asarray(cols["salience"])[positions].tolist()
        stamps = np.asarray(cols["ts"])[positions].tolist()
        out = []
        for fused, sal, ts in zip(merged.values(), salience, stamps):
            fused.salience = salience_of(sal)
            fused.score *= fused.salience
            fused.fused_score = fused.score
            fused.timestamp = None if ts != ts else ts
            out.append(fused)
        return out
