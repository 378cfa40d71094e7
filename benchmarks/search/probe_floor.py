"""Probe for the relevance floor: every candidate of real and unseen questions, with the
evidence a floor could read.

For each home (the recall homes eval_recall.py built under --homes, and the demo home), run
the default search (bm25 + semantic, rrf-prior, gated-prior) on its real cases and on the
unseen questions (`carto_core.evaluation.unseen`) whose topic words the home does not hold,
and write one JSON row per search: the top 50 results, each with its semantic cosine (null
when the semantic ladder did not hold it), its best keyword coverage (the share of the query's
idf mass it holds; null when no keyword ladder held it), whether it is an expected answer;
and the query's cosine distribution over the whole store (mean, standard deviation, deciles).

    .venv/bin/python benchmarks/search/probe_floor.py --homes /tmp/recall-eval --out probe.jsonl

`--floor off` runs with the floor switched off (what the rows looked like before it). The
last lines printed: per set and pack, how many unseen questions found nothing (exit 3).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
#: The demo home's own questions (real: it holds their answers) beside the unseen packs.
DEMO_REAL = [
    ("discount codes in the cart", "webshop"), ("why is the cart total off by a cent?", None),
    ("nat gateway per availability zone", None), ("how does remote state locking work", None),
    ("what did we do about the coupon and bundles?", None), ("terraform layout for staging", None),
]

#: A home's questions with no labelled answer (a JSON list; coding_home.py writes one): a
#: search for them should find something, and is recorded as a real one of kind "unlabelled".
UNLABELLED = "real-questions.json"

_captured: list = []


def real_runs(root: Path) -> list[tuple]:
    """(kind, group, query, scope, expected ids) of a home's real questions."""
    from carto_core.evaluation import agecurve

    if (root / "cases.jsonl").exists():
        return [("real", case.kind, case.query, {"project": case.project, "since": case.since,
                                                 "before": case.before}, case.expect)
                for case in agecurve.read_cases(root / "cases.jsonl")]
    return [("real", "unlabelled", q, {}, ()) for q in json.loads((root / UNLABELLED).read_text())]


def as_words(analyzer, question: str) -> str:
    """A question as someone typing remembered words would: its content words, without their
    punctuation or possessive ("What have I told you about my relatives?" -> "told
    relatives")."""
    words = (w.strip("?.,!;:\"").removesuffix("'s").removesuffix("\u2019s")
             for w in analyzer.content_words(question))
    return " ".join(w for w in words if w)


def _capture_fusion() -> None:
    from carto_rankers.rrf import RRFFusion

    original = RRFFusion.fuse

    def fuse(self, ladders, engine, query=None):
        _captured[:] = list(ladders)
        return original(self, ladders, engine, query=query)

    RRFFusion.fuse = fuse


def _home_text(root: Path) -> str:
    from carto_core.logio.home import Home

    return "\n".join(path.read_text(errors="replace")
                     for path in Home(root).searched_logs().values() if path.is_file())


def _corpus(engine, text: str) -> dict | None:
    """The query's cosine to every stored vector: mean, standard deviation, deciles."""
    import numpy as np

    ranker = engine.ranker("semantic")
    searcher = ranker.searcher(engine)
    if not searcher.status(refresh=True).available:
        return None
    if getattr(searcher.embedder, "content_query", False):
        text = engine.analyzer.content_query(text)
    scores = np.array([h.score for h in searcher.search(text, limit=10 ** 7)], np.float64)
    if not len(scores):
        return None
    return {"n": len(scores), "mean": float(scores.mean()), "std": float(scores.std()),
            "deciles": [float(x) for x in np.percentile(scores, [50, 90, 99])],
            "top": [float(x) for x in scores[:5]]}


def _search(engine, query: str, *, project=None, since=None, before=None, expect=(),
            corpus: bool = True) -> dict:
    from carto_core.search import SearchRequest, run_search
    from carto_core.util.timeparse import parse_when

    _captured.clear()
    request = SearchRequest(
        query=query, project=project, limit=50, rankers=["bm25", "semantic"],
        decay="gated-prior", fusion="rrf-prior", semantic=True, all=True, now=NOW,
        facets=False, since=parse_when(since, now=NOW) if since else None,
        before=parse_when(before, now=NOW) if before else None)
    started = time.perf_counter()
    result = run_search(request, engine=engine)
    ms = (time.perf_counter() - started) * 1000
    sem, cov = {}, {}
    for ladder in _captured:
        indices = [int(i) for i in ladder.indices]
        if ladder.ranker == "semantic":
            for rank, (i, s) in enumerate(zip(indices, ladder.scores), 1):
                sem.setdefault(i, (float(s), rank))
        elif ladder.coverage is not None:
            for i, c in zip(indices, ladder.coverage):
                cov[i] = max(cov.get(i, 0.0), float(c))
        else:
            for i in indices:
                cov[i] = max(cov.get(i, 0.0), 1.0)
    hits = []
    for hit in result.results:
        i = engine.index_of(hit.event_id)
        s = sem.get(i)
        hits.append({"id": hit.event_id, "sources": hit.sources, "sem": s[0] if s else None,
                     "semrank": s[1] if s else None, "cov": cov.get(i),
                     "all": hit.holds_all_tokens, "gated": hit.gated,
                     "expected": hit.event_id in set(expect)})
    document = result.to_dict()
    analyzed = engine.analyzer.query(query)
    return {"query": query, "semantic": result.semantic.state, "hits": hits, "ms": round(ms, 1),
            "df": {t: engine.index.df(t) for t in analyzed.terms}, "n_docs": engine.index.n_alive,
            "best_cov": max(cov.values(), default=None),
            "floor": document.get("floor"), "total": result.total,
            "question": engine.analyzer.is_question(query),
            "corpus": _corpus(engine, query) if corpus and result.semantic.state == "available"
            else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--homes", required=True, help="eval_recall.py's --out folder")
    parser.add_argument("--sets", default="dlg-a,dlg-b,dlg-c,dlg-d,ctx-1,ctx-2,multi-1,multi-2,"
                                          "rec-1,rec-2,demo")
    parser.add_argument("--packs", default="u-1,u-2,u-3")
    parser.add_argument("--out", required=True)
    parser.add_argument("--floor", choices=("on", "off"), default="on")
    parser.add_argument("--no-real", action="store_true", help="unseen questions only")
    parser.add_argument("--real-as-words", action="store_true",
                        help="type each real question as a list of its content words ('What "
                             "have I told you about my relatives?' -> 'told relatives')")
    parser.add_argument("--no-corpus", action="store_true",
                        help="skip the whole-store cosine distribution (a full scan a query)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
    if args.floor == "off":
        os.environ["CARTO_SEARCH_FLOOR"] = "off"
    os.environ.setdefault("CARTO_EMBEDDER", "minilm")
    from carto_core.evaluation import unseen
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.indexing import index_steps

    _capture_fusion()
    homes: list[tuple[str, Path]] = []
    base = Path(args.homes)
    for name in args.sets.split(","):
        if name == "demo":
            from carto_core.evaluation.sample import build_sample_home

            root = Path(tempfile.mkdtemp(prefix="carto-probe-demo-")) / "home"
            build_sample_home(root, now=NOW)
            homes.append(("demo", root))
            continue
        for root in sorted(base.glob(f"{name}-*")) if name != "year" else [base / "year"]:
            if (root / "cases.jsonl").exists() or (root / UNLABELLED).exists():
                homes.append((name, root))
    packs = unseen.questions(args.packs.split(","))
    silenced: dict[tuple[str, str], list[int]] = {}
    with open(args.out, "w") as out:
        for set_name, root in homes:
            engine = SearchEngine(Home(root), persist=True, analyzer="english", auto_refresh=False)
            engine.ensure_loaded()
            for step in index_steps(engine, ["semantic"]):
                step.run(engine)
            text = _home_text(root)
            runs = []
            if set_name == "demo":
                runs += [("real", "demo", q, {"project": p}, ()) for q, p in DEMO_REAL]
            elif not args.no_real:
                runs += real_runs(root)
            skipped = 0
            for pack, question, topic in packs:
                if unseen.seen_words(text, topic):
                    skipped += 1
                    continue
                runs.append(("unseen", pack, question, {}, ()))
            for kind, group, query, scope, expect in runs:
                asked = query
                if kind == "real" and args.real_as_words:
                    query = as_words(engine.analyzer, query)
                    if not query:
                        continue
                row = _search(engine, query, expect=expect, corpus=not args.no_corpus, **scope)
                if kind == "unseen":
                    tally = silenced.setdefault((set_name, group), [0, 0])
                    tally[0] += 1
                    tally[1] += not row["hits"]
                out.write(json.dumps({"set": set_name, "home": root.name, "kind": kind,
                                      "group": group, "n_expect": len(expect), "asked": asked,
                                      **row}) + "\n")
            print(f"{set_name} {root.name}: {len(runs)} searches ({skipped} unseen skipped: "
                  "the home holds a topic word)", file=sys.stderr, flush=True)
    # unseen questions that found nothing (exit 3), per set and pack
    total = [0, 0]
    for (set_name, pack), (n, quiet) in sorted(silenced.items()):
        total[0] += n
        total[1] += quiet
        print(f"{set_name:8s} {pack}: {quiet}/{n} found nothing")
    if total[0]:
        print(f"all: {total[1]}/{total[0]} = {total[1] / total[0]:.3f} found nothing")


if __name__ == "__main__":
    main()
