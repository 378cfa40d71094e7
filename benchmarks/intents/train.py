"""Train the prompt-intent model and choose between it and the rules (issue 17).

    python benchmarks/intents/train.py              # train, measure, write model.json + results
    python benchmarks/intents/train.py --tune       # the rules on the training half only (errors)

Data: labelled.tsv (hand labels) is split per key with a fixed seed into a training half and a
held-back half; unlabelled.txt plus the human prompts of the shared fixture transcripts are
labelled by the rules. The model (scikit-learn TF-IDF over carto_core.intents.linear.features +
multinomial logistic regression) is trained on the rule-labelled prompts plus the training
half. Both classifiers are measured on the held-back half only: accuracy, macro F1 and
precision/recall per key. Whichever has the higher macro F1 is `selected` in model.json (the
rules win a tie: they are cheaper), and results.md (included in docs/intents.md) records both.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))

from carto_core.intents import INTENT_KEYS  # noqa: E402
from carto_core.intents import linear, rules  # noqa: E402

SEED = 17
HELD_BACK_SHARE = 0.5
#: Weights smaller than this are not stored (the file stays small enough for the hook path);
#: the stored, pruned model is the one measured.
PRUNE = 0.05


def read_labelled(path: Path = HERE / "labelled.tsv") -> list[tuple[str, str]]:
    out = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, text = line.split("\t", 1)
        assert key in INTENT_KEYS, key
        out.append((key, text))
    return out


def split(labelled: list[tuple[str, str]], seed: int = SEED):
    """(training, held back): per key, a seeded shuffle, the first HELD_BACK_SHARE held back."""
    by_key: dict[str, list[str]] = defaultdict(list)
    for key, text in labelled:
        by_key[key].append(text)
    rng = random.Random(seed)
    train, test = [], []
    for key in INTENT_KEYS:
        texts = list(by_key[key])
        rng.shuffle(texts)
        cut = round(len(texts) * HELD_BACK_SHARE)
        test += [(key, t) for t in texts[:cut]]
        train += [(key, t) for t in texts[cut:]]
    return train, test


def fixture_prompts() -> list[str]:
    """Human prompts of the shared fixture transcripts (read by carto's own Claude reader)."""
    root = REPO.parent.parent / "shared" / "fixtures" / "claude"
    if not root.is_dir():
        root = Path("/work/shared/fixtures/claude")
    out = []
    try:
        from carto_claude.turns import TranscriptReader

        for path in sorted(root.rglob("*.jsonl")):
            read = TranscriptReader(path, settle_seconds=0).read(None)
            for row in read.rows:
                text = row.get("summary", "")
                out.append(text[:200])
    except Exception:  # the plugin is not installed: the fixtures are optional
        pass
    return out


def read_unlabelled(path: Path = HERE / "unlabelled.txt") -> list[str]:
    return [line for line in path.read_text("utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def per_key(truth: list[str], predicted: list[str]) -> dict:
    out = {}
    for key in INTENT_KEYS:
        tp = sum(1 for t, p in zip(truth, predicted) if t == key and p == key)
        fp = sum(1 for t, p in zip(truth, predicted) if t != key and p == key)
        fn = sum(1 for t, p in zip(truth, predicted) if t == key and p != key)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out[key] = {"precision": round(precision, 3), "recall": round(recall, 3),
                    "f1": round(f1, 3), "support": tp + fn}
    return out


def measure(truth: list[str], predicted: list[str]) -> dict:
    keys = per_key(truth, predicted)
    return {"accuracy": round(sum(t == p for t, p in zip(truth, predicted)) / len(truth), 3),
            "macro_f1": round(sum(k["f1"] for k in keys.values()) / len(keys), 3),
            "per_key": keys, "n": len(truth)}


def train_model(texts: list[str], labels: list[str], c: float = 10.0):
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = TfidfVectorizer(analyzer=linear.features, sublinear_tf=True, norm="l2")
    x = vectorizer.fit_transform(texts)
    classifier = LogisticRegression(C=c, max_iter=5000, random_state=SEED)
    classifier.fit(x, labels)
    return vectorizer, classifier


def choose_c(texts: list[str], labels: list[str], grid=(0.3, 1.0, 3.0, 10.0, 30.0)) -> float:
    """The regularisation picked by 5-fold cross-validation on the training data alone (the
    held-back half is never looked at before the final measurement)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline

    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    best, best_score = grid[0], -1.0
    for c in grid:
        pipe = make_pipeline(TfidfVectorizer(analyzer=linear.features, sublinear_tf=True),
                             LogisticRegression(C=c, max_iter=5000, random_state=SEED))
        score = cross_val_score(pipe, texts, labels, cv=folds, scoring="f1_macro").mean()
        if score > best_score:
            best, best_score = c, score
    return best


def to_json(vectorizer, classifier, prune: float = PRUNE, digits: int | None = 6) -> dict:
    """The model as model.json holds it (`digits`: rounding of the stored numbers; None keeps
    them exact)."""
    def r(value: float) -> float:
        return value if digits is None else round(value, digits)

    vocab = vectorizer.vocabulary_
    names = {index: feature for feature, index in vocab.items()}
    idf = {names[i]: float(v) for i, v in enumerate(vectorizer.idf_)}
    weights: dict[str, list] = {}
    coef = classifier.coef_
    for cls in range(coef.shape[0]):
        for index in range(coef.shape[1]):
            w = float(coef[cls, index])
            if abs(w) >= prune:
                weights.setdefault(names[index], []).append([cls, r(w)])
    # idf only for features that carry a weight or change the norm: every feature changes the
    # norm, so all of them stay (the decision must equal scikit-learn's).
    return {"version": 1, "classes": [str(c) for c in classifier.classes_],
            "idf": {f: r(v) for f, v in idf.items()}, "weights": weights,
            "intercept": [r(float(b)) for b in classifier.intercept_],
            "sublinear_tf": True}


def table(rules_m: dict, model_m: dict) -> str:
    lines = [
        "| key | rules precision | rules recall | model precision | model recall | held-back prompts |",
        "|---|---|---|---|---|---|",
    ]
    for key in INTENT_KEYS:
        r, m = rules_m["per_key"][key], model_m["per_key"][key]
        lines.append(f"| `{key}` | {r['precision']:.2f} | {r['recall']:.2f} | "
                     f"{m['precision']:.2f} | {m['recall']:.2f} | {r['support']} |")
    lines.append(f"| **all** (accuracy / macro F1) | {rules_m['accuracy']:.3f} | "
                 f"{rules_m['macro_f1']:.3f} | {model_m['accuracy']:.3f} | {model_m['macro_f1']:.3f} | "
                 f"{rules_m['n']} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tune", action="store_true", help="show the rules' errors on the training half")
    parser.add_argument("--out", default=str(linear.MODEL_PATH))
    args = parser.parse_args(argv)
    train, test = split(read_labelled())
    if args.tune:
        wrong = [(k, rules.classify(t), t) for k, t in train if rules.classify(t) != k]
        for key, got, text in wrong:
            print(f"{key:22} got {got:22} {text}")
        m = measure([k for k, _ in train], [rules.classify(t) for _, t in train])
        print(f"training half: accuracy {m['accuracy']} macro F1 {m['macro_f1']} ({len(wrong)} wrong)")
        return 0
    pool = read_unlabelled() + fixture_prompts()
    pool_labels = [rules.classify(t) for t in pool]
    texts = pool + [t for _, t in train]
    labels = pool_labels + [k for k, _ in train]
    c = choose_c(texts, labels)
    vectorizer, classifier = train_model(texts, labels, c=c)
    data = to_json(vectorizer, classifier)
    model = linear.LinearModel(data)
    truth = [k for k, _ in test]
    rules_m = measure(truth, [rules.classify(t) for _, t in test])
    model_m = measure(truth, [model.predict(t) for _, t in test])
    selected = "model" if model_m["macro_f1"] > rules_m["macro_f1"] else "rules"
    data.update({
        "selected": selected,
        "trained_on": {"rule_labelled": len(pool), "hand_labelled": len(train),
                       "rule_label_counts": dict(Counter(pool_labels))},
        "held_back": {"rules": rules_m, "model": model_m},
        "seed": SEED, "prune": PRUNE, "C": c,
    })
    Path(args.out).write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n", "utf-8")
    # The choice alone in a small file: capture reads it and loads model.json only when the
    # model was selected.
    choice = {"selected": selected, "macro_f1": {"rules": rules_m["macro_f1"], "model": model_m["macro_f1"]},
              "accuracy": {"rules": rules_m["accuracy"], "model": model_m["accuracy"]},
              "held_back": len(test)}
    linear.CHOICE_PATH.write_text(json.dumps(choice, sort_keys=True) + "\n", "utf-8")
    results = (f"Held back: {len(test)} hand-labelled prompts ({HELD_BACK_SHARE:.0%} of each key, seed {SEED}); "
               f"trained on {len(train)} hand-labelled + {len(pool)} rule-labelled prompts. "
               f"Selected: **{selected}**.\n\n" + table(rules_m, model_m))
    (HERE / "results.md").write_text(results, "utf-8")
    print(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
