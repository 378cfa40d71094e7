"""Commits asked for in other words, on the home in real English or on a small home of its
commits: what the relevance floor costs a new user's history (docs/ranking.md, "A home of few
records").

Each set in `commit_sets/` is written apart: questions about one commit each ("which change
made the demo stop reading the real agent folders?"), its `git-<sha7>` row the answer. Asked of
the home `coding_home.py` makes (`--events 0`), or, with `--commits N`, of a new home holding
only N of that home's commit rows: every set's answers and others drawn with `--seed`, indexed
here with minilm. Prints found / hit@1 / hit@10 per set, the floor on and, with `--off`, off.

    .venv/bin/python benchmarks/search/coding_home.py /tmp/rc --events 0 --repo . --docs docs \\
        --fixtures /work/shared/fixtures && CARTO_HOME=/tmp/rc carto index
    .venv/bin/python benchmarks/search/commit_questions.py /tmp/rc --sets para-4 \\
        --commits 50 --seed 13 --off

The sets used by a change are named in docs/ranking.md; a set not named there is held out.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

SETS = Path(__file__).resolve().parent / "commit_sets"


def small_home(source: Path, target: Path, answers: set[str], commits: int, seed: int) -> Path:
    """A home of `commits` commit rows of `source`: every answer and others drawn with `seed`,
    in time order."""
    rows = [json.loads(line) for line in (source / "changelog.jsonl").open()]
    git = [row for row in rows if str(row.get("event_id", "")).startswith("git-")]
    held = [row for row in git if row["event_id"] in answers]
    rest = [row for row in git if row["event_id"] not in answers]
    random.Random(seed).shuffle(rest)
    chosen = sorted(held + rest[:max(0, commits - len(held))], key=lambda row: row["timestamp"])
    target.mkdir(parents=True, exist_ok=True)
    with (target / "changelog.jsonl").open("w") as out:
        out.writelines(json.dumps(row) + "\n" for row in chosen)
    return target


def ask(home: Path, cases: list[dict]) -> tuple[int, int, int]:
    """(found, hit@1, hit@10) of `cases` on `home`, the default ladders, fusion and decay named
    (so no config file moves them); found: the relevance floor's verdict."""
    from carto_core.logio.home import Home
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine

    engine = SearchEngine(Home(home), persist=True, auto_refresh=False)
    engine.ensure_loaded()
    found = first = top = 0
    for case in cases:
        result = run_search(SearchRequest(query=case["query"], limit=10, all=True, facets=False,
                                          rankers=["bm25", "semantic"], semantic=True,
                                          decay="gated-prior", fusion="rrf-prior"),
                            engine=engine)
        ids = [hit.event_id for hit in result.results]
        rank = next((n for n, event in enumerate(ids, 1) if event in case["expect"]), None)
        found += result.floor is None or result.floor.found
        first += rank == 1
        top += rank is not None
    return found, first, top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("home", type=Path, help="the home coding_home.py made, indexed")
    parser.add_argument("--sets", default="para-in", help="comma-separated names in commit_sets/")
    parser.add_argument("--commits", type=int, default=0,
                        help="ask a new home of this many commit rows instead (0: the home)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--off", action="store_true", help="also with CARTO_SEARCH_FLOOR=0")
    args = parser.parse_args()
    os.environ.setdefault("CARTO_EMBEDDER", "minilm")
    for name in args.sets.split(","):
        cases = json.loads((SETS / f"{name}.json").read_text())
        home = args.home
        if args.commits:
            from carto_core.logio.home import Home
            from carto_core.semantic.indexer import run_index

            answers = {event for case in cases for event in case["expect"]}
            home = small_home(args.home, Path(tempfile.mkdtemp(prefix="carto-commits-")) / "home",
                              answers, args.commits, args.seed)
            run_index(Home(home))
        runs = [("on", None)] + ([("off", "0")] if args.off else [])
        for label, value in runs:
            if value is None:
                os.environ.pop("CARTO_SEARCH_FLOOR", None)
            else:
                os.environ["CARTO_SEARCH_FLOOR"] = value
            found, first, top = ask(home, cases)
            where = f"{args.commits} commits" if args.commits else str(home)
            print(f"{name} ({len(cases)}) on {where}, floor {label}: found {found}, "
                  f"hit@1 {first}, hit@10 {top}", flush=True)


if __name__ == "__main__":
    main()
