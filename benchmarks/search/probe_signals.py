"""Stronger signals for the relevance floor than the best cosine, recorded and replayed
(docs/ranking.md, "Signals beyond the cosine").

Collect (floor off; one JSON row per search, the rows of probe_floor.py plus):

- `null`: per home, the best cosine of each of 40 generic questions (everyday and technical,
  none from the unseen packs) against the home: the home's own null distribution;
- `absent_words`: the query's words whose terms no document holds, and `stripped`: the best
  cosine of the query without them (`full`: with them);
- `sem_sess` / `kw_sess`: the sessions of the semantic ladder's and the keyword ladders' top
  10 (the hits already carry each candidate's cosine, rank and keyword coverage);
- `sem_texts` (`--texts K`): the semantic ladder's first K rows, their ids, cosines and the
  text the indexer embedded (what `probe_align.py` aligns the query with).

A home with `real-questions.json` instead of `cases.jsonl` (`coding_home.py`) is asked those
questions, with no labelled answer (`--now` for a home built with today's time).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/search/probe_signals.py \\
        --homes /tmp/recall-eval --seeds 1 --out signals.jsonl
    .venv/bin/python benchmarks/search/probe_signals.py --replay signals.jsonl

`--replay` runs each rule family over the records at several strengths and prints, per budget
of real answers lost from a set's top 10, the largest share of unseen questions silenced.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

NULL = [
    "How do I renew my passport before the trip?", "best way to keep basil fresh",
    "What time does the pharmacy close on Sundays?", "Which running shoes are good for flat feet?",
    "recipe for lemon drizzle cake", "How do I get red wine out of a carpet?",
    "When is the next full moon?", "What did the dentist say about the filling?",
    "Which bus goes to the airport from the station?", "how to repot an orchid",
    "Where can I buy a second hand sofa?", "What is a good name for a goldfish?",
    "How long should I boil an egg?", "Which museum has the dinosaur exhibit?",
    "how to fix a squeaky door hinge", "What did the bank say about the overdraft?",
    "latest on the postgres vacuum settings", "How did we configure the load balancer health check?",
    "terraform module for the vpc peering", "Why does the docker image take so long to build?",
    "What did we decide about the kotlin coroutine scopes?", "redis cache eviction policy",
    "how to paginate the REST API results", "the cron job that cleans temp files failed",
    "Which logging library should the java service use?", "s3 bucket lifecycle rules",
    "what is the status of the react native upgrade", "TLS certificate renewal on the proxy",
    "golang context cancellation leak", "How do we version the protobuf schemas?",
    "mysql replication lag on the reporting replica", "the npm audit warnings on lodash",
    "Where did we park the caravan last summer?", "How is grandma's knee after the surgery?",
    "Which yoga studio has evening classes?", "What did the vet say about the cat's teeth?",
    "birthday present ideas for my nephew", "how to lower the electricity bill in winter",
    "Which hiking trail did we take in the Alps?", "What happened at the book club meeting?",
]


def _best(searcher, text: str) -> float | None:
    if not text.strip():
        return None
    hits = searcher.search(text, limit=1)
    return float(hits[0].score) if hits else None


def collect(args) -> None:
    os.environ["CARTO_SEARCH_FLOOR"] = "off"
    os.environ.setdefault("CARTO_EMBEDDER", "minilm")
    import probe_floor as pf
    from carto_core.evaluation import unseen
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.indexing import index_steps

    from carto_core.semantic.text import row_document_text

    if args.memo:
        import eval_recall

        eval_recall._memoize_embedders(Path(args.memo))
    if args.now:
        from carto_core.util.timeparse import parse_timestamp

        pf.NOW = parse_timestamp(args.now)
    pf._capture_fusion()
    homes = []
    seeds = set(args.seeds.split(",")) if args.seeds else None
    for name in args.sets.split(","):
        if name == "demo":
            from carto_core.evaluation.sample import build_sample_home

            root = Path(tempfile.mkdtemp(prefix="carto-signals-demo-")) / "home"
            build_sample_home(root, now=pf.NOW)
            homes.append(("demo", root))
            continue
        roots = sorted(Path(args.homes).glob(f"{name}-*"))
        for root in roots:
            if seeds is None or root.name.rsplit("-", 1)[-1] in seeds:
                if (root / "cases.jsonl").exists() or (root / pf.UNLABELLED).exists():
                    homes.append((name, root))
    packs = unseen.questions(args.packs.split(","))
    with open(args.out, "w") as out:
        for set_name, root in homes:
            engine = SearchEngine(Home(root), persist=True, analyzer="english", auto_refresh=False)
            engine.ensure_loaded()
            for step in index_steps(engine, ["semantic"]):
                step.run(engine)
            searcher = engine.ranker("semantic").searcher(engine)
            searcher.status(refresh=True)
            out.write(json.dumps({"set": set_name, "home": root.name, "kind": "null",
                                  "null": [_best(searcher, s) for s in NULL]}) + "\n")
            text = pf._home_text(root)
            runs = []
            if set_name == "demo":
                runs += [("real", "demo", q, {"project": p}, ()) for q, p in pf.DEMO_REAL]
            else:
                runs += pf.real_runs(root)
            runs += [("unseen", pack, q, {}, ()) for pack, q, topic in packs
                     if not unseen.seen_words(text, topic)]
            sessions = engine.column("session")
            for kind, group, query, scope, expect in runs:
                row = pf._search(engine, query, expect=expect, corpus=False, **scope)
                sem, kw = [], []
                for ladder in pf._captured:
                    top = [int(sessions[int(i)]) for i in ladder.indices[:10]]
                    (sem if ladder.ranker == "semantic" else kw).extend(top)
                    if ladder.ranker == "semantic" and args.texts:
                        row["sem_texts"] = [
                            {"id": engine.index.event_id(int(i)), "cos": float(s),
                             "text": row_document_text(engine.row(int(i)),
                                                       engine.index.event_id(int(i)))}
                            for i, s in zip(ladder.indices[:args.texts],
                                            ladder.scores[:args.texts])]
                terms = set(engine.analyzer.query(query).terms)
                absent, kept = [], []
                for word in re.findall(r"[A-Za-z0-9']+", query):
                    own = set(engine.analyzer.query(word).terms) & terms
                    held = not own or any(engine.index.df(t) for t in own)
                    (kept if held else absent).append(word)
                full = _best(searcher, query)
                row.update(sem_sess=sem, kw_sess=kw, absent_words=absent, full=full,
                           stripped=_best(searcher, " ".join(kept)) if absent else full)
                out.write(json.dumps({"set": set_name, "home": root.name, "kind": kind,
                                      "group": group, "n_expect": len(expect), **row}) + "\n")
            print(set_name, root.name, len(runs), file=sys.stderr, flush=True)


def _features(row: dict, null: list[float]) -> dict:
    hits = row["hits"]
    top = max([h["sem"] for h in hits if h["sem"] is not None] or [-1.0])
    n = row["n_docs"]

    def idf(d):
        return math.log1p((n - d + 0.5) / (d + 0.5))

    total = sum(idf(d) for d in row["df"].values()) or 1.0
    null = sorted(null) or [0.0]
    return {
        "top": top, "cov": row.get("best_cov") or 0.0,
        "absent_share": sum(idf(d) for d in row["df"].values() if d == 0) / total,
        "absent": sum(1 for d in row["df"].values() if d == 0),
        "gain": (row["full"] or -1.0) - (row["stripped"] or -1.0),
        "null50": null[len(null) // 2], "null90": null[int(0.9 * (len(null) - 1))],
        "agree": {(k, c): any(h["semrank"] is not None and h["semrank"] <= k
                              and (h["cov"] or 0) >= c for h in hits)
                  for k in (3, 10) for c in (0.1, 0.2, 0.3)},
        "hit": any(h["expected"] for h in hits[:10]),
    }


def _families():
    base = 0.22

    def floor(x):
        return lambda f: f["cov"] >= 0.5 or f["top"] >= x

    yield "cosine (today's rule)", [(f"F {x:.2f}", floor(x))
                                    for x in [round(0.20 + 0.01 * i, 2) for i in range(31)]]
    yield "(a) the home's null", [
        (f"top >= {q} {m:+.2f}", lambda f, q=q, m=m: f["cov"] >= 0.5
         or (f["top"] >= base and f["top"] >= f[q] + m))
        for q in ("null50", "null90") for m in (-0.1, -0.05, -0.02, 0, 0.02, 0.05)]
    yield "(b) absent words", [
        (f"share < {u} or top >= {hi}", lambda f, u=u, hi=hi: f["cov"] >= 0.5 or f["top"] >= hi
         or (f["top"] >= base and f["absent_share"] < u))
        for u in (0.2, 0.3, 0.4, 0.5, 0.6, 0.8) for hi in (0.3, 0.35, 0.4, 0.45, 0.5)]
    yield "(c) agreement", [
        (f"top-{k} semantic held at >= {c} by a keyword ladder, or top >= {hi}",
         lambda f, k=k, c=c, hi=hi: f["cov"] >= 0.5 or f["top"] >= hi
         or (f["top"] >= base and f["agree"][(k, c)]))
        for k in (3, 10) for c in (0.1, 0.2, 0.3) for hi in (0.25, 0.3, 0.33, 0.35, 0.4, 0.45)]
    yield "(d) cosine without the absent words", [
        (f"gain >= {g} or top >= {hi}", lambda f, g=g, hi=hi: f["cov"] >= 0.5 or f["top"] >= hi
         or (f["top"] >= base and (f["absent"] == 0 or f["gain"] >= g)))
        for g in (-0.05, 0, 0.05, 0.1) for hi in (0.25, 0.3, 0.35, 0.4, 0.45)]
    yield "(a)+(b)+(c)", [
        (f"top >= null90 {m:+.2f}, else agreement at {c} or share < {u}",
         lambda f, m=m, c=c, u=u: f["cov"] >= 0.5 or f["top"] >= f["null90"] + m
         or (f["top"] >= base and (f["agree"][(3, c)] or f["absent_share"] < u)))
        for m in (-0.1, -0.05, 0) for c in (0.1, 0.2, 0.3) for u in (0.2, 0.4, 0.6)]


def replay(paths: list[str]) -> None:
    rows, nulls = [], {}
    for path in paths:
        for line in open(path):
            row = json.loads(line)
            if row["kind"] == "null":
                nulls[row["home"]] = [x for x in row["null"] if x is not None]
            else:
                rows.append(row)
    feats = [(row, _features(row, nulls.get(row["home"], []))) for row in rows]
    real = defaultdict(int)
    for row, f in feats:
        if row["kind"] == "real" and row["n_expect"]:
            real[row["set"]] += 1
    unseen = sum(1 for row, _ in feats if row["kind"] == "unseen")
    print(f"{unseen} unseen searches; real questions with an answer, per set: {dict(real)}")
    items = [(row["kind"], row["set"], row["n_expect"], f["hit"], f) for row, f in feats]
    print_budgets(items, _families(), real, unseen)


def print_budgets(items, families, real: dict, unseen: int) -> None:
    """Per rule family and budget of a set's hit@10 lost, the rule silencing the most unseen
    questions. `items`: (kind, set, expected answers, answer in the top 10, features) per
    search; a rule takes the features and says whether the search found something."""
    for family, rules in families:
        results = []
        for label, rule in rules:
            lost, silenced = defaultdict(int), 0
            for kind, set_name, n_expect, hit, f in items:
                found = rule(f)
                if kind == "unseen":
                    silenced += not found
                elif n_expect and hit and not found:
                    lost[set_name] += 1
            worst = max([lost[s] / real[s] for s in real] or [0.0])
            # ties: the rule losing least
            results.append((silenced / max(unseen, 1), -worst, -sum(lost.values()), label))
        print(family)
        for budget in (0.0, 0.01, 0.05, 0.1, 0.2):
            fits = [r for r in results if -r[1] <= budget + 1e-9]
            if not fits:
                print(f"  a set loses <= {budget:.2f} of its hit@10: no rule")
                continue
            share, worst, total, label = max(fits)
            print(f"  a set loses <= {budget:.2f} of its hit@10: {share:.3f} silenced "
                  f"(worst set {-worst:.3f}, {-total} lost)  {label}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--homes", help="eval_recall.py's --out folder")
    parser.add_argument("--sets", default="dlg-a,dlg-b,dlg-c,dlg-d,ctx-1,ctx-2,multi-1,multi-2,"
                                          "rec-1,rec-2,demo")
    parser.add_argument("--seeds", default="", help="only these seeds' homes (e.g. 1)")
    parser.add_argument("--packs", default="u-1,u-2,u-3")
    parser.add_argument("--out")
    parser.add_argument("--texts", type=int, default=0, metavar="K",
                        help="record the text of the semantic ladder's top K candidates")
    parser.add_argument("--now", help="the searches' now (ISO; default probe_floor.NOW): a home "
                                      "built with today's time, as coding_home.py's")
    parser.add_argument("--memo", metavar="DIR", help="eval_recall.py's document vector cache")
    parser.add_argument("--replay", nargs="+", metavar="JSONL")
    args = parser.parse_args()
    if args.replay:
        replay(args.replay)
    elif args.homes and args.out:
        collect(args)
    else:
        parser.error("--homes and --out to collect, or --replay FILE...")


if __name__ == "__main__":
    main()
