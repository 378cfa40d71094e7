"""How tight the novelty gate's bound is on minilm vectors (docs/performance.md, "The gate's
exact pre-filter"): 6,000 "stored" conversation rows of a home (the first ones of each log,
shuffled) and 800 "new" ones, embedded with minilm; for k of 48-160 basis directions, the
share of pairs, of documents and of (document, part) pairs whose bound may pass.

    OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/semantic/gate_bound_minilm.py HOME

"""
import json, sys, time, itertools
from pathlib import Path
import numpy as np
from carto_core.logio.home import Home
from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder
from carto_core.semantic import gatebound
from carto_core.semantic.embedded import normalise, quantize, dequantize
H = Path(sys.argv[1])
texts = []
for name in ("prompt-history.jsonl", "turns.jsonl", "session-milestones.jsonl", "research-log.jsonl"):
    with open(H / name) as f:
        for line in itertools.islice(f, 2000):
            r = json.loads(line)
            t = next((r[k] for k in ("summary", "description", "prompt", "query", "milestone") if r.get(k)), None)
            if t: texts.append(f"{t} | project: {r.get('project', '')}"[:1200])
rng = np.random.default_rng(0); rng.shuffle(texts)
stored_t, new_t = texts[:6000], texts[6000:6800]
e = MiniLMEmbedder(Home(H / "nothome"))
t = time.process_time(); S = normalise(e.embed_documents(stored_t)); N = normalise(e.embed_documents(new_t))
print("embedded", len(S), len(N), "cpu", round(time.process_time() - t, 1), flush=True)

c = S[:2048].mean(0); codes, scale = quantize(S, c); Y = dequantize(codes, scale, c)
exact = N @ Y.T
for thr in (0.85, 0.7):
    print(f"thr {thr}: rejects {(exact.max(1) > thr).sum()} of {len(N)}; best quantiles {np.quantile(exact.max(1), [.5, .9, 1]).round(3)}")
    for k in (48, 64, 96, 128, 160):
        P = gatebound.basis(Y[::2], k)
        ub = gatebound.terms(N, P) @ gatebound.terms(Y, P).T
        cand = ub > thr - gatebound.SLACK
        parts = np.add.reduceat(cand, np.arange(0, len(Y), 4096), axis=1) > 0
        print(f"  k={k}: pairs {cand.mean():.5f} queries-any {cand.any(1).mean():.3f} (query,part) {parts.mean():.4f} |ry| med {np.median(gatebound.terms(Y, P)[:, -1]):.3f}", flush=True)
