"""Prompt intents: the 17 keys of upstream's `--intent` and the classifier every writer uses.

Every prompt carto stores (a prompt-history row, and the human prompt that opens a transcript
turn) carries `prompt_intent`, one of `INTENT_KEYS`. `classify(text)` is the one entry point:
it runs the classifier that measured better on the held-back hand labels
(benchmarks/intents/train.py writes that choice into `choice.json`; docs/intents.md has the
per-key figures): the rules (`carto_core.intents.rules`) or the linear model trained with
scikit-learn, evaluated here from its persisted arrays in plain Python.

Stdlib only: capture (`carto hook`) classifies the prompts it writes, so nothing here may import
numpy or scikit-learn.
"""

from __future__ import annotations

#: Upstream's keys (reference/cartographer.md 3.1, `--intent`), in upstream's order.
INTENT_KEYS: tuple[str, ...] = (
    "feature-design", "implementation", "bug-fixes", "git-commands", "deploy-release",
    "run-build-app", "code-review-qa", "planning-strategy", "research", "documentation",
    "testing-verification", "refactor-cleanup", "content-creation", "data-analysis",
    "feedback-context", "plan-approvals", "other",
)
KEY_SET = frozenset(INTENT_KEYS)
FIELD = "prompt_intent"

#: Characters of a prompt the classifiers read: an intent is said at the start, and a pasted
#: log or file after it would only add noise (and cost on the hook path).
READ_CHARS = 600

_classifier = None


def unknown_key_message(key: str) -> str:
    return f"unknown intent {key!r}; accepted: {', '.join(INTENT_KEYS)}"


def _selected():
    global _classifier
    if _classifier is None:
        from carto_core.intents import linear

        model = linear.load_default() if linear.selected() == "model" else None
        if model is not None:
            _classifier = model.predict
        else:
            from carto_core.intents.rules import classify as rules

            _classifier = rules
    return _classifier


def classify(text: object) -> str:
    """The intent key of one prompt (`other` for an empty or non-text prompt)."""
    if not isinstance(text, str) or not text.strip():
        return "other"
    key = _selected()(text[:READ_CHARS])
    return key if key in KEY_SET else "other"


def stored_intent(row: dict) -> str | None:
    """The row's own `prompt_intent` when it is one of the keys."""
    value = row.get(FIELD)
    return value if isinstance(value, str) and value in KEY_SET else None


from carto_core.logio.logs import PROMPT_LOGS  # noqa: E402  (the logs whose rows carry an intent)


def intent_of(label: str, row: dict) -> str | None:
    """The intent a row of log `label` would be written with: its stored `prompt_intent`, else
    the classification of its text (a turn: the head of its body, which starts with the prompt;
    less exact than the reader's own, which classifies the prompt alone); None for a row that
    is not a prompt. Readers (the index, `carto report intents`) use `stored_intent` only: a
    row written before carto classified prompts is classified by `carto repair intents`."""
    if label not in PROMPT_LOGS:
        return None
    stored = stored_intent(row)
    if stored is not None:
        return stored
    text = row.get("summary")
    if label == "turns" and isinstance(text, str):
        text = text[:240]
    return classify(text)


def ensure(label: str, row: dict) -> dict:
    """A row bound for log `label` with its `prompt_intent` (writers call this for every row:
    a source that did not classify its prompts still writes them classified)."""
    if label in PROMPT_LOGS and stored_intent(row) is None:
        row = dict(row)
        row[FIELD] = intent_of(label, row)
    return row
