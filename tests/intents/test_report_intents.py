"""`carto report intents` on the demo home, a fixture home and a built home: the distribution
equals a recount of the logs written here, every key is listed, samples belong to their key."""

from __future__ import annotations

from collections import Counter

import pytest

from carto_core.intents import INTENT_KEYS

from .conftest import rows_of, run
from .test_search_intent import build


def recount(root, logs=("prompt-history.jsonl", "turns.jsonl")) -> tuple[Counter, int]:
    counts, missing = Counter(), 0
    for name in logs:
        for row in rows_of(root / name):
            if row.get("prompt_intent") in INTENT_KEYS:
                counts[row["prompt_intent"]] += 1
            else:
                missing += 1
    return counts, missing


def check(doc, root):
    counts, missing = recount(root)
    assert [k["key"] for k in doc["keys"]] == list(INTENT_KEYS)
    assert {k["key"]: k["count"] for k in doc["keys"] if k["count"]} == dict(counts)
    assert doc["classified"] == sum(counts.values()) and doc["unclassified"] == missing
    ids = {r["event_id"]: r for name in ("prompt-history.jsonl", "turns.jsonl") for r in rows_of(root / name)}
    for entry in doc["keys"]:
        assert len(entry["samples"]) == min(3, entry["count"])
        assert all(ids[s["event_id"]]["prompt_intent"] == entry["key"] for s in entry["samples"])
    return counts


def test_demo_home(demo_home):
    counts = check(run("report", "intents", "--json"), demo_home)
    assert sum(counts.values()) >= 4


def test_fixture_home(fixture_home):
    counts = check(run("report", "intents", "--json"), fixture_home)
    assert sum(counts.values()) >= 10 and len(counts) >= 3
    # every turn the readers wrote carries a key (capture and ingest classify)
    assert recount(fixture_home)[1] == 0


def test_built_home_with_an_old_row_and_filters(tmp_path, monkeypatch):
    import json

    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "h"))
    home = build(tmp_path / "h")
    with open(home.log("prompts"), "a") as handle:  # written before carto classified prompts
        handle.write(json.dumps({"event_id": "evt-old000000000", "timestamp": "2026-11-20T00:00:00Z",
                                 "type": "prompt", "summary": "deploy it", "project": "shop"}) + "\n")
    check(run("report", "intents", "--json"), home.root)
    only = run("report", "intents", "--json", "--log", "prompts", "--samples", "0")
    prompts, missing = recount(home.root, ("prompt-history.jsonl",))
    assert {k["key"]: k["count"] for k in only["keys"] if k["count"]} == dict(prompts)
    assert only["unclassified"] == missing == 1 and all(not k["samples"] for k in only["keys"])
    assert run("report", "intents", "--json", "--project", "nowhere", ok=(3,))["prompts"] == 0
    text = run("report", "intents").output
    assert "unclassified" in text and "bug-fixes" in text
    assert run("report", "intents", "--since", "not a time", ok=(2,)).exit_code == 2
