"""Semantic ladder benchmarks: the filtered vector search in-process, the index build, and the
cold CLI hybrid search, each next to a peer measured in the same run.

    .venv/bin/python benchmarks/semantic/bench_semantic.py --part ladder        # 200k vectors
    .venv/bin/python benchmarks/semantic/bench_semantic.py --part build --part cli  # 200k events
    .venv/bin/python benchmarks/semantic/bench_semantic.py --events 20000 --part all  # quick

ladder: 200k random float32 vectors (256 dims, the lsa default) in the embedded store, 60
        projects of Zipf-like sizes; median/p95 of `EmbeddedStore.search` (top 500) with a project
        filter (smallest, median and largest project) and without, next to the obvious numpy
        approach (score every vector, then drop other projects and cut) and qdrant-client local
        mode on the same filter at `--qdrant-points` (default 20k; local mode writes ~1k points/s).
build:  a synthetic home of N events (benchmarks/semantic/corpus.py); `run_index` from nothing
        (lsa fit on a 50k sample + embed + store writes), reported as documents/s, next to
        scikit-learn's own transform of the same documents (the peer for the embed step).
cli:    `carto index` then `carto search QUERY --json` as a fresh process per query: hybrid
        (semantic ladder joined) vs `--no-semantic` in the same run, medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from carto_core.semantic.embedded import EmbeddedStore  # noqa: E402
from carto_core.semantic.store import VectorRecord  # noqa: E402


def stats(samples_ms: list[float]) -> dict:
    ordered = sorted(samples_ms)
    return {"median": round(statistics.median(ordered), 3),
            "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
            "n": len(ordered)}


def timed(fn, repeat: int) -> list[float]:
    out = []
    for i in range(repeat):
        start = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - start) * 1000)
    return out


def part_ladder(args, tmp: Path) -> dict:
    n, dim = args.vectors, 256
    rng = np.random.default_rng(0)
    names = corpus.projects()
    weights = np.array(corpus.project_weights())
    weights /= weights.sum()
    project_of = rng.choice(len(names), size=n, p=weights)
    vectors = rng.normal(size=(n, dim)).astype(np.float32)
    stamps = [corpus.NOW - timedelta(seconds=int(s)) for s in rng.integers(0, 86400 * 120, size=n)]
    store = EmbeddedStore(tmp / "vectors")
    t0 = time.perf_counter()
    step = 20000
    for start in range(0, n, step):
        store.upsert("bench", [VectorRecord(f"evt-{i:012d}", vectors[i], names[project_of[i]], stamps[i])
                               for i in range(start, min(n, start + step))])
    store.compact()
    write_s = time.perf_counter() - t0
    counts = np.bincount(project_of, minlength=len(names))
    order = np.argsort(counts)
    picks = {"smallest": names[order[0]], "median": names[order[len(order) // 2]],
             "largest": names[order[-1]]}
    queries = rng.normal(size=(args.repeat, dim)).astype(np.float32)
    reader = EmbeddedStore(tmp / "vectors")
    reader.search("bench", queries[0], limit=500, projects=[picks["largest"]])  # map the files
    result = {"vectors": n, "dim": dim, "store_write_s": round(write_s, 2),
              "store_write_per_s": round(n / write_s)}
    for label, project in picks.items():
        share = counts[names.index(project)] / n
        result[f"embedded_filtered_{label}"] = {**stats(timed(
            lambda i: reader.search("bench", queries[i], limit=500, projects=[project]),
            args.repeat)), "rows_in_project": int(counts[names.index(project)]),
            "share": round(float(share), 4)}
    result["embedded_unfiltered"] = stats(timed(
        lambda i: reader.search("bench", queries[i], limit=500), args.repeat))
    # Peer 1: the obvious numpy approach - score all, then filter, then cut.
    normed = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    project_col = np.array(project_of)
    target = names.index(picks["largest"])

    def score_then_filter(i):
        scores = normed @ (queries[i] / np.linalg.norm(queries[i]))
        rows = np.flatnonzero(project_col == target)
        sub = scores[rows]
        top = np.argpartition(-sub, 499)[:500]
        return rows[top[np.argsort(-sub[top])]]

    result["peer_numpy_score_all_then_filter_largest"] = stats(timed(score_then_filter, args.repeat))
    # Same answer as the store (exactness check, not a timing).
    ours = [h.event_id for h in reader.search("bench", queries[0], limit=50, projects=[picks["largest"]])]
    theirs = [f"evt-{r:012d}" for r in score_then_filter(0)[:50]]
    result["agrees_with_peer_top50"] = ours == theirs
    if args.qdrant_points:
        result["qdrant_local"] = qdrant_local(args, tmp, vectors, project_of, names, stamps, picks, queries)
    return result


def qdrant_local(args, tmp, vectors, project_of, names, stamps, picks, queries) -> dict:
    try:
        from carto_core.semantic.qdrant import QdrantStore
    except ImportError:
        return {"skipped": "qdrant-client not installed"}
    m = args.qdrant_points
    ours = EmbeddedStore(tmp / "vectors-small")
    records = [VectorRecord(f"evt-{i:012d}", vectors[i], names[project_of[i]], stamps[i]) for i in range(m)]
    ours.upsert("bench", records)
    store = QdrantStore(path=str(tmp / "qdrant"), collection="bench")
    t0 = time.perf_counter()
    for start in range(0, m, 1000):
        store.upsert("bench", records[start:start + 1000])
    write_s = time.perf_counter() - t0
    project = picks["largest"]
    repeat = max(3, min(args.repeat, 10))
    out = {"points": m, "write_per_s": round(m / write_s),
           "qdrant_local_filtered_largest": stats(timed(
               lambda i: store.search("bench", queries[i], limit=500, projects=[project]), repeat)),
           "embedded_filtered_largest_same_points": stats(timed(
               lambda i: ours.search("bench", queries[i], limit=500, projects=[project]), repeat))}
    a = [h.event_id for h in store.search("bench", queries[0], limit=20, projects=[project])]
    b = [h.event_id for h in ours.search("bench", queries[0], limit=20, projects=[project])]
    out["agrees_top20"] = a == b
    store.close()
    return out


def part_build(args, home_root: Path) -> dict:
    from carto_core.model.corpus import load_corpus
    from carto_core.logio.home import Home
    from carto_core.semantic.indexer import run_index
    from carto_core.semantic.settings import SemanticSettings
    from carto_core.semantic.text import document_text

    t0 = time.perf_counter()
    if (home_root / "changelog.jsonl").exists():
        # Reuse the logs of an earlier run (--home); index from nothing all the same.
        import shutil

        home = Home(home_root)
        for derived in ("vectors", "embedders", "index-backoff.json", "index-errors.jsonl"):
            target = home.state / derived
            shutil.rmtree(target) if target.is_dir() else target.unlink(missing_ok=True)
    else:
        home = corpus.build(str(home_root), args.events)
    build_s = time.perf_counter() - t0
    os.environ["CARTO_HOME"] = str(home_root)
    settings = SemanticSettings.load()
    t0 = time.perf_counter()
    loaded = load_corpus(home)
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    report = run_index(home, settings=settings, corpus=loaded)
    index_s = time.perf_counter() - t0
    assert report.outcome == "ok", report.to_dict()
    # Peer for the embed step: scikit-learn transforming the same documents with a model fitted
    # the same way (fit time excluded on both sides).
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    from carto_core.semantic.embedder import create_embedder
    from carto_rankers.embedders.lsa import tokenize

    texts = [t for t in (document_text(e) for e in loaded.events) if t]
    sample = texts[:: max(1, len(texts) // 50000)][:50000]
    vectorizer = TfidfVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None,
                                 sublinear_tf=True, min_df=2, dtype=np.float32)
    t0 = time.perf_counter()
    svd = TruncatedSVD(n_components=256, algorithm="randomized", n_iter=5, random_state=0)
    svd.fit(vectorizer.fit_transform(sample))
    sk_fit_s = time.perf_counter() - t0
    subset = texts[:50000]
    t0 = time.perf_counter()
    svd.transform(vectorizer.transform(subset))
    sk_embed = len(subset) / (time.perf_counter() - t0)
    embedder = create_embedder("lsa", home, settings)
    t0 = time.perf_counter()
    for start in range(0, len(subset), 512):
        embedder.embed_documents(subset[start:start + 512])
    ours_embed = len(subset) / (time.perf_counter() - t0)
    incremental = run_index(home, settings=settings, corpus=loaded)
    print(json.dumps({"index_report": report.to_dict()}, indent=1), flush=True)
    ladder = ranker_timings(args, home)
    return {"semantic_ladder_in_process": ladder,"events": args.events, "write_home_s": round(build_s, 1), "load_corpus_s": round(load_s, 2),
            "index_from_nothing_s": round(index_s, 1),
            "index_docs_per_s": round(report.embedded / index_s),
            "embedded": report.embedded, "model": report.model,
            "sklearn_fit_same_sample_s": round(sk_fit_s, 1),
            "embed_docs_per_s_ours": round(ours_embed), "embed_docs_per_s_sklearn_peer": round(sk_embed),
            "second_run_s": round(incremental.seconds, 2), "second_run_embedded": incremental.embedded}


def ranker_timings(args, home) -> dict:
    """The `semantic` ranker as the search pipeline calls it (lsa query embedding with numpy,
    store search with the project pushed down, ladder over engine indices), warm engine."""
    from carto_core.model.project import ProjectScope
    from carto_core.search.api import Query
    from carto_core.search.engine import SearchEngine
    from carto_core.search.tokens import query_tokens

    engine = SearchEngine(home)
    engine.ensure_loaded()
    ranker = engine.ranker("semantic")
    assert ranker.status(engine) == (True, ""), ranker.status(engine)
    names = corpus.projects()
    qs = corpus.queries(args.repeat)
    out = {}
    for label, project in (("median_project", names[30]), ("largest_project", names[0]), ("no_filter", None)):
        scope = engine.scope(project=ProjectScope([project]) if project else None)
        queries = [Query(q, tuple(query_tokens(q))) for q in qs]
        lengths = []

        def run(i):
            (ladder,) = ranker.rank(queries[i], scope, engine)
            lengths.append(len(ladder))

        out[label] = {**stats(timed(run, len(queries))), "in_scope": scope.size,
                      "mean_ladder_len": round(sum(lengths) / len(lengths), 1)}
    return out


def part_cli(args, home_root: Path) -> dict:
    carto = str(Path(sys.executable).parent / "carto")
    env = {**os.environ, "CARTO_HOME": str(home_root)}
    subprocess.run([carto, "index", "--json"], env=env, check=True, capture_output=True)
    qs = corpus.queries(args.cli_repeat)
    out = {}
    for label, extra in (("hybrid", []), ("keyword_only", ["--no-semantic"])):
        samples, statuses = [], set()
        for q in qs:
            start = time.perf_counter()
            done = subprocess.run([carto, "search", q, "--json", "--all", *extra], env=env,
                                  capture_output=True, text=True)
            samples.append((time.perf_counter() - start) * 1000)
            if done.stdout.strip():
                import json

                statuses.add(json.loads(done.stdout)["semantic_status"])
        out[label] = {**stats(samples), "semantic_status": sorted(statuses)}
    out["ratio_hybrid_to_keyword"] = round(out["hybrid"]["median"] / out["keyword_only"]["median"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", action="append", choices=["ladder", "build", "cli", "all"])
    parser.add_argument("--vectors", type=int, default=200_000)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--cli-repeat", type=int, default=21)
    parser.add_argument("--qdrant-points", type=int, default=20_000)
    parser.add_argument("--home", help="keep the built home here (default: a temporary folder)")
    args = parser.parse_args()
    parts = set(args.part or ["all"])
    if "all" in parts:
        parts = {"ladder", "build", "cli"}
    import json

    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        home_root = Path(args.home) if args.home else tmp / "home"
        results = {}
        if "ladder" in parts:
            results["ladder"] = part_ladder(args, tmp)
            print(json.dumps({"ladder": results["ladder"]}, indent=1), flush=True)
        if "build" in parts:
            results["build"] = part_build(args, home_root)
            print(json.dumps({"build": results["build"]}, indent=1), flush=True)
        if "cli" in parts:
            if "build" not in parts and not (home_root / "changelog.jsonl").exists():
                part_build(args, home_root)
            results["cli"] = part_cli(args, home_root)
            print(json.dumps({"cli": results["cli"]}, indent=1), flush=True)


if __name__ == "__main__":
    main()
