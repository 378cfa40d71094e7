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


def test_repair_intents_classifies_old_rows_and_the_report_then_has_none_unclassified(tmp_path, monkeypatch):
    import json

    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "h"))
    home = build(tmp_path / "h")
    old = [{"event_id": f"evt-old{n:09d}", "timestamp": "2026-11-20T00:00:00Z", "type": "prompt",
            "summary": text, "project": "shop"} for n, text in enumerate(["deploy it to prod", "hello"])]
    with open(home.log("prompts"), "a") as handle:
        handle.write("".join(json.dumps(r) + "\n" for r in old))
    before = home.log("prompts").read_bytes()
    dry = run("repair", "intents", "--json")
    assert dry["unclassified"] == 2 and dry["would_fix"] == 2 and home.log("prompts").read_bytes() == before
    unclassified = run("search", "prod", "--intent", "deploy-release", "--json", "--no-semantic", "--all",
                       ok=(0, 3))
    assert "evt-old000000000" not in {h["event_id"] for h in unclassified.get("results", [])}
    done = run("repair", "intents", "--write", "--json")
    assert done["fixed"] == 2
    rows = {r["event_id"]: r for r in rows_of(home.log("prompts"))}
    assert rows["evt-old000000000"]["prompt_intent"] == "deploy-release"
    assert rows["evt-old000000001"]["prompt_intent"] == "other"
    assert run("report", "intents", "--json")["unclassified"] == 0
    hits = run("search", "prod", "--intent", "deploy-release", "--json", "--no-semantic", "--all")["results"]
    assert "evt-old000000000" in {h["event_id"] for h in hits}
    assert run("repair", "intents", "--json", ok=(3,))["unclassified"] == 0
