"""The novelty gate's exact pre-filter on a real keep-up run (docs/performance.md, "The gate's
exact pre-filter"): how tight the bound is and what it saves.

BASE is a home whose semantic index is built (as for bench_keepup.py). A working copy gets the
same 1,000 appended events as bench_keepup's, and `carto index --step semantic` runs in this
process with the store's `nearest` watched: the documents the gate asks about and the segments
of its window are kept. Then, on those inputs, one BLAS thread:

- for each basis size k, the share of (document, stored row) pairs whose bound may pass the
  threshold, of documents with any, and of (document, part of 4,096 rows) pairs the filter
  multiplies exactly;
- for each batch, the CPU of the exact pass (`best_rows`) and of the filtered one
  (`best_rows_above`, its row terms computed, then kept), and whether they agree, at the
  gate's threshold and lower ones (where some documents pass).

    OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/semantic/gate_prefilter.py BASE --workdir W
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[0] / "scale"))
import bench_keepup  # noqa: E402
import corpus  # noqa: E402
from bench_scale import child_env  # noqa: E402


def gate_inputs(base: Path, workdir: Path, seed: int):
    """The documents each gate call asked about, and its window's segments (kept open)."""
    home = workdir / "home"
    bench_keepup.working_copy(base, home)
    corpus.append(home, 1000, seed=seed)
    sandbox = Path(tempfile.mkdtemp(prefix="sandbox-", dir=workdir))
    os.environ.update(child_env(home, sandbox, None), CARTO_EMBEDDER="wordllama")
    from carto_core.semantic import embedded
    from carto_core.semantic.indexer import run_index
    from carto_core.logio.home import current_home

    asked = []
    real = embedded.EmbeddedStore.nearest

    def watched(self, model, vectors, *, newest=None, above=None):
        segments = self._model_segments(model)
        window = embedded.newest_segments(segments, newest) if newest is not None else segments
        asked.append((embedded.normalise(np.asarray(vectors, np.float32)), window, above))
        return real(self, model, vectors, newest=newest, above=above)

    embedded.EmbeddedStore.nearest = watched
    report = run_index(current_home())
    embedded.EmbeddedStore.nearest = real
    print(f"keep-up run: embedded {report.embedded}, gated {report.gated}, "
          f"{len(asked)} gate calls of {[len(a[0]) for a in asked]} documents, window "
          f"{[s.count for s in asked[0][1]]} rows", flush=True)
    return asked


def tightness(queries, segments, threshold: float) -> None:
    from carto_core.semantic import gatebound
    from carto_core.semantic.embedded import _gate_basis, dequantize

    rows = np.concatenate([dequantize(s.vectors, s.scale, s.centre) for s in segments])
    exact = queries @ rows.T
    best = exact.max(axis=1)
    print(f"best score per document: median {np.median(best):.3f}, max {best.max():.3f}; "
          f"above {threshold}: {int((best > threshold).sum())}", flush=True)
    print("| k | pairs that may pass | documents with any | (document, part) pairs scored exactly |")
    print("|---|---|---|---|")
    sample = _gate_basis(segments)  # the basis the store uses, at its own k
    for k in sorted({24, 32, 40, 48, 56, len(sample), 80}):
        directions = gatebound.basis(rows[:: max(1, len(rows) // gatebound.SAMPLE_ROWS)], k)
        bound = gatebound.terms(queries, directions) @ gatebound.terms(rows, directions).T
        assert (bound >= exact - 1e-5).all()
        may = bound > threshold - gatebound.SLACK
        parts = np.add.reduceat(may, np.arange(0, len(rows), 4096), axis=1) > 0
        print(f"| {k} | {may.mean():.6f} | {may.any(axis=1).mean():.3f} | {parts.mean():.4f} |", flush=True)


def timings(asked, thresholds) -> None:
    from carto_core.semantic.embedded import _gate_basis, best_rows, best_rows_above

    print("| threshold | batch | exact CPU | filtered CPU (terms computed) | filtered CPU (terms kept) | passing | same |")
    print("|---|---|---|---|---|---|---|")
    for threshold in thresholds:
        for number, (queries, segments, _) in enumerate(asked):
            directions = _gate_basis(segments)
            cpu, same, passing = [0.0, 0.0, 0.0], True, 0
            for segment in segments:
                kept: list = []
                t = time.process_time()
                ref = best_rows(segment.vectors, queries, segment.scale, segment.centre)
                cpu[0] += time.process_time() - t
                for slot in (1, 2):
                    t = time.process_time()
                    got = best_rows_above(segment.vectors, queries, segment.scale, segment.centre,
                                          threshold, directions, kept)
                    cpu[slot] += time.process_time() - t
                    passed = ref[0] > np.float32(threshold)
                    same &= (np.array_equal(got[1][passed], ref[1][passed])
                             and np.array_equal(got[0][passed], ref[0][passed])
                             and bool((got[1][~passed] == -1).all()))
                passing += int(passed.sum())
            print(f"| {threshold} | {number + 1} ({len(queries)}) | {cpu[0]:.3f} s | {cpu[1]:.3f} s | "
                  f"{cpu[2]:.3f} s | {passing} | {same} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1000001)
    parser.add_argument("--thresholds", default="0.85,0.7,0.6")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    asked = gate_inputs(args.base, args.workdir, args.seed)
    threshold = asked[0][2] if asked[0][2] is not None else 0.85
    tightness(np.concatenate([a[0] for a in asked]), asked[0][1], threshold)
    timings(asked, [float(t) for t in args.thresholds.split(",")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
