"""The BM25 keyword ladder over the engine's persisted posting lists.

k1 1.2, b 0.75; idf `ln(1 + (N - df + .5) / (df + .5))` (Lucene's: never zero, so on a home
of two events the word they share still finds both and each one's own word finds it; the
`bm25-upstream` ranker keeps upstream's `ln((N - df + .5) / (df + .5))` clamped at 0, under
which a term in half the documents or more adds nothing); N, df and the average length are
those of the whole event_id-deduplicated corpus, never of the scope. A `prefix*` query term is
the union of the indexed terms starting with it (tf summed per document, df of the union). Scores are computed for the query's postings
only, the scope mask is applied, and the result is bucketed per source log: one ladder per log,
each ranked within itself and cut to depth (upstream's API fuses one keyword ladder per log).
"""

from __future__ import annotations

import math

from carto_core.api import DEPTH, TF_SCALE, Ladder, Query, Ranker, Scope

#: The other terms' postings past 1/DENSE_SHARE of the corpus: one dense score array instead
#: of a sorted candidate union (measured: about even over a wide range; docs/performance.md).
DENSE_SHARE = 64


class BM25Ranker(Ranker):
    name = "bm25"
    description = "Okapi BM25 over summaries (k1 1.2, b 0.75), one ladder per source log"
    k1 = 1.2
    b = 0.75
    #: Upstream's idf, clamped at 0 (the `bm25-upstream` ranker).
    clamped_idf = False

    def idf(self, df: int, big_n: int) -> float:
        if not big_n:
            return 0.0
        if self.clamped_idf:
            return math.log((big_n - df + 0.5) / (df + 0.5))
        return math.log1p((big_n - df + 0.5) / (df + 0.5))

    def ladder_name(self, label: str) -> str:
        # The default keyword ranker's ladders are named after their logs, so a result's
        # sources read `tool-use+semantic` as upstream's did; other keyword rankers prefix.
        return label if self.name == "bm25" else f"{self.name}:{label}"

    def _terms(self, query: Query, index) -> list[_Term]:
        """The query's terms that occur (postings of every segment joined; a tail segment's
        documents all come after the main one's, so the join stays sorted); the tokens that do
        not are `self.missing`. A prefix is one term: the union of its expansions' postings."""
        import numpy as np

        big_n = index.n_alive
        terms = []
        self.missing = []
        for token in query.tokens:
            plists = index.postings(token)
            if not plists:
                self.missing.append(token)
                continue
            if len(plists) == 1:
                docs, tfs, dls = plists[0]
            else:
                docs, tfs, dls = (np.concatenate([p[k] for p in plists]) for k in range(3))
            terms.append(_Term(docs, tfs, dls, self.idf(len(docs), big_n), token=token))
        for prefix in query.prefixes:
            plists = [p for word in index.prefix_terms(prefix) for p in index.postings(word)]
            if not plists:
                self.missing.append(prefix + "*")
                continue
            docs = np.concatenate([p[0] for p in plists])
            docs, inverse = np.unique(docs, return_inverse=True)
            tfs = np.bincount(inverse, np.concatenate([p[1] for p in plists]).astype(np.float64),
                              len(docs)).astype(np.float32)
            dls = np.zeros(len(docs), np.float32)
            dls[inverse] = np.concatenate([p[2] for p in plists])
            owned = np.bincount(inverse, np.concatenate([p[1] for p in plists]) >= TF_SCALE,
                                len(docs)) > 0
            terms.append(_Term(docs, tfs, dls, self.idf(len(docs), big_n), docs[owned]))
        return terms

    def _weights(self, term: "_Term", index):
        """float32 BM25 weight of each of the term's postings."""
        import numpy as np

        k1, b = self.k1, self.b
        avgdl = index.avgdl or 1.0
        tf = term.tfs.astype(np.float32) * np.float32(1.0 / TF_SCALE)
        norm = np.float32(k1 * (1.0 - b)) + np.float32(k1 * b / avgdl) * term.dls
        return np.float32(term.idf) * np.float32(k1 + 1.0) * tf / (tf + norm)

    def score(self, query: Query, engine):
        """(candidates, scores): every document with a positive BM25 score, increasing.
        Exhaustive (every posting of every term); `rank` gets the same ladders without
        scoring most postings of the query's longest list."""
        import numpy as np

        index = engine.index
        terms = [t for t in self._terms(query, index) if t.idf > 0]
        if not terms:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        scores = np.zeros(len(index), np.float32)
        for term in terms:
            scores[term.docs] += self._weights(term, index)
        cand = np.flatnonzero(scores > 0)
        return cand, scores[cand]

    def rank(self, query: Query, scope: Scope, context, *, depth: int = DEPTH) -> list[Ladder]:
        """One ladder per source log, each the top `depth` in-scope documents by score (ties:
        lower document index first).

        The query's longest posting list L (the common term) is never scattered: every other
        term's documents form the candidate set C, scored exactly (L's weight looked up by
        binary search for C's members only); a document outside C holds no query term but
        L's, so its score *is* its L weight, and each log's best of those are picked from L's
        weights (a cut estimated on a sample, then an exact partition of what passes it). C
        is small for the queries that used to cost the most (rare terms plus one common one);
        when C is itself large (two or more long lists), every list is added into one dense
        array. Terms with idf 0 are never scored: they only count for the gate (documents
        holding every token, found by intersecting the lists)."""
        import numpy as np

        from carto_core.api import LOG_LABELS

        index = context.index
        n_docs = len(index)
        terms = self._terms(query, index)
        missing = len(self.missing)
        words, unheld = _words(query, terms, self.missing)
        positive = sorted((t for t in terms if t.idf > 0), key=lambda t: len(t.docs))
        mask = scope.mask
        hidden = _served_matches(context, scope, positive) if scope.served_ids else 0
        if not positive:
            if terms:
                reason = ("every query term is in half the documents or more (idf 0 under "
                          "upstream's clamp)")
            else:
                reason = "no indexed document holds " + " or ".join(
                    repr(t) for t in self.missing or query.tokens)
            return _empty(self.name, 0, hidden, reason)
        holders, rarest, apart, together = _full_matches(
            words, unheld, index.n_alive, lambda subset: _holders(subset, n_docs),
            np.zeros(0, np.int64))
        all_matches = int(mask[holders].sum()) if mask is not None else int(len(holders))
        topic = _topic_holders(words, unheld, holders, together,
                               lambda subset: _holders(subset, n_docs), index.n_alive)

        longest, rest = positive[-1], positive[:-1]
        rest_total = sum(len(t.docs) for t in rest)
        out_docs = out_scores = dense = None
        cand = np.zeros(0, np.int64)
        if rest_total * DENSE_SHARE >= n_docs:
            # Several long lists: one dense array beats sorting a large union; each log's
            # best are then read from its own range of that array (no candidate list).
            dense = np.zeros(n_docs, np.float32)
            dense[positive[-1].docs] = self._weights(positive[-1], index)  # a store, not an add
            for term in positive[:-1]:
                dense[term.docs] += self._weights(term, index)
            if mask is not None:
                np.multiply(dense, mask, out=dense)
        else:
            if len(rest) == 1:
                cand = np.asarray(rest[0].docs, np.int64)
                cand_scores = self._weights(rest[0], index)
            elif rest:
                all_docs = np.concatenate([t.docs for t in rest])
                cand, inverse = np.unique(all_docs, return_inverse=True)
                weights = np.concatenate([self._weights(t, index) for t in rest])
                cand_scores = np.bincount(inverse, weights, len(cand)).astype(np.float32)
            else:
                cand, cand_scores = np.zeros(0, np.int64), np.zeros(0, np.float32)
            l_docs = longest.docs
            # Weights of L's documents outside C; a zero marks one that is in C or out of scope.
            out_scores = self._weights(longest, index)
            if len(cand):
                pos = l_docs.searchsorted(cand)
                np.minimum(pos, len(l_docs) - 1, out=pos)
                hit = l_docs[pos] == cand
                found = pos[hit]
                cand_scores[hit] += out_scores[found]  # a fresh array (weights or bincount)
                out_scores[found] = 0
            if mask is not None:
                out_scores[~mask[l_docs]] = 0
            out_docs = l_docs
        if mask is not None and len(cand):
            keep = mask[cand]
            cand, cand_scores = cand[keep], cand_scores[keep]

        runs = _source_runs(index)
        # A query word no document holds is still part of the query: its idf counts in the
        # whole ("bedtime" in no row: "plan" alone is not 2/5 of "what bedtime plan did you
        # recommend for my little one").
        unheld_mass = missing * self.idf(0, index.n_alive)
        ladders = []
        for code, starts, ends in runs:
            if dense is not None:
                docs, s = _top_ranges(dense, starts, ends, depth)
            else:
                docs, s = _top(*_slices(cand, cand_scores, starts, ends), depth)
            if out_docs is not None:
                more, more_s = _top(*_slices(out_docs, out_scores, starts, ends), depth)
                if len(more):
                    docs, s = np.concatenate([docs, more]), np.concatenate([s, more_s])
            if not len(docs):
                continue
            docs, s = _top(docs, s, depth, ordered=True)
            ladders.append(Ladder(self.ladder_name(LOG_LABELS[code]), docs.astype(np.int64),
                                  s.astype(np.float64), _member(holders, docs), self.name,
                                  all_matches, 0, coverage=_coverage(positive, docs, unheld_mass),
                                  rarest_holders=rarest, unheld=unheld, apart=apart,
                                  together=together, topic_holders=topic))
        if not ladders:
            if hidden:
                reason = f"delta serving hid every match ({hidden}; --all shows them)"
            else:
                reason = "every match is outside the scope (window, project)"
            return _empty(self.name, all_matches, hidden, reason)
        ladders[0].hidden = hidden
        return ladders


    def rank_lite(self, query: Query, view, scope: Scope, *, depth: int = DEPTH) -> list[Ladder]:
        """`rank` in plain Python over the persisted index (`IndexView`), for the prompt-time
        recall: every posting of every term scored, the same ladders in the same order (a
        `prefix*` is not expanded here)."""
        from carto_core.api import LOG_LABELS, term_hash

        n_alive, avgdl = view.stats()
        terms, absent = [], []
        for token in query.tokens:
            postings = view.postings(term_hash(token))
            if postings is None:
                absent.append(token)
            else:
                terms.append(_LiteTerm(*postings, self.idf(len(postings[0]), n_alive), token))
        missing = len(absent)
        words, unheld = _words(query, terms, absent)
        holders, rarest, apart, together = _full_matches(words, unheld, n_alive,
                                                         _LiteOwn().holders, set(), _lite_holders)
        all_matches = sum(1 for doc in holders if scope.allows(doc))
        positive = [t for t in terms if t.idf > 0]
        # a query word no document holds still counts in the whole, as `rank` counts it
        unheld_mass = missing * self.idf(0, n_alive)
        mass = sum(t.idf for t in positive) + unheld_mass
        source = view.cols["source"]
        by_log: dict[int, list[tuple[float, int]]] = {}
        for doc, score in _lite_scores(positive, self.k1, self.b, avgdl).items():
            if score > 0 and scope.allows(doc):
                by_log.setdefault(source[doc], []).append((-score, doc))
        ladders = []
        for code in sorted(by_log):
            top = sorted(by_log[code])[:depth]  # best first, the lower document among ties
            docs = [doc for _, doc in top]
            ladders.append(Ladder(self.ladder_name(LOG_LABELS[code]), docs, [-s for s, _ in top],
                                  [doc in holders for doc in docs], self.name, all_matches,
                                  coverage=_lite_coverage(positive, mass, docs, unheld_mass),
                                  rarest_holders=rarest, unheld=unheld, apart=apart,
                                  together=together))
        return ladders


class UpstreamBM25Ranker(BM25Ranker):
    name = "bm25-upstream"
    description = "BM25 with upstream's idf, clamped at 0 (kept for comparison)"
    clamped_idf = True


class _Term:
    __slots__ = ("docs", "tfs", "dls", "idf", "_own", "token")

    def __init__(self, docs, tfs, dls, idf: float, own=None, token: str = ""):
        self.docs, self.tfs, self.dls, self.idf = docs, tfs, dls, idf
        self._own = own
        self.token = token

    @property
    def own(self):
        """Documents whose own text holds the term (a posting of context alone does not)."""
        if self._own is None:
            self._own = self.docs[self.tfs >= TF_SCALE]
        return self._own


def _empty(name: str, all_matches: int, hidden: int, reason: str) -> list[Ladder]:
    """An empty ladder carrying why it is empty (and the count delta serving hid)."""
    import numpy as np

    return [Ladder(name, np.zeros(0, np.int64), np.zeros(0), None, name, all_matches, hidden,
                   reason)]


def _source_runs(index) -> list[tuple[int, "np.ndarray", "np.ndarray"]]:
    """(log code, run starts, run ends) per log: each log's documents as ranges of document
    indices. A full build numbers documents log by log, so each log is one range and a
    sorted posting list splits into its logs by binary search instead of a scan per log;
    appended rows add a few ranges. Cached per document count."""
    import numpy as np

    source = index.cols["source"]
    cached = getattr(index, "_bm25_runs", None)
    if cached is not None and cached[0] is source:
        return cached[1]
    n = len(source)
    if n:
        change = np.flatnonzero(source[1:] != source[:-1]) + 1
        starts = np.concatenate([[0], change]).astype(np.int64)
        ends = np.concatenate([change, [n]]).astype(np.int64)
        codes = np.asarray(source)[starts]
    else:
        starts = ends = codes = np.zeros(0, np.int64)
    # sorted(set()) rather than np.unique: the latter imports numpy.ma (docs/performance.md)
    runs = [(code, starts[codes == code], ends[codes == code])
            for code in sorted(set(codes.tolist()))]
    index._bm25_runs = (source, runs)
    return runs


def _slices(docs, scores, starts, ends):
    """The part of an increasing document array (and its scores) inside the given ranges."""
    import numpy as np

    lo = docs.searchsorted(starts)
    hi = docs.searchsorted(ends)
    if len(lo) == 1:
        return docs[lo[0]:hi[0]], scores[lo[0]:hi[0]]
    if len(lo) > 64:  # many small ranges: one mask is cheaper than many slices
        sel = np.zeros(len(docs), np.bool_)
        for a, b in zip(lo.tolist(), hi.tolist()):
            sel[a:b] = True
        return docs[sel], scores[sel]
    parts = [(a, b) for a, b in zip(lo.tolist(), hi.tolist()) if b > a]
    return (np.concatenate([docs[a:b] for a, b in parts] or [docs[:0]]),
            np.concatenate([scores[a:b] for a, b in parts] or [scores[:0]]))


def _order_keys(docs, scores):
    """int64 keys that sort like (score, -document): the bits of a positive float32 order
    like its value, the document takes the low half. All distinct, so a partition cannot
    split ties arbitrarily (and does not crawl, as it does on the many equal scores of one
    common term)."""
    import numpy as np

    bits = np.asarray(scores, np.float32).view(np.int32).astype(np.int64)
    return (bits << 32) | (0x7FFFFFFF - np.asarray(docs, np.int64))


def _cut(scores, depth):
    """Positions of the positive scores that can be among the `depth` best. A long array is
    cut at a threshold estimated from a sample (kept only when at least `depth` pass it), so
    the exact partition runs on about twice `depth` entries instead of tens of thousands."""
    import numpy as np

    n = len(scores)
    if n > 8 * depth:
        step = n // (4 * depth)
        sample = np.sort(scores[::step])
        want = -(-2 * depth // step)  # ~2 x depth entries expected at or above the cut
        cut = sample[max(0, len(sample) - want)]
        if cut > 0:
            sel = np.flatnonzero(scores >= cut)
            if len(sel) >= depth:
                return sel
    return np.flatnonzero(scores > 0)


def _top(docs, scores, depth, *, ordered: bool = False):
    """The `depth` best of the positive scores, the lower document first among equal scores
    (best first when `ordered`)."""
    import numpy as np

    sel = _cut(scores, depth)
    if len(sel) < len(scores):
        docs, scores = docs[sel], scores[sel]
    n = len(scores)
    if n <= depth and not ordered:
        return docs, scores
    keys = _order_keys(docs, scores)
    if n > depth:
        keep = np.argpartition(keys, n - depth)[n - depth:]
        docs, scores, keys = docs[keep], scores[keep], keys[keep]
    if ordered:
        order = np.argsort(keys)[::-1]
        docs, scores = docs[order], scores[order]
    return docs, scores


def _top_ranges(dense, starts, ends, depth):
    """`_top` of a dense score array restricted to document ranges (one log's)."""
    import numpy as np

    parts = []
    for lo, hi in zip(starts.tolist(), ends.tolist()):
        sel = _cut(dense[lo:hi], depth)
        parts.append((sel + lo, dense[lo:hi][sel]))
    if len(parts) == 1:
        docs, scores = parts[0]
    else:
        docs = np.concatenate([p[0] for p in parts])
        scores = np.concatenate([p[1] for p in parts])
    return _top(docs, scores, depth)


def _holders(terms: list[_Term], n_docs: int):
    """Documents holding every given term (increasing): the shortest list, narrowed by each
    other list (binary search while the survivors are few, a marked array otherwise)."""
    import numpy as np

    ordered = sorted(terms, key=lambda t: len(t.own))
    held = np.asarray(ordered[0].own, np.int64)
    for term in ordered[1:]:
        if not len(held):
            break
        docs = term.own
        if len(held) * 8 > len(docs):
            marks = np.zeros(n_docs, np.bool_)
            marks[docs] = True
            held = held[marks[held]]
        else:
            held = held[_member(docs, held)]
    return held


def _words(query: Query, terms: list, missing: list[str]) -> tuple[list, int]:
    """(the terms that count as the query's words, how many of its words no document holds):
    each term, and each token no document holds, except that a hyphenated word counts once,
    by its whole ("drain nodes follow-up": rows say "up", none says "follow" or "followup";
    three words, one unheld, not five terms, two unheld, which outnumbered the topic). Its
    parts are still scored; they are pieces of the one word, not words beside it."""
    parts = query.parts
    if not parts:
        return terms, len(missing)
    return ([t for t in terms if t.token not in parts],
            sum(1 for token in missing if token not in parts))


def _full_matches(terms: list, unheld: int, n_docs: int, holders_of, none, all_holders=None):
    """(holders, rarest, apart, together) of the query's full matches, as `rank` and
    `rank_lite` both decide them: `holders` the documents holding every held word (`none`
    when there is no full match), or else its topic's (`_topic`; `apart` the held words left
    out of it), `rarest` the document count of the rarest held word (None without a full
    match), `together` (`_together`) of the words matched. `holders_of` maps a list of terms
    to the documents holding them all; `all_holders`, when given, does it for every held
    word (`rank_lite`'s early-stopping intersection).

    Words no document holds ("deploy staging recap", no row says "recap"), no more than the
    held ones: the documents holding every held word are the full matches all the same (as
    many: only when those words go together, the decay policy decides: "how's the harden
    firewall coming along?"). Not when they are more: one held word would make any row
    holding it a full match, and "which elasticsearch shard allocation setting did we
    change?" is not about the rows saying "set" and "change"."""
    full = bool(terms) and (not unheld or (unheld <= len(terms) and len(terms) >= 2))
    holders = (all_holders or holders_of)(terms) if full else none
    rarest = min(len(t.docs) for t in terms) if full else None
    apart, together = 0, _together(terms, len(holders), n_docs)
    if not len(holders):
        topic = _topic(terms, unheld, holders_of, n_docs)
        if topic is not None:
            holders, size, together = topic
            apart, rarest = len(terms) - size, min(len(t.docs) for t in terms)
    return holders, rarest, apart, together


#: More held words than this: no search for a topic among them (subsets grow as 2^n).
TOPIC_WORDS = 6


def _topic(terms: list, unheld: int, holders_of, n_docs: int):
    """(its holders, its size, `_together` of its words) of the query's topic, or None: the
    largest set of its held words that some documents hold together, when no document holds
    them all (at least two words, and more than the words no document holds: "which
    elasticsearch shard allocation setting did we change?" is not about the rows saying
    "set" and "change"). Among sets of one size, the one whose words go together most
    against chance (holders over the count their frequencies predict), then the first.
    "rollout flags - how is it going?": rows say "going", none beside "rollout flags"; the
    three rows that say "rollout flags" are what it asks about. `holders_of` maps a list of
    terms to the documents holding them all; a set with a pair no document holds is never
    intersected (most questions' words pair rarely)."""
    from itertools import combinations

    if len(terms) > TOPIC_WORDS:
        return None
    smallest = max(2, unheld + 1)
    if len(terms) - 1 < smallest:
        return None
    pairs = {pair: holders_of([terms[pair[0]], terms[pair[1]]])
             for pair in combinations(range(len(terms)), 2)}
    for size in range(len(terms) - 1, smallest - 1, -1):
        best = None
        for subset in combinations(range(len(terms)), size):
            if not all(len(pairs[pair]) for pair in combinations(subset, 2)):
                continue
            held = pairs[subset] if size == 2 else holders_of([terms[i] for i in subset])
            if not len(held):
                continue
            lift = _together([terms[i] for i in subset], len(held), n_docs)
            if best is None or lift > best[0]:
                best = (lift, held)
        if best is not None:
            return best[1], size, best[0]
    return None


def _topic_holders(terms: list, unheld: int, holders, together: float | None, holders_of,
                   n_docs: int):
    """The documents holding the query's topic (`Ladder.topic_holders`): `holders`, the full
    matches `_full_matches` found (every held word, or the topic beside words held apart),
    else the documents holding every held word or the topic, whatever the words no document
    holds ("quick one - preload fonts, how did that pan out?": four words no row holds, so
    no full match for the decay policy, and still a topic); only when its words, at least
    two, go together more often than chance (`together` > TOGETHER). None otherwise. Only
    what `_full_matches` left unsearched is searched again."""
    from carto_rankers.decay import TOGETHER

    if len(terms) < 2:
        return None
    if not len(holders):
        if unheld > len(terms):  # `_full_matches` did not intersect every held word
            holders = holders_of(terms)
            together = _together(terms, len(holders), n_docs)
        if not len(holders):
            if unheld <= 1:  # its topic search had no bound above this one's
                return None
            found = _topic(terms, 0, holders_of, n_docs)
            if found is None:
                return None
            holders, _, together = found
    return holders if together is not None and together > TOGETHER else None


def _together(terms: list, holders: int, n_docs: int) -> float | None:
    """How many times more documents hold `terms` together than their frequencies predict
    (independent words: 1); None for fewer than two terms or no holder."""
    if len(terms) < 2 or not holders:
        return None
    expected = float(n_docs)
    for term in terms:
        expected *= len(term.docs) / max(1, n_docs)
    return holders / expected if expected else float("inf")


def _coverage(terms: list[_Term], docs, unheld: float = 0.0):
    """Per document, the share of the query's idf mass (its scored terms, plus `unheld`: the
    idf of the query words no document holds) that it holds."""
    import numpy as np

    total = sum(t.idf for t in terms) + unheld
    if (len(terms) == 1 and not unheld) or not total:
        return np.ones(len(docs))
    held = np.zeros(len(docs))
    for term in terms:
        held += term.idf * _member(term.docs, docs)
    return held / total


def _member(sorted_docs, docs):
    """For each of `docs`, whether it is in the increasing array `sorted_docs`."""
    import numpy as np

    if not len(sorted_docs) or not len(docs):
        return np.zeros(len(docs), np.bool_)
    pos = sorted_docs.searchsorted(docs)
    np.minimum(pos, len(sorted_docs) - 1, out=pos)
    return sorted_docs[pos] == docs


def _served_matches(context, scope: Scope, positive: list[_Term]) -> int:
    """How many served documents hold a positive score (delta serving hid them)."""
    import numpy as np

    positions = context.index_positions(list(scope.served_ids))
    positions = np.sort(positions[positions >= 0])
    if not len(positions) or not positive:
        return 0
    scored = np.zeros(len(positions), np.bool_)
    for term in positive:
        scored |= _member(term.docs, positions)
    return int(scored.sum())


# --------------------------------------------------------------------------- stdlib (rank_lite)


class _LiteTerm:
    """One query term's postings (typed views of the mapped index) and idf."""

    __slots__ = ("docs", "tfs", "dls", "idf", "token")

    def __init__(self, docs, tfs, dls, idf: float, token: str = ""):
        self.docs, self.tfs, self.dls, self.idf = docs, tfs, dls, idf
        self.token = token


def _lite_holders(terms: list[_LiteTerm]) -> set[int]:
    """Documents whose own text (tf >= TF_SCALE) holds every term."""
    ordered = sorted(terms, key=lambda t: len(t.docs))
    first = ordered[0]
    held = {doc for doc, tf in zip(first.docs, first.tfs) if tf >= TF_SCALE}
    for term in ordered[1:]:
        if not held:
            break
        held = {doc for doc, tf in zip(term.docs, term.tfs) if tf >= TF_SCALE and doc in held}
    return held


class _LiteOwn:
    """`_lite_holders` for many sets of the same terms: each term's documents (own text) made
    a set once, then intersected smallest first."""

    def __init__(self):
        self._own: dict[int, set[int]] = {}

    def holders(self, terms: list[_LiteTerm]) -> set[int]:
        sets = []
        for term in terms:
            own = self._own.get(id(term))
            if own is None:
                own = self._own[id(term)] = {doc for doc, tf in zip(term.docs, term.tfs)
                                             if tf >= TF_SCALE}
            sets.append(own)
        sets.sort(key=len)
        return sets[0].intersection(*sets[1:])


def _lite_scores(terms: list[_LiteTerm], k1: float, b: float, avgdl: float) -> dict[int, float]:
    """doc -> BM25 score over every posting of the (positive-idf) terms."""
    scores: dict[int, float] = {}
    base = k1 * (1.0 - b)
    per_length = k1 * b / (avgdl or 1.0)
    get = scores.get
    for term in terms:
        lift = term.idf * (k1 + 1.0)
        for doc, tf, dl in zip(term.docs, term.tfs, term.dls):
            t = tf / TF_SCALE
            scores[doc] = get(doc, 0.0) + lift * t / (t + base + per_length * dl)
    return scores


def _lite_coverage(positive: list[_LiteTerm], mass: float, docs: list[int],
                   unheld: float = 0.0) -> list[float]:
    """`_coverage` per document of `docs` (any posting counts, context included)."""
    if (len(positive) == 1 and not unheld) or not mass:
        return [1.0] * len(docs)
    import bisect

    out = []
    for doc in docs:
        held = 0.0
        for term in positive:
            i = bisect.bisect_left(term.docs, doc)
            if i < len(term.docs) and term.docs[i] == doc:
                held += term.idf
        out.append(held / mass)
    return out
