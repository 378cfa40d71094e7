"""The turn after a found question: where a conversation is logged one utterance a row, the
answer to a question is the next row of its session, and it shares the question's words, not
the query's ("Which indoor greenery did you pick for a forgetful owner?" finds "What's a good
first houseplant for someone who forgets to water?", and the answer is the reply after it).

A question's ranking lends the turn right after it a share of its score: of the first
`WINDOW` results of a question query, each conversational turn whose text ends in a question
mark gives the next turn of its session (same log, next in time, in scope) `SHARE` of its
score, unless that turn already scores higher. Measured (docs/ranking.md, "Bridging the
vocabulary"): dialogue set d 0.52 -> 0.60 hit@10, a and b unchanged, hit@1 unchanged on all
three; a turn row that holds the message and its reply in one (what carto's own readers write)
ends in a question mark only when the reply asks one, and then the next turn is its answer.
The stdlib prompt-time recall (`search.lite`) does not do this step.

A row that is one question and nothing else (one utterance: someone asking) does not hold
its answer, the reply after it does: that reply is lent `SHARE_ASKED` of its score, just
above it (a row holding a message and a reply that asks something keeps `SHARE`: its next turn
answers the assistant, not the query). Measured first for questions put to the assistant
("Which houseplant did you suggest...?": hit@1 a 0.60 -> 0.71, d 0.41 -> 0.48), then for every
question (docs/ranking.md, "The reply takes its question's place"): the context sets' answers
go from second to first (hit@1 0.00 -> 1.00 on both), a, b and c unchanged, d one hit@5 less.

A question put to the assistant ("What did you suggest about my teenager's late-night
scrolling?", the analyzer's `asks_the_assistant`) asks for its reply, and a person's request
often says something before it asks ("My fourteen-year-old is on her phone until two in the
morning. How do I deal with it?"): a row that ends in its only question lends its reply
`SHARE_ASKED` too. A row that asks more than once (a message and a reply that asks back)
keeps `SHARE`. Measured on dialogue sets written after the rule above (docs/ranking.md, "The
reply to a question put to the assistant").

People leave the question mark off ("is it worth overpaying my student loan or should i just
put the money in savings", "... every single time. how do I stop it"): a row whose last
sentence opens as a question (the analyzer's `opens_a_question`: a question word or an
auxiliary), ends without a mark and holds no other question asks all the same; alone in its
row it is one question and nothing else (docs/ranking.md, "A question typed without its
mark").

A reply said word for word in other rows ("No problem at all, see below.") is a formula, not
an answer: it is lent nothing (`FORMULA_COPIES`), and a formula among a question's first
results goes under the others (`formulas_last`).
"""

from __future__ import annotations

import re

import numpy as np

from carto_core.search.api import Fused, best_first

#: How many of the best results may lend, and the share of its score a question lends.
WINDOW = 10
SHARE = 0.8
#: The share a row that is only a question lends its reply: the reply takes the question's
#: place, just above it (1.25 found one more first place on a and d: not a tuned value).
SHARE_ASKED = 1.05
#: Rows read to find the window's distinct texts (copies of chit-chat fold on the page).
READ = 3 * WINDOW
#: The logs whose rows are turns of a conversation.
TURN_LOGS = ("turns",)


def turn_codes() -> set[int]:
    """The index's codes of `TURN_LOGS`."""
    from carto_core.search.index import LOG_CODE

    return {LOG_CODE[label] for label in TURN_LOGS if label in LOG_CODE}


def _asks(row: dict | None, opens) -> bool:
    text = row.get("summary") if row else None
    return isinstance(text, str) and (text.rstrip().endswith("?")
                                      or _asks_unmarked(text, opens, False))


def _asks_unmarked(text: str, opens, alone: bool = True) -> bool:
    """One utterance that opens as a question (`opens`: the analyzer's `opens_a_question`)
    and never says it ends ("is it worth overpaying my student loan or should i just put the
    money in savings"): typed without its question mark. `alone` False: its last sentence
    does, after others ("my telescope's covered in dew every single time. how do I stop it"),
    and no other asks."""
    text = text.rstrip()
    if not text or text[-1] in ".!" or (alone and _SENTENCE_END.search(text)):
        return False
    return "?" not in text and opens(_SENTENCE_END.split(text)[-1])


#: A sentence ending inside a text: a row holding more than its question.
_SENTENCE_END = re.compile(r"[.!?]\s")


def _only_asks(row: dict, opens) -> bool:
    """The row is one question and nothing else (one utterance: the person asking), not a
    message and a reply in one row that ends in the reply's question ("... Want me to run
    the tests?"), whose next turn is not the answer to the query."""
    text = str(row.get("summary") or "").rstrip()
    return ((text.endswith("?") and not _SENTENCE_END.search(text[:-1]))
            or _asks_unmarked(text, opens))


def _asks_once(row: dict, opens) -> bool:
    """The row ends in its only question ("... How do I deal with it?", "why??"): one
    utterance, the person asking after saying something, not a message and a reply that asks
    back ("Any ideas? ... Is there anything else on your mind?")."""
    text = str(row.get("summary") or "").rstrip()
    return ((text.endswith("?") and "?" not in text.rstrip("?"))
            or _asks_unmarked(text, opens, False))


#: Copies of a reply's text in other rows that make it a formula ("Sure. Shout if you want
#: more detail."), and how many rows holding its words are read to find them.
FORMULA_COPIES = 2
_FORMULA_READ = 8


def _said_elsewhere(engine, doc: int, text: str | None = None, read: dict | None = None) -> bool:
    """The row's text (`text`, else read) is said word for word in at least `FORMULA_COPIES`
    other rows: a formula said after many questions answers none of them. `read`: the rows
    this search read already (`Index.rows`' `known`)."""
    index = engine.index
    if text is None:
        text = (index.rows([doc], read)[0] or {}).get("summary")
    if not isinstance(text, str) or not text.strip():
        return False
    terms = sorted(set(engine.analyzer.terms(text)), key=index.df)[:3]
    if not terms:
        return False
    holders = index.own_docs(terms[0])
    for term in terms[1:]:
        holders = np.intersect1d(holders, index.own_docs(term), assume_unique=False)
    others = [int(d) for d in holders if d != doc][:_FORMULA_READ]
    copies = sum(1 for row in index.rows(others, read) if row and row.get("summary") == text)
    return copies >= FORMULA_COPIES


def lend_answers(engine, fused: list[Fused], scope, query_text: str = "",
                 read: dict | None = None) -> list[Fused]:
    """`fused` (best first) with the turn after each found question raised to `SHARE` of the
    question's score (`SHARE_ASKED` when the row is one question and nothing else, or, for
    a question put to the assistant, a row that ends in its only question); re-sorted when
    anything moved. Nothing read beyond the window's rows (`read`: those the search read
    already, by document)."""
    codes = turn_codes()
    cols = engine.index.cols
    source, session, ts = cols["source"], cols["session"], cols["ts"]
    # the window is the first WINDOW results as the page shows them: copies of one text (the
    # page folds them) count once, so ten copies of one chit-chat question lend at most once
    ahead = fused[:READ]
    head, seen = [], set()
    for f, row in zip(ahead, engine.index.rows([f.index for f in ahead], read)):
        text = row.get("summary") if row else None
        if text in seen:
            continue
        seen.add(text)
        if int(source[f.index]) in codes:
            head.append((f, row))
        if len(seen) == WINDOW:
            break
    if not head:
        return fused
    by_index = {f.index: f for f in fused}
    mask = scope.mask if scope is not None else None
    alive = cols["alive"]
    # a row of no session has no next turn
    opens = engine.analyzer.opens_a_question
    asking = [(f, row) for f, row in head if _asks(row, opens) and row.get("session")]
    if not asking:
        return fused
    # one pass over the columns for every asking turn's session, not one per turn
    pool = np.flatnonzero(np.isin(session, session[[f.index for f, _ in asking]]) & alive)
    if mask is not None:
        pool = pool[mask[pool]]
    moved = False
    asked = bool(query_text) and engine.analyzer.asks_the_assistant(query_text)
    for f, row in asking:
        doc = f.index
        same = pool[(session[pool] == session[doc]) & (source[pool] == source[doc])
                    & (ts[pool] > ts[doc])]
        if not len(same):
            continue
        after = int(same[np.argmin(ts[same])])
        if _said_elsewhere(engine, after, read=read):
            continue
        lent = (SHARE_ASKED if _only_asks(row, opens) or (asked and _asks_once(row, opens))
                else SHARE) * f.score
        if lent <= 0:
            continue
        target = by_index.get(after)
        if target is None:
            target = Fused(after, lent, sources=["answer"], timestamp=float(ts[after]))
            fused.append(target)
            by_index[after] = target
            moved = True
        elif target.score < lent:
            target.score = lent
            target.sources = [*target.sources, "answer"]
            moved = True
    if moved:
        best_first(fused)
    return fused


def formulas_last(engine, fused: list[Fused], read: dict | None = None) -> list[Fused]:
    """`fused` (best first, a question's) with the turns of its first `WINDOW` texts that are
    formulas ("Of course, and I hope your sister's having a settled day.", said word for word
    in other rows) and their copies among the first `READ` results put under the window's
    other results: they answer no question. Scores stay in order; nothing read beyond the
    window's rows and the formulas' few copies (`read`: those the search read already)."""
    codes = turn_codes()
    source = engine.index.cols["source"]
    ahead = fused[:READ]
    texts = [(row or {}).get("summary")
             for row in engine.index.rows([f.index for f in ahead], read)]
    formulas, seen = set(), set()
    for f, text in zip(ahead, texts):
        if text in seen:
            continue
        seen.add(text)
        if int(source[f.index]) in codes and _said_elsewhere(engine, f.index, text, read):
            formulas.add(text)
        if len(seen) == WINDOW:
            break
    if not formulas:
        return fused
    rest = [f for f, text in zip(ahead, texts) if text not in formulas]
    if not rest:
        return fused
    under = rest[min(WINDOW, len(rest)) - 1].score
    over = [f for f, text in zip(ahead, texts) if text in formulas and f.score >= under]
    if not over or under <= 0:
        return fused
    top = max(f.score for f in over)
    for f in over:  # just under the window, in their own order
        f.score = under * (1.0 - 1e-6) * f.score / top
    best_first(fused)
    return fused
