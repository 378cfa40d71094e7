"""A learned re-ordering of the default search's first 50, measured set by set
(docs/ranking.md, "A learned order of the first fifty").

Two steps. `dump` runs the default search (english, minilm, rrf-prior, gated-prior, explain on)
for every case of `eval_recall.py`'s indexed homes and keeps each case's first 50 results with
their `why` (each ladder's rank, the fused score, the decay and boost, the answer step's mark).
`cv` describes each result by what the search knew of it and of its neighbours on the page
(its place, each ladder's rank, the flags, whether it asks, how many of the question's content
words it holds, the place of the turn before and after it in its session, its age among the
fifty, the question's opening word), then, for each family of sets in turn (dlg-a's three
homes are one family, pair-9 and pair-9-bare another), fits a classifier on every other family
and re-orders the held-out family's fifty by it: hit@1 / hit@10 of the default and of the
re-ordering, family by family. No family is ever scored by a model that saw it.

    .venv/bin/python benchmarks/search/eval_recall.py --out OUT --sets dlg-a,...,pair-10 ...
    .venv/bin/python benchmarks/search/probe_learned.py dump --homes OUT --into DUMP
    .venv/bin/python benchmarks/search/probe_learned.py cv --dump DUMP [--model gbt|lr]
        [--drop overlap,neighbours]   # leave a group of features out

The content words here are a probe's (a stop list and a six-letter stem), not the analyzer's:
a re-ordering built into the search would compute its own and be fitted again on them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve()
STOP = set("""a an the i me my we our you your he she it they them his her its their of to in on at
for with about from by as and or but if so is are was were be been being do does did have has had
what which who whom where when why how that this these those there here not no any some all can
could would should will shall may might must just than then too very into over after before up
down out off again once tell told say said""".split())
NOW_WORDS = ("now", "these days", "currently", "latest", "still", "nowadays", "at the moment",
             "lately", "recent")
OPENERS = ("what", "where", "who", "when", "which", "how", "why", "did", "do", "is", "has")
WORD = re.compile(r"[a-z0-9']+")
GROUPS = {"place": range(0, 5), "ladders": range(5, 10), "flags": range(10, 16),
          "text": range(16, 19), "overlap": range(19, 22), "neighbours": range(22, 26),
          "age": range(26, 27), "kind": range(27, 29), "question": range(29, 44)}


def _stem(word: str) -> str:
    word = word.replace("'", "")
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)][:6]
    return word[:6]


def content_words(text: str) -> set[str]:
    return {_stem(w) for w in WORD.findall(text.lower()) if w not in STOP and len(w) > 2}


def family(home: str) -> str:
    if home.startswith("pair-"):
        return home.replace("-bare", "")
    return home.rsplit("-", 1)[0]


def features(case: dict) -> list[list[float]]:
    """One row of features per result of the case's first 50 (GROUPS names their columns)."""
    query = case["query"]
    lowered = query.lower()
    asked = content_words(query)
    hits = case["hits"]
    if not hits:
        return []
    top = hits[0]["score"] or 1e-9
    top_fused = max((h["why"] or {}).get("fused_score", 0) for h in hits) or 1e-9
    place = {h["id"]: i for i, h in enumerate(hits, 1)}
    by_age = sorted(range(len(hits)), key=lambda i: hits[i]["ts"] or "", reverse=True)
    age = {i: r for r, i in enumerate(by_age, 1)}
    words = [content_words(h["text"] or "") for h in hits]
    held = [len(asked & w) / max(1, len(asked)) for w in words]
    best_held = max(held)
    question = [len(asked), int("you" in WORD.findall(lowered)),
                int(any(w in lowered for w in NOW_WORDS)), int(query.rstrip().endswith("?"))]
    question += [int(lowered.startswith(w)) for w in OPENERS]
    rows = []
    for i, hit in enumerate(hits):
        why = hit["why"] or {}
        ranks = why.get("ranks", {})
        semantic = ranks.get("semantic")
        keyword = [v for k, v in ranks.items() if k != "semantic"]
        best_keyword = min(keyword) if keyword else None
        text = hit["text"] or ""
        session, _, turn = hit["id"].rpartition("-")
        before = place.get(f"{session}-{int(turn) - 1}") if turn.isdigit() else None
        after = place.get(f"{session}-{int(turn) + 1}") if turn.isdigit() else None
        rows.append([
            i + 1, 1 / (i + 1), hit["score"] / top, math.log(max(hit["score"], 1e-9) / top),
            why.get("fused_score", 0) / top_fused,
            math.log1p(semantic) if semantic else 7.0, int(semantic is not None),
            math.log1p(best_keyword) if best_keyword else 7.0, int(best_keyword is not None),
            len(keyword),
            int("answer" in why.get("sources", [])), int(bool(why.get("holds_all_tokens"))),
            int(bool(why.get("gated"))), why.get("boost", 1.0), why.get("decay", 1.0),
            why.get("salience", 0.5),
            int(text.rstrip().endswith("?")), int("?" in text), math.log1p(len(text)),
            held[i], held[i] - best_held, len(asked & words[i]),
            1 / before if before else 0.0, held[before - 1] if before else 0.0,
            int((hits[before - 1]["text"] or "").rstrip().endswith("?")) if before else 0,
            1 / after if after else 0.0,
            age[i] / len(hits),
            int(hit["type"] == "transcript"), hit.get("dup", 0),
            *question])
    return rows


def dump(homes: Path, into: Path, names: list[str]) -> None:
    sys.path.insert(0, str(HERE.parents[2] / "src"))
    sys.path.insert(0, str(HERE.parents[2] / "rankers" / "src"))
    os.environ["CARTO_EMBEDDER"] = "minilm"
    from carto_core.evaluation import agecurve
    from carto_core.logio.home import Home
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine
    from carto_core.search.indexing import index_steps
    from carto_core.util.timeparse import parse_when

    spec = importlib.util.spec_from_file_location("eval_recall", HERE.parent / "eval_recall.py")
    eval_recall = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(eval_recall)
    now = eval_recall.NOW
    into.mkdir(parents=True, exist_ok=True)
    for root in sorted(p for p in homes.iterdir() if (p / "cases.jsonl").exists()):
        if names and family(root.name) not in names:
            continue
        target = into / f"{root.name}.jsonl"
        if target.exists():
            continue
        started = time.process_time()
        engine = SearchEngine(Home(root), persist=True, analyzer="english", auto_refresh=False)
        engine.ensure_loaded()
        for step in index_steps(engine, ["semantic"]):
            step.run(engine)
        lines = []
        for case in agecurve.read_cases(root / "cases.jsonl"):
            result = run_search(SearchRequest(
                query=case.query, project=case.project, limit=50, rankers=["bm25", "semantic"],
                decay="gated-prior", fusion="rrf-prior", semantic=True, all=True, now=now,
                facets=False, explain=True,
                since=parse_when(case.since, now=now) if case.since else None,
                before=parse_when(case.before, now=now) if case.before else None), engine=engine)
            lines.append(json.dumps({
                "case": case.id, "kind": case.kind, "bucket": case.bucket, "query": case.query,
                "expect": list(case.expect),
                "hits": [{"id": h.event_id, "score": h.score, "type": h.type, "ts": h.timestamp,
                          "text": h.summary, "why": h.why, "dup": h.duplicates}
                         for h in result.results]}, default=str) + "\n")
        part = target.with_suffix(".part")
        part.write_text("".join(lines))
        part.rename(target)
        print(f"{root.name}: {len(lines)} cases, {time.process_time() - started:.0f} CPU s",
              flush=True)


def _rank(ids: list[str], expect: list[str]) -> int | None:
    return next((i for i, x in enumerate(ids, 1) if x in expect), None)


def cv(folder: Path, model: str, drop: list[str]) -> None:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    dropped = {c for name in drop for c in GROUPS[name]}
    keep = [c for c in range(44) if c not in dropped]
    data = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            case = json.loads(line)
            if case["kind"] != "conversational":
                continue
            rows = [[row[c] for c in keep] for row in features(case)]
            data.append((family(path.stem), case, rows, [h["id"] for h in case["hits"]]))
    families = sorted({d[0] for d in data})
    table = {}
    for held_out in families:
        train = [d for d in data if d[0] != held_out and d[2]]
        x = np.array([row for d in train for row in d[2]])
        y = np.array([int(i in d[1]["expect"]) for d in train for i in d[3]])
        if model == "gbt":
            fitted = HistGradientBoostingClassifier(max_depth=4, max_iter=200, learning_rate=0.05,
                                                    l2_regularization=1.0, random_state=0)
        else:
            fitted = make_pipeline(StandardScaler(), LogisticRegression(C=0.3, max_iter=2000))
        fitted.fit(x, y)
        counts = [0] * 5
        for _, case, rows, ids in (d for d in data if d[0] == held_out):
            before = _rank(ids, case["expect"])
            order = ids
            if rows:
                p = fitted.predict_proba(np.array(rows))[:, 1]
                order = [ids[i] for i in sorted(range(len(p)), key=lambda i: -p[i])]
            after = _rank(order, case["expect"])
            for k, hit in enumerate((True, before == 1, bool(before and before <= 10),
                                     after == 1, bool(after and after <= 10))):
                counts[k] += hit
        table[held_out] = counts
        n = counts[0]
        print(f"{held_out:8} n={n:4}  default {counts[1] / n:.2f} / {counts[2] / n:.2f}  "
              f"re-ordered {counts[3] / n:.2f} / {counts[4] / n:.2f}", flush=True)
    total = [sum(c[k] for c in table.values()) for k in range(5)]
    n = total[0]
    print(f"{'all':8} n={n:4}  default {total[1] / n:.3f} / {total[2] / n:.3f}  "
          f"re-ordered {total[3] / n:.3f} / {total[4] / n:.3f}")
    print(f"families lower at hit@1: {sum(c[3] < c[1] for c in table.values())}, "
          f"at hit@10: {sum(c[4] < c[2] for c in table.values())} (of {len(table)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    d = sub.add_parser("dump", help="run the default search per case, keep the first 50")
    d.add_argument("--homes", type=Path, required=True, help="eval_recall.py's --out")
    d.add_argument("--into", type=Path, required=True)
    d.add_argument("--families", default="", help="dlg-a,pair-9,... (default: every home)")
    c = sub.add_parser("cv", help="leave one family out, fit on the rest, re-order it")
    c.add_argument("--dump", type=Path, required=True)
    c.add_argument("--model", choices=("gbt", "lr"), default="gbt")
    c.add_argument("--drop", default="", help="groups to leave out: " + ",".join(GROUPS))
    args = parser.parse_args()
    if args.step == "dump":
        dump(args.homes, args.into, [f for f in args.families.split(",") if f])
    else:
        cv(args.dump, args.model, [g for g in args.drop.split(",") if g])


if __name__ == "__main__":
    main()
