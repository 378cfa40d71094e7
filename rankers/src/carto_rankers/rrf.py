"""Reciprocal rank fusion: `sum over ladders of 1 / (k + rank)`, k = 60, rank 1-based, one
contribution per (ladder, event); then multiplied once by the event's salience (clamped to
0.05..1, default 0.5 when missing or 0), as upstream's API does."""

from __future__ import annotations

from carto_core.search.api import (
    RRF_K,
    SALIENCE_DEFAULT,
    SALIENCE_MAX,
    SALIENCE_MIN,
    Fused,
    Fusion,
    Ladder,
)


class RRFFusion(Fusion):
    name = "rrf"
    description = "reciprocal rank fusion (k 60) x salience"
    k = RRF_K

    def fuse(self, ladders: list[Ladder], engine) -> list[Fused]:
        import numpy as np

        ladders = [ladder for ladder in ladders if len(ladder)]
        if not ladders:
            return []
        firsts, contribs, holds, spans = [], [], [], []
        for ladder in ladders:
            indices = np.asarray(ladder.indices, np.int64)
            # One contribution per (ladder, event): a repeated index keeps its first rank.
            _, first = np.unique(indices, return_index=True)
            first.sort()
            ranks = first + 1
            firsts.append(indices[first])
            contribs.append(1.0 / (self.k + ranks))
            flags = ladder.holds_all
            holds.append(np.asarray(flags)[first] if flags is not None else np.zeros(len(first), bool))
            spans.append((ladder.name, ranks))
        all_idx = np.concatenate(firsts)
        uniq, inverse = np.unique(all_idx, return_inverse=True)
        rrf = np.bincount(inverse, np.concatenate(contribs), len(uniq))
        held = np.bincount(inverse, np.concatenate(holds).astype(np.float64), len(uniq)) > 0
        cols = engine.index.cols
        salience = np.asarray(cols["salience"], np.float64)[uniq]
        salience = np.where(np.isnan(salience) | (salience == 0), SALIENCE_DEFAULT,
                            np.clip(salience, SALIENCE_MIN, SALIENCE_MAX))
        score = rrf * salience
        stamps = np.asarray(cols["ts"])[uniq]
        out = [Fused(index=i, score=sc, fused_score=sc, holds_all_tokens=h, salience=sa,
                     timestamp=None if t != t else t, sources=[], ranks={})
               for i, sc, h, sa, t in zip(uniq.tolist(), score.tolist(), held.tolist(),
                                          salience.tolist(), stamps.tolist())]
        position = 0
        for name, ranks in spans:
            for slot, rank in zip(inverse[position:position + len(ranks)].tolist(), ranks.tolist()):
                fused = out[slot]
                fused.sources.append(name)
                fused.ranks[name] = rank
            position += len(ranks)
        return out
