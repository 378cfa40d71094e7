"""The relevance floor: whether a search found anything at all (docs/ranking.md, "The relevance
floor").

Fusion always ranks something: a semantic ladder has nearest neighbours for any question, and
a keyword ladder a row holding one common word of it. When a ladder states an evidence floor
(the semantic ladder: its embedder's measured cosine, `Embedder.evidence_floor`), a search
counts as having found something only when some candidate is evidence: that ladder scores it
at or above its floor, or a keyword ladder holds it with at least `COVERAGE` of the query's
idf mass (a keyword ladder that cannot tell its coverage is taken at its word), unless the
query holds a word no row of the home holds (`Ladder.unheld`): then the home's words are not
the question's topic, or not all of it ("how did the thing with the marquee go?", "did
anything come of the gramophone?" hold half their idf mass in "thing", "go", "come"), and the
semantic ladder alone judges, its band's second look reading exactly those words. When none is,
the page is empty (`carto search` exits 3) and the document's `floor` says why, with how many
candidates fell below it. No stated floor (a keyword-only search, a lookup whose semantic
ladder was gated out, an embedder never measured for one): every candidate is evidence.

A ladder may also state a band above its floor (`Ladder.evidence_band`, minilm's
`Embedder.evidence_band`), where nearness alone cannot tell a vague question's answer from an
unseen question's neighbour: a best score in the band is evidence only when the ladder's
`confirm()` (a model run over its first rows) reaches `confirm_min`. It is asked last, and
only when nothing else is evidence.

The band is for a person's words. Given which rows are turns of a conversation
(`conversation`), a row that is not one (a commit, a note, a prompt from the hook, a wrapup,
research) is evidence only from the band: under it, only the ladder's turns are judged, and
the second look reads them alone (`Ladder.confirm_rows`). A vague question is answered in other
words by something said ("What have I told you about my relatives?", "My aunt is planning
grandpa's ninetieth"); a record of work is found by its own words, and records are what an
unseen question's nearest neighbours were on a home of coding work (docs/ranking.md, "The
band is for a person's words").

A turn in which the agent worked (its row names the tools it called: `worked`, the index's
`WORKED` bit) is a record of that work when the query holds a word no row holds: it names
what it worked on, as a commit does, and its many words align with any unseen word in the
second look; on a home of such turns the floor let nearly every unseen question through
(docs/ranking.md, "A turn of work is a record").

Beside a word no row holds, one common word of the question is no topic ("nextflow pipeline
resume" and a commit about a pipeline): on a ladder of many records (`RECORDS_COUNTED`), a
record is evidence when it holds two words of the query (when the home holds two), or one and
scores `ONE_WORD_RISE` over its record band (docs/ranking.md, "Two words of the question
beside a word no row holds").

A name the query spells that no row holds ("Can the facts census run as a DuckDB query?":
`unheld_names`) is what the question is about: on a ladder of many records
(`RECORDS_COUNTED`), no record is evidence beside one, since a home that never wrote the name
never held the thing. A turn is judged as before: people and places are named in a chat as
its speakers please, not as a question about it will (docs/ranking.md, "A name no row
holds").

How near an unrelated question's nearest record comes grows with how many records there are to
be near (the top of N unrelated scores), so records are judged from `record_band`: the band at
`RECORDS_AT_BAND` records, `BAND_PER_HALVING` lower for each halving under it (never under the
floor) and as much higher for each doubling over it, up to `BAND_RISE` over the band. A new
user's commits asked for in other words score 0.26-0.35; an unseen question's nearest of 50
commits scores under 0.32 nine times in ten, its nearest of a thousand under 0.40
(docs/ranking.md, "A home of few records", "and one of many"). Over the band a record is
still a candidate for fusion: the rise judges whether the search found anything, not the page.

The floor judges the search, not each result: once one candidate is evidence, the page is the
one fusion ranked. A per-result floor cost the answers that only a weak semantic match finds
(measured in docs/ranking.md).
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Callable

from carto_core.util.records import Record

if TYPE_CHECKING:
    import numpy as np

#: A word as typed: letters and digits, joined by an apostrophe or a dash ("don't", "e-mail").
TYPED_WORD = r"[^\W_]+(?:['\u2019-][^\W_]+)*"
#: The share of the query's idf mass a keyword candidate must hold to be evidence by itself.
COVERAGE = 0.5
#: From this many records (rows the semantic ladder can hold that are no turn), a record is
#: evidence from the band; on fewer, from `record_band`.
RECORDS_AT_BAND = 200
#: How far under the band a record is evidence for each halving of the records under
#: `RECORDS_AT_BAND`, and how far over it for each doubling over it.
BAND_PER_HALVING = 0.015
#: The most a record's evidence score rises over the band on a home of many records.
BAND_RISE = 0.02
#: Beside a word no row holds, how far over its record band a record holding one word of the
#: query is evidence (one holding two is evidence from the band).
ONE_WORD_RISE = 0.10
#: How many records are counted at most: past them the rise is whole.
RECORDS_COUNTED = math.ceil(RECORDS_AT_BAND * 2 ** (BAND_RISE / BAND_PER_HALVING))
_OFF = frozenset({"0", "false", "no", "off"})
_ON = frozenset({"", "1", "true", "yes", "on"})


def switched_off(config=None) -> bool:
    """`CARTO_SEARCH_FLOOR=off` (or `[search] floor = false`): every search counts as found.
    A value that is neither a switch's on nor its off (`floor = "maybe"`, `floor = 2`) raises
    ValueError naming it: read as on, a floor someone meant to switch off would quietly go on
    judging (`carto config` refuses the same values)."""
    value: object = os.environ.get("CARTO_SEARCH_FLOOR", "")
    if value == "" and config is not None:
        value = config.get("search.floor", True)
    if isinstance(value, bool):
        return not value
    if isinstance(value, str) and value.strip().lower() in _OFF | _ON:
        return value.strip().lower() in _OFF
    raise ValueError(f"unknown relevance floor switch {str(value)!r}; accepted: true, false "
                     "(on/off, yes/no, 1/0)")


class FloorReport(Record):
    """The `floor` of the --json document."""

    _fields = ("enabled", "found", "coverage_min", "semantic_min", "best_coverage",
               "best_semantic", "below", "reason", "semantic_band", "confirm_min", "best_confirm",
               "confirm_words", "best_turn", "record_band", "unheld_words")
    enabled: bool
    #: Some candidate is evidence (or the floor is off, or there was no candidate).
    found: bool
    coverage_min: float
    #: The semantic ladder's evidence floor on its own scale (None: no ladder stated one).
    semantic_min: float | None
    best_coverage: float | None
    best_semantic: float | None
    #: Candidates left out because none of them was evidence (0 when found).
    below: int
    reason: str
    #: When the best semantic match fell in its ladder's band (from `semantic_min` up to
    #: `semantic_band`) and was checked: the check's score and the score it needed.
    semantic_band: float | None
    confirm_min: float | None
    best_confirm: float | None
    #: The words the second look judged: the query's words the home never holds.
    confirm_words: list[str]
    #: When the best semantic match fell under the band, which is for conversation turns
    #: alone: the best turn's score (None: no turn among the matches, or no such judgement).
    best_turn: float | None
    #: When records were judged from another score than the band (a home of few records, or of
    #: many): the score from which a record was evidence.
    record_band: float | None
    #: The query's words no row holds, as typed (lower-cased), when a keyword match was no
    #: evidence because of them or when the page is empty, so an agent can ask again in the
    #: home's words.
    unheld_words: list[str]

    def __init__(self, enabled: bool, found: bool, coverage_min: float = COVERAGE,
                 semantic_min: float | None = None, best_coverage: float | None = None,
                 best_semantic: float | None = None, below: int = 0, reason: str = "",
                 semantic_band: float | None = None, confirm_min: float | None = None,
                 best_confirm: float | None = None, confirm_words: list[str] | None = None,
                 best_turn: float | None = None, record_band: float | None = None,
                 unheld_words: list[str] | None = None):
        self.enabled = enabled
        self.found = found
        self.coverage_min = coverage_min
        self.semantic_min = semantic_min
        self.best_coverage = best_coverage
        self.best_semantic = best_semantic
        self.below = below
        self.reason = reason
        self.semantic_band = semantic_band
        self.confirm_min = confirm_min
        self.best_confirm = best_confirm
        self.confirm_words = list(confirm_words or [])
        self.best_turn = best_turn
        self.record_band = record_band
        self.unheld_words = list(unheld_words or [])

    def to_dict(self) -> dict:
        def r(x):
            return None if x is None else round(float(x), 4)

        return {"enabled": self.enabled, "found": self.found,
                "coverage_min": r(self.coverage_min), "semantic_min": r(self.semantic_min),
                "best_coverage": r(self.best_coverage), "best_semantic": r(self.best_semantic),
                "below": self.below, "reason": self.reason,
                "semantic_band": r(self.semantic_band), "confirm_min": r(self.confirm_min),
                "best_confirm": r(self.best_confirm), "confirm_words": list(self.confirm_words),
                "best_turn": r(self.best_turn), "record_band": r(self.record_band),
                "unheld_words": list(self.unheld_words)}


def judge(ladders: list, candidates: int, stated: list[float], *, enabled: bool = True,
          coverage_min: float = COVERAGE,
          conversation: Callable[[np.ndarray], np.ndarray] | None = None,
          records: Callable[[object], int] | None = None,
          unheld_words: Callable[[], list[str]] | None = None,
          unmatched: list[str] | None = None,
          holding: Callable[[np.ndarray], np.ndarray] | None = None,
          worked: Callable[[np.ndarray], np.ndarray] | None = None,
          needed: Callable[[], int] | None = None,
          named: Callable[[], list[str]] | None = None) -> FloorReport:
    """Whether the search found anything, from the ladders fusion was given (scoped, cut to
    depth, none empty), the number of candidates fusion kept, and the evidence floors the
    ladders stated (an empty ladder's too). No stated floor: every candidate is evidence, as
    before the floor (a keyword-only search, a lookup whose semantic ladder was gated out, an
    embedder never measured for one). `conversation`: for a ladder's documents, which are
    turns of a conversation (under a ladder's band only they can be evidence, and records from
    `record_band`); None: every row is judged alike. `records`: for a ladder, how many records
    it can hold (None: many, the band). `unheld_words`: the query's words no row holds, asked
    only to say them in the reason of a search that found nothing beside them. `unmatched`:
    the query's `word*` prefixes and short shas, as typed, that no row's word starts with: a
    search asking for a word by its spelling found nothing when no row holds one, whatever
    is near it in meaning. `holding`: for a ladder's documents, how many of the query's words
    each holds (a bool: whether it holds one; a record holding none is no evidence at any
    score); None: records are judged by their score alone. `needed`: how many words a record
    must hold (asked when one reaches the band: 2 when the query holds a word no row holds and
    two the home holds), on a ladder of `RECORDS_COUNTED` records or more; a record holding
    fewer but one is evidence from `ONE_WORD_RISE` over its record band; None: one. `worked`:
    for a ladder's documents, which are turns in which the agent worked (called tools); when a
    keyword ladder says the query holds a word no row holds, they are judged as records (a turn
    of work names what it worked on, as a commit does); None: every turn is a person's
    words. `named`: the query's words no row holds written as names (`unheld_names`), asked
    when a record reaches the band, on a ladder of `RECORDS_COUNTED` records or more: beside
    one, no record is evidence; None: no name is judged."""
    if not enabled:
        return FloorReport(False, True, coverage_min)
    if unmatched:
        return FloorReport(True, False, coverage_min, below=candidates,
                           unheld_words=list(unmatched),
                           reason=f"{candidates} candidate(s) below the relevance floor: no row "
                                  f"holds a word starting as {', '.join(unmatched)} does (a "
                                  "`word*` or a short sha asks for such a word, not for "
                                  "what is near it in meaning)")
    if not stated:
        return FloorReport(True, True, coverage_min)
    best_cov = best_sem = best_turn = moved = None
    turns_only = False  # some ladder's band was for its turns alone
    unheld = False  # a keyword ladder's query held a word no row holds
    wordless = False  # a record reached the band holding no word of the query
    need = None  # how many words of the query a record must hold (`needed`), once asked
    names = None  # the query's words no row holds written as names (`named`), once asked
    one_word = None  # from where a record holding one word is evidence, when `need` is more
    of_work = False  # turns of work were judged as records
    evidence = False
    confirming = []  # ladders whose best candidate lies in their band: judged last, if needed
    if worked is not None and not any(ladder.unheld for ladder in ladders
                                      if ladder.evidence_floor is None
                                      and ladder.coverage is not None):
        worked = None  # every word of the query is the home's: a turn of work is a turn
    for ladder in ladders:
        floor = ladder.evidence_floor
        if floor is not None:
            top = float(max(ladder.scores))
            best_sem = top if best_sem is None else max(best_sem, top)
            band = ladder.evidence_band
            from_ = record_band(ladder, records) if conversation is not None else band
            if band is not None and conversation is not None:
                import numpy as np

                turns = np.asarray(conversation(ladder.indices), bool)
                if worked is not None and turns.any():
                    work = turns & np.asarray(worked(ladder.indices), bool)
                    if work.any():
                        turns &= ~work
                        of_work = True  # its turns of work were judged as records
                worded = _best(ladder.scores[~turns])
                # which records hold a word of the query is read only when one reaches the band
                if worded >= min(band, from_) and holding is not None:
                    if need is None:
                        need = needed() if needed is not None else 1
                    many = _many(ladder, records)
                    two = need > 1 and many
                    near = from_ + ONE_WORD_RISE if two else math.inf
                    if two:
                        one_word = near if one_word is None else min(one_word, near)
                    worded = _best_worded_record(ladder, turns, holding, need if two else 1,
                                                 near)
                    if many and named is not None:
                        names = named() if names is None else names
                        if names:  # the question is about a thing no record names
                            worded = float("-inf")
                    # a record holding no word of the query is no evidence at any score
                    anchored = min(top, max(_best(ladder.scores[turns]), worded))
                    if anchored < top:
                        wordless = True  # its best was a record holding no word of the query
                    top = anchored
            if band is not None and conversation is not None and top < max(band, from_):
                ladder.confirm_rows = ladder.indices[turns]
                turns_only = True
                if from_ != band:
                    moved = from_ if moved is None else min(moved, from_)
                if worded >= from_:
                    evidence = True  # a record from the band this home's records set
                if not turns.any():
                    continue  # no turn among its matches, and no record reaches the band
                top = float(max(ladder.scores[turns]))
                best_turn = top if best_turn is None else max(best_turn, top)
            if (top >= floor and band is not None and top < band and ladder.confirm is not None
                    and ladder.confirm_min is not None):
                confirming.append(ladder)
            else:
                evidence = evidence or top >= floor
        elif ladder.coverage is not None:
            top = float(max(ladder.coverage))
            best_cov = top if best_cov is None else max(best_cov, top)
            if ladder.unheld:
                unheld = True  # its words are the home's; the question's topic may not be
                continue
            evidence = evidence or top >= coverage_min
        else:
            evidence = True  # a ranker that cannot tell its coverage: taken at its word
    semantic_min = min(stated)
    report = FloorReport(True, True, coverage_min, semantic_min, best_cov, best_sem,
                         best_turn=best_turn, record_band=moved)
    # Fusion ranked nothing although the ladders matched: every match was a record under the
    # band, set aside before fusion as no evidence (`pipeline.records_set_aside`). The floor
    # says so (no candidate is below it), not an empty page with nothing to say.
    set_aside = _documents(ladders) if not candidates else 0
    if evidence or not (candidates or set_aside):
        return report
    for ladder in confirming:  # the dear check (a model run per candidate): only now
        score = ladder.confirm()
        report.semantic_band = ladder.evidence_band
        report.confirm_min = ladder.confirm_min
        report.confirm_words = sorted(set(report.confirm_words) | set(ladder.confirm_words))
        if score is None or score >= ladder.confirm_min:
            report.best_confirm = score
            return report
        report.best_confirm = score if report.best_confirm is None else max(report.best_confirm,
                                                                           score)
    report.found = False
    report.below = candidates
    parts = []
    if names:
        parts.append(f"the query names {', '.join(names)}, which no row holds (a record is no "
                     "evidence then)")
    if best_cov is not None and unheld:
        report.unheld_words = list(unheld_words()) if unheld_words is not None else []
        named = f"{', '.join(report.unheld_words)}: " if report.unheld_words else ""
        parts.append(f"the best keyword match holds {best_cov:.0%} of the query, which holds "
                     f"words no row holds ({named}no keyword match is evidence then)")
    elif best_cov is not None:
        parts.append(f"the best keyword match holds {best_cov:.0%} of the query (evidence "
                     f"from {coverage_min:.0%})")
    parts.append(f"the closest semantic match scores {best_sem:.2f}" if best_sem is not None
                 else "the semantic ladder found no match")
    if turns_only:
        band = min(ladder.evidence_band for ladder in ladders
                   if ladder.evidence_floor is not None and ladder.evidence_band is not None)
        closest = (f"the closest scores {best_turn:.2f}" if best_turn is not None
                   else "none among the matches")
        side = "few" if moved is not None and moved < band else "many"
        records_from = ("" if moved is None
                        else f", a record from {moved:.2f} among {side} records")
        if wordless and one_word is not None:
            records_from = ((records_from or ", a record") + f" when it holds {need} words of "
                            f"the query, or one from {one_word:.2f}")
        elif wordless:
            records_from = (records_from or ", a record") + " when it holds a word of the query"
        if of_work:
            records_from += ", a turn in which the agent worked as a record"
        if of_work or (wordless and one_word is not None):
            records_from += ", the query holding a word no row holds"
        parts[-1] += (f" (evidence from {band:.2f}{records_from}; a conversation turn from "
                      f"{semantic_min:.2f}: {closest})")
    if report.best_confirm is not None:
        named = f" ({', '.join(report.confirm_words)})" if report.confirm_words else ""
        parts[-1] += (f" (evidence from {report.semantic_band:.2f}, or from {semantic_min:.2f} "
                      f"when the query's words the home never holds{named} find their "
                      f"counterpart in a top match: the best aligns at "
                      f"{report.best_confirm:.2f}, evidence from {report.confirm_min:.2f})")
    elif not turns_only:
        parts[-1] += f" (evidence from {semantic_min:.2f})"
    head = (f"{candidates} candidate(s) below the relevance floor" if candidates else
            f"{set_aside} match(es), each a record under the band, none a candidate")
    report.reason = f"{head}: " + "; ".join(parts)
    return report


def _best_worded_record(ladder, turns, holding, need: int = 1, near: float = math.inf) -> float:
    """The best score of the ladder's records that hold `need` words of the query (`holding`;
    all its records when it is None), or one and score `near` or more; -inf without one. A
    record is found by its own words: an unrelated question's nearest commit shares none of
    them ("Why is TensorFlow training so slow on the GPU box?" and a commit about reading a
    log's end, 0.43), while a question about a commit in other words still names one of its
    words nearly always (docs/ranking.md, "A record holds a word of the question"). Beside a
    word no row holds, one common word is no topic ("nextflow pipeline resume" and a commit
    about a pipeline): two are, or one with a record very near (docs/ranking.md, "Two words of
    the question beside a word no row holds")."""
    import numpy as np

    records = ~turns
    if holding is not None and records.any():
        held = np.asarray(holding(ladder.indices))  # a bool compares as 0 and 1
        records &= (held >= need) | ((held >= 1) & (np.asarray(ladder.scores) >= near))
    return _best(ladder.scores[records])


def _best(scores) -> float:
    """The highest of `scores`; -inf when there is none."""
    return float(max(scores)) if len(scores) else float("-inf")


def _documents(ladders: list) -> int:
    """How many distinct documents the ladders with an evidence band hold (the ladders whose
    records under the band fusion is not given)."""
    import numpy as np

    held = [np.asarray(ladder.indices) for ladder in ladders
            if len(ladder) and ladder.evidence_band is not None]
    return len(np.unique(np.concatenate(held))) if held else 0


def unheld_words(text: str, analyzer, df: Callable[[str], int]) -> list[str]:
    """The words of a query that no row holds, as typed (lower-cased, first seen first): the
    words behind the analyzer's query terms whose document count (`df`) is 0 ("kubernetes",
    "helm" on a home that never saw them; the stems the index reads are not what was typed)."""
    import re

    unheld = {term for term in analyzer.query(text).terms if df(term) == 0}
    out: list[str] = []
    for raw in re.findall(TYPED_WORD, text):
        terms = unheld.intersection(analyzer.query_terms(raw))
        if terms:  # each unheld term named once, by the first word that gave it
            out.append(re.sub("['\u2019]s$", "", raw.lower()))
            unheld -= terms
    return out


def unheld_names(text: str, analyzer, df: Callable[[str], int]) -> list[str]:
    """The query's words no row holds that are spelt as names of things, as typed (first seen
    first): a word, or a part of a hyphenated one, with a capital after a small letter
    ("RocksDB", "gRPC") or a digit after a letter ("doc2query", "bge-m3"). An abbreviation
    ("UI", "CLIs", "S3") is none, nor a number and its unit ("12am"); nor a word a capital only
    opens: "Irish", "Cyrillic", "Claude" are as often how a question in other words names what
    the home wrote otherwise (docs/ranking.md, "A name no row holds")."""
    import re

    out: list[str] = []
    for raw in re.findall(TYPED_WORD, text):
        # a name whole: "MiniLM"'s parts "mini" and "lm" are none, and a row's "minilm" holds it
        if raw not in out and any(
                _a_name(part) and not any(df(term) for term in analyzer.query_terms(part.lower()))
                for part in raw.split("-")):
            out.append(raw)
    return out


def _a_name(word: str) -> bool:
    """Whether `word` (no dash in it) is spelt as a name of a thing."""
    import re

    if re.fullmatch(r"[A-Z0-9]+(?:['’]?s)?", word):
        return False  # an abbreviation, plural or possessive too
    return bool(re.search(r"[a-z][A-Z]|[^\W\d_]\d", word))


def _many(ladder, records: Callable[[object], int] | None) -> bool:
    """Whether `ladder` can hold `RECORDS_COUNTED` records or more (None: many): a home of few
    records holds few of the words a question about them uses, so a word none holds tells
    nothing there."""
    return records is None or records(ladder) >= RECORDS_COUNTED


def record_band(ladder, records: Callable[[object], int] | None) -> float | None:
    """The score from which a record (a row that is no turn) of `ladder` is evidence: its band,
    moved by `BAND_PER_HALVING` for each halving (lower) or doubling (higher) of the records it
    can hold (`records(ladder)`, within the search's scope) from `RECORDS_AT_BAND`,
    never under its floor nor more than `BAND_RISE` over the band. `records` None: the band
    (None for a ladder with no band)."""
    band = ladder.evidence_band
    if records is None or band is None or ladder.evidence_floor is None:
        return band
    moved = band + BAND_PER_HALVING * math.log2(max(records(ladder), 1) / RECORDS_AT_BAND)
    return min(band + BAND_RISE, max(ladder.evidence_floor, moved))
