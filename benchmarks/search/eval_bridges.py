"""What was tried to bridge a question and an evidence turn that share no word (docs/ranking.md,
"Bridging the vocabulary" and "Centred queries"): measured here; `answers` became step 6 of
the pipeline (`search.answers`) and `qcenter1` the semantic ladder's centred query
(`SemanticSearcher.search`'s `centre`), the rest was not adopted. Run `pooling` and `expansion` on a pipeline with
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
  its whole text's score), `qcenter.5` / `qcenter1` (the query minus 0.5 / 1 x the home's mean
  document vector), `abtt0` / `abtt2` / `abtt4` (all-but-the-top: both sides centred on the
  mean, 0 / 2 / 4 principal directions removed, re-normalised), `csls10` / `csls50` (the
  centred query's score minus half of the row's hubness: the mean centred score of its 10 /
  50 nearest rows of the home, the rows taken as queries; CSLS, Conneau et al. 2018),
  `whiteA<lam>` (whitening, Su et al. 2021: the query (S + lam tr(S)/dim I)^-1 (q - m), m and
  S the mean and covariance of the home's rows, against the rows as they are), `whiteB<lam>`
  (both sides whitened, rows re-normalised in the whitened space), `bwk<k>` / `bwk<k>n`
  (BERT-whitening's top-k form, W = U_k diag(s_k^-1/2), rows raw / re-normalised), `diagA<lam>`
  (the centred query divided by each coordinate's variance plus lam x their mean), `qidf0` /
  `qidf1` / `qidf-w1` (the query's words weighed by their keyword idf in the home; not
  centred / centred / whitened at lam 1; documents as they are);
  `POOLING_ONLY=a,b` runs those (docs/ranking.md, "Whitening the semantic space");
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
- `rm3`: pseudo-relevance feedback on the keyword ladder: the keyword search's first k
  distinct texts vote for their terms, the best 8 searched by bm25 as an added ladder (as in
  `expansion`);
- `sessions`: per-session aggregation: the default's first 50 results vote for their sessions,
  the turns of the best sessions are lent a share of their session's best score;
- `supersede`: a later turn naming what a found turn told (one of its rare words) is lent a
  share of its score, for latest-state questions or every question;
- `hubness`: the default pipeline with the semantic ladder's candidates re-ranked by CSLS
  (their centred score minus `lam` x their hubness, the mean centred score of their `k`
  nearest rows of the home, the rows taken as queries; computed offline over every pair of
  rows), for (lam, k) in (0.25, 10), (0.5, 10), (0.25, 50), (0.5, 50);
- `neighbours`: the same for latest-state questions, the later turns chosen by meaning: each
  of the first 10 distinct turns found lends 0.95 / 1.05 of its score to every later turn of
  the home whose wordllama vector, centred on the mean of the home's turns, is within cosine
  0.3 / 0.4 / 0.5 / 0.6 of its own.

The last four run the default pipeline as it is (with centred queries when run on a tree
that has them; docs/ranking.md's figures for them are from before).

Usage (repository root):

    .venv/bin/python benchmarks/search/eval_bridges.py pooling /tmp/recall-eval dlg-a,dlg-b,dlg-d
    .venv/bin/python benchmarks/search/eval_bridges.py expansion /tmp/recall-eval dlg-a,dlg-b,dlg-d
    .venv/bin/python benchmarks/search/eval_bridges.py answers /tmp/recall-eval dlg-a,dlg-b,dlg-d
    .venv/bin/python benchmarks/search/eval_bridges.py rm3 /tmp/recall-eval dlg-a,dlg-b,dlg-d
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
    from carto_core.logio.home import Home
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
             "sentmax", "sentmix", "qcenter.5", "qcenter1", "abtt0", "abtt2", "abtt4",
             "csls10", "csls50"]
    if os.environ.get("POOLING_ONLY"):
        names = os.environ["POOLING_ONLY"].split(",")
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
        n_docs = max(1, engine.index.n_alive)

        def idf_query(text):
            # each content word's sub-word tokens weighed by the word's keyword idf (Lucene's
            # ln(1 + (N - df + 0.5) / (df + 0.5)), df of its analyzer terms in the home)
            vector = np.zeros(table.shape[1], np.float64)
            for word in text.split():
                token_ids = embedder.bpe().ids(word)
                terms = analyzer.query_terms(word)
                if not token_ids or not terms:
                    continue
                df = max(engine.index.df(t) for t in terms)
                idf = float(np.log(1 + (n_docs - df + 0.5) / (df + 0.5)))
                token_ids = np.minimum(np.asarray(token_ids), len(table) - 1)
                vector += idf * table[token_ids].sum(0)
            norm = float(np.linalg.norm(vector))
            return vector / norm if norm else vector
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
            if name.startswith("qidf"):
                # the query's words weighed by their idf in the home (documents as they are),
                # then centred as the default (qidf1: the whole mean; qidf-w<lam>: whitened)
                qs = np.array([idf_query(analyzer.content_query(c.query)) for c in cases],
                              np.float32)
                if name.startswith("qidf-w"):
                    centre = base_docs.mean(0).astype(np.float64)
                    offsets = base_docs.astype(np.float64) - centre
                    cov = offsets.T @ offsets / len(offsets)
                    shrunk = cov + float(name[6:]) * np.trace(cov) / len(cov) * np.eye(len(cov))
                    qs = np.linalg.solve(shrunk, (qs - centre).T).T.astype(np.float32)
                else:
                    qs = qs - float(name[4:]) * base_docs.mean(0)
                qs /= np.maximum(np.linalg.norm(qs, axis=1, keepdims=True), 1e-12)
            elif name.startswith("qcenter"):
                # the query minus a share of the home's mean document vector: a document close
                # to every query (the centroid's direction) loses what it wins from all of them
                qs = qs - float(name[7:]) * base_docs.mean(0)
                qs /= np.linalg.norm(qs, axis=1, keepdims=True)
            elif name.startswith("abtt"):
                # all-but-the-top (Mu & Viswanath 2018): centre both sides on the home's mean
                # and remove the top D principal directions, then re-normalise
                centre = base_docs.mean(0)
                docs, qs = base_docs - centre, base_queries - centre
                top_d = int(name[4:])
                if top_d:
                    _, _, vt = np.linalg.svd(docs[:20000], full_matrices=False)
                    pcs = vt[:top_d]
                    docs = docs - (docs @ pcs.T) @ pcs
                    qs = qs - (qs @ pcs.T) @ pcs
                docs = docs / np.maximum(np.linalg.norm(docs, axis=1, keepdims=True), 1e-9)
                qs = qs / np.maximum(np.linalg.norm(qs, axis=1, keepdims=True), 1e-9)
            elif name.startswith("diagA"):
                # diagonal whitening: the centred query divided by each coordinate's variance
                # over the home (plus lam x their mean), rows as they are
                centre = base_docs.mean(0).astype(np.float64)
                var = ((base_docs.astype(np.float64) - centre) ** 2).mean(0)
                shrunk = var + float(name[5:]) * var.mean()
                qs_w = (base_queries.astype(np.float64) - centre) / shrunk
                scores = (qs_w @ base_docs.T.astype(np.float64)).astype(np.float32)
            elif name.startswith(("whiteA", "whiteB", "bwk")):
                # whitening (Su et al. 2021): m the mean and S the covariance of the home's unit
                # rows, W = (S + lam tr(S)/dim I)^(-1/2). whiteA: the query side only, the
                # query (S + ...)^(-1) (q - m) against the raw rows (the same ranking as
                # (W q').(W d'): q.m is the same for every row); whiteB: rows re-normalised in
                # the whitened space too ((W q').(W d') / |W d'|). bwk<k>: BERT-whitening's top-k
                # form, W = U_k diag(s_k^-1/2) (raw rows; bwk<k>n re-normalises them in it).
                centre = base_docs.mean(0).astype(np.float64)
                offsets = base_docs.astype(np.float64) - centre
                cov = offsets.T @ offsets / len(offsets)
                q0 = base_queries.astype(np.float64) - centre
                if name.startswith("bwk"):
                    top_k = int(name[3:].rstrip("n"))
                    evals, evecs = np.linalg.eigh(cov)
                    order = np.argsort(evals)[::-1][:top_k]
                    w = evecs[:, order] / np.sqrt(np.maximum(evals[order], 1e-12))  # (dim, k)
                    wq, wd = q0 @ w, offsets @ w
                    if name.endswith("n"):
                        wd /= np.maximum(np.linalg.norm(wd, axis=1, keepdims=True), 1e-12)
                    scores = (wq @ wd.T).astype(np.float32)
                else:
                    lam = float(name[6:])
                    dim = cov.shape[0]
                    shrunk = cov + lam * np.trace(cov) / dim * np.eye(dim)
                    if name.startswith("whiteA"):
                        qs_w = np.linalg.solve(shrunk, q0.T).T
                        scores = (qs_w @ base_docs.T.astype(np.float64)).astype(np.float32)
                    else:
                        evals, evecs = np.linalg.eigh(shrunk)
                        w = evecs / np.sqrt(evals)  # W = V diag(e^-1/2) V^T: rotation dropped
                        wq, wd = q0 @ w, offsets @ w
                        wd /= np.maximum(np.linalg.norm(wd, axis=1, keepdims=True), 1e-12)
                        scores = (wq @ wd.T).astype(np.float32)
            if name.startswith(("whiteA", "whiteB", "bwk", "diagA")):
                pass
            elif name.startswith("csls"):
                # hubness (CSLS, Conneau et al. 2018, on the centred scores): a row close to
                # many rows of the home (its k nearest, the home's rows taken as queries) is
                # close to many queries too; it loses half its neighbourhood's mean score
                centre = base_docs.mean(0)
                qs = qs - centre
                qs /= np.linalg.norm(qs, axis=1, keepdims=True)
                probes = base_docs - centre
                probes /= np.maximum(np.linalg.norm(probes, axis=1, keepdims=True), 1e-9)
                k = int(name[4:])
                hub = np.zeros(len(docs), np.float32)
                for start in range(0, len(docs), 1024):
                    block = probes @ docs[start:start + 1024].T  # rows: probes, cols: docs
                    np.fill_diagonal(block[start:start + 1024], -np.inf)
                    hub[start:start + 1024] = np.sort(block, axis=0)[-k:].mean(0)
                scores = qs @ docs.T - hub / 2
            else:
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


def _outcome(agecurve, case, score: dict):
    top = [eid for eid, _ in sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))][:10]
    rank = next((p for p, eid in enumerate(top, 1) if eid in case.expect), None)
    return agecurve.Outcome(case, rank, len(set(top) & set(case.expect)))


def _table(outcomes: dict) -> dict:
    from carto_core.evaluation import agecurve

    out = {}
    for name, got in outcomes.items():
        t = agecurve.conversational_table(got)
        out[name] = {"all": [t["all"]["hit@1"], t["all"]["hit@5"], t["all"]["hit@10"],
                             t["all"]["mrr"]],
                     **{cat: [v["hit@1"], v["hit@10"]] for cat, v in t.items() if cat != "all"}}
    return out


def _ranked(engine, query, rankers, limit=100):
    from carto_core.search import SearchRequest, run_search

    request = SearchRequest(query=query, limit=limit, rankers=rankers, decay="gated-prior",
                            fusion="rrf-prior", semantic="semantic" in rankers, all=True,
                            now=NOW, facets=False)
    return run_search(request, engine=engine).results


def rm3(roots: list[Path]) -> dict:
    """Pseudo-relevance feedback on the keyword ladder (RM3-like): the keyword-only search's
    first `k` distinct texts vote for their terms, P(w|d) = tf / len weighed by the text's
    score share and by idf; the best `m` terms not in the query are searched by bm25 alone
    and added as in `expansion` (w of the default's first result for the first)."""
    import math

    from carto_core.evaluation import agecurve
    from carto_core.search.api import Query

    os.environ["CARTO_EMBEDDER"] = "wordllama"
    configs = {"default": (0, 0, 0.0)}
    for k in (3, 5):
        for w in (0.15, 0.3, 0.6):
            configs[f"k{k}.m8.w{w}"] = (k, 8, w)
    outcomes: dict[str, list] = {name: [] for name in configs}
    for root in roots:
        engine = _engine(root)
        analyzer, index = engine.analyzer, engine.index
        n_docs = len(index)
        bm25 = engine.ranker("bm25")
        scope = engine.scope()
        for case in agecurve.read_cases(root / "cases.jsonl"):
            base = [(h.event_id, h.score) for h in _ranked(engine, case.query, ["bm25", "semantic"])]
            keyword = _ranked(engine, case.query, ["bm25"], limit=30)
            own = set(analyzer.query(case.query).terms)
            top_score = base[0][1] if base else 1.0
            cache = {}
            for name, (k, m, w) in configs.items():
                score: Counter = Counter({eid: v / top_score for eid, v in base})
                if w and keyword:
                    if (k, m) not in cache:
                        votes: Counter = Counter()
                        seen = set()
                        best = keyword[0].score or 1.0
                        for hit in keyword:
                            if hit.summary in seen:
                                continue
                            seen.add(hit.summary)
                            terms = analyzer.terms(hit.summary)
                            for term, tf in Counter(terms).items():
                                if term in own or len(term) < 3 or term.isdigit():
                                    continue
                                df = index.df(term)
                                idf = math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
                                votes[term] += (hit.score / best) * tf / len(terms) * idf
                            if len(seen) == k:
                                break
                        extra = tuple(t for t, _ in votes.most_common(m))
                        more = []
                        if extra:
                            for ladder in bm25.rank(Query(" ".join(extra), extra), scope, engine,
                                                    depth=100):
                                more = [index.event_id(d) for d in ladder.indices.tolist()]
                                break
                        cache[(k, m)] = more
                    for r, eid in enumerate(cache[(k, m)], 1):
                        score[eid] += w * 61 / (60 + r)
                outcomes[name].append(_outcome(agecurve, case, score))
    return _table(outcomes)


def sessions(roots: list[Path]) -> dict:
    """Per-session aggregation: the default's first 50 results vote for their sessions (sum
    of scores of their turns); every turn of the best `s` sessions is lent `share` of its
    session's best score (keeping the higher of that and its own)."""
    from carto_core.evaluation import agecurve
    from carto_core.search.index import LOG_CODE

    os.environ["CARTO_EMBEDDER"] = "wordllama"
    configs = {"default": (0, 0.0)}
    for s in (1, 3):
        for share in (0.3, 0.5, 0.8):
            configs[f"s{s}.{share}"] = (s, share)
    outcomes: dict[str, list] = {name: [] for name in configs}
    for root in roots:
        engine = _engine(root)
        index = engine.index
        session, source = np.asarray(index.cols["session"]), np.asarray(index.cols["source"])
        turns = source == LOG_CODE["turns"]
        for case in agecurve.read_cases(root / "cases.jsonl"):
            hits = _ranked(engine, case.query, ["bm25", "semantic"])
            base = [(h.event_id, h.score) for h in hits]
            top_score = base[0][1] if base else 1.0
            votes: Counter = Counter()
            best: dict = {}
            for eid, value in base[:50]:
                doc = index.index_of(eid)
                if doc is None or not turns[doc]:
                    continue
                code = int(session[doc])
                votes[code] += value / top_score
                best[code] = max(best.get(code, 0.0), value / top_score)
            for name, (s, share) in configs.items():
                score = {eid: v / top_score for eid, v in base}
                for code, _ in votes.most_common(s):
                    for doc in np.flatnonzero((session == code) & turns).tolist():
                        eid = index.event_id(doc)
                        score[eid] = max(score.get(eid, 0.0), share * best[code])
                outcomes[name].append(_outcome(agecurve, case, score))
    return _table(outcomes)


def _found_turns(index, hits, is_turn, top_score: float) -> list[tuple[int, float, str]]:
    """(document, score / top score, text) of the turns among the first 10 distinct texts."""
    head, seen = [], set()
    for h in hits:
        doc = index.index_of(h.event_id)
        if h.summary in seen or doc is None:
            continue
        seen.add(h.summary)
        if is_turn[doc]:
            head.append((doc, h.score / top_score, h.summary))
        if len(seen) == 10:
            break
    return head


def supersede(roots: list[Path]) -> dict:
    """A later turn naming what a found turn told: of the first 10 distinct turns the default
    finds, each lends `share` of its score to the later turns of the home (any session) that
    hold one of its rare words (df <= `dfmax`, not a query word): "I quit judo and started
    rowing" names the "judo" of the older telling a question finds. `latest`: only for
    queries asking for the latest state (the RECENCY words); `all`: every question."""
    from carto_core.evaluation import agecurve
    from carto_core.search.index import LOG_CODE
    from carto_rankers.analyzers import RECENCY

    os.environ["CARTO_EMBEDDER"] = "wordllama"
    configs = {"default": None}
    for which in ("latest", "all"):
        for dfmax in (5, 20):
            for share in (0.8, 1.0, 1.1):
                configs[f"{which}.df{dfmax}.{share}"] = (which, dfmax, share)
    outcomes: dict[str, list] = {name: [] for name in configs}
    for root in roots:
        engine = _engine(root)
        analyzer, index = engine.analyzer, engine.index
        source, ts = np.asarray(index.cols["source"]), np.asarray(index.cols["ts"])
        turn_code = LOG_CODE["turns"]
        for case in agecurve.read_cases(root / "cases.jsonl"):
            hits = _ranked(engine, case.query, ["bm25", "semantic"])
            base = [(h.event_id, h.score) for h in hits]
            top_score = base[0][1] if base else 1.0
            own = set(analyzer.query(case.query).terms)
            head = _found_turns(index, hits, source == turn_code, top_score)
            latest = bool(RECENCY.search(case.query))
            for name, config in configs.items():
                score = {eid: v / top_score for eid, v in base}
                if config is not None and (config[0] == "all" or latest):
                    _, dfmax, share = config
                    for doc, value, text in head:
                        for term in set(analyzer.terms(text)) - own:
                            if len(term) < 3 or index.df(term) > dfmax:
                                continue
                            for later in index.own_docs(term).tolist():
                                if int(source[later]) == turn_code and ts[later] > ts[doc]:
                                    eid = index.event_id(later)
                                    score[eid] = max(score.get(eid, 0.0), share * value)
                outcomes[name].append(_outcome(agecurve, case, score))
    return _table(outcomes)


def neighbours(roots: list[Path]) -> dict:
    """`supersede` for latest-state questions, by meaning instead of a shared word: each of
    the first 10 distinct turns found lends `share` of its score to the later turns whose
    centred vector has cosine >= `threshold` with its own."""
    from carto_core.evaluation import agecurve
    from carto_core.search.index import LOG_CODE
    from carto_core.semantic.text import row_document_text
    from carto_rankers.analyzers import RECENCY
    from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder

    os.environ["CARTO_EMBEDDER"] = "wordllama"
    configs = {"default": None}
    for threshold in (0.3, 0.4, 0.5, 0.6):
        for share in (0.95, 1.05):
            configs[f"cos{threshold}.{share}"] = (threshold, share)
    outcomes: dict[str, list] = {name: [] for name in configs}
    for root in roots:
        engine = _engine(root)
        index = engine.index
        source, ts = np.asarray(index.cols["source"]), np.asarray(index.cols["ts"])
        turn_code = LOG_CODE["turns"]
        turns = [d for d in range(len(index.ids)) if int(source[d]) == turn_code]
        texts = [row_document_text(engine.row(d), index.event_id(d)) or "" for d in turns]
        vectors = np.asarray(WordLlamaEmbedder(engine.home).embed_documents(texts), np.float32)
        vectors = vectors - vectors.mean(0)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9
        row_of = {d: i for i, d in enumerate(turns)}
        for case in agecurve.read_cases(root / "cases.jsonl"):
            hits = _ranked(engine, case.query, ["bm25", "semantic"], limit=500)
            base = [(h.event_id, h.score) for h in hits]
            top_score = base[0][1] if base else 1.0
            head = _found_turns(index, hits, source == turn_code, top_score)
            latest = bool(RECENCY.search(case.query))
            for name, config in configs.items():
                score = {eid: v / top_score for eid, v in base}
                if config is not None and latest:
                    threshold, share = config
                    for doc, value, _ in head:
                        close = np.flatnonzero(vectors @ vectors[row_of[doc]] >= threshold)
                        for later in (turns[j] for j in close.tolist()):
                            if ts[later] > ts[doc]:
                                eid = index.event_id(later)
                                score[eid] = max(score.get(eid, 0.0), share * value)
                outcomes[name].append(_outcome(agecurve, case, score))
    return _table(outcomes)


def _hubness_of(engine, k: int) -> dict[str, float]:
    """event id -> the mean centred score of its `k` nearest rows (the rows as queries)."""
    ids, texts, _ = _documents(engine)
    from carto_rankers.embedders.wordllama_embedder import WordLlamaEmbedder

    docs = np.asarray(WordLlamaEmbedder(engine.home).embed_documents(texts), np.float32)
    docs /= np.maximum(np.linalg.norm(docs, axis=1, keepdims=True), 1e-9)
    probes = docs - docs.mean(0)
    probes /= np.maximum(np.linalg.norm(probes, axis=1, keepdims=True), 1e-9)
    hub = np.zeros(len(docs), np.float32)
    for start in range(0, len(docs), 1024):
        block = probes @ docs[start:start + 1024].T
        np.fill_diagonal(block[start:start + 1024], -np.inf)  # a row is not its own neighbour
        hub[start:start + 1024] = np.sort(block, axis=0)[-k:].mean(0)
    return dict(zip(ids, hub.tolist()))


def hubness(roots: list[Path]) -> dict:
    """The default pipeline, its semantic ladder re-ranked by CSLS (Conneau et al. 2018)."""
    from carto_core.evaluation import agecurve
    from carto_core.search.api import Ladder
    import carto_rankers.semantic_plugin as plugin

    os.environ["CARTO_EMBEDDER"] = "wordllama"
    table: dict[str, dict[str, float]] = {}
    setting = {"lam": 0.0}
    plain_rank = plugin.SemanticRanker.rank

    def rank(self, query, scope, engine, *, depth=500):
        (ladder,) = plain_rank(self, query, scope, engine, depth=depth)
        hub = table[str(engine.home.root)]
        ids = [engine.index.event_id(d) for d in ladder.indices.tolist()]
        scored = sorted(((float(s) - setting["lam"] * hub.get(e, 0.0), e)
                         for s, e in zip(ladder.scores.tolist(), ids)), key=lambda x: -x[0])
        return [Ladder.from_event_ids(self.name, [e for _, e in scored], [s for s, _ in scored],
                                      engine, scope=scope, depth=depth, ranker=self.name)]

    outcomes: dict[str, list] = {}
    plugin.SemanticRanker.rank = rank
    try:
        for lam, k in ((0.0, 10), (0.25, 10), (0.5, 10), (0.25, 50), (0.5, 50)):
            name = "default" if not lam else f"lam{lam}.k{k}"
            setting["lam"] = lam
            outcomes[name] = []
            for root in roots:
                engine = _engine(root)
                table[str(engine.home.root)] = _hubness_of(engine, k) if lam else {}
                outcomes[name] += agecurve.run_cases(
                    engine, agecurve.read_cases(root / "cases.jsonl"), ["bm25", "semantic"],
                    "gated-prior", now=NOW, fusion="rrf-prior")
    finally:
        plugin.SemanticRanker.rank = plain_rank
    return _table(outcomes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("probe", choices=["pooling", "expansion", "answers", "rm3", "sessions",
                                          "supersede", "neighbours", "hubness"])
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
                  else rm3(roots) if args.probe == "rm3"
                  else sessions(roots) if args.probe == "sessions"
                  else supersede(roots) if args.probe == "supersede"
                  else neighbours(roots) if args.probe == "neighbours"
                  else hubness(roots) if args.probe == "hubness"
                  else expansion(roots, args.threshold, args.per_word))
        print(json.dumps({"set": name, "probe": args.probe, **result}), flush=True)
    print(f"# load {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
