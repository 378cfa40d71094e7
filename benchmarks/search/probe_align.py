"""Token-level alignment as a relevance-floor signal, replayed on probe_signals.py's records
(docs/ranking.md, "The relevance floor": token alignment).

For the semantic ladder's top K candidates of each recorded search (`probe_signals.py
--texts K`), run minilm's numpy forward pass once over the query and once over each
candidate, keep the contextual token vectors before pooling, and ask how well each content
word of the query (the english analyzer's content words; a word's vector is the mean of its
word pieces) finds a token of the candidate: its largest cosine (ColBERT's MaxSim). A search
then counts as having found something when a keyword candidate holds half the query, or the
best cosine clears the floor and some top-K candidate aligns the query's words well enough.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/search/probe_align.py \\
        --records signals.jsonl --packs u-1,u-2,u-3

Prints, per rule family and per budget of real answers lost from a set's top 10, the largest
share of unseen questions silenced (the table of probe_signals.py --replay), and the cost of
the alignment in this process (forward passes, CPU seconds).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from probe_signals import print_budgets  # noqa: E402

_WORD_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"


class Encoder:
    """minilm's numpy forward pass, keeping every layer's token vectors."""

    def __init__(self, max_tokens: int = 128):
        from carto_rankers.embedders import wordpiece
        from carto_rankers.embedders.minilm_embedder import MiniLMEmbedder

        embedder = MiniLMEmbedder(None)
        self.model = embedder._numpy_model()
        self.vocab = self.model.vocab()
        self.wordpiece = wordpiece
        self.max_tokens = max_tokens
        self.unk = self.vocab["[UNK]"]
        self.cache: dict[str, tuple] = {}
        self.passes = 0
        self.cpu = 0.0

    def layers(self, ids: list[int]) -> list[np.ndarray]:
        return self.model._forward(ids, every_layer=True)

    def encode(self, text: str):
        """(words, spans, layers): the text's words, each word's token span, every layer's
        token vectors (the [CLS] and [SEP] rows included, at 0 and -1)."""
        got = self.cache.get(text)
        if got is not None:
            return got
        words, spans, ids = [], [], []
        for word in self.wordpiece.words(text):
            pieces = self.wordpiece.word_ids(word, self.vocab, self.unk)
            if len(ids) + len(pieces) > self.max_tokens - 2:
                break
            spans.append((1 + len(ids), 1 + len(ids) + len(pieces)))
            words.append(word)
            ids.extend(pieces)
        ids = [self.vocab["[CLS]"], *ids, self.vocab["[SEP]"]]
        started = time.process_time()
        layers = self.layers(ids)
        self.cpu += time.process_time() - started
        self.passes += 1
        got = self.cache[text] = (words, spans, layers)
        return got


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def word_vectors(words, spans, layer: np.ndarray, keep) -> tuple[list[str], np.ndarray]:
    picked = [(w, s) for w, s in zip(words, spans) if keep(w)]
    if not picked:
        return [], np.zeros((0, layer.shape[1]), np.float32)
    return [w for w, _ in picked], _unit(np.stack([layer[a:b].mean(0) for _, (a, b) in picked]))


def is_word(w: str) -> bool:
    return any(c in _WORD_CHARS for c in w)


def align(encoder: Encoder, query: str, content: set[str], text: str, layer: int,
          centre: np.ndarray | None) -> dict[str, float]:
    """Each content word of the query -> its best cosine to a word of the candidate."""
    qw, qs, ql = encoder.encode(query)
    cw, cs, cl = encoder.encode(text)
    qx, cx = ql[layer], cl[layer]
    if centre is not None:
        qx, cx = qx - centre, cx - centre
    qwords, qv = word_vectors(qw, qs, qx, lambda w: w in content)
    cwords, cv = word_vectors(cw, cs, cx, is_word)
    if not qwords or not cwords:
        return {w: 0.0 for w in qwords}
    sims = qv @ cv.T
    best = sims.max(1)
    out: dict[str, float] = {}
    for w, s in zip(qwords, best):
        out[w] = max(out.get(w, -1.0), float(s))
    return out


def _scores(f: dict, variant: str, agg: str, k: int) -> float:
    """The best top-k candidate's alignment of the query's words: `min` (its worst-aligned
    content word), `idf` (the idf-weighted mean), `absent` (its worst-aligned word that no
    document of the home holds; 1 when every word is held)."""
    best = -1.0
    for cand in f["cands"][:k]:
        a = cand["align"][variant]
        if not a:
            continue
        if agg == "min":
            s = min(a.values())
        elif agg == "idf":
            weight = sum(f["idf"].get(w, 1.0) for w in a) or 1.0
            s = sum(f["idf"].get(w, 1.0) * v for w, v in a.items()) / weight
        elif agg.startswith("share"):  # idf share of the words aligned at >= tau
            tau = float(agg[5:])
            weight = sum(f["idf"].get(w, 1.0) for w in a) or 1.0
            s = sum(f["idf"].get(w, 1.0) for w, v in a.items() if v >= tau) / weight
        else:
            missing = [a[w] for w in f["absent"] if w in a]
            s = min(missing) if missing else 1.0
        best = max(best, s)
    return best


AGGS = ["min", "idf", "absent"]
VARIANTS: list[str] = []


def _rules(variants):
    base = 0.22
    yield "cosine (today's rule)", [(f"F {x:.2f}", lambda f, x=x: f["cov"] >= 0.5 or f["top"] >= x)
                                    for x in [round(0.20 + 0.01 * i, 2) for i in range(31)]]
    for variant in variants:
        for agg in AGGS:
            rules = []
            for k in (1, 3, 5):
                for t in [round(0.1 + 0.025 * i, 3) for i in range(33)]:
                    for hi in (0.3, 0.35, 0.4, 0.45, 2.0):
                        rules.append((f"k {k} align >= {t} or cos >= {hi}",
                                      lambda f, k=k, t=t, hi=hi, v=variant, a=agg:
                                      f["cov"] >= 0.5 or f["top"] >= hi
                                      or (f["top"] >= base and _scores(f, v, a, k) >= t)))
            yield f"alignment {variant} {agg}", rules


def replay(paths: list[str], packs: set[str] | None) -> None:
    feats = [json.loads(line) for path in paths for line in open(path)]
    feats = [f for f in feats if f["kind"] == "real" or packs is None or f["group"] in packs]
    real = defaultdict(int)
    for f in feats:
        if f["kind"] == "real" and f["n_expect"]:
            real[f["set"]] += 1
    unseen = sum(1 for f in feats if f["kind"] == "unseen")
    print(f"{unseen} unseen searches; real questions with an answer, per set: {dict(real)}")
    variants = VARIANTS or (sorted(feats[0]["cands"][0]["align"]) if feats and feats[0]["cands"]
                            else [])
    items = [(f["kind"], f["set"], f["n_expect"], f["hit"], f) for f in feats]
    print_budgets(items, _rules(variants), real, unseen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", nargs="+")
    parser.add_argument("--replay", nargs="+", metavar="DUMP", help="replay the rules on dumps")
    parser.add_argument("--packs", default="u-1,u-2,u-3")
    parser.add_argument("--k", type=int, default=5, help="candidates aligned (of the recorded)")
    parser.add_argument("--layers", default="6,4", help="layers whose token vectors are aligned")
    parser.add_argument("--aggs", default="min,idf,absent",
                        help="min, idf, absent, shareTAU (e.g. share0.4)")
    parser.add_argument("--variants", help="only these alignment variants (e.g. L6c,L0c)")
    parser.add_argument("--dump", help="write each search's features here (JSONL)")
    args = parser.parse_args()
    AGGS[:] = args.aggs.split(",")
    if args.replay:
        if args.variants:
            VARIANTS[:] = args.variants.split(",")
        replay(args.replay, set(args.packs.split(",")) if args.packs else None)
        return
    if not args.records:
        parser.error("--records to align, or --replay DUMP...")
    from carto_rankers.analyzers import EnglishAnalyzer

    analyzer = EnglishAnalyzer()
    packs = set(args.packs.split(","))
    rows = []
    for path in args.records:
        for line in open(path):
            row = json.loads(line)
            if row["kind"] == "null" or (row["kind"] == "unseen" and row["group"] not in packs):
                continue
            rows.append(row)
    encoder = Encoder()
    layers = [int(x) for x in args.layers.split(",")]
    # the centre of each layer's token vectors over the candidates' texts (anisotropy)
    texts = sorted({t["text"].rsplit(" | project: ", 1)[0] for row in rows for t in row.get("sem_texts", [])[:args.k]})
    started = time.time()
    centres = {}
    for layer in layers:
        sample = [encoder.encode(t)[2][layer][1:-1] for t in texts[::7]]
        centres[layer] = np.concatenate(sample).mean(0)
    feats = []
    for n, row in enumerate(rows):
        query = row["query"]
        content_raw = analyzer.content_words(query)
        content = {w for raw in content_raw for w in encoder.wordpiece.words(raw) if is_word(w)}
        # the idf of each content word in the home (0 documents: the whole weight)
        n_docs = row["n_docs"]
        idf = {}
        for w in content:
            terms = analyzer.query_terms(w)
            dfs = [row["df"].get(t, 0) for t in terms] or [0]
            d = min(dfs)
            idf[w] = math.log1p((n_docs - d + 0.5) / (d + 0.5))
        absent = {w for w in content if all(row["df"].get(t, 0) == 0
                                            for t in analyzer.query_terms(w) or [w])}
        hits = row["hits"]
        top = max([h["sem"] for h in hits if h["sem"] is not None] or [-1.0])
        f = {"set": row["set"], "home": row["home"], "kind": row["kind"], "group": row["group"],
             "query": query, "top": top, "cov": row.get("best_cov") or 0.0,
             "n_expect": row["n_expect"], "hit": any(h["expected"] for h in hits[:10]),
             "content": sorted(content), "absent": sorted(absent), "cands": []}
        for cand in row.get("sem_texts", [])[:args.k]:
            text = cand["text"].rsplit(" | project: ", 1)[0]  # the row's own words
            per = {}
            for layer in layers:
                for centred in (False, True):
                    a = align(encoder, query, content, text, layer,
                              centres[layer] if centred else None)
                    per[f"L{layer}{'c' if centred else ''}"] = a
            f["cands"].append({"cos": cand["cos"], "text": cand["text"][:200], "align": per})
        f["idf"] = idf
        feats.append(f)
        if n % 200 == 0:
            print(f"{n}/{len(rows)} searches, {encoder.passes} passes, "
                  f"{encoder.cpu:.1f} s CPU in the forward pass, {time.time() - started:.0f} s",
                  file=sys.stderr, flush=True)
    if args.dump:
        with open(args.dump, "w") as out:
            for f in feats:
                out.write(json.dumps(f) + "\n")
    print(f"forward passes {encoder.passes}, {encoder.cpu / max(encoder.passes, 1) * 1000:.1f} ms "
          "CPU each", file=sys.stderr)


if __name__ == "__main__":
    main()
