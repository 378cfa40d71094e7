"""minilm's two ways of embedding documents over the same texts, one thread each: onnxruntime
in batches sorted by length (what `carto index` runs) and the numpy forward pass one text at a
time (what a query runs); CPU, rows per CPU-second, the process' peak RSS, and the cosine
between the two paths' vectors (docs/performance.md, "The keep-up step measured again").

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/semantic/minilm_paths.py HOME --texts 480

The texts: the last rows of HOME's prompt, turn, milestone and research logs (what minilm
embeds of a keep-up), read from each log's end. Each path runs in a process of its own, so
each peak RSS is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

LOGS = ("turns.jsonl", "prompt-history.jsonl", "session-milestones.jsonl", "research-log.jsonl")
FIELDS = ("summary", "description", "display", "prompt", "query")


def tail_lines(path: Path, count: int) -> list[bytes]:
    """The last `count` lines, read from the end (a 1M home's turn log is 100 MB: reading it
    whole would be most of the peak RSS measured)."""
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        end = handle.tell()
        size = 1 << 16
        while True:
            start = max(0, end - size)
            handle.seek(start)
            lines = handle.read(end - start).splitlines()
            if start == 0 or len(lines) > count + 1:
                return lines[-count:]
            size *= 2


def texts(home: Path, count: int) -> list[str]:
    out: list[str] = []
    per_log = count // len(LOGS) + 30
    for name in LOGS:
        for line in tail_lines(home / name, per_log):
            row = json.loads(line)
            text = next((row[f] for f in FIELDS if isinstance(row.get(f), str) and row[f]), "")
            if text:
                out.append(text)
    return out[:count]


def child(path: str, home: Path, count: int, out: Path) -> None:
    import numpy as np

    from carto_rankers.embedders import wordpiece
    from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder

    chosen = texts(home, count)
    embedder = MiniLMEmbedder(home)
    start = time.process_time()
    if path == "onnxruntime":
        vectors = embedder.embed_documents(chosen)
    else:
        numpy_model = embedder._numpy_model()
        vectors = np.stack([numpy_model.embed_ids(wordpiece.encode(t, numpy_model.vocab(),
                                                                   max_tokens=embedder.max_tokens))
                            for t in chosen])
    cpu = time.process_time() - start
    np.save(out, vectors)
    lengths = [len(e.ids) for e in embedder._batch_tokenizer().encode_batch(chosen)]
    print(json.dumps({"path": path, "texts": len(chosen), "mean_tokens": sum(lengths) / len(lengths),
                      "cpu_s": round(cpu, 2), "rows_per_cpu_s": round(len(chosen) / cpu, 1),
                      "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("--texts", type=int, default=480)
    parser.add_argument("--out", type=Path, default=Path("/tmp"))
    parser.add_argument("--child", choices=("onnxruntime", "numpy"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.home, args.texts, args.out / f"minilm-{args.child}.npy")
        return 0
    for path in ("onnxruntime", "numpy"):
        subprocess.run([sys.executable, __file__, str(args.home), "--texts", str(args.texts),
                        "--out", str(args.out), "--child", path], check=True)
    import numpy as np

    a, b = (np.load(args.out / f"minilm-{p}.npy") for p in ("onnxruntime", "numpy"))
    cosines = (a * b).sum(1)
    print(json.dumps({"cosine_min": float(cosines.min()), "cosine_mean": float(cosines.mean())}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
