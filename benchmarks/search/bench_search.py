"""Search benchmark: carto's keyword ladder and cold CLI, side by side with bm25s and tantivy.

For each size (events), in one run and on the same generated corpus and queries:

- carto: index build time (`carto index --rebuild` in a child process, with its peak RSS);
  in-process keyword ladder (BM25Ranker.rank over the whole scope) median and p95, and whether
  every ladder equals the exhaustive reference (all postings scored, top 500 per log); in-process
  `run_search` median; cold `carto search QUERY` process median end to end (and its peak RSS),
  with and without the semantic ladder and for the same words asked as a question ("what
  about W?": the semantic ladder is computed; for the plain words, a lookup, fusion gates it
  out and the search skips it), interleaved with the floor `python -c "import numpy,
  click"`, each as a ratio to the floor in wall time and in CPU time (user + system: on a shared
  machine it moves far less with the load than the wall time), and to the same floor with
  `OPENBLAS_NUM_THREADS=1` and the cyclic GC off (how a one-shot carto search loads numpy and
  click: the floor its own process cannot go below, `floor_like_carto`);
- bm25s (numpy backend) and tantivy (in RAM): build time, query median and p95 (top 50),
  fed the same documents tokenized the same way (the terms of carto's default analyzer; tantivy
  gets the terms joined by spaces so it cannot turn `load_events` into a phrase query).
- the ladder and tantivy once more, alternating query by query (3 x the queries), so that the
  load weighs on both alike: `interleaved` median and p95 ratios, in wall time and in each
  call's thread CPU time (a sub-millisecond call's wall p95 on a loaded machine is the
  scheduler's time slice);
- the index build is also run with `--analyzer upstream` (wave 1's tokens) in the same run: the
  default analyzer's build as a ratio to it; then `carto index --step semantic` (the default
  embedder, wordllama) is timed, so the cold CLI runs with the semantic ladder answering.

Usage (from the repository root; peers from benchmarks/requirements.txt):

    .venv/bin/pip install -r benchmarks/requirements.txt
    .venv/bin/python benchmarks/search/bench_search.py --sizes 10000 50000 200000
    .venv/bin/python benchmarks/search/bench_search.py --sizes 200000 --workdir /tmp/srch/bench \
        --no-builds   # reuse the home's index: cold CLI and ladder only, no timed rebuilds

Results print as a markdown table and are written to benchmarks/search/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from carto_core.entry import BLAS_THREAD_VARIABLES

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
CARTO = str(Path(PY).with_name("carto"))


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def ms(values):
    return {"median_ms": round(statistics.median(values) * 1000, 3),
            "p95_ms": round(pct(values, 0.95) * 1000, 3)}


def child_env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("SESSION_ID") and k not in ("CODEX_THREAD_ID", "CODEX_HOME")}
    env["CARTO_HOME"] = str(home)
    # An installed package has its bytecode compiled; a development shell that sets
    # PYTHONDONTWRITEBYTECODE would otherwise recompile every module on every cold run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed_child(argv, env) -> tuple[float, int, float]:
    """(wall seconds, peak RSS in MB, CPU seconds: user + system) of one child process. On a
    shared machine the CPU time moves far less with the load than the wall time does."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    return wall, usage.ru_maxrss // 1024, usage.ru_utime + usage.ru_stime


def make_queries(engine, n: int, seed: int = 5) -> list[str]:
    from carto_core.search.tokens import row_text, tokenize  # surface words, as people type

    rng = random.Random(seed)
    index = engine.index
    out = []
    while len(out) < n:
        doc = rng.randrange(len(index))
        tokens = [t for t in dict.fromkeys(tokenize(row_text(index.row(doc)))) if len(t) > 2]
        if not tokens:
            continue
        out.append(" ".join(rng.sample(tokens, min(len(tokens), rng.randint(1, 4)))))
    return out


def _exact(ranker, query, scope, engine) -> bool:
    """The ladders equal the exhaustive reference: every positive-scoring document scored
    (`BM25Ranker.score`), each log's top 500 by score, ties by document index."""
    import numpy as np

    from carto_core.search.index import LOG_LABELS

    cand, scores = ranker.score(query, engine)
    source = np.asarray(engine.index.cols["source"])[cand]
    want = {}
    for code in sorted(set(source.tolist())):
        sel = source == code
        docs, s = cand[sel], scores[sel]
        order = np.lexsort((docs, -s))[:500]
        want[LOG_LABELS[code]] = docs[order].tolist()
    # an empty ladder only carries why it is empty (no candidates to compare)
    got = {l.name: l.indices.tolist() for l in ranker.rank(query, scope, engine) if len(l)}
    return got == want


def bench_size(events: int, workdir: Path, n_queries: int, cold_runs: int, builds: bool = True,
               exact_vectors: bool = False) -> dict:
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search import Query, SearchRequest, run_search
    from carto_core.search.engine import SearchEngine
    from carto_core.search.tokens import row_text
    from carto_rankers.bm25 import BM25Ranker

    home_dir = workdir / f"home-{events}"
    if not (home_dir / "changelog.jsonl").exists():
        generate_home(home_dir, events, seed=1)
    size_mb = sum(p.stat().st_size for p in home_dir.glob("*.jsonl")) / 1e6
    env = child_env(home_dir)
    out: dict = {"events": events, "jsonl_mb": round(size_mb, 1),
                 "load_average_at_start": round(os.getloadavg()[0], 2)}

    # carto: build in a child (peak RSS of the build), then warm in-process.
    if builds:
        wall, rss, _ = timed_child([CARTO, "index", "--rebuild", "--step", "keyword", "--analyzer",
                                    "upstream"], env)
        out["carto_build_upstream_analyzer_s"], out["carto_build_upstream_rss_mb"] = round(wall, 2), rss
        wall, rss, _ = timed_child([CARTO, "index", "--rebuild", "--step", "keyword"], env)
        out["carto_build_s"], out["carto_build_rss_mb"] = round(wall, 2), rss
        out["build_vs_upstream_analyzer"] = round(out["carto_build_s"] / out["carto_build_upstream_analyzer_s"], 2)
    else:  # --no-builds: the home's index as it is (brought up to date, not timed)
        timed_child([CARTO, "index", "--step", "keyword"], env)
    wall, rss, _ = timed_child([CARTO, "index", "--step", "semantic"], env)
    out["carto_semantic_index_s"], out["carto_semantic_index_rss_mb"] = round(wall, 2), rss
    engine = SearchEngine(Home(home_dir), auto_refresh=False)
    engine.ensure_loaded()
    index = engine.index
    out["postings"] = int(len(index.segments[0]))
    queries = make_queries(engine, n_queries)
    ranker = BM25Ranker()
    scope = engine.scope()
    analyzer = engine.analyzer
    out["analyzer"] = analyzer.signature
    parsed = [Query(q, analyzer.query(q).terms, analyzer.query(q).prefixes) for q in queries]
    for q in parsed[:20]:
        ranker.rank(q, scope, engine)  # warm caches
    times = []
    for q in parsed:
        t0 = time.perf_counter()
        ranker.rank(q, scope, engine)
        times.append(time.perf_counter() - t0)
    out["carto_ladder"] = ms(times)
    out["carto_ladder_exact"] = all(_exact(ranker, q, scope, engine) for q in parsed)
    times = []
    for q in queries[100:110]:  # warm-up, as for the ladder (other queries than the timed ones)
        run_search(SearchRequest(query=q, semantic=False, all=True, limit=10), engine=engine)
    for q in queries[:100]:
        t0 = time.perf_counter()
        run_search(SearchRequest(query=q, semantic=False, all=True, limit=10), engine=engine)
        times.append(time.perf_counter() - t0)
    out["carto_run_search"] = ms(times)

    # cold CLI, whole process (the index is already persisted and fresh); one warm-up run
    # writes bytecode and the plugin-hook record, as any second use on a machine would.
    # The floor and both CLI variants are interleaved query by query, so that the machine's
    # load (shared with other jobs) weighs on all three alike.
    timed_child([CARTO, "search", queries[0], "--limit", "10"], env)
    floor, floor_one, walls, rsses, plain, asked = [], [], [], [], [], []
    cpu = {"floor": [], "floor_like_carto": [], "cli": [], "no_semantic": [], "question": []}
    # A one-shot carto search loads numpy with OpenBLAS on one thread and runs without the
    # cyclic GC (carto_core.entry): the same imports done that way are the floor its own
    # process cannot go below, the like-for-like comparison.
    one_env = {k: v for k, v in env.items()
               if k not in BLAS_THREAD_VARIABLES}
    one_env["OPENBLAS_NUM_THREADS"] = "1"
    exact_env, exact_walls = dict(env, CARTO_VECTOR_PROBE="1"), []
    if exact_vectors:
        cpu["cli_exact_vectors"] = []
    for q in queries[:cold_runs]:
        wall, _, used = timed_child([PY, "-c", "import numpy, click"], env)
        floor.append(wall)
        cpu["floor"].append(used)
        wall, _, used = timed_child([PY, "-c", "import gc; gc.disable(); import numpy, click"],
                                    one_env)
        floor_one.append(wall)
        cpu["floor_like_carto"].append(used)
        wall, rss, used = timed_child([CARTO, "search", q, "--limit", "10"], env)
        walls.append(wall)
        rsses.append(rss)
        cpu["cli"].append(used)
        wall, _, used = timed_child([CARTO, "search", q, "--limit", "10", "--no-semantic"], env)
        plain.append(wall)
        cpu["no_semantic"].append(used)
        # The sampled words are a lookup (their row holds them all), so fusion gates the
        # semantic ladder out and the search does not compute it; asked as a question, the
        # same words make the search run the whole vector scan.
        wall, _, used = timed_child([CARTO, "search", f"what about {q}?", "--limit", "10"], env)
        asked.append(wall)
        cpu["question"].append(used)
        if exact_vectors:  # every vector list read: the exact scan, in the same loop
            wall, _, used = timed_child([CARTO, "search", q, "--limit", "10"], exact_env)
            exact_walls.append(wall)
            cpu["cli_exact_vectors"].append(used)
    out["floor_import_numpy_click"] = ms(floor)
    out["floor_like_carto"] = ms(floor_one)
    out["carto_cold_cli"] = ms(walls)
    out["carto_cold_cli_rss_mb"] = max(rsses)
    out["carto_cold_cli_no_semantic"] = ms(plain)
    out["carto_cold_cli_question"] = ms(asked)
    if exact_vectors:
        out["carto_cold_cli_exact_vectors"] = ms(exact_walls)
        out["carto_cold_cli_exact_vectors_cpu_vs_floor"] = round(
            statistics.median(cpu["cli_exact_vectors"]) / statistics.median(cpu["floor"]), 2)
    out["cold_cpu_ms"] = {name: round(statistics.median(v) * 1000, 1) for name, v in cpu.items()}
    for key, name in (("carto_cold_cli", "cli"), ("carto_cold_cli_no_semantic", "no_semantic"),
                      ("carto_cold_cli_question", "question")):
        out[f"{key}_vs_floor"] = round(out[key]["median_ms"] / out["floor_import_numpy_click"]["median_ms"], 2)
        out[f"{key}_cpu_vs_floor"] = round(statistics.median(cpu[name]) / statistics.median(cpu["floor"]), 2)
        out[f"{key}_vs_floor_like_carto"] = round(
            out[key]["median_ms"] / out["floor_like_carto"]["median_ms"], 2)
        out[f"{key}_cpu_vs_floor_like_carto"] = round(
            statistics.median(cpu[name]) / statistics.median(cpu["floor_like_carto"]), 2)

    # the same documents for the peers
    docs = [analyzer.terms(row_text(index.row(i))) for i in range(len(index))]
    qtok = [list(analyzer.query(q).terms) for q in queries]
    try:
        import bm25s

        t0 = time.perf_counter()
        retriever = bm25s.BM25(k1=1.2, b=0.75)
        retriever.index(docs, show_progress=False)
        out["bm25s_build_s"] = round(time.perf_counter() - t0, 2)
        times = []
        for q in qtok:
            t0 = time.perf_counter()
            try:
                retriever.retrieve([q], k=50, show_progress=False)
            except (ValueError, KeyError):
                pass  # a query of only unknown tokens
            times.append(time.perf_counter() - t0)
        out["bm25s"] = ms(times)
        out["bm25s_version"] = bm25s.__version__
    except ImportError:
        out["bm25s"] = None
    try:
        import tantivy

        t0 = time.perf_counter()
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("text", stored=False)
        schema = builder.build()
        tindex = tantivy.Index(schema)
        writer = tindex.writer(heap_size=256_000_000, num_threads=1)
        for tokens in docs:
            writer.add_document(tantivy.Document(text=" ".join(tokens)))
        writer.commit()
        writer.wait_merging_threads()
        tindex.reload()
        searcher = tindex.searcher()
        out["tantivy_build_s"] = round(time.perf_counter() - t0, 2)
        parsed_t = [tindex.parse_query(" ".join(q), ["text"]) for q in qtok]
        times = []
        for q in parsed_t:
            t0 = time.perf_counter()
            searcher.search(q, 50).hits
            times.append(time.perf_counter() - t0)
        out["tantivy"] = ms(times)
        # The same queries again, carto's ladder and tantivy alternating query by query, so
        # that the machine's load (shared with other jobs) weighs on both alike: the p95s
        # above were taken minutes apart.
        # Each call's thread CPU time too: a sub-millisecond call's wall p95 on a loaded
        # machine is the scheduler's time slice, not the engine's work.
        mine, theirs, mine_cpu, theirs_cpu = [], [], [], []
        for _ in range(3):
            for q, tq in zip(parsed, parsed_t):
                c0, t0 = time.thread_time(), time.perf_counter()
                ranker.rank(q, scope, engine)
                mine.append(time.perf_counter() - t0)
                mine_cpu.append(time.thread_time() - c0)
                c0, t0 = time.thread_time(), time.perf_counter()
                searcher.search(tq, 50).hits
                theirs.append(time.perf_counter() - t0)
                theirs_cpu.append(time.thread_time() - c0)
        out["interleaved"] = {"carto_ladder": ms(mine), "tantivy": ms(theirs),
                              "median_ratio": round(statistics.median(mine) / statistics.median(theirs), 2),
                              "p95_ratio": round(pct(mine, 0.95) / pct(theirs, 0.95), 2),
                              "carto_ladder_cpu": ms(mine_cpu), "tantivy_cpu": ms(theirs_cpu),
                              "cpu_p95_ratio": round(pct(mine_cpu, 0.95) / max(pct(theirs_cpu, 0.95), 1e-9), 2)}
        from importlib.metadata import version

        out["tantivy_version"] = version("tantivy")
    except ImportError:
        out["tantivy"] = None
    out["load_average_at_end"] = round(os.getloadavg()[0], 2)
    for peer in ("tantivy", "bm25s"):
        if out.get(peer):
            out[f"ladder_vs_{peer}"] = round(out["carto_ladder"]["median_ms"] / out[peer]["median_ms"], 2)
    return out


def table(rows) -> str:
    lines = ["| events | JSONL MB | carto build s (RSS MB) | build, upstream analyzer s (ratio) | semantic index s | carto ladder median / p95 ms (exact) | run_search median ms | cold CLI median ms (RSS MB) | cold CLI, --no-semantic | floor: python -c 'import numpy, click' (like carto: one BLAS thread, no cyclic GC) | cold CLI / floor, wall (CPU) [/ like-for-like floor] | --no-semantic / floor, wall (CPU) [/ like-for-like floor] | a question (semantic ladder run) median ms: / floor, wall (CPU) [/ like-for-like floor] | tantivy median / p95 ms (build s) | bm25s median / p95 ms (build s) | ladder / tantivy | interleaved with tantivy: ladder / tantivy median (p95) | ladder / bm25s | load avg |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t = r.get("tantivy") or {}
        b = r.get("bm25s") or {}
        i = r.get("interleaved") or {}
        lines.append(
            f"| {r['events']:,} | {r['jsonl_mb']} | {r.get('carto_build_s', '-')} ({r.get('carto_build_rss_mb', '-')}) | "
            f"{r.get('carto_build_upstream_analyzer_s', '-')} ({r.get('build_vs_upstream_analyzer', '-')}x) | {r['carto_semantic_index_s']} | "
            f"{r['carto_ladder']['median_ms']} / {r['carto_ladder']['p95_ms']} ({r['carto_ladder_exact']}) | "
            f"{r['carto_run_search']['median_ms']} | {r['carto_cold_cli']['median_ms']} ({r['carto_cold_cli_rss_mb']}) | "
            f"{r['carto_cold_cli_no_semantic']['median_ms']} | {r['floor_import_numpy_click']['median_ms']} "
            f"({r.get('floor_like_carto', {}).get('median_ms', '-')}) | "
            f"{r['carto_cold_cli_vs_floor']}x ({r['carto_cold_cli_cpu_vs_floor']}x) "
            f"[{r.get('carto_cold_cli_vs_floor_like_carto', '-')}x "
            f"({r.get('carto_cold_cli_cpu_vs_floor_like_carto', '-')}x)] | "
            f"{r['carto_cold_cli_no_semantic_vs_floor']}x ({r['carto_cold_cli_no_semantic_cpu_vs_floor']}x) "
            f"[{r.get('carto_cold_cli_no_semantic_vs_floor_like_carto', '-')}x "
            f"({r.get('carto_cold_cli_no_semantic_cpu_vs_floor_like_carto', '-')}x)] | "
            f"{r.get('carto_cold_cli_question', {}).get('median_ms', '-')}: "
            f"{r.get('carto_cold_cli_question_vs_floor', '-')}x "
            f"({r.get('carto_cold_cli_question_cpu_vs_floor', '-')}x) "
            f"[{r.get('carto_cold_cli_question_vs_floor_like_carto', '-')}x "
            f"({r.get('carto_cold_cli_question_cpu_vs_floor_like_carto', '-')}x)] | "
            f"{t.get('median_ms', '-')} / {t.get('p95_ms', '-')} ({r.get('tantivy_build_s', '-')}) | "
            f"{b.get('median_ms', '-')} / {b.get('p95_ms', '-')} ({r.get('bm25s_build_s', '-')}) | "
            f"{r.get('ladder_vs_tantivy', '-')}x | {i.get('median_ratio', '-')}x ({i.get('p95_ratio', '-')}x) | "
            f"{r.get('ladder_vs_bm25s', '-')}x | "
            f"{r['load_average_at_start']}-{r['load_average_at_end']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 50000, 200000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--cold-runs", type=int, default=15)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--no-builds", action="store_true",
                        help="skip the two timed keyword rebuilds (reuse the home's index)")
    parser.add_argument("--exact-vectors-too", action="store_true",
                        help="also time the cold CLI reading every vector list "
                             "(CARTO_VECTOR_PROBE=1), interleaved with the others")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "search" / "results.json")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="carto-bench-search-"))
    os.environ.setdefault("XDG_CACHE_HOME", str(workdir / "cache"))
    rows = []
    for size in args.sizes:
        row = bench_size(size, workdir, args.queries, args.cold_runs, builds=not args.no_builds,
                         exact_vectors=args.exact_vectors_too)
        rows.append(row)
        print(json.dumps(row), flush=True)
    import numpy

    meta = {"python": platform.python_version(), "numpy": numpy.__version__,
            "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
            "command": " ".join([Path(PY).name] + sys.argv)}
    args.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    print(table(rows))
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
