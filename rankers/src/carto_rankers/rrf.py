"""Reciprocal rank fusion: `sum over ladders of 1 / (k + rank)`, k = 60, rank 1-based, one
contribution per (ladder, event); then multiplied once by the event's salience (clamped to
0.05..1, default 0.5 when missing or 0), as upstream's API does. `fuse` computes it with numpy
for `carto search`, `fuse_lite` with the standard library for the prompt-time recall; the
pipeline trims both (`carto_core.search.api.trim`)."""

from __future__ import annotations

from carto_core.api import (
    RRF_K, SALIENCE_DEFAULT, SEMANTIC, SALIENCE_MAX, SALIENCE_MIN, Fused, Fusion, Ladder, Query,
    row_salience,
)


def semantic_weight(default: float) -> float:
    """The semantic ladder's weight in fusion (CARTO_SEMANTIC_WEIGHT overrides)."""
    import os

    try:
        return float(os.environ.get("CARTO_SEMANTIC_WEIGHT") or default)
    except ValueError:
        return default


def is_semantic(ladder: Ladder) -> bool:
    """A ladder of the semantic ranker (a store's ladder may carry the name alone)."""
    return ladder.ranker == SEMANTIC or ladder.name == SEMANTIC


class RRFFusion(Fusion):
    name = "rrf"
    description = "reciprocal rank fusion (k 60) x salience"
    k = RRF_K
    #: 0: multiply by salience itself (upstream: a 0.2 tool row weighs a fifth of a 1.0
    #: wrapup); a > 0: by the bounded prior (1 + a * salience) / (1 + a).
    prior = 0.0
    #: The semantic ladder's share of fusion (keyword ladders: 1).
    semantic_share = 1.0
    #: Leave the semantic ladder out when some document holds every query term (a lookup or
    #: a vague topic): the keyword side then knows the answer, and nearest neighbours only
    #: bring in generic rows (measured: docs/ranking.md).
    semantic_gate = False
    #: > 0: a keyword contribution is multiplied by coverage ** power, the share of the
    #: query's idf mass the document holds. Each log's ladder puts *its* best partial match
    #: at rank 1, so a tool row holding one word of a five-word question ("Ran: terraform
    #: plan") weighed as much as the full match of another log; with coverage it weighs its
    #: share. A lookup's targets hold every term (coverage 1): unchanged.
    coverage_power = 0.0
    #: True: a semantic ladder's weight grows by its `uncovered_lift` (its embedder's) times
    #: the part of the query that no keyword candidate holds (1 - the best coverage of any
    #: keyword candidate): when every keyword match holds one word of five, the semantic
    #: ladder is the one ranking that read the whole question. wordllama's lift of 1 takes
    #: `semantic_share` 0.5 to 1.0 (a keyword ladder's weight) for a query no keyword
    #: candidate covers at all, and leaves it at 0.5 when some candidate holds every word
    #: (docs/ranking.md, "The semantic ladder weighs what the keyword side does not cover").
    semantic_uncovered = False
    #: True: a row that holds the query's topic (`Ladder.topic_holders`) is not out-ranked by
    #: a row holding less of it when the semantic ladder can never hold it
    #: (`Ladder.unseen_types`) or when the topic is every held word (the full matches): it
    #: is put just above the best of those (`unseen_topic_scores`).
    unseen_topic = False

    def ladder_weight(self, ladder: Ladder) -> float:
        if is_semantic(ladder):
            return semantic_weight(self.semantic_share)
        return 1.0

    def uncovered(self, ladders: list[Ladder]) -> float:
        """The share of the query's idf mass that no keyword candidate holds: 1 when no
        keyword ladder has a candidate, 0 when one does not tell its coverage (it may hold
        the whole query)."""
        import numpy as np

        best = 0.0
        for ladder in ladders:
            if is_semantic(ladder) or not len(ladder):
                continue
            if ladder.coverage is None:
                return 0.0
            best = max(best, float(np.max(ladder.coverage)))
        return max(0.0, 1.0 - best)

    def gated(self, ladders: list[Ladder], query: Query | None = None) -> list[Ladder]:
        if not self.semantic_gate or (query is not None and query.question):
            return ladders
        # a full match of the held words only (`Ladder.unheld`), or of the query's topic
        # (`Ladder.apart`), is not the query matched in full: the semantic ladder joins, and
        # the relevance floor judges as it did
        if any((l.all_token_matches or 0) > 0 and not l.unheld and not l.apart for l in ladders
               if l.ranker != SEMANTIC):
            return [l for l in ladders if not is_semantic(l)]
        return ladders

    def unseen_topic_scores(self, ladders: list[Ladder], uniq, score, engine, full=None,
                            nearer=None):
        """`score` with each candidate that holds the query's topic raised, when a row holding
        less of the topic scores higher, to just above the best of those (their order among
        themselves kept): a candidate of a type the semantic ladder never holds, and any
        candidate when the topic is the keyword ladders' full matches (`full`: the fused
        `holds_all`, every held word or the topic beside words held apart).

        The semantic ladder lifts the rows it holds; a row it can never hold ("Ran: kubectl
        preload fonts -n portal": minilm leaves tool rows to the keyword ladders) has only its
        keyword contribution, so any row holding one word of the topic that the semantic
        ladder ranks in its first tens went over it ("I looked at the fonts settings" above
        the newest row saying "preload fonts", past the tenth). One it never saw was not
        judged worse than them, and the keyword side holds it for more of the query.

        A row holding every word of the question the home holds, words that go together, is
        the keyword side's answer in full, as a lookup's full match is (where the semantic
        ladder is left out altogether). The semantic ladder does not judge it below a row
        holding one of those words: its first places go to the rows nearest the question
        as a whole, and one word that is a name fills them with that name's short rows
        ("Marco: Finally." and its copies over "How did your presentation to the board
        go?"). It still orders the full matches among themselves and every row below them.
        When no row holds every held word, the topic is the largest set rows hold together,
        and a set of common words can meet in a template more often than chance ("planning",
        "little", "one" in a greeting): there, rows the semantic ladder holds keep their
        fused order. Only a topic whose words go together (`topic_holders`): a question's
        words that meet by chance ("Maya" and "test") name no topic its holders answer.
        Nothing changes without a semantic ladder.

        `nearer` (the candidates' `Fused.nearer`, or None) is lifted by the same rule in its
        own scale for the rows of a type the semantic ladder never holds, and the pair is
        returned: ordering the page by nearness after the decay undid their lift otherwise (a
        tool row holding "preload fonts" back under the prompts saying "fonts"), though no
        cosine judged them. A full match the semantic ladder holds keeps its nearness: its
        cosine says how near it is (lifting it there too cost 9 dialogue and multi cases a
        place, docs/ranking.md)."""
        import numpy as np

        from carto_rankers.bm25 import _member

        semantic = [l for l in ladders if is_semantic(l)]
        unseen = [code for l in semantic for code in getattr(l, "unseen_types", ())]
        if not semantic or (not unseen and (full is None or not full.any())):
            return score, nearer
        topics = [l.topic_holders for l in ladders if getattr(l, "topic_holders", None) is not None]
        if not topics:
            return score, nearer
        holds = _member(topics[0], uniq)
        if holds.all():
            return score, nearer
        never_judged = np.zeros(len(uniq), bool)
        if unseen:
            kinds = np.asarray(engine.index.cols["type"])[uniq]
            never_judged = np.isin(kinds, unseen)
        unjudged = holds & never_judged
        rising = unjudged if full is None else unjudged | (holds & full)
        if not rising.any():
            return score, nearer
        return (_above_partial(score, holds, rising),
                nearer if nearer is None or not unjudged.any()
                else _above_partial(nearer, holds, unjudged))

    def weigh(self, salience):
        if not self.prior:
            return salience
        return (1.0 + self.prior * salience) / (1.0 + self.prior)

    def fuse(self, ladders: list[Ladder], engine, query: Query | None = None) -> list[Fused]:
        import numpy as np

        ladders = self.gated([ladder for ladder in ladders if len(ladder)], query)
        if not ladders:
            return []
        firsts, contribs, holds, spans = [], [], [], []
        near = [] if self.closeness_page and any(
            getattr(l, "closeness", 0.0) and l.scores is not None for l in ladders) else None
        uncovered = self.uncovered(ladders) if self.semantic_uncovered else 0.0
        for ladder in ladders:
            indices = np.asarray(ladder.indices, np.int64)
            # One contribution per (ladder, event): a repeated index keeps its first rank.
            _, first = np.unique(indices, return_index=True)
            first.sort()
            ranks = first + 1
            firsts.append(indices[first])
            weight = self.ladder_weight(ladder) / (self.k + ranks)
            if uncovered and ladder.uncovered_lift and is_semantic(ladder):
                weight = weight * (1.0 + ladder.uncovered_lift * uncovered)
            if self.coverage_power and ladder.coverage is not None:
                weight = weight * np.asarray(ladder.coverage, np.float64)[first] ** self.coverage_power
            contribs.append(weight)
            if near is not None:
                near.append(_nearness(ladder, first, weight))
            flags = ladder.holds_all
            holds.append(np.asarray(flags)[first] if flags is not None else np.zeros(len(first), bool))
            spans.append((ladder.name, ranks))
        all_idx = np.concatenate(firsts)
        # first_slot: where each event first occurs (ladder order), for its first source
        uniq, first_slot, inverse = np.unique(all_idx, return_index=True, return_inverse=True)
        rrf = np.bincount(inverse, np.concatenate(contribs), len(uniq))
        held = np.bincount(inverse, np.concatenate(holds).astype(np.float64), len(uniq)) > 0
        cols = engine.index.cols
        # The candidates' saliences, then float64: converting the whole mapped column first
        # faulted in and copied all of it (docs/performance.md, "Figures that were comments")
        salience = np.asarray(cols["salience"])[uniq].astype(np.float64)
        salience = np.where(np.isnan(salience) | (salience == 0), SALIENCE_DEFAULT,
                            np.clip(salience, SALIENCE_MIN, SALIENCE_MAX))
        score = rrf * self.weigh(salience)
        nearer = None
        if near is not None:
            nearer = np.bincount(inverse, np.concatenate(near), len(uniq)) * self.weigh(salience)
        if self.unseen_topic:
            score, nearer = self.unseen_topic_scores(ladders, uniq, score, engine, held, nearer)
        # Most events come from one ladder: their sources/ranks are built in the same pass;
        # the few in several ladders get the rest appended ladder by ladder below.
        names = [name for name, _ in spans]
        all_ranks = np.concatenate([ranks for _, ranks in spans])
        which = np.repeat(np.arange(len(spans)), [len(ranks) for _, ranks in spans])
        stamps = np.asarray(cols["ts"])[uniq]
        out = [Fused(i, sc, [names[w]], {names[w]: r}, h, sa, None if t != t else t, sc)
               for i, sc, h, sa, t, w, r in zip(
                   uniq.tolist(), score.tolist(), held.tolist(), salience.tolist(),
                   stamps.tolist(), which[first_slot].tolist(), all_ranks[first_slot].tolist())]
        if nearer is not None:
            for fused, value in zip(out, nearer.tolist()):
                fused.nearer = value
        if len(inverse) > len(uniq):
            is_first = np.zeros(len(inverse), np.bool_)
            is_first[first_slot] = True
            later = np.flatnonzero(~is_first)
            for position, w, rank in zip(inverse[later].tolist(), which[later].tolist(),
                                         all_ranks[later].tolist()):
                fused = out[position]
                fused.sources.append(names[w])
                fused.ranks[names[w]] = rank
        return out

    def fuse_lite(self, ladders: list[Ladder], view, query: Query | None = None) -> list[Fused]:
        """`fuse` in plain Python over the ladders of `rank_lite` (lists) and the persisted
        index's columns: the same sums in the same order."""
        ladders = self.gated([ladder for ladder in ladders if len(ladder)], query)
        if not ladders:
            return []
        uncovered = 0.0
        if self.semantic_uncovered:
            keyword = [l for l in ladders if not is_semantic(l) and len(l)]
            if all(l.coverage is not None for l in keyword):
                uncovered = max(0.0, 1.0 - max((max(l.coverage) for l in keyword), default=0.0))
        totals: dict[int, float] = {}
        held: dict[int, bool] = {}
        out: dict[int, Fused] = {}
        for ladder in ladders:
            weight = self.ladder_weight(ladder)
            if uncovered and ladder.uncovered_lift and is_semantic(ladder):
                weight *= 1.0 + ladder.uncovered_lift * uncovered
            cover = ladder.coverage if self.coverage_power else None
            holds = ladder.holds_all
            seen = set()
            for rank, doc in enumerate(ladder.indices, 1):
                if doc in seen:
                    continue  # one contribution per (ladder, event): its first rank
                seen.add(doc)
                contribution = weight / (self.k + rank)
                if cover is not None:
                    contribution *= cover[rank - 1] ** self.coverage_power
                totals[doc] = totals.get(doc, 0.0) + contribution
                held[doc] = held.get(doc, False) or bool(holds is not None and holds[rank - 1])
                fused = out.get(doc)
                if fused is None:
                    out[doc] = Fused(doc, 0.0, [ladder.name], {ladder.name: rank})
                else:
                    fused.sources.append(ladder.name)
                    fused.ranks[ladder.name] = rank
        salience_col, ts_col = view.cols["salience"], view.cols["ts"]
        for doc, fused in out.items():
            salience = row_salience(salience_col[doc])
            ts = ts_col[doc]
            fused.score = fused.fused_score = totals[doc] * self.weigh(salience)
            fused.holds_all_tokens, fused.salience = held[doc], salience
            fused.timestamp = None if ts != ts else ts
        return list(out.values())


def _above_partial(values, holds, rising):
    """`values` with each `rising` candidate that a candidate not in `holds` outscores put just
    above the best of those; the lifted ones' own values order them."""
    import numpy as np

    top = float(values[~holds].max())
    lift = rising & (values <= top)
    if not lift.any():
        return values
    return np.where(lift, top + values * 1e-3, values)


def _nearness(ladder: Ladder, first, weight):
    """A ladder's contributions with each semantic one weighed by its score's share of the
    ladder's best, to the power of the ladder's `closeness` (others as they are): summed, each
    candidate's `Fused.nearer`, which orders the page after the decay when the fusion's
    `closeness_page` is above 0. By rank alone, a row a keyword ladder holds for one light
    word ("give", "got") and the semantic ladder ranks 10th at a cosine of 0.17 went over the
    semantic ladder's first at 0.29: rank 1 and rank 10 differ by 13 % under k 60
    (docs/ranking.md, "How near, on the first page")."""
    import numpy as np

    power = float(getattr(ladder, "closeness", 0.0) or 0.0)
    if not power or ladder.scores is None or not len(first):
        return weight
    scores = np.asarray(ladder.scores, np.float64)[first]
    best = float(scores.max())
    if best <= 0:
        return weight
    return weight * np.clip(scores / best, 0.0, 1.0) ** power


class RRFPriorFusion(RRFFusion):
    name = "rrf-prior"
    description = ("reciprocal rank fusion (k 60), each keyword contribution weighed by the share "
                   "of the query the document holds, x a salience prior (1 + salience) / 2 "
                   "(salience breaks ties instead of outweighing rank); the semantic ladder weighs "
                   "0.5 (up to 1 with wordllama, for the share of the query no keyword candidate "
                   "holds) and joins a question always, other queries only when no document "
                   "holds every query term; a row holding the query's topic is not out-ranked by "
                   "rows holding less of it when the semantic ladder never holds it (minilm: "
                   "tool rows) or when it holds every held word; the first ten results are "
                   "ordered again heeding the semantic ladder's cosines (minilm)")
    prior = 1.0
    semantic_share = 0.5
    semantic_gate = True
    coverage_power = 1.0
    semantic_uncovered = True
    unseen_topic = True
    closeness_page = 10
