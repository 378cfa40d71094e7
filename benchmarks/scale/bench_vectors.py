"""int8 vectors against float32: what storing the semantic ladder's vectors as int8 offsets from
the model's centre (a scale a row: a quarter of float32's bytes) costs in recall, measured on
the conversational recall set (`carto_core.evaluation.dialogues`: generated multi-session
dialogues whose cases name the turns that answer them).

One home (the dialogues, variant a, on top of a generated year of coding events), indexed with
the default embedder into the embedded store (int8 rows). A float32 twin of the store is then
written: every stored id embedded again with the same embedder, rows unit length, saved as
format-1 float32 segments (which the store still reads, scoring them exactly). The same cases
run against both, in the same process:

- the semantic ladder alone (`rankers=["semantic"]`, no decay): recall@10 and hit@10, with no
  filter, with a project filter (each case's own project) and with a time window (the newest
  half of the home): filters are applied before the top-k in both stores;
- keyword and semantic ladders fused (`bm25,semantic`, no decay): the same;
- the overlap of the two stores' semantic top-10 per query (the ladder's own top 10, by id),
  and the largest score difference of an id both return.

    .venv/bin/python benchmarks/scale/bench_vectors.py --workdir /tmp/scale/vectors
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np


def filters(cases, projects, since):
    """(label, case number -> search filters): none, a project of the store (in turn), the
    newest half of the home's time, and both."""
    def project(i):
        return {"projects": [projects[i % len(projects)]]}

    return [("unfiltered", lambda i: {}), ("project", project),
            ("window", lambda i: {"since": since}),
            ("project+window", lambda i: {**project(i), "since": since})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/scale/vectors"))
    parser.add_argument("--coding-events", type=int, default=20000)
    parser.add_argument("--sessions", type=int, default=160)
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    root = args.workdir / "home"
    os.environ["CARTO_HOME"] = str(root)
    os.environ.setdefault("CARTO_KEEPUP", "0")
    os.environ["CARTO_NOVELTY_GATE"] = "off"  # every row stored: the twin compares like with like

    from carto_core.model.corpus import load_corpus
    from carto_core.evaluation.agecurve import conversational_table, run_cases
    from carto_core.evaluation.dialogues import generate_dialogues
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine
    from carto_core.semantic.embedded import Segment, _save, normalise
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.indexer import run_index
    from carto_core.semantic.searcher import SemanticSearcher
    from carto_core.semantic.settings import SemanticSettings
    from carto_core.semantic.store import vectors_dir
    from carto_core.semantic.text import document_text
    from carto_core.util.timeparse import utcnow

    now = utcnow()
    cases, stats = generate_dialogues(root, variant="a", sessions=args.sessions,
                                      coding_events=args.coding_events, now=now)
    home = Home(root)
    started = time.perf_counter()
    report = run_index(home)
    print(f"indexed {report.embedded} vectors ({report.model}) in {time.perf_counter() - started:.1f} s")

    # The float32 twin: the same ids, embedded again, stored as float32 rows.
    settings = SemanticSettings.load()
    embedder = create_embedder(settings.embedder, home, settings)
    texts = {e.event_id: document_text(e) for e in load_corpus(home).events}
    half = vectors_dir(home)
    full = args.workdir / "vectors-f32"
    shutil.copytree(half, full)
    manifest = json.loads((full / "manifest.json").read_text())
    for entry in manifest["segments"]:
        segment = Segment(full / entry["name"], entry)
        ids = segment.id_list()
        vectors = normalise(np.asarray(embedder.embed_documents([texts[i] for i in ids]), np.float32))
        del segment
        _save(full / entry["name"] / "vectors.npy", vectors)
    manifest["format"] = 1
    (full / "manifest.json").write_text(json.dumps(manifest))

    results: dict = {"model": report.model, "vectors": report.embedded, "cases": len(cases),
                     "dialogue_turns": stats}
    ladders: dict[str, list] = {}
    for name in ("int8", "float32"):
        if name == "float32":
            shutil.move(str(half), str(args.workdir / "vectors-int8"))
            shutil.copytree(full, half)
        engine = SearchEngine(home)
        semantic = run_cases(engine, cases, ["semantic"], "none", now=now)
        hybrid = run_cases(engine, cases, ["bm25", "semantic"], "none", now=now)
        searcher = SemanticSearcher(home)
        if name == "int8":  # the same filters for both stores
            projects = searcher.status() and searcher._store.projects(searcher.status().model)
            since = now - (now - min(e.timestamp for e in load_corpus(home).events)) / 2
        for label, scope in filters(cases, projects, since):
            ladders.setdefault(label, {})[name] = [
                searcher.search(c.query, limit=10, **scope(i)) for i, c in enumerate(cases)]
        results[name] = {"semantic": conversational_table(semantic)["all"],
                         "bm25+semantic": conversational_table(hybrid)["all"],
                         "store_bytes": sum(p.stat().st_size for p in half.rglob("*") if p.is_file())}
    for label, pair in ladders.items():
        overlap, diffs = [], []
        for a, b in zip(pair["int8"], pair["float32"]):
            theirs = {h.event_id: h.score for h in b}
            overlap.append(len(set(theirs) & {h.event_id for h in a}) / max(1, len(b)))
            diffs.extend(abs(h.score - theirs[h.event_id]) for h in a if h.event_id in theirs)
        results[f"top10_{label}"] = {
            "overlap_mean": round(float(np.mean(overlap)), 4),
            "identical": round(float(np.mean([o == 1.0 for o in overlap])), 4),
            "max_score_diff_same_id": float(max(diffs)) if diffs else 0.0}
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
