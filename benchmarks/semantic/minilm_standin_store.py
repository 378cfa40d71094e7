"""A stand-in minilm store for a corpus home whose wordllama store is built: the same ids,
projects, times and digests under minilm's model tag, with random unit vectors of 384
dimensions, and the semantic state pointed at it. For the keep-up step's cost with minilm at a
scale whose first build would take CPU-hours (`bench_keepup.py STANDIN --embedder minilm`): the
gate's decisions are not minilm's (random neighbours reject nothing), its cost is; the store
holds every row, where minilm's own would leave tool rows out (a larger store, not a smaller).

    .venv/bin/python benchmarks/semantic/minilm_standin_store.py BASE1M STANDIN
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="a corpus home with its wordllama store built")
    parser.add_argument("target", type=Path, help="the stand-in home (replaced)")
    args = parser.parse_args()
    import numpy as np

    from carto_core.semantic.embedded import EmbeddedStore, Segment
    from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder

    if args.target.exists():
        shutil.rmtree(args.target)
    args.target.mkdir(parents=True)
    for path in args.base.glob("*.jsonl"):
        shutil.copy(path, args.target / path.name)
    tag = MiniLMEmbedder(args.target).model_tag
    source = EmbeddedStore(args.base / ".carto" / "vectors")
    store = EmbeddedStore(args.target / ".carto" / "vectors")
    rng = np.random.default_rng(0)
    total = 0
    for entry in source._read_manifest()["segments"]:
        columns = Segment(source.root / entry["name"], entry).columns()
        ids = [i.decode() if isinstance(i, bytes) else str(i) for i in columns["ids"].tolist()]
        store.upsert_arrays(tag, ids, rng.standard_normal((len(ids), 384)).astype(np.float32),
                            columns["projects"], (columns["ts"] / 1000.0).tolist(),
                            digests=columns["digests"].tolist())
        total += len(ids)
        print(f"{entry['name']}: {total:,} rows", file=sys.stderr, flush=True)
    state = json.loads((args.base / ".carto" / "semantic-index.json").read_text("utf-8"))
    state.update(model=tag, store=store.describe())
    (args.target / ".carto" / "semantic-index.json").write_text(json.dumps(state), "utf-8")
    print(json.dumps({"model": tag, "rows": total}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
