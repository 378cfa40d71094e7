"""Why each conversational question is missed: the query, its evidence row, what ranked above
it, and each ladder's rank of the evidence (and of the rows next to it in its session).

Usage (repository root; the homes are eval_recall.py's, built by it first):

    .venv/bin/python benchmarks/search/diagnose_recall.py /tmp/recall-eval/dlg-a-1 [...]
    .venv/bin/python benchmarks/search/diagnose_recall.py --all /tmp/recall-eval/dlg-b-*
    .venv/bin/python benchmarks/search/diagnose_recall.py --kind recency /tmp/recall-eval/rec-14-*
    .venv/bin/python benchmarks/search/diagnose_recall.py --case ctx-3-003 /tmp/recall-eval/ctx-3-2

Prints one block per missed case (hit@10 miss; `--all`: every case), then a tally of the
causes: `neighbour` (a row of the same session next to the evidence is in the top 10),
`keyword-only` (the keyword ladder ranks it in its top 10 but fusion or decay drops it),
`semantic-only`, `neither` (no ladder has it in its top 50). Each block also says what the
decay policy was told (how many documents hold every query word, how many query words no
document holds, whether the query reads as a question) and where each evidence row ends up
after fusion and decay (`page`, to depth 100). The evidence and each of the first five rows
show their rank and score in each ladder (`-`: not in it): a rank alone hides that 199
copies of one chit-chat line put a row 200th. `--case`: only those cases, missed or not.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def ladder_ranks(engine, name: str, query, scope) -> dict[int, int]:
    """document -> 1-based rank in ranker `name`'s best ladder holding it."""
    return {doc: rank for doc, (rank, _) in ladder_places(engine, name, query, scope).items()}


def ladder_places(engine, name: str, query, scope) -> dict[int, tuple[int, float]]:
    """document -> (1-based rank, score) in ranker `name`'s best ladder holding it: the score
    tells a near tie from a gap, and copies of one text (equal scores) from rows judged apart."""
    ranker = engine.ranker(name)
    if name == "semantic" and ranker.availability(engine).state != "available":
        return {}
    places: dict[int, tuple[int, float]] = {}
    for ladder in ranker.rank(query, scope, engine, depth=500):
        scores = ladder.scores.tolist() if ladder.scores is not None else [float("nan")] * len(ladder)
        for position, (doc, score) in enumerate(zip(ladder.indices.tolist(), scores), 1):
            if doc not in places or position < places[doc][0]:
                places[doc] = (position, score)
    return places


def _place(places: dict, doc) -> str:
    found = places.get(doc)
    return "-" if found is None else f"{found[0]} ({found[1]:.3f})"


def session_neighbours(engine, doc: int) -> list[int]:
    """The documents right before and after `doc` in its session (turn_idx order)."""
    row = engine.row(doc)
    session, turn = row.get("session"), row.get("turn_idx")
    if session is None or not isinstance(turn, int):
        return []
    sid = engine.index.cols["session"]
    code = int(sid[doc])
    import numpy as np

    same = np.flatnonzero(np.asarray(sid) == code)
    out = []
    for other in same.tolist():
        other_turn = engine.row(other).get("turn_idx")
        if isinstance(other_turn, int) and abs(other_turn - turn) == 1:
            out.append(other)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("homes", nargs="+")
    parser.add_argument("--all", action="store_true", help="every case, not only misses")
    parser.add_argument("--rankers", default="bm25,semantic")
    parser.add_argument("--decay", default="gated-prior")
    parser.add_argument("--fusion", default="rrf-prior")
    parser.add_argument("--no-index", action="store_true", help="do not run the semantic step")
    parser.add_argument("--kind", default="conversational",
                        help="the cases' kind: conversational (dialogue questions) or recency")
    parser.add_argument("--case", default="",
                        help="only these case ids (comma-separated), printed whether missed or not")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
    from carto_core.evaluation import agecurve
    from carto_core.logio.home import Home
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.api import Query
    from carto_core.search.engine import SearchEngine
    from carto_core.search.indexing import index_steps

    rankers = args.rankers.split(",")
    causes: Counter = Counter()
    per_cat: Counter = Counter()
    for root in args.homes:
        root = Path(root)
        engine = SearchEngine(Home(root), persist=True, auto_refresh=False)
        engine.ensure_loaded()
        if "semantic" in rankers and not args.no_index:
            for step in index_steps(engine, ["semantic"]):
                step.run(engine)
        only = set(filter(None, args.case.split(",")))
        cases = [c for c in agecurve.read_cases(root / "cases.jsonl") if c.kind == args.kind
                 and (not only or c.id in only)]
        for case in cases:
            result = run_search(SearchRequest(
                query=case.query, limit=100, rankers=rankers, decay=args.decay, fusion=args.fusion,
                semantic="semantic" in rankers, all=True, now=NOW, facets=False, explain=True),
                engine=engine)
            deep = [h.event_id for h in result.results]
            ids = deep[:10]
            rank = next((i for i, e in enumerate(ids, 1) if e in case.expect), None)
            per_cat[(case.bucket, rank is not None and rank <= 10)] += 1
            if rank is not None and not args.all and not only:
                continue
            analyzed = engine.analyzer.query(case.query)
            query = Query(case.query, analyzed.terms, analyzed.prefixes, analyzed.question,
                          analyzed.compounds)
            scope = engine.scope()
            places = {name: ladder_places(engine, name, query, scope) for name in rankers}
            ladders = {name: {d: r for d, (r, _) in p.items()} for name, p in places.items()}
            print(f"\n=== {root.name} {case.id} [{case.bucket}] rank={rank}  q={case.query!r}")
            gate = (result.explain or {}).get("gate", {})
            print(f"    terms={list(analyzed.terms)} unheld="
                  f"{[t for t in analyzed.terms if not engine.index.df(t)]} "
                  f"full_matches={gate.get('all_token_matches')} question={analyzed.question}")
            top_docs = {engine.index_of(e) for e in ids}
            case_causes = set()
            for eid in case.expect:
                doc = engine.index_of(eid)
                if doc is None:
                    print(f"  evidence {eid}: NOT IN INDEX")
                    continue
                row = engine.row(doc)
                lr = {n: ladders[n].get(doc) for n in rankers}
                page = deep.index(eid) + 1 if eid in deep else None
                at = " ".join(f"{n}={_place(places[n], doc)}" for n in rankers)
                print(f"  evidence {eid} {row.get('timestamp')} {at} page={page}")
                print(f"    text: {str(row.get('summary'))[:200]!r}")
                for nb in session_neighbours(engine, doc):
                    nrow = engine.row(nb)
                    nr = {n: ladders[n].get(nb) for n in rankers}
                    mark = " IN TOP10" if nb in top_docs else ""
                    print(f"    neighbour t{nrow.get('turn_idx')} ladders={nr}{mark}: "
                          f"{str(nrow.get('summary'))[:140]!r}")
                    if nb in top_docs:
                        case_causes.add("neighbour")
                kw = lr.get("bm25") or lr.get("bm25-upstream")
                sem = lr.get("semantic")
                if kw and kw <= 10:
                    case_causes.add("keyword-top10")
                if sem and sem <= 10:
                    case_causes.add("semantic-top10")
                if not (kw and kw <= 50) and not (sem and sem <= 50):
                    case_causes.add("neither-top50")
            for position, hit in enumerate(result.results[:5], 1):
                doc = engine.index_of(hit.event_id)
                at = " ".join(f"{n}={_place(places[n], doc)}" for n in rankers)
                print(f"    #{position} {hit.score:.4f} {hit.sources} {hit.type} "
                      f"all={hit.holds_all_tokens} {at} {hit.summary[:100]!r}")
            for cause in case_causes or {"other"}:
                causes[(case.bucket, cause)] += 1
    print("\n# hit@10 per category:", {f"{c} {'hit' if h else 'miss'}": n
                                       for (c, h), n in sorted(per_cat.items())})
    print("# causes of misses:", {f"{c}: {k}": n for (c, k), n in sorted(causes.items())})


if __name__ == "__main__":
    main()
