"""What was tried to bridge a question and an evidence turn that share no word (docs/ranking.md,
"Bridging the vocabulary"): measured here; `answers` became step 6 of the pipeline
(`search.answers`), the rest was not adopted. Run `pooling` and `expansion` on a pipeline with
step 6 and they measure on top of it; docs/ranking.md's figures for them are from before it.

Two probes over eval_recall.py's homes (run that first; it builds them and their indexes):

- `pooling`: the semantic ladder alone (wordllama's token vectors, every document of the home
  ranked by cosine), evidence found at rank 1 / in the top 10 / in the top 50, for other ways
  of making a text's vector: `mean` (the embedder's: mean of the token rows, normalised),
  `sif` (tokens weighed a / (a + p(token)), p counted over the home's documents, Arora et al.
  2017), `content` (documents reduced to their content words, as queries are), `noproj` (without
  the " | project: p" suffix), `prev.3` / `prev.5` / `both.3` (a turn's vector plus 0.3 / 0.5 of
  the previous (and next) turn's of its session), `prf.3` (the query's vector plus 0.3 of the
  mean of its top 3 documents: pseudo-relevance feedback), `sentmax` / `sentmix` (each sentence
  of a document its own vector; the document scores its best sentence, or the mean of that and
  its whole text's score);
- `expansion`: the default search (`english`, bm25 + semantic, `rrf-prior`, `gated-prior`) with
  a ladder of query-expansion words added: for each content word of the question, the home's
  words whose wordllama vector is closest (cosine >= `--threshold`, at most `--per-word`, none
  with a stem of the query), searched by bm25 alone; a document's expansion rank r adds
  w * 61 / (60 + r) to its default score divided by the default's top score (so the
  expansion's first result is worth w of the default's first), w 0.15 / 0.3 / 0.6 (`w0` is the
  default's own order);
- `answers`: the default search, then each of its top 10 that is a turn ending in a question
  mark lends the next turn of its session `share` of its score (the row keeps the higher of
  that and its own), for share 0.5 / 0.8 / 1.0, and the same lent from every top-10 turn
  (`any.5`, `any.8`): in a home of one row per utterance the answer is the row after the
  question. (The pipeline's own step 6 is switched off for this probe; `default` is the
  pipeline without it.)

Usage (repository root):

    .venv/bin/python benchmarks/search/eval_bridges.py pooling /tmp/recall-eval dlg-a,dlg-b,dlg-d
    .venv/bin/python benchmarks/search/eval_bridges.py expansion /tmp/recall-eval dlg-a,dlg-b,dlg-d
    .venv/bin/python benchmarks/search/eval_bridges.py answers /tmp/recall-eval dlg-a,dlg-b,dlg-d
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
WORD = re.compile(r"[a-z][a-z'-]{2,}")
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _engine(root: Path):
    from carto_core.home import Home
    from carto_core.search.engine import SearchEngine

    engine = SearchEngine(Home(root), persist=True, analyzer="english", auto_refresh=False)
    engine.ensure_loaded()
    return engine


def _documents(engine) -> tuple[list[str], list[str], list]:
    """(event ids, embedded texts, (session, turn_idx) of turns else None) of the home."""
    from carto_core.semantic.text import row_document_text

    ids, texts, keys = [], [], []
    for doc in range(len(engine.index.ids)):
        row = engine.row(doc)
        if row is None:
            continue
        event_id = row.get("event_id")
        text = row_document_text(row, event_id)
        if text:
            ids.append(event_id)
            texts.append(text)
            keys.append((row.get("session"), row.get("turn_idx"))
                        if str(event_id).startswith("turn-") else None)
    return ids, texts, keys


def pooling(roots: list[Path]) -> dict:
    from carto_core.evaluation import agecurve
    from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder

    found: Counter = Counter()
    cases_n = 0
    names = ["mean", "sif", "content", "noproj", "prev.3", "prev.5", "both.3", "prf.3",
             "sentmax", "sentmix"]
    for root in roots:
        engine = _engine(root)
        analyzer = engine.analyzer
        ids, texts, keys = _documents(engine)
        embedder = WordLlamaEmbedder(engine.home)
        tokenizer = embedder._batch_tokenizer()
        table = np.asarray(embedder.weights(), np.float32)

        def encode(batch):
            return [e.ids for e in tokenizer.encode_batch(batch, add_special_tokens=False)]

        plain = encode(texts)
        counts = Counter(t for ids_ in plain for t in ids_)
        total = sum(counts.values())
        p = np.zeros(len(table))
        for token, n in counts.items():
            p[min(token, len(table) - 1)] += n / total
        sif = 1e-3 / (1e-3 + p)

        def pool(lists, weights=None):
            out = np.zeros((len(lists), table.shape[1]), np.float32)
            for r, token_ids in enumerate(lists):
                if token_ids:
                    token_ids = np.minimum(np.asarray(token_ids), len(table) - 1)
                    rows = table[token_ids]
                    v = rows.mean(0) if weights is None else (rows * weights[token_ids][:, None]).sum(0)
                    norm = float(np.linalg.norm(v))
                    out[r] = v / norm if norm else v
            return out

        at = {k: i for i, k in enumerate(keys) if k}
        prev = np.array([at.get((k[0], k[1] - 1), -1) if k else -1 for k in keys])
        nxt = np.array([at.get((k[0], k[1] + 1), -1) if k else -1 for k in keys])
        cases = agecurve.read_cases(root / "cases.jsonl")
        queries = [embedder.bpe().ids(analyzer.content_query(c.query)) for c in cases]
        base_docs, base_queries = pool(plain), pool(queries)
        for name in names:
            docs, qs = base_docs, base_queries
            if name == "sif":
                docs, qs = pool(plain, sif), pool(queries, sif)
            elif name == "content":
                docs = pool(encode([analyzer.content_query(t) for t in texts]))
            elif name == "noproj":
                docs = pool(encode([t.split(" | project: ")[0] for t in texts]))
            elif name.startswith(("prev", "both")):
                share = float(name[4:])
                docs = base_docs.copy()
                docs[prev >= 0] += share * base_docs[prev[prev >= 0]]
                if name.startswith("both"):
                    docs[nxt >= 0] += share * base_docs[nxt[nxt >= 0]]
                docs /= np.linalg.norm(docs, axis=1, keepdims=True)
            scores = qs @ docs.T
            if name.startswith("sent"):
                # each sentence its own vector; a document scores its best sentence (sentmax)
                # or the mean of that and its whole text (sentmix)
                pieces, owner = [], []
                for d, text in enumerate(texts):
                    for piece in SENTENCE.split(text.split(" | project: ")[0]):
                        if piece.strip():
                            pieces.append(piece)
                            owner.append(d)
                piece_scores = qs @ pool(encode(pieces)).T
                best = np.full(scores.shape, -1.0, np.float32)
                owner_ = np.asarray(owner)
                for i in range(len(qs)):
                    np.maximum.at(best[i], owner_, piece_scores[i])
                scores = best if name == "sentmax" else (best + scores) / 2
            if name.startswith("prf"):
                top = np.argsort(-scores, axis=1)[:, :3]
                qs = qs + float(name[3:]) * docs[top].mean(1)
                qs /= np.linalg.norm(qs, axis=1, keepdims=True)
                scores = qs @ docs.T
            for i, case in enumerate(cases):
                order = np.argsort(-scores[i])[:50]
                rank = next((r for r, d in enumerate(order, 1) if ids[d] in case.expect), None)
                for k in (1, 10, 50):
                    found[(name, k)] += bool(rank and rank <= k)
        cases_n += len(cases)
    return {"cases": cases_n, **{name: [found[(name, k)] for k in (1, 10, 50)] for name in names}}


def expansion(roots: list[Path], threshold: float, per_word: int) -> dict:
    from carto_core.evaluation import agecurve
    from carto_core.search import SearchRequest, run_search
    from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder

    os.environ["CARTO_EMBEDDER"] = "wordllama"
    weights = {"w0": 0.0, "w.15": 0.15, "w.3": 0.3, "w.6": 0.6}
    outcomes: dict[str, list] = {name: [] for name in weights}
    expanded = 0
    for root in roots:
        engine = _engine(root)
        analyzer = engine.analyzer
        _, texts, _ = _documents(engine)
        words = sorted({w for t in texts for w in WORD.findall(t.lower())})
        embedder = WordLlamaEmbedder(engine.home)
        vectors = embedder.embed_documents(words)
        stems = [set(analyzer.terms(w)) for w in words]
        for case in agecurve.read_cases(root / "cases.jsonl"):
            own = set(analyzer.query(case.query).terms)
            extra = []
            for word in analyzer.content_words(case.query):
                sims = vectors @ embedder.embed_documents([word.lower()])[0]
                kept = 0
                for i in np.argsort(-sims)[:50]:
                    if sims[i] < threshold or kept >= per_word:
                        break
                    if stems[i] and not stems[i] & own:
                        extra.append(words[i])
                        kept += 1
            expanded += bool(extra)

            def ranked(query, rankers):
                request = SearchRequest(query=query, limit=100, rankers=rankers, decay="gated-prior",
                                        fusion="rrf-prior", semantic="semantic" in rankers,
                                        all=True, now=NOW, facets=False)
                return [(hit.event_id, hit.score) for hit in run_search(request, engine=engine).results]

            base = ranked(case.query, ["bm25", "semantic"])
            more = [eid for eid, _ in ranked(" ".join(extra), ["bm25"])] if extra else []
            top_score = base[0][1] if base else 1.0
            for name, weight in weights.items():
                score: Counter = Counter()
                for eid, value in base:
                    score[eid] += value / top_score
                for r, eid in enumerate(more if weight else [], 1):  # w0: the default alone
                    score[eid] += weight * 61 / (60 + r)
                top = [eid for eid, _ in sorted(score.items(), key=lambda kv: -kv[1])][:10]
                rank = next((p for p, eid in enumerate(top, 1) if eid in case.expect), None)
                outcomes[name].append(agecurve.Outcome(case, rank, len(set(top) & set(case.expect))))
    table = {name: agecurve.conversational_table(got)["all"] for name, got in outcomes.items()}
    return {"expanded questions": expanded, **{name: [t["hit@1"], t["hit@10"]] for name, t in table.items()}}


def answers(roots: list[Path]) -> dict:
    from carto_core.evaluation import agecurve
    from carto_core.search import SearchRequest, answers as step6, run_search

    os.environ["CARTO_EMBEDDER"] = "wordllama"
    step6.SHARE = 0.0  # the pipeline's own lending off: this probe lends, on the page it shows
    configs = {"default": (0.0, True), "q.5": (0.5, True), "q.8": (0.8, True),
               "q1.0": (1.0, True), "any.5": (0.5, False), "any.8": (0.8, False)}
    outcomes: dict[str, list] = {name: [] for name in configs}
    for root in roots:
        engine = _engine(root)
        turn_at, turns = {}, {}
        for doc in range(len(engine.index.ids)):
            row = engine.row(doc)
            if row and str(row.get("event_id")).startswith("turn-"):
                turn_at[(row.get("session"), row.get("turn_idx"))] = row["event_id"]
                turns[row["event_id"]] = row
        for case in agecurve.read_cases(root / "cases.jsonl"):
            request = SearchRequest(query=case.query, limit=100, rankers=["bm25", "semantic"],
                                    decay="gated-prior", fusion="rrf-prior", semantic=True,
                                    all=True, now=NOW, facets=False)
            base = [(h.event_id, h.score) for h in run_search(request, engine=engine).results]
            for name, (share, questions_only) in configs.items():
                score = dict(base)
                for eid, value in base[:10] if share else []:
                    row = turns.get(eid)
                    if row is None or not isinstance(row.get("turn_idx"), int):
                        continue
                    if questions_only and not str(row.get("summary", "")).rstrip().endswith("?"):
                        continue
                    after = turn_at.get((row.get("session"), row["turn_idx"] + 1))
                    if after:
                        score[after] = max(score.get(after, 0.0), share * value)
                top = [eid for eid, _ in sorted(score.items(), key=lambda kv: -kv[1])][:10]
                rank = next((p for p, eid in enumerate(top, 1) if eid in case.expect), None)
                outcomes[name].append(agecurve.Outcome(case, rank, len(set(top) & set(case.expect))))
    table = {name: agecurve.conversational_table(got)["all"] for name, got in outcomes.items()}
    return {name: [t["hit@1"], t["hit@10"]] for name, t in table.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("probe", choices=["pooling", "expansion", "answers"])
    parser.add_argument("out", help="eval_recall.py's --out folder")
    parser.add_argument("sets", help="comma-separated, e.g. dlg-a,dlg-b,dlg-d")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--per-word", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
    for name in args.sets.split(","):
        roots = sorted(Path(args.out).glob(f"{name}-[0-9]"))
        result = (pooling(roots) if args.probe == "pooling"
                  else answers(roots) if args.probe == "answers"
                  else expansion(roots, args.threshold, args.per_word))
        print(json.dumps({"set": name, "probe": args.probe, **result}), flush=True)
    print(f"# load {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
