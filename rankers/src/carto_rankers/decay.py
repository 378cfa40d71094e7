"""Decay policies: how age and reuse reshape fused scores (they run after the 10 % trim).

- `none`: scores as fused.
- `exp`: upstream's activation: `exp(-lambda * hours since max(event time, last access))`,
  lambda 0.001/h (half-life about 29 days), times the reuse boost
  `min(2, 1 + w * sum 1/sqrt(max(0.02, days since access)))`, w 0.3 (result_fetched accesses
  do not count). Events without a time do not decay.
- `gated-exp` (default): `exp`, except that when 1..LOOKUP_MAX (10) in-scope documents hold
  every query token, the query is a lookup of a known item: those documents skip decay and are
  lifted x LIFT (3). Vague queries (many full matches) decay as under `exp`, so recent work
  still leads; specific ones find old events. Knobs: CARTO_DECAY_LAMBDA, CARTO_REUSE_WEIGHT,
  CARTO_DECAY_LOOKUP_MAX, CARTO_DECAY_LIFT (CARTOGRAPHER_* spellings accepted).
"""

from __future__ import annotations

import math

from carto_core.api import DecayContext, DecayPolicy, Fused
from carto_rankers.analyzers import RECENCY, asks_how_it_stands


def _reuse(fused: Fused, context: DecayContext, event_id: str) -> float:
    accesses = context.accesses.get(event_id)
    if not accesses:
        return 1.0
    fused.reuse_count = len(accesses)
    from carto_core.api import reuse_boost

    return reuse_boost(context.now, accesses, context.reuse_weight)


class NoDecay(DecayPolicy):
    name = "none"
    description = "no decay, no reuse boost: scores as fused"

    def apply(self, candidates: list[Fused], context: DecayContext) -> list[Fused]:
        return candidates


class ExpDecay(DecayPolicy):
    name = "exp"
    description = "exp(-0.001/h since last use) x reuse boost (upstream's activation)"

    def gate(self, candidates: list[Fused], context: DecayContext) -> bool:
        return False

    def apply(self, candidates: list[Fused], context: DecayContext) -> list[Fused]:
        event_id_of = context.engine.index.event_id
        gated = self.gate(candidates, context)
        lam = context.lambda_per_hour
        now = context.now
        exp = math.exp
        if not context.accesses:
            # No ledger (the common case): age and the gate alone, no per-event lookups; the
            # same arithmetic as below, so the same scores to the bit.
            lift = context.lift
            for fused in candidates:
                if gated and fused.holds_all_tokens:
                    fused.gated = True
                    fused.decay = 1.0
                    fused.boost = lift
                    fused.score = fused.fused_score * 1.0 * lift
                    continue
                last = fused.timestamp
                fused.decay = decay = 1.0 if last is None else exp(-lam * max(0.0, now - last) / 3600.0)
                fused.boost = 1.0
                fused.score = fused.fused_score * decay
            return candidates
        for fused in candidates:
            event_id = event_id_of(fused.index) if context.accesses else ""
            boost = _reuse(fused, context, event_id)
            accesses = context.accesses.get(event_id) if event_id else None
            if gated and fused.holds_all_tokens:
                fused.gated = True
                fused.decay = 1.0
                fused.boost = boost * context.lift
            else:
                last = fused.timestamp
                if accesses:
                    last = max(accesses) if last is None else max(last, max(accesses))
                fused.decay = 1.0 if last is None else math.exp(-lam * max(0.0, now - last) / 3600.0)
                fused.boost = boost
            fused.score = fused.fused_score * fused.decay * fused.boost
        return candidates


class GatedExpDecay(ExpDecay):
    name = "gated-exp"
    description = ("exp, but a lookup (1..10 documents hold every query token) skips decay "
                   "for those documents and lifts them x3")

    def gate(self, candidates: list[Fused], context: DecayContext) -> bool:
        count = full_matches(context)
        return count is not None and 1 <= count <= context.lookup_max


def full_matches(context: DecayContext) -> int | None:
    """How many documents the policy takes as the query's full matches: the gate's count,
    except beside a word no document holds (`DecayContext.unheld_words`), where the rows
    holding every other word count only when each of those words is generic, held by more
    than the lookup bound ("backfill orders recap": the newest of them is asked for), and
    the query is no question in one's own words, or one asking how something stands ("did
    the backfill happen yet?"), or one whose held words go together (below). A rarer held
    word, or a question about something else, is more likely the held part of a question
    whose topic is told in other words ("What languages does Jon speak?", "What medical
    tests has Maya had?": the rows saying "Maya" and "test" are not its answer, and putting
    them first buried it).

    Beside words every one of which rows hold, but never with the rest (`apart_words`: the
    rest is the query's topic), the topic's holders count the same way: "rollout flags -
    how is it going?" (rows say "going", none beside "rollout flags") asks for the newest of
    the rows saying "rollout flags". A question's topic told in other words is held by few
    rows ("Which cities has Maya worked in?": two say "Maya" and "city"), and a rare word
    there is not generic.

    A question that does not ask how things stand in words the analyzer knows ("what came
    of the hydrate sandbox", "how is it going?") counts them when the words of its full
    matches go together more often than chance (`together`): a topic's words meet in its
    rows far more often than their frequencies predict, the held part of a question told in
    other words by chance or less ("Maya" and "test"; docs/ranking.md, "Questions whose
    words go together"). The same holds any query with as many unheld words as held ones
    ("how's the harden firewall coming along?"): its held half is a topic only when it goes
    together."""
    count = context.all_token_matches
    unheld = context.unheld_words
    apart = getattr(context, "apart_words", 0)
    if unheld or apart:
        rarest = getattr(context, "rarest_holders", None)
        query = context.query
        if rarest is None or rarest <= context.lookup_max:
            return 0
        together = getattr(context, "together", None)
        apart_from_chance = together is not None and together > TOGETHER
        if query.question and not asks_how_it_stands(query.text) and not apart_from_chance:
            return 0
        # as many unheld words as held ones: half the query is its topic only when the held
        # half goes together ("how's the harden firewall coming along?")
        held = query.words - unheld
        if unheld and unheld >= held and not apart_from_chance:
            return 0
    return count


#: A question's full-match words that rows hold together no more often than chance would
#: have them (independent words) are no topic of its own.
TOGETHER = 1.0


#: A lookup of at most this many words that several documents hold in full is short: the
#: newest of them comes first.
SHORT = 2

#: Words of a query that asks for the latest state of something ("where do I live now").
LATEST = RECENCY
#: How many times the prior's beta such a query takes: the newest of the answers first, an
#: older one still found (it keeps 4/7 of its score at beta 0.25).
LATEST_BETA = 3.0


class GatedPriorDecay(ExpDecay):
    name = "gated-prior"
    description = ("lookups skip decay (x3) as in gated-exp; a vague query's full matches "
                   "(and a short or generic lookup's) come first, newest first, then the rest, "
                   "decayed fast; any other query "
                   "gets a bounded recency prior (an old memory keeps at least 4/5 of its score; "
                   "4/7 when the query asks for the latest state; none for a question in one's "
                   "own words that does not); a month of a year the query names lifts the rows "
                   "said in it and the month after x2")

    def apply(self, candidates: list[Fused], context: DecayContext) -> list[Fused]:
        count = full_matches(context)
        rarest = getattr(context, "rarest_holders", None)
        lookup = count is not None and 1 <= count <= context.lookup_max
        vague = count is not None and count > context.lookup_max
        # A short or generic lookup ("deploy staging": two words, or words each of which
        # alone is vague) asks for the newest of its few full matches, not for one known
        # item: ordered as a vague query's, kept apart (not folded) as a lookup's. A known
        # item's query is longer or holds a rare word (docs/ranking.md, "Short generic
        # queries").
        words = context.query.words
        generic = lookup and ((rarest is not None and rarest > context.lookup_max)
                              or (words <= SHORT and count >= 2))
        # ... unless it is a question of one word ("What do I work as now?"): the rows holding
        # "work" are not its answer more than a row that says it in other words.
        by_meaning = context.query.question and words < 2
        generic = generic and not by_meaning
        newest_first = vague or generic
        now = context.now
        beta = context.prior_beta
        if LATEST.search(context.query.text):
            beta = LATEST_BETA * beta  # "where do I live now"
        elif context.query.question:
            # "what did you suggest for my loaves?" asks for a memory of any age: no prior
            # (rank fusion's scores are flat enough that 0.25 reordered a ladder by date)
            beta = context.question_beta
        lam = context.vague_lambda if newest_first else context.lambda_per_hour
        event_id_of = context.engine.index.event_id
        for fused in candidates:
            boost = 1.0
            last = fused.timestamp
            if context.accesses:
                event_id = event_id_of(fused.index)
                boost = _reuse(fused, context, event_id)
                accesses = context.accesses.get(event_id)
                if accesses:
                    last = max(accesses) if last is None else max(last, max(accesses))
            lifted = (lookup or vague) and fused.holds_all_tokens
            if lookup and lifted:
                fused.gated, fused.decay = True, 1.0
            if not (lookup and lifted) or generic:
                recency = 1.0 if last is None else math.exp(-lam * max(0.0, now - last) / 3600.0)
                fused.decay = recency if newest_first else (1.0 + beta * recency) / (1.0 + beta)
            fused.boost = boost * (context.lift if lifted else 1.0)
            fused.score = fused.fused_score * fused.decay * fused.boost
        if newest_first and not by_meaning:
            _full_matches_first(candidates, context, lam)
        window = _named_month(context)
        if window is not None:
            for fused in candidates:
                if fused.timestamp is not None and window[0] <= fused.timestamp < window[1]:
                    fused.boost *= 1.0 + NAMED_MONTH_LIFT
                    fused.score *= 1.0 + NAMED_MONTH_LIFT
        return candidates


#: A question naming a month of a year ("What position was Hana offered in November 2025?")
#: lifts the rows said in that month or the next (told then, or told a few weeks after) by
#: this share of their score: x2 (docs/ranking.md, "A month named in the question").
NAMED_MONTH_LIFT = 1.0


def _named_month(context: DecayContext) -> tuple[float, float] | None:
    """[start, end) in epoch seconds of the month the query names (the analyzer's
    `names_a_month`) and the month after it; None when it names none."""
    from datetime import datetime, timezone

    analyzer = getattr(context.engine, "analyzer", None)
    named = analyzer.names_a_month(context.query.text) if analyzer is not None else None
    if named is None:
        return None
    year, month = named
    end_year, end_month = divmod(year * 12 + month + 1, 12)  # the month after next, 1-based
    return (datetime(year, month, 1, tzinfo=timezone.utc).timestamp(),
            datetime(end_year, end_month + 1, 1, tzinfo=timezone.utc).timestamp())


def _full_matches_first(candidates: list[Fused], context: DecayContext, lam: float) -> None:
    """A vague query's documents holding every word come before those holding some, newest
    first: the fast decay alone let a row holding one word, an hour old, outscore the newest
    row holding both, two days old (exp(-0.2 x 47) is 8e-5, and the lift is only x3). Ages
    count from the newest full match (its decay is 1, so the oldest do not underflow to 0
    and tie), floored at 1e-12 (past ~140 hours older than it, a full match's own score
    orders it); the partial matches are scaled to half the last full match's score and under,
    their order kept (relative ages and ratios: a page does not depend on the second it is
    asked)."""
    import math

    full = [f for f in candidates if f.holds_all_tokens]
    if not full:
        return
    stamps = [f.timestamp for f in full if f.timestamp is not None]
    newest = max(stamps) if stamps else None
    if newest is not None:
        for fused in full:
            if fused.timestamp is None:
                continue
            shifted = max(1e-12, math.exp(-lam * max(0.0, newest - fused.timestamp) / 3600.0))
            fused.decay = shifted
            fused.score = fused.fused_score * shifted * fused.boost
    floor = min(f.score for f in full)
    partial = [f for f in candidates if not f.holds_all_tokens]
    top = max((f.score for f in partial), default=0.0)
    if top > 0.0:  # also when already under: the scores then do not depend on the clock
        half = 0.5 * floor
        for fused in partial:
            # each over `top` first: months of the fast decay leave `top` subnormal, and
            # `half / top` alone overflows to inf (and a score of 0 x inf to nan)
            fused.score = fused.score / top * half
            base = fused.fused_score * fused.boost
            fused.decay = fused.score / base if base > 0.0 else fused.decay
