"""The trained intent model, evaluated in plain Python from its persisted arrays.

benchmarks/intents/train.py fits a scikit-learn TF-IDF + logistic-regression model and writes
`model.json` beside this file: the feature vocabulary with its idf, the non-negligible weights
per feature (sparse), the intercepts, the classes, which classifier measured better on the
held-back labels (`selected`) and the figures behind that choice. `LinearModel.predict`
reproduces scikit-learn's decision (tests assert equality on every labelled prompt) without
numpy or scikit-learn, so capture can use it.

`features(text)` is the one featurizer: the trainer passes it to scikit-learn as the analyzer.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

MODEL_PATH = Path(__file__).with_name("model.json")
#: Which classifier measured better (a few bytes: capture reads it on every prompt).
CHOICE_PATH = Path(__file__).with_name("choice.json")
_WORD = re.compile(r"[a-z0-9][a-z0-9'_-]*")
#: Tokens of a prompt the model reads (an intent is said at the start).
MAX_TOKENS = 60


def features(text: str) -> list[str]:
    """Unigrams, bigrams, the first word (`^word`) and a length bucket (`#len:N`) of a
    prompt's first MAX_TOKENS words."""
    words = _WORD.findall(text.lower())[:MAX_TOKENS]
    out = list(words)
    out.extend(f"{a} {b}" for a, b in zip(words, words[1:]))
    if words:
        out.append("^" + words[0])
    n = len(words)
    out.append("#len:" + ("0" if n == 0 else "1-2" if n <= 2 else "3-5" if n <= 5 else
                          "6-12" if n <= 12 else "13+"))
    return out


class LinearModel:
    __slots__ = ("classes", "idf", "weights", "intercept", "selected", "meta", "sublinear")

    def __init__(self, data: dict):
        self.classes: list[str] = list(data["classes"])
        self.idf: dict[str, float] = dict(data["idf"])
        #: feature -> [(class index, weight), ...]
        self.weights: dict[str, list[tuple[int, float]]] = {
            f: [(int(c), float(w)) for c, w in pairs] for f, pairs in data["weights"].items()}
        self.intercept: list[float] = [float(b) for b in data["intercept"]]
        self.selected: str = str(data.get("selected", "rules"))
        self.sublinear: bool = bool(data.get("sublinear_tf", True))
        self.meta: dict = {k: v for k, v in data.items()
                           if k not in ("idf", "weights", "intercept", "classes")}

    def decision(self, text: str) -> list[float]:
        """scikit-learn's `decision_function` for one prompt (same tf-idf, l2 norm, weights)."""
        counts: dict[str, int] = {}
        for feature in features(text):
            if feature in self.idf:
                counts[feature] = counts.get(feature, 0) + 1
        values = {}
        for feature, tf in counts.items():
            weight = (1.0 + math.log(tf)) if self.sublinear else float(tf)
            values[feature] = weight * self.idf[feature]
        norm = math.sqrt(sum(v * v for v in values.values()))
        scores = list(self.intercept)
        if norm > 0:
            for feature, value in values.items():
                for cls, weight in self.weights.get(feature, ()):
                    scores[cls] += weight * value / norm
        return scores

    def predict(self, text: str) -> str:
        scores = self.decision(text)
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        return self.classes[best]


def selected() -> str:
    """"model" or "rules", as the trainer chose (rules when the file is missing)."""
    try:
        value = json.loads(CHOICE_PATH.read_text("utf-8")).get("selected")
    except (OSError, ValueError, AttributeError):
        return "rules"
    return value if value in ("model", "rules") else "rules"


_loaded: list = []


def load(path: Path = MODEL_PATH) -> LinearModel | None:
    try:
        return LinearModel(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load_default() -> LinearModel | None:
    """The shipped model (loaded once per process), None when it is missing or unreadable."""
    if not _loaded:
        _loaded.append(load())
    return _loaded[0]
