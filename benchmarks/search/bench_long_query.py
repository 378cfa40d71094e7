"""Benchmark: a search with a long query, up to a megabyte, at this tree (and a revision).

A query of 20 characters, 10 KB, 100 KB and 1 MB of words runs as a cold search does: a fresh
process that calls `carto_core.search.run_search` (what `carto search` calls; a single command
line argument is at most 128 KiB on Linux, so a megabyte never arrives through argv) on the
sample home, indexed for both ladders with each embedder (`minilm`, the default, and
`wordllama`, whose BPE tokenizer was quadratic). Each process prints its search's wall time;
the whole process is timed too, wall and CPU (user + system of the child, from getrusage: on a
loaded machine the wall time mostly measures the wait for a core). Medians of `--runs`.

The wordllama query tokenizer alone (`BPE.ids` over its hashed tables, in a fresh process per
side) is timed on 100, 1,000 and 10,000 words (CPU time, median of 3; the base only up to
`--bpe-base-max` words: its per-merge rescan was quadratic).

`--base REV` runs the same at a git revision (its `src/`, `rankers/src/` and plugins exported
with `git archive`, first on PYTHONPATH; this tree is run from a copy the same way), for the
sizes up to `--base-max` (the old code took minutes past that). Rounds alternate the order.

Reproduce:  .venv/bin/python benchmarks/search/bench_long_query.py --runs 5 --base main
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
TREES = ("src", "rankers/src", "plugins/claude/src", "plugins/codex/src", "plugins/git/src",
         "plugins/hermes/src")
sys.path.insert(0, str(ROOT / "benchmarks"))
from revision import copy_sources, export  # noqa: E402
from revision import pythonpath as _pythonpath  # noqa: E402


def pythonpath(folder: Path) -> str:
    return _pythonpath(folder, TREES)
SEARCH = r"""
import json, sys, time
from carto_core.search import SearchRequest, run_search
text = open(sys.argv[1], encoding="utf-8").read()
started = time.perf_counter()
result = run_search(SearchRequest(query=text, limit=10))
print(json.dumps({"ms": (time.perf_counter() - started) * 1000, "semantic": result.semantic_status,
                  "results": len(result.results), "searched": len(result.query)}))
"""
SIZES = {"20 B": 20, "10 KB": 10_000, "100 KB": 100_000, "1 MB": 1_000_000}
BPE = r"""
import json, statistics, sys, tempfile, time
from pathlib import Path
from carto_core.logio.home import Home
from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder
text = open(sys.argv[1], encoding="utf-8").read()
bpe = WordLlamaEmbedder(Home(Path(tempfile.mkdtemp()))).bpe()
bpe.ids("warm the tables")
runs = []
for _ in range(3):
    started = time.process_time()
    bpe.ids(text)
    runs.append(time.process_time() - started)
print(json.dumps({"cpu_s": statistics.median(runs)}))
"""
BPE_WORDS = (100, 1_000, 10_000)


def query_text(size: int = 0, words: int = 0) -> str:
    """Words of docs/search.md drawn at random: `size` characters, or `words` words."""
    vocabulary = (ROOT / "docs" / "search.md").read_text("utf-8").split()
    rng = random.Random(size or -words)
    out, length = [], 0
    while (length < size) if size else (len(out) < words):
        word = rng.choice(vocabulary)
        out.append(word)
        length += len(word) + 1
    return " ".join(out)[:size] if size else " ".join(out)


def timed(env: dict, query_file: Path) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([PYTHON, "-c", SEARCH, str(query_file)], env=env, capture_output=True,
                          text=True, timeout=3600)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    inner = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "search_s": inner["ms"] / 1000,
            "semantic": inner["semantic"], "searched": inner["searched"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base", help="a git revision to compare with")
    parser.add_argument("--base-max", type=int, default=10_000,
                        help="largest query size (characters) the base runs")
    parser.add_argument("--embedders", default="minilm,wordllama")
    parser.add_argument("--bpe-base-max", type=int, default=1_000,
                        help="most words the base's tokenizer is timed on")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="carto-long-query-"))
    try:
        sides = {"new": copy_sources(work / "new", TREES)}
        if args.base:
            sides["base"] = export(args.base, work / "base", TREES)
        queries = {}
        for label, size in SIZES.items():
            queries[label] = work / f"query-{size}.txt"
            queries[label].write_text(query_text(size=size), "utf-8")
        report: dict = {"runs": args.runs, "base": args.base, "load": os.getloadavg()[0],
                        "results": {}, "bpe": {}}
        plain = {k: v for k, v in os.environ.items() if not k.startswith(("CARTO", "CLAUDE", "CODEX"))}
        for words in BPE_WORDS:
            text_file = work / f"bpe-{words}.txt"
            text_file.write_text(query_text(words=words), "utf-8")
            for name, side in sides.items():
                if name == "base" and words > args.bpe_base_max:
                    continue
                done = subprocess.run([PYTHON, "-c", BPE, str(text_file)], check=True, text=True,
                                      capture_output=True, env={**plain, "PYTHONPATH": pythonpath(side)})
                cpu = json.loads(done.stdout.strip().splitlines()[-1])["cpu_s"]
                report["bpe"].setdefault(f"{words} words", {})[name] = round(cpu, 4)
                print("bpe", words, "words", name, round(cpu, 4), flush=True)
        for embedder in args.embedders.split(","):
            home = work / f"home-{embedder}"
            env = {**{k: v for k, v in os.environ.items() if not k.startswith(("CARTO", "CLAUDE", "CODEX"))},
                   "CARTO_HOME": str(home), "CARTO_EMBEDDER": embedder, "CARTO_WARM": "0",
                   "XDG_CONFIG_HOME": str(work / "config"), "XDG_CACHE_HOME": str(work / f"cache-{embedder}")}
            subprocess.run([PYTHON, "-c", "import sys; from pathlib import Path; "
                            "from carto_core.evaluation.sample import build_sample_home; "
                            "build_sample_home(Path(sys.argv[1]))", str(home)], check=True, env=env)
            subprocess.run([PYTHON, "-m", "carto_core", "index"], check=True, env=env,
                           capture_output=True)
            for label, size in SIZES.items():
                names = [s for s in sides if s == "new" or size <= args.base_max]
                samples: dict = {name: [] for name in names}
                for round_ in range(args.runs):
                    order = names if round_ % 2 == 0 else names[::-1]
                    for name in order:
                        side_env = {**env, "PYTHONPATH": pythonpath(sides[name])}
                        samples[name].append(timed(side_env, queries[label]))
                for name, runs in samples.items():
                    row = {key: round(statistics.median(r[key] for r in runs), 3)
                           for key in ("wall_s", "cpu_s", "search_s")}
                    row["semantic"] = runs[0]["semantic"]
                    row["searched_chars"] = runs[0]["searched"]
                    report["results"].setdefault(embedder, {}).setdefault(label, {})[name] = row
                    print(embedder, label, name, row, flush=True)
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
