"""Questions written apart about a home of coding work: how many the search answers "nothing
found" (exit 3) and, for the questions about its commits, where the commit comes.

A set (`unseen_sets/*.jsonl`, one object a line) holds questions about things the home never
saw (`"kind": "far"`: other software; `"near"`: a feature of carto's kind never built here) and
questions in other words about one commit each (`"kind": "commit", "sha": ...`, its `git-<sha7>`
row the answer), written by someone who read no ranking code and ran no search. Asked of the
home `coding_home.py --events 0` makes of the repository at the commit the set names, indexed
with minilm; the default ladders, fusion and decay named (no config file moves them).

    .venv/bin/python benchmarks/search/coding_home.py /tmp/rc --events 0 --repo . --docs docs \\
        --fixtures /work/shared/fixtures && CARTO_HOME=/tmp/rc CARTO_EMBEDDER=minilm carto index
    .venv/bin/python benchmarks/search/ask_unseen.py /tmp/rc benchmarks/search/unseen_sets/coding-1.jsonl

Prints, per kind, how many found nothing (and for commits hit@1 / hit@10); `--out F` keeps one
JSON row per question with the floor's report. `coding-1` to `coding-4`, each written apart
for the repository at 077e46c, and their runs are in docs/ranking.md ("The home of coding
work, a third set of questions written apart", "A name no row holds").
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    os.environ.setdefault("CARTO_EMBEDDER", "minilm")
    from carto_core.logio.home import Home
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine

    engine = SearchEngine(Home(args.home), persist=True, auto_refresh=False)
    engine.ensure_loaded()
    rows = []
    for line in args.questions.read_text("utf-8").splitlines():
        case = json.loads(line)
        result = run_search(SearchRequest(query=case["query"], limit=10, all=True, facets=False,
                                          rankers=["bm25", "semantic"], semantic=True,
                                          decay="gated-prior", fusion="rrf-prior"), engine=engine)
        ids = [hit.event_id for hit in result.results]
        want = f"git-{case['sha'][:7]}" if case.get("sha") else None
        rows.append({**case, "found": bool(ids) and (result.floor is None or result.floor.found),
                     "rank": next((n for n, e in enumerate(ids, 1) if e == want), None),
                     "floor": ({k: v for k, v in vars(result.floor).items()
                                if v not in (None, [], "")} if result.floor else None),
                     "first": ids[:3]})
    if args.out:
        args.out.write_text("".join(json.dumps(row) + "\n" for row in rows), "utf-8")
    count = collections.Counter()
    for row in rows:
        kind = row["kind"]
        count[kind, "n"] += 1
        count[kind, "silent"] += not row["found"]
        count[kind, "hit@1"] += row["rank"] == 1
        count[kind, "hit@10"] += row["rank"] is not None
    for kind in sorted({row["kind"] for row in rows}):
        n = count[kind, "n"]
        line = f"{kind:7} {n:4} asked, {count[kind, 'silent']:4} found nothing ({count[kind, 'silent'] / n:.2f})"
        if kind == "commit":
            line += f", hit@1 {count[kind, 'hit@1']}, hit@10 {count[kind, 'hit@10']}"
        print(line)


if __name__ == "__main__":
    main()
