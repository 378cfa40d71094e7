"""The prompt-intent classifiers: the shipped choice is the one that measured better on the
held-back labels, the figures in docs/intents.md are what the code measures now, and the
plain-Python model is scikit-learn's decision exactly."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core import intents
from carto_core.intents import INTENT_KEYS, classify, linear, rules

REPO = Path(__file__).resolve().parents[2]


def _train():
    spec = importlib.util.spec_from_file_location("intent_train", REPO / "benchmarks/intents/train.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["intent_train"] = module
    spec.loader.exec_module(module)
    return module


train = _train()


def test_the_seventeen_keys_are_upstreams():
    assert INTENT_KEYS == tuple(
        "feature-design implementation bug-fixes git-commands deploy-release run-build-app "
        "code-review-qa planning-strategy research documentation testing-verification "
        "refactor-cleanup content-creation data-analysis feedback-context plan-approvals other".split())


def test_labelled_set_has_every_key_and_a_held_back_half_per_key():
    labelled = train.read_labelled()
    training, held = train.split(labelled)
    assert {k for k, _ in held} == set(INTENT_KEYS) == {k for k, _ in training}
    assert not {t for _, t in held} & {t for _, t in training}
    assert len(held) + len(training) == len(labelled) >= 17 * 20


def test_recorded_figures_are_what_the_classifiers_measure_now():
    """model.json/choice.json and docs hold the held-back figures: changing a rule (or the
    model) without retraining fails here (python benchmarks/intents/train.py refreshes them)."""
    model = linear.load()
    assert model is not None
    _, held = train.split(train.read_labelled())
    truth = [k for k, _ in held]
    rules_m = train.measure(truth, [rules.classify(t) for _, t in held])
    model_m = train.measure(truth, [model.predict(t) for _, t in held])
    recorded = model.meta["held_back"]
    assert recorded["rules"] == rules_m and recorded["model"] == model_m
    choice = json.loads(linear.CHOICE_PATH.read_text())
    assert choice["selected"] == ("model" if model_m["macro_f1"] > rules_m["macro_f1"] else "rules")
    assert linear.selected() == choice["selected"]
    table = train.table(rules_m, model_m)
    assert table in (REPO / "benchmarks/intents/results.md").read_text()
    assert table in (REPO / "docs/intents.md").read_text()


def test_classify_runs_the_selected_classifier():
    _, held = train.split(train.read_labelled())
    chosen = rules.classify if linear.selected() == "rules" else linear.load().predict
    assert [classify(t) for _, t in held] == [chosen(t) for _, t in held]


def test_plain_python_model_equals_scikit_learn():
    """Unpruned, the persisted arrays give scikit-learn's decision_function to 1e-9 and the
    same predictions: the hook path reproduces the trained model without numpy."""
    labelled = train.read_labelled()
    texts, labels = [t for _, t in labelled], [k for k, _ in labelled]
    vectorizer, classifier = train.train_model(texts, labels, c=3.0)
    model = linear.LinearModel(train.to_json(vectorizer, classifier, prune=0.0, digits=None))
    expected = classifier.decision_function(vectorizer.transform(texts))
    for text, row in zip(texts + ["", "???", "a " * 500], list(expected) + [None] * 3):
        got = model.decision(text)
        if row is not None:
            assert got == pytest.approx(list(row), abs=1e-9)
    assert [model.predict(t) for t in texts] == list(classifier.predict(vectorizer.transform(texts)))


@pytest.mark.parametrize("text,key", [
    ("yes, go ahead", "plan-approvals"),
    ("commit and push", "git-commands"),
    ("deploy to staging", "deploy-release"),
    ("write a blog post announcing the release", "content-creation"),
    ("run the test suite", "testing-verification"),
    ("the upload crashes with a TypeError", "bug-fixes"),
    ("refactor the parser into smaller modules", "refactor-cleanup"),
    ("hello", "other"),
    ("", "other"),
])
def test_load_bearing_rules(text, key):
    assert rules.classify(text) == key


def test_a_long_prompt_is_read_from_its_start_only():
    head = "fix the crash in the parser. "
    pad = " ." * intents.READ_CHARS
    assert classify(head + pad + "deploy release publish " * 400) == "bug-fixes"
    assert classify(head + "deploy release publish " * 400) == "deploy-release"  # within the head
    assert intents.READ_CHARS < 5000


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gets_one_of_the_keys_deterministically(text):
    assert classify(text) in INTENT_KEYS
    assert classify(text) == classify(text)


def test_ensure_fills_prompts_and_turns_only_and_keeps_a_stored_key():
    assert intents.ensure("prompts", {"summary": "deploy to prod"})["prompt_intent"] == "deploy-release"
    assert intents.ensure("turns", {"summary": "git push origin main " + "y" * 900})["prompt_intent"] == "git-commands"
    assert "prompt_intent" not in intents.ensure("tool-use", {"summary": "deploy to prod"})
    kept = {"summary": "deploy to prod", "prompt_intent": "other"}
    assert intents.ensure("prompts", kept)["prompt_intent"] == "other"
    bad = {"summary": "deploy to prod", "prompt_intent": "not-a-key"}
    assert intents.ensure("prompts", bad)["prompt_intent"] == "deploy-release"
