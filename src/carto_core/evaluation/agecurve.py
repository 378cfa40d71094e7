"""The age-curve known-item harness and recency cases (reference section 3.9, carto's own).

Known-item cases: events sampled per age bucket (<7d, 7-30d, 30-90d, 90d+); the query is the 3-4
highest-IDF terms of the event's own text (its summary chain; never its event_id, and no long
digit-bearing tokens such as hashes, which would make the lookup trivial); queries that more than
`max_matches` events hold in full are dropped (they are not lookups of one item). Success@1,
success@10 and MRR@10 per bucket.

Recency cases: vague topic queries (two terms that many recent and old events share); the truth
is the newest event holding every term, which must stay in the top 10. They keep "never decay"
from winning the table.

Labelled cases file (JSONL, one case per line; `carto eval --cases FILE`, `--write-cases FILE`)::

    {"id": "ki-90d+-017", "kind": "known-item", "query": "quokka ledger schema",
     "expect": ["evt-3k2j4h5g6f7d"], "k": 10, "bucket": "90d+",
     "project": null, "since": null, "before": null}

`kind` is `known-item`, `recency` or `conversational` (a question about a dialogue; its
`bucket` is the category: single, temporal, multi-hop, open; see `evaluation.dialogues`);
`expect` lists event ids of which any one in the top `k` is a success (a hit) and all of which
recall@10 looks for; `project`, `since`, `before` (WHEN grammar) scope the search.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("<7d", 0, 7), ("7-30d", 7, 30), ("30-90d", 30, 90), ("90d+", 90, float("inf")),
)
_TEXT_KEYS = ("summary", "description", "prompt", "url", "query", "milestone")
_HASHY = re.compile(r"\d")


@dataclass
class Case:
    id: str
    kind: str
    query: str
    expect: list[str]
    k: int = 10
    bucket: str = ""
    project: str | None = None
    since: str | None = None
    before: str | None = None


@dataclass
class Outcome:
    case: Case
    rank: int | None  # 1-based rank of the first expected id in the top k, None when absent
    #: How many of the expected ids are in the top 10 (recall@10 of a multi-evidence case).
    found10: int = 0


@dataclass
class ConfigReport:
    rankers: list[str]
    decay: str
    buckets: dict = field(default_factory=dict)
    recency: dict = field(default_factory=dict)
    seconds: float = 0.0
    #: category -> hit@1/5/10, recall@10, MRR (conversational cases), plus "all".
    conversational: dict = field(default_factory=dict)
    analyzer: str = ""
    #: The fusion the cases ran with (the configured one when the config named none).
    fusion: str = ""


def _all_matches(index, tokens) -> np.ndarray:
    docs = None
    for token in tokens:
        found = index.own_docs(token)
        docs = found if docs is None else np.intersect1d(docs, found, assume_unique=True)
        if not len(docs):
            break
    alive = np.asarray(index.cols["alive"])
    return docs[alive[docs]] if docs is not None and len(docs) else np.zeros(0, np.int64)


def _text(row: dict) -> str:
    return " ".join(str(row[k]) for k in _TEXT_KEYS if isinstance(row.get(k), str))


_WORD = re.compile(r"[^\W_]+")


def _words(analyzer, text: str) -> dict[str, tuple[str, ...]]:
    """Distinct surface words of `text` (what a person would type) -> the index terms the
    engine's analyzer makes of each. A word whose terms the text's own terms do not hold is
    left out ("ll" of "I'll", which the analyzer indexes as one word): its df would be 0, it
    would look rare, and a generic row would pass for a specific lookup."""
    own = set(analyzer.terms(text))
    stop = getattr(analyzer, "stop", ())  # words a query leaves out: never a lookup's word
    out: dict[str, tuple[str, ...]] = {}
    for word in dict.fromkeys(w.lower() for w in _WORD.findall(text)):
        if word in stop:
            continue
        terms = tuple(analyzer.terms(word))
        if terms and own.issuperset(terms):
            out[word] = terms
    return out


def build_cases(engine, *, now: datetime, per_bucket: int = 50, recency: int = 30,
                max_matches: int = 10, seed: int = 11) -> tuple[list[Case], dict]:
    """Sample known-item and recency cases from the engine's home. Returns (cases, stats).
    Queries are surface words of the event's text; their rarity is that of the terms the
    engine's analyzer makes of them."""
    rng = random.Random(seed)
    engine.ensure_loaded()
    index = engine.index
    analyzer = engine.analyzer
    ts = np.asarray(index.cols["ts"])
    alive = np.asarray(index.cols["alive"])
    age_days = (now.timestamp() - ts) / 86400.0
    big_n = index.n_alive
    stats = {"dropped_too_many_matches": 0, "dropped_too_few_terms": 0}
    cases: list[Case] = []
    for name, low, high in BUCKETS:
        pool = np.flatnonzero(alive & (age_days >= low) & (age_days < high))
        order = list(pool)
        rng.shuffle(order)
        made = 0
        for doc in order:
            if made >= per_bucket:
                break
            words = {w: t for w, t in _words(analyzer, _text(index.row(int(doc)))).items()
                     if not (len(w) >= 7 and _HASHY.search(w))}
            if len(words) < 3:
                stats["dropped_too_few_terms"] += 1
                continue
            rarity = {w: max(index.df(t) for t in terms) for w, terms in words.items()}
            by_idf = sorted(words, key=lambda w: (rarity[w], w))
            chosen = by_idf[:4] if len(by_idf) >= 4 else by_idf[:3]
            terms = list(dict.fromkeys(t for w in chosen for t in words[w]))
            if len(_all_matches(index, terms)) > max_matches:
                stats["dropped_too_many_matches"] += 1
                continue
            made += 1
            cases.append(Case(f"ki-{name}-{made:03d}", "known-item", " ".join(chosen),
                              [index.event_id(int(doc))], 10, name))
    # Recency: vague two-term queries taken from recent events, many full matches.
    recent = np.flatnonzero(alive & (age_days < 7))
    order = list(recent)
    rng.shuffle(order)
    made, tried = 0, 0
    for doc in order:
        if made >= recency or tried > recency * 40:
            break
        tried += 1
        words = {w: t for w, t in _words(analyzer, _text(index.row(int(doc)))).items()
                 if not _HASHY.search(w) and len(t) == 1}
        mid = [w for w, t in words.items() if 0.002 * big_n <= index.df(t[0]) <= 0.05 * big_n]
        if len(mid) < 2:
            continue
        chosen = rng.sample(mid, 2)
        terms = [words[w][0] for w in chosen]
        matches = _all_matches(index, terms)
        if len(matches) <= 3 * max_matches:
            continue
        newest = int(matches[np.nanargmax(ts[matches])])
        made += 1
        cases.append(Case(f"rc-{made:03d}", "recency", " ".join(chosen), [index.event_id(newest)],
                          10, "recency"))
    stats["known_item"] = sum(1 for c in cases if c.kind == "known-item")
    stats["recency"] = made
    return cases, stats


def run_cases(engine, cases: list[Case], rankers: list[str], decay: str, *,
              now: datetime, fusion: str | None = None) -> list[Outcome]:
    from carto_core.search import SEMANTIC, SearchRequest, run_search
    from carto_core.util.timeparse import parse_when

    outcomes = []
    for case in cases:
        request = SearchRequest(
            query=case.query, project=case.project, limit=max(case.k, 10), rankers=rankers,
            decay=decay, fusion=fusion,
            semantic=SEMANTIC in rankers, all=True, now=now, facets=False,
            since=parse_when(case.since, now=now) if case.since else None,
            before=parse_when(case.before, now=now) if case.before else None)
        result = run_search(request, engine=engine)
        ids = [hit.event_id for hit in result.results]
        rank = next((position for position, eid in enumerate(ids, 1) if eid in case.expect), None)
        outcomes.append(Outcome(case, rank, len(set(ids[:10]) & set(case.expect))))
    return outcomes


def conversational_table(outcomes: list[Outcome]) -> dict:
    """category -> n, hit@1, hit@5, hit@10, recall@10, mrr (and the same over "all")."""
    rows = [o for o in outcomes if o.case.kind == "conversational"]
    out = {}
    groups = {c: [o for o in rows if o.case.bucket == c] for c in dict.fromkeys(o.case.bucket for o in rows)}
    if rows:
        groups["all"] = rows
    for name, group in groups.items():
        n = len(group)
        out[name] = {
            "n": n,
            **{f"hit@{k}": round(sum(1 for o in group if o.rank and o.rank <= k) / n, 3)
               for k in (1, 5, 10)},
            "recall@10": round(sum(o.found10 / len(o.case.expect) for o in group) / n, 3),
            "mrr": round(sum(1.0 / o.rank for o in group if o.rank) / n, 3),
        }
    return out


def summarize(outcomes: list[Outcome]) -> tuple[dict, dict]:
    buckets: dict[str, dict] = {}
    known = [o for o in outcomes if o.case.kind not in ("recency", "conversational")]
    for name in [b[0] for b in BUCKETS] + sorted({o.case.bucket for o in known} - {b[0] for b in BUCKETS} - {"recency"}):
        rows = [o for o in known if o.case.bucket == name]
        if not rows:
            continue
        n = len(rows)
        buckets[name] = {
            "n": n,
            "success@1": round(sum(1 for o in rows if o.rank == 1) / n, 3),
            "success@10": round(sum(1 for o in rows if o.rank is not None and o.rank <= 10) / n, 3),
            "mrr": round(sum(1.0 / o.rank for o in rows if o.rank) / n, 3),
        }
    rec = [o for o in outcomes if o.case.kind == "recency"]
    recency = {"n": len(rec),
               "kept_in_top10": round(sum(1 for o in rec if o.rank and o.rank <= 10) / len(rec), 3) if rec else None,
               "success@1": round(sum(1 for o in rec if o.rank == 1) / len(rec), 3) if rec else None,
               "lost": [o.case.id for o in rec if not (o.rank and o.rank <= 10)]}
    return buckets, recency


def evaluate(engine, cases: list[Case], configs: list[tuple], *,
             now: datetime) -> list[ConfigReport]:
    """configs: (rankers, decay) or (rankers, decay, fusion) tuples, each run on every case."""
    reports = []
    for config in configs:
        rankers, decay = config[0], config[1]
        fusion = config[2] if len(config) > 2 else None
        t0 = time.perf_counter()
        outcomes = run_cases(engine, cases, rankers, decay, now=now, fusion=fusion)
        buckets, recency = summarize(outcomes)
        if fusion is None:
            from carto_core.model.config import load_config

            fusion = str(load_config().get("search.fusion"))
        reports.append(ConfigReport(rankers, decay, buckets, recency,
                                    round(time.perf_counter() - t0, 2),
                                    conversational_table(outcomes),
                                    engine.analyzer.name, fusion))
    return reports


#: The kinds a cases file may name (docs/ranking.md); any other would be counted as a known-item.
KINDS = ("known-item", "recency", "conversational")


def read_cases(path: Path) -> list[Case]:
    """The cases of a JSONL file; a line the format does not allow is a ValueError naming the
    file, the line and what is wrong (a case is checked here, not half way through a run)."""
    cases = []
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # the text before the bad byte decodes; a stand-in for the byte ends it, so its last
        # line is the byte's line (split as the cases are split below) and its length the column
        lines = (data[:exc.start].decode("utf-8") + "\0").splitlines()
        lineno, column = len(lines), len(lines[-1])
        raise ValueError(f"{path}:{lineno}: not UTF-8 (byte 0x{data[exc.start]:02x} at column "
                         f"{column}); save the file as UTF-8") from None
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            known = _case_fields(line)
        except ValueError as exc:
            raise ValueError(f"{path}:{lineno}: {exc}") from None
        known.setdefault("id", f"case-{lineno}")
        known.setdefault("kind", "known-item")
        cases.append(Case(**known))
    return cases


def _case_fields(line: str) -> dict:
    from carto_core.util.timeparse import WhenError, parse_when

    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"a case is a JSON object, not {_json_kind(data)}")
    if not isinstance(data.get("query"), str) or not isinstance(data.get("expect"), list):
        raise ValueError("a case needs a string `query` and a list `expect`")
    known = {f: data[f] for f in Case.__dataclass_fields__ if f in data}
    wrong = [i for i in known["expect"] if not isinstance(i, str)]
    if wrong:
        raise ValueError(f"expect: event ids are strings, not {wrong[0]!r}")
    if known.get("kind", KINDS[0]) not in KINDS:
        raise ValueError(f"kind: {known['kind']!r} is not one of {', '.join(KINDS)}")
    k = known.get("k", 10)
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k: {k!r} is not a whole number of 1 or more")
    for name in ("id", "bucket"):
        if not isinstance(known.get(name, ""), str):
            raise ValueError(f"{name}: {known[name]!r} is not a string")
    for name in ("project", "since", "before"):
        if not isinstance(known.get(name), (str, type(None))):
            raise ValueError(f"{name}: {known[name]!r} is not a string or null")
    for name in ("since", "before"):
        if known.get(name):
            try:
                parse_when(known[name])
            except WhenError as exc:
                raise ValueError(f"{name}: {exc}") from None
    return known


def _json_kind(value) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def write_cases(path: Path, cases: list[Case]) -> None:
    Path(path).write_text("".join(json.dumps(asdict(c)) + "\n" for c in cases), "utf-8")


def now_utc() -> datetime:
    return datetime.now(timezone.utc)
