"""What a contextual sentence encoder would find where wordllama's static vectors do not
(docs/ranking.md, "Whitening the semantic space"): the semantic ladder alone, as
`eval_bridges.py pooling` measures it (every document of a home ranked by cosine, evidence at
rank 1 / in the top 10 / in the top 50), with a BERT-style sentence-transformers model run
by a numpy forward pass (no torch), for the question whole, as its content words, and whole
minus the home's mean document vector.

A probe, not a ranker: the model is not a dependency of carto. Its folder must hold
`config.json`, `model.safetensors` and `tokenizer.json` of a BERT encoder with mean pooling
(all-MiniLM-L6-v2 was measured: 6 layers, 384 wide). Nothing is downloaded: point it at a
folder you have. Slow: about 25-50 ms a row on one core (coding rows are long); the
documents' vectors are cached beside the homes (`<home>/.encoder-<name>.npy`).

`--serve PORT` instead answers OpenAI-style `/v1/embeddings` requests on 127.0.0.1 with the
encoder (the cached documents' vectors first), so that the `http` embedder, and with it the
whole pipeline, can be measured with the model: `eval_recall.py --embedders http`. The http
embedder's default query prefix (mxbai's instruction) is taken off a query first.

Usage (repository root; the homes are eval_recall.py's, built by it first):

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/search/eval_encoder.py MODEL_DIR \
        /tmp/recall-eval dlg-b,dlg-d,dlg-a
    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/search/eval_encoder.py MODEL_DIR \
        /tmp/recall-eval dlg-b,dlg-d --serve 8891 &
    CARTO_EMBED_URL=http://127.0.0.1:8891/v1/embeddings CARTO_EMBED_MODEL=minilm \
        .venv/bin/python benchmarks/search/eval_recall.py --out /tmp/recall-eval \
        --sets dlg-b,dlg-d --analyzers english --embedders http --fusions rrf-prior --decays gated-prior
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np


class Encoder:
    """BERT + mean pooling + L2 normalisation, as sentence-transformers runs it (GELU by its
    tanh form: within 1e-3 of erf's, and numpy has no erf)."""

    def __init__(self, folder: Path, max_tokens: int = 128):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.config = json.loads((folder / "config.json").read_text())
        self.w = load_file(str(folder / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_tokens)
        self.tokenizer.no_padding()  # the file may pad to a fixed length: batches pad here
        self.heads = int(self.config["num_attention_heads"])
        self.layers = int(self.config["num_hidden_layers"])
        self.eps = float(self.config.get("layer_norm_eps", 1e-12))

    def _norm(self, x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + self.eps) * self.w[p + ".weight"] + self.w[p + ".bias"]

    def _linear(self, x, p):
        return x @ self.w[p + ".weight"].T + self.w[p + ".bias"]

    def _forward(self, ids, mask):
        w, (b, n) = self.w, ids.shape
        width = w["embeddings.word_embeddings.weight"].shape[1]
        head = width // self.heads
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._norm(x, "embeddings.LayerNorm")
        bias = (1.0 - mask[:, None, None, :]) * -1e9

        def split(t):
            return t.reshape(b, n, self.heads, head).transpose(0, 2, 1, 3)

        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q = split(self._linear(x, p + "attention.self.query"))
            k = split(self._linear(x, p + "attention.self.key"))
            v = split(self._linear(x, p + "attention.self.value"))
            s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(float(head)) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            c = (s @ v).transpose(0, 2, 1, 3).reshape(b, n, width)
            x = self._norm(self._linear(c, p + "attention.output.dense") + x,
                           p + "attention.output.LayerNorm")
            h = self._linear(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
            x = self._norm(self._linear(h, p + "output.dense") + x, p + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def encode(self, texts, batch: int = 64) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(list(texts))
        order = np.argsort([len(e.ids) for e in encoded])  # batches of like lengths
        width = self.w["embeddings.word_embeddings.weight"].shape[1]
        out = np.zeros((len(encoded), width), np.float32)
        for start in range(0, len(order), batch):
            part = order[start:start + batch]
            n = max(len(encoded[i].ids) for i in part)
            ids = np.zeros((len(part), n), np.int64)
            mask = np.zeros((len(part), n), np.float32)
            for r, i in enumerate(part):
                ids[r, :len(encoded[i].ids)] = encoded[i].ids
                mask[r, :len(encoded[i].ids)] = 1
            out[part] = self._forward(ids, mask)
        return out


def serve(encoder: Encoder, args) -> None:
    import eval_bridges
    from http.server import BaseHTTPRequestHandler, HTTPServer

    from carto_rankers.embedders.http_embedder import DEFAULT_QUERY_PREFIX

    known: dict[str, np.ndarray] = {}
    for name in args.sets.split(","):
        for root in sorted(Path(args.out).glob(f"{name}-[0-9]")):
            cache = root / f".encoder-{args.model.name}.npy"
            if cache.exists():
                _, texts, _ = eval_bridges._documents(eval_bridges._engine(root))
                known.update(zip(texts, np.load(cache)))
    print(f"# serving {len(known)} cached vectors on 127.0.0.1:{args.serve}", file=sys.stderr,
          flush=True)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            inputs = [t[len(DEFAULT_QUERY_PREFIX):] if t.startswith(DEFAULT_QUERY_PREFIX) else t
                      for t in body["input"]]
            missing = [t for t in dict.fromkeys(inputs) if t not in known]
            if missing:
                known.update(zip(missing, encoder.encode(missing)))
            data = [{"index": i, "embedding": known[t].tolist()} for i, t in enumerate(inputs)]
            raw = json.dumps({"data": data}).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args):
            pass

    HTTPServer(("127.0.0.1", args.serve), Handler).serve_forever()  # one request at a time: one core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", type=Path, help="folder with config.json, model.safetensors, tokenizer.json")
    parser.add_argument("out", help="eval_recall.py's --out folder")
    parser.add_argument("sets", help="comma-separated, e.g. dlg-b,dlg-d,dlg-a")
    parser.add_argument("--serve", type=int, metavar="PORT",
                        help="answer /v1/embeddings on 127.0.0.1:PORT instead of measuring")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import eval_bridges
    from carto_core.evaluation import agecurve

    encoder = Encoder(args.model)
    if args.serve:
        return serve(encoder, args)
    variants = ("whole", "content", "whole-centred")
    for name in args.sets.split(","):
        found: Counter = Counter()
        cases_n = 0
        for root in sorted(Path(args.out).glob(f"{name}-[0-9]")):
            engine = eval_bridges._engine(root)
            ids, texts, _ = eval_bridges._documents(engine)
            cache = root / f".encoder-{args.model.name}.npy"
            started = time.time()
            docs = np.load(cache) if cache.exists() else encoder.encode(texts)
            if not cache.exists():
                np.save(cache, docs)
            cases = agecurve.read_cases(root / "cases.jsonl")
            whole = encoder.encode([c.query for c in cases])
            queries = {"whole": whole,
                       "content": encoder.encode([engine.analyzer.content_query(c.query) for c in cases]),
                       "whole-centred": whole - docs.mean(0)}
            for variant, qs in queries.items():
                scores = qs @ docs.T
                for i, case in enumerate(cases):
                    order = np.argsort(-scores[i])[:50]
                    rank = next((r for r, d in enumerate(order, 1) if ids[d] in case.expect), None)
                    for k in (1, 10, 50):
                        found[(variant, k)] += bool(rank and rank <= k)
            cases_n += len(cases)
            print(f"# {root.name}: {len(texts)} rows, {time.time() - started:.0f} s", file=sys.stderr,
                  flush=True)
        print(json.dumps({"set": name, "cases": cases_n,
                          **{v: [found[(v, k)] for k in (1, 10, 50)] for v in variants}}), flush=True)


if __name__ == "__main__":
    main()
