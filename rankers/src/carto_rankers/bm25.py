"""The BM25 keyword ladder over the engine's persisted posting lists.

k1 1.2, b 0.75; idf `ln((N - df + .5) / (df + .5))` clamped at 0 (a term in more than about
half the documents adds nothing); N, df and the average length are those of the whole
event_id-deduplicated corpus, never of the scope. Scores are computed for the query's postings
only, the scope mask is applied, and the result is bucketed per source log: one ladder per log,
each ranked within itself and cut to depth (upstream's API fuses one keyword ladder per log).
"""

from __future__ import annotations

import math

from carto_core.search.api import DEPTH, Ladder, Query, Ranker, Scope


class BM25Ranker(Ranker):
    name = "bm25"
    description = "Okapi BM25 over summaries (k1 1.2, b 0.75), one ladder per source log"
    k1 = 1.2
    b = 0.75

    def ladder_name(self, label: str) -> str:
        # The default keyword ranker's ladders are named after their logs, so a result's
        # sources read `tool-use+semantic` as upstream's did; other keyword rankers prefix.
        return label if self.name == "bm25" else f"{self.name}:{label}"

    def score(self, query: Query, engine):
        """(candidates, scores, counts): every document holding at least one query token,
        increasing, with its BM25 score and how many distinct query tokens it holds.

        Three paths, same numbers: one posting list is its own answer; a few short lists are
        merged by sorting their union; long lists are scattered into dense per-document arrays
        (cheaper than sorting once the postings are a sizeable share of the corpus)."""
        import numpy as np

        index = engine.index
        n_docs = len(index)
        big_n = index.n_alive
        avgdl = index.avgdl or 1.0
        k1, b = self.k1, self.b
        c1 = np.float32(k1 * (1.0 - b))
        c2 = np.float32(k1 * b / avgdl)
        k1p1 = np.float32(k1 + 1.0)
        parts: list[tuple] = []  # (docs, weights, token number)
        for number, token in enumerate(query.tokens):
            plists = index.postings(token)
            df = sum(len(p[0]) for p in plists)
            if not df:
                continue
            idf = math.log((big_n - df + 0.5) / (df + 0.5)) if big_n else 0.0
            for docs, tfs, dls in plists:
                if idf > 0:
                    tf = tfs.astype(np.float32)
                    weights = np.float32(idf) * k1p1 * tf / (tf + (c1 + c2 * dls))
                else:
                    weights = np.zeros(len(docs), np.float32)
                parts.append((docs, weights, number))
        if not parts:
            return np.zeros(0, np.int64), np.zeros(0, np.float32), np.zeros(0, np.uint8)
        if len(parts) == 1:
            docs, weights, _ = parts[0]
            return np.asarray(docs, np.int64), weights, np.ones(len(docs), np.uint8)
        total = sum(len(p[0]) for p in parts)
        if total * 16 < n_docs:
            all_docs = np.concatenate([p[0] for p in parts])
            cand, inverse = np.unique(all_docs, return_inverse=True)
            scores = np.bincount(inverse, np.concatenate([p[1] for p in parts]), len(cand))
            counts = np.bincount(inverse, minlength=len(cand))
            return cand.astype(np.int64), scores.astype(np.float32), counts
        scores = np.zeros(n_docs, np.float32)
        counts = np.zeros(n_docs, np.uint8)
        for docs, weights, _ in parts:
            counts[docs] += 1
            scores[docs] += weights
        cand = np.flatnonzero(counts)
        return cand, scores[cand], counts[cand]

    def rank(self, query: Query, scope: Scope, engine, *, depth: int = DEPTH) -> list[Ladder]:
        import numpy as np

        from carto_core.search.index import LOG_LABELS

        index = engine.index
        cand, cand_scores, counts = self.score(query, engine)
        if not len(cand):
            return []
        ntok = len(query.tokens)
        hidden = 0
        if scope.mask is not None:
            allowed = scope.mask[cand]
            if scope.served_ids:
                hidden = _served_matches(engine, scope, cand[cand_scores > 0])
            cand, cand_scores, counts = cand[allowed], cand_scores[allowed], counts[allowed]
        holds = counts == ntok
        all_matches = int(holds.sum())
        positive = cand_scores > 0
        cand, cand_scores, holds = cand[positive], cand_scores[positive], holds[positive]
        sources = np.asarray(index.cols["source"])[cand]
        ladders = []
        present = np.bincount(sources, minlength=len(LOG_LABELS))  # O(n), no sort
        for code in np.flatnonzero(present).tolist():
            if present[code] == len(cand):
                docs, s, h = cand, cand_scores, holds
            else:
                sel = sources == code
                docs, s, h = cand[sel], cand_scores[sel], holds[sel]
            if len(docs) > depth:
                keep = np.argpartition(-s, depth - 1)[:depth]
                docs, s, h = docs[keep], s[keep], h[keep]
            order = np.lexsort((docs, -s))
            ladders.append(Ladder(self.ladder_name(LOG_LABELS[code]), docs[order],
                                  s[order].astype(np.float64), h[order], self.name, all_matches, 0))
        if ladders:
            ladders[0].hidden = hidden
        elif hidden:
            # Everything that matched was served already: an empty ladder carries the count.
            ladders.append(Ladder(self.name, np.zeros(0, np.int64), np.zeros(0), None, self.name,
                                  all_matches, hidden))
        return ladders


def _served_matches(engine, scope: Scope, matched) -> int:
    """How many served documents hold a positive score (delta serving hid them)."""
    import numpy as np

    positions = [engine.index_of(e) for e in scope.served_ids]
    positions = np.asarray([p for p in positions if p is not None], np.int64)
    return int(np.isin(positions, matched).sum()) if len(positions) else 0
