"""The learned order of a question's first fifty (the default; `CARTO_SEARCH_ORDER=rules` turns
it off).

The rules of docs/ranking.md place every result. This step then describes each of a question's
first `POOL` results by what the search knew of it (its place and score, each ladder's rank,
the marks of `why`, its text, its neighbours in its session among the fifty, its age among
them, the question's opening word: `features`) and orders them by gradient-boosted trees fitted
on the dialogue and pair sets (`benchmarks/search/probe_learned.py fit`), kept as data beside
this module (`learned-order.json`) and walked here in numpy. The trees are fitted on the order
the rules produce, so a change to a rule before this step means fitting them again. A page
whose first result the lookup gate lifted (the newest row holding every word of a status
question) keeps the rules' order: the trees, fitted on dialogue questions, move it.

docs/ranking.md, "A learned order of the first fifty", says what it gains, on which sets it
was checked, and what it costs.
"""

from __future__ import annotations

import json
import math
import os
import re
from functools import lru_cache
from pathlib import Path

import numpy as np

#: How many of the first results the trees order (the rest keep their places after them).
POOL = 50
#: The environment switch: `rules` turns the step off; unset or `learned`, it is on.
SWITCH = "CARTO_SEARCH_ORDER"
MODEL = Path(__file__).with_name("learned-order.json")

_STOP = frozenset("""a an the i me my we our you your he she it they them his her its their of
to in on at for with about from by as and or but if so is are was were be been being do does did
have has had what which who whom where when why how that this these those there here not no any
some all can could would should will shall may might must just than then too very into over
after before up down out off again once tell told say said""".split())
_NOW_WORDS = ("now", "these days", "currently", "latest", "still", "nowadays", "at the moment",
              "lately", "recent")
_OPENERS = ("what", "where", "who", "when", "which", "how", "why", "did", "do", "is", "has")
_WORD = re.compile(r"[a-z0-9']+")
#: Column groups of `features`, by name (the probe leaves groups out to see what carries it).
GROUPS = {"place": range(0, 5), "ladders": range(5, 10), "flags": range(10, 16),
          "text": range(16, 19), "overlap": range(19, 22), "neighbours": range(22, 26),
          "age": range(26, 27), "kind": range(27, 29), "question": range(29, 44)}
WIDTH = 44


def on() -> bool:
    """Unset or `learned`: the step is on; `CARTO_SEARCH_ORDER=rules`: off. Any other value
    raises ValueError naming it (a typo would otherwise measure one order and say nothing)."""
    value = os.environ.get(SWITCH, "").strip().lower()
    if value in ("", "rules", "learned"):
        return value != "rules"
    raise ValueError(f"unknown search order {os.environ[SWITCH]!r} in {SWITCH}; accepted: "
                     "learned (the default), rules")


def _stem(word: str) -> str:
    word = word.replace("'", "")
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)][:6]
    return word[:6]


def content_words(text: str) -> set[str]:
    """A text's content words, cut to a six-letter stem (the step's own, not the analyzer's:
    the trees were fitted on these)."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def features(query: str, hits: list[dict]) -> list[list[float]]:
    """One row of `WIDTH` numbers per hit, best first as the search placed them. A hit is a dict
    of `id`, `score`, `type`, `ts`, `text`, `why` (the search's `why` of it) and `dup`."""
    lowered = query.lower()
    asked = content_words(query)
    if not hits:
        return []
    top = hits[0]["score"] or 1e-9
    top_fused = max((h["why"] or {}).get("fused_score", 0) for h in hits) or 1e-9
    place = {h["id"]: i for i, h in enumerate(hits, 1)}
    by_age = sorted(range(len(hits)), key=lambda i: hits[i]["ts"] or "", reverse=True)
    age = {i: r for r, i in enumerate(by_age, 1)}
    words = [content_words(h["text"] or "") for h in hits]
    held = [len(asked & w) / max(1, len(asked)) for w in words]
    best_held = max(held)
    question = [len(asked), int("you" in _WORD.findall(lowered)),
                int(any(w in lowered for w in _NOW_WORDS)), int(query.rstrip().endswith("?"))]
    question += [int(lowered.startswith(w)) for w in _OPENERS]
    rows = []
    for i, hit in enumerate(hits):
        why = hit["why"] or {}
        ranks = why.get("ranks", {})
        semantic = ranks.get("semantic")
        keyword = [v for k, v in ranks.items() if k != "semantic"]
        best_keyword = min(keyword) if keyword else None
        text = hit["text"] or ""
        session, _, turn = hit["id"].rpartition("-")
        before = place.get(f"{session}-{int(turn) - 1}") if turn.isdigit() else None
        after = place.get(f"{session}-{int(turn) + 1}") if turn.isdigit() else None
        rows.append([
            i + 1, 1 / (i + 1), hit["score"] / top, math.log(max(hit["score"], 1e-9) / top),
            why.get("fused_score", 0) / top_fused,
            math.log1p(semantic) if semantic else 7.0, int(semantic is not None),
            math.log1p(best_keyword) if best_keyword else 7.0, int(best_keyword is not None),
            len(keyword),
            int("answer" in why.get("sources", [])), int(bool(why.get("holds_all_tokens"))),
            int(bool(why.get("gated"))), why.get("boost", 1.0), why.get("decay", 1.0),
            why.get("salience", 0.5),
            int(text.rstrip().endswith("?")), int("?" in text), math.log1p(len(text)),
            held[i], held[i] - best_held, len(asked & words[i]),
            1 / before if before else 0.0, held[before - 1] if before else 0.0,
            int((hits[before - 1]["text"] or "").rstrip().endswith("?")) if before else 0,
            1 / after if after else 0.0,
            age[i] / len(hits),
            int(hit["type"] == "transcript"), hit.get("dup", 0),
            *question])
    return rows


class Trees:
    """Gradient-boosted trees as arrays (`export` writes them), walked for many rows at once."""

    def __init__(self, doc: dict):
        if doc.get("width") != WIDTH:
            raise ValueError(f"the trees read {doc.get('width')} numbers a result, "
                             f"the step makes {WIDTH}")
        self.baseline = float(doc["baseline"])
        self.trees = [{key: np.asarray(tree[key]) for key in
                       ("feature", "threshold", "left", "right", "leaf", "value")}
                      for tree in doc["trees"]]

    def margin(self, x) -> np.ndarray:
        """Each row's score (the classifier's decision function: higher is likelier the answer)."""
        x = np.asarray(x, float)
        rows = np.arange(len(x))
        total = np.full(len(x), self.baseline)
        for tree in self.trees:
            node = np.zeros(len(x), np.int64)
            while True:
                inner = ~tree["leaf"][node]
                if not inner.any():
                    break
                at = node[inner]
                left = x[rows[inner], tree["feature"][at]] <= tree["threshold"][at]
                node[inner] = np.where(left, tree["left"][at], tree["right"][at])
            total += tree["value"][node]
        return total


def export(model) -> dict:
    """A fitted scikit-learn `HistGradientBoostingClassifier` (binary, numeric features, no
    missing values) as the document `Trees` reads."""
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append({"feature": nodes["feature_idx"].tolist(),
                      "threshold": nodes["num_threshold"].tolist(),
                      "left": nodes["left"].tolist(), "right": nodes["right"].tolist(),
                      "leaf": nodes["is_leaf"].astype(bool).tolist(),
                      "value": nodes["value"].tolist()})
    return {"width": WIDTH, "baseline": float(np.ravel(model._baseline_prediction)[0]),
            "trees": trees}


@lru_cache(maxsize=1)
def shipped() -> Trees:
    return Trees(json.loads(MODEL.read_text()))


def order(query: str, hits: list[dict], trees: Trees | None = None) -> list[int]:
    """The places of `hits` (the first `POOL`) best first by the trees; ties keep the search's."""
    if len(hits) < 2:
        return list(range(len(hits)))
    score = (trees or shipped()).margin(features(query, hits))
    return sorted(range(len(hits)), key=lambda i: (-score[i], i))
