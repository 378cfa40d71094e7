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
        """(scores, counts, touched docs) over every document: BM25 score and how many
        distinct query tokens each document holds; `touched` lists the documents that hold
        at least one token."""
        import numpy as np

        index = engine.index
        n_docs = len(index)
        big_n = index.n_alive
        avgdl = index.avgdl or 1.0
        k1, b = self.k1, self.b
        scores = np.zeros(n_docs, np.float64)
        counts = np.zeros(n_docs, np.uint8)
        doclen = index.cols["doclen"]
        touched = []
        for token in query.tokens:
            plists = index.postings(token)
            df = sum(len(docs) for docs, _ in plists)
            if not df:
                continue
            idf = math.log((big_n - df + 0.5) / (df + 0.5)) if big_n else 0.0
            for docs, tfs in plists:
                counts[docs] += 1
                touched.append(docs)
                if idf <= 0:
                    continue
                tf = tfs.astype(np.float64)
                norm = k1 * (1.0 - b) + (k1 * b / avgdl) * doclen[docs]
                scores[docs] += idf * (k1 + 1.0) * tf / (tf + norm)
        total = sum(len(t) for t in touched)
        if not total:
            touched_docs = np.zeros(0, np.int64)
        elif len(touched) == 1:
            touched_docs = np.asarray(touched[0], np.int64)
        elif total * 8 > n_docs:
            # Long posting lists: one linear pass over the counts beats sorting them.
            touched_docs = np.flatnonzero(counts)
        else:
            touched_docs = np.unique(np.concatenate(touched))
        return scores, counts, touched_docs

    def rank(self, query: Query, scope: Scope, engine, *, depth: int = DEPTH) -> list[Ladder]:
        import numpy as np

        from carto_core.search.index import LOG_LABELS

        index = engine.index
        scores, counts, cand = self.score(query, engine)
        if not len(cand):
            return []
        ntok = len(query.tokens)
        if scope.mask is not None:
            allowed = scope.mask[cand]
            if scope.served_ids:
                # How many served documents would have matched (for the "suppressed" note).
                hidden = _served_matches(engine, scope, scores)
            else:
                hidden = 0
            cand = cand[allowed]
        else:
            hidden = 0
        holds = counts[cand] == ntok
        all_matches = int(holds.sum())
        cand_scores = scores[cand]
        positive = cand_scores > 0
        cand, cand_scores, holds = cand[positive], cand_scores[positive], holds[positive]
        sources = np.asarray(index.cols["source"])[cand]
        ladders = []
        for code in np.unique(sources).tolist():
            sel = sources == code
            docs, s, h = cand[sel], cand_scores[sel], holds[sel]
            if len(docs) > depth:
                keep = np.argpartition(-s, depth - 1)[:depth]
                docs, s, h = docs[keep], s[keep], h[keep]
            order = np.lexsort((docs, -s))
            ladders.append(Ladder(self.ladder_name(LOG_LABELS[code]), docs[order].astype(np.int64),
                                  s[order], h[order], self.name, all_matches, 0))
        if ladders:
            ladders[0].hidden = hidden
        elif hidden:
            # Everything that matched was served already: an empty ladder carries the count.
            ladders.append(Ladder(self.name, np.zeros(0, np.int64), np.zeros(0), None, self.name,
                                  all_matches, hidden))
        return ladders


def _served_matches(engine, scope: Scope, scores) -> int:
    count = 0
    for event_id in scope.served_ids:
        position = engine.index_of(event_id)
        if position is not None and scores[position] > 0:
            count += 1
    return count
