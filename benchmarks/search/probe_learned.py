"""A learned re-ordering of the default search's first 50, measured set by set
(docs/ranking.md, "A learned order of the first fifty").

Three steps. `dump` runs the search in the rules' order (english, minilm, rrf-prior,
gated-prior, explain on, `CARTO_SEARCH_ORDER=rules`: the trees are fitted on that order) for
every case of `eval_recall.py`'s indexed homes and keeps each case's first 50 results with
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
        [--depth 4 --rounds 200]      # the trees' depth and number
    .venv/bin/python benchmarks/search/probe_learned.py fit --dump DUMP --out MODEL.json
        [--leave pair-9]              # fit without a family (to check it through the search)

`fit` writes the trees `carto_core.search.learned` reads (the shipped ones are
src/carto_core/search/learned-order.json, fitted on every family); `dump --order learned
--model MODEL.json` runs the search with the step on, so a family left out of `fit` checks
that the search orders it as `cv` did. The numbers are the step's own
(`carto_core.search.learned.features`): the probe and the search cannot describe a result
differently.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2] / "src"))
sys.path.insert(0, str(HERE.parents[2] / "rankers" / "src"))

from carto_core.search import learned  # noqa: E402  (the step's own numbers and trees)
def family(home: str) -> str:
    if home.startswith("pair-"):
        return home.replace("-bare", "")
    return home.rsplit("-", 1)[0]


def features(case: dict) -> list[list[float]]:
    """The step's numbers for a dumped case's fifty (`search.learned.features`)."""
    return learned.features(case["query"], case["hits"])


def dump(homes: Path, into: Path, names: list[str]) -> None:
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


def _cases(folder: Path, drop=()) -> list[tuple]:
    """(family, case, its rows of numbers, its ids) of every question dumped in `folder`."""
    dropped = {c for name in drop for c in learned.GROUPS[name]}
    keep = [c for c in range(learned.WIDTH) if c not in dropped]
    data = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            case = json.loads(line)
            if case["kind"] != "conversational":
                continue
            rows = [[row[c] for c in keep] for row in features(case)]
            data.append((family(path.stem), case, rows, [h["id"] for h in case["hits"]]))
    return data


def _trees(depth: int = 4, rounds: int = 200):
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_depth=depth, max_iter=rounds, learning_rate=0.05,
                                          l2_regularization=1.0, random_state=0)


def fit(folder: Path, out: Path, leave: list[str]) -> None:
    import numpy as np

    train = [d for d in _cases(folder) if d[0] not in leave and d[2]]
    x = np.array([row for d in train for row in d[2]])
    y = np.array([int(i in d[1]["expect"]) for d in train for i in d[3]])
    fitted = _trees().fit(x, y)
    doc = learned.export(fitted)
    out.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{out}: {len(doc['trees'])} trees from {len(train)} questions of "
          f"{len({d[0] for d in train})} families")


def cv(folder: Path, model: str, drop: list[str], depth: int = 4, rounds: int = 200,
       keep_gated: bool = False) -> None:
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    data = _cases(folder, drop)
    families = sorted({d[0] for d in data})
    table = {}
    for held_out in families:
        train = [d for d in data if d[0] != held_out and d[2]]
        x = np.array([row for d in train for row in d[2]])
        y = np.array([int(i in d[1]["expect"]) for d in train for i in d[3]])
        if model == "gbt":
            fitted = _trees(depth, rounds)
        else:
            fitted = make_pipeline(StandardScaler(), LogisticRegression(C=0.3, max_iter=2000))
        fitted.fit(x, y)
        counts = [0] * 5
        for _, case, rows, ids in (d for d in data if d[0] == held_out):
            before = _rank(ids, case["expect"])
            order = ids
            if rows and not (keep_gated and case["hits"][0]["why"]["gated"]):
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
    c.add_argument("--drop", default="", help="groups to leave out: place, ladders, flags, "
                   "text, overlap, neighbours, age, kind, question")
    c.add_argument("--depth", type=int, default=4, help="the trees' depth (gbt)")
    c.add_argument("--rounds", type=int, default=200, help="how many trees (gbt)")
    c.add_argument("--keep-gated", action="store_true",
                   help="leave a case whose first result the lookup gate lifted in the rules' "
                        "order (as the search does)")
    f = sub.add_parser("fit", help="fit the trees on every family (but --leave) and write them")
    f.add_argument("--dump", type=Path, required=True)
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--leave", default="", help="families to leave out: pair-9,dlg-q,...")
    d.add_argument("--order", choices=("rules", "learned"), default="rules",
                   help="the search's order (CARTO_SEARCH_ORDER): the trees are fitted on the "
                        "rules' order, so `rules` dumps what `cv` and `fit` read")
    d.add_argument("--model", type=Path, help="the trees for --order learned (default: shipped)")
    args = parser.parse_args()
    if args.step == "dump":
        os.environ["CARTO_SEARCH_ORDER"] = args.order
        if args.order == "learned" and args.model:
            learned.shipped.cache_clear()
            learned.MODEL = args.model
        dump(args.homes, args.into, [f for f in args.families.split(",") if f])
    elif args.step == "fit":
        fit(args.dump, args.out, [f for f in args.leave.split(",") if f])
    else:
        cv(args.dump, args.model, [g for g in args.drop.split(",") if g], args.depth, args.rounds,
           args.keep_gated)


if __name__ == "__main__":
    main()
