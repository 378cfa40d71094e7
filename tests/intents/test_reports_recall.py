"""`carto report hit-rate` equals a join written here; `carto report abandonment` sorts crafted
calls into the categories their transcripts show, and credits unmarked use in MRR."""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search.telemetry import Telemetry

from .conftest import run

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def telemetry(root: Path, seed: int = 5, calls: int = 60):
    rng = random.Random(seed)
    served, access = [], []
    for c in range(calls):
        call_id = f"call-{c}"
        at = T0 + timedelta(minutes=c)
        purpose = rng.choice(["manual", "remember", "feed"])
        for rank in range(1, rng.randint(1, 12) + 1):
            event = f"evt-{rng.randrange(40):012d}"
            served.append({"timestamp": iso(at), "call_id": call_id, "purpose": purpose,
                           "session_id": f"s{c % 4}", "provider": "claude", "query": f"q{c % 9}",
                           "event_id": event, "rank": rank,
                           "source": rng.choice(["turns", "changelog+semantic", "semantic+changelog", "prompts"]),
                           "project": rng.choice(["shop", "infra", ""])})
            if rng.random() < 0.08:
                served.append(dict(served[-1]))  # the same pair again: one serve
            roll = rng.random()
            if roll < 0.15:
                access.append({"event_id": event, "timestamp": iso(at + timedelta(seconds=30)),
                               "source": "result_used", "call_id": call_id})
            elif roll < 0.22:
                access.append({"event_id": event, "timestamp": iso(at + timedelta(seconds=30)),
                               "source": "result_fetched", "call_id": call_id})
    served.append({"timestamp": iso(T0), "event_id": "evt-legacy", "rank": 1})  # no call_id
    access.append({"event_id": "evt-nowhere", "source": "result_used", "call_id": "call-x"})
    append_rows(root / "served-log.jsonl", served)
    append_rows(root / "access-ledger.jsonl", access)
    return served, access


def join_here(served, access, since=None):
    """The join, written again: first (call, event) pair, used = a result_used mark of it."""
    used = {(a["call_id"], a["event_id"]) for a in access if a.get("source") == "result_used" and a.get("call_id")}
    fetched = {(a["call_id"], a["event_id"]) for a in access if a.get("source") == "result_fetched" and a.get("call_id")}
    pairs, seen = [], set()
    for row in served:
        if not row.get("call_id"):
            continue
        if since is not None and row["timestamp"] < iso(since):
            continue
        key = (row["call_id"], row["event_id"])
        if key in seen:
            continue
        seen.add(key)
        pairs.append((row, key in used, key in fetched))
    return pairs


def test_hit_rate_equals_a_join_written_here(tmp_path, monkeypatch):
    root = tmp_path / "h"
    root.mkdir()
    monkeypatch.setenv("CARTO_HOME", str(root))
    served, access = telemetry(root)
    doc = run("report", "hit-rate", "--json")
    pairs = join_here(served, access)
    assert doc["overall"]["served"] == len(pairs)
    assert doc["overall"]["used"] == sum(u for _, u, _ in pairs)
    assert doc["overall"]["fetched"] == sum(f for _, _, f in pairs)
    assert doc["legacy_served_rows"] == 1 and doc["unplaced_marks"] == 1
    for field, key in (("project", "by_project"), ("purpose", "by_purpose")):
        groups = defaultdict(lambda: [0, 0])
        for row, u, _ in pairs:
            groups[row[field] or "(none)"][0] += 1
            groups[row[field] or "(none)"][1] += u
        assert {k: [v["served"], v["used"]] for k, v in doc[key].items()} == {k: v for k, v in groups.items()}
    sources = defaultdict(int)
    for row, _, _ in pairs:
        sources["+".join(sorted(row["source"].split("+")))] += 1
    assert {k: v["served"] for k, v in doc["by_source"].items()} == dict(sources)
    ranks = defaultdict(lambda: [0, 0])
    for row, u, _ in pairs:
        ranks[str(row["rank"])][0] += 1
        ranks[str(row["rank"])][1] += u
    assert {str(k): [v["served"], v["used"]] for k, v in doc["by_rank"].items()} == dict(ranks)
    best = defaultdict(list)
    for row, u, _ in pairs:
        best[row["call_id"]].append(row["rank"] if u else None)
    expected = sum(1 / min(r for r in v if r) if any(v) else 0 for v in best.values()) / len(best)
    assert doc["mrr"]["value"] == pytest.approx(expected, abs=1e-6) and doc["mrr"]["calls"] == len(best)
    later = run("report", "hit-rate", "--json", "--since", iso(T0 + timedelta(minutes=30)))
    assert later["overall"]["served"] == len(join_here(served, access, T0 + timedelta(minutes=30)))
    assert run("report", "hit-rate", "--json", "--purpose", "audit", ok=(3,))["overall"]["served"] == 0


def test_hit_rate_on_the_demo_home_after_real_searches(demo_home):
    """Telemetry written by `carto search` itself, marks by `--touch`: the join sees them."""
    home = Home(demo_home)
    first = run("search", "cart", "--json", "--all", "--call-id", "call-demo-1", "--no-semantic")
    target = first["results"][1]["event_id"]
    run("search", "--touch", target, "--call-id", "call-demo-1")
    doc = run("report", "hit-rate", "--json")
    assert doc["overall"] == {**doc["overall"], "served": len(first["results"]), "used": 1, "calls": 1}
    assert doc["mrr"]["value"] == pytest.approx(0.5)
    assert doc["by_rank"]["2"]["used"] == 1


# --------------------------------------------------------------------------- abandonment


def claude_line(kind: str, at: datetime, **content) -> dict:
    if kind == "user":
        return {"type": "user", "timestamp": iso(at), "message": {"role": "user", "content": content["text"]}}
    if kind == "result":
        return {"type": "user", "timestamp": iso(at), "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "x", "content": content["text"]}]}}
    blocks = []
    if "text" in content:
        blocks.append({"type": "text", "text": content["text"]})
    if "tool" in content:
        blocks.append({"type": "tool_use", "id": "t", "name": content["tool"], "input": content["input"]})
    return {"type": "assistant", "timestamp": iso(at), "message": {"role": "assistant", "content": blocks}}


@pytest.fixture
def recall_home(tmp_path, monkeypatch):
    root = tmp_path / "h"
    monkeypatch.setenv("CARTO_HOME", str(root))
    home = Home(root)
    append_rows(home.log("changelog"), [
        {"event_id": "evt-aaaaaaaaaaaa", "timestamp": "2026-11-01T00:00:00Z", "type": "tool_file_edit",
         "summary": "Modified: /w/shop/src/checkout/discounts.py", "project": "shop"},
        {"event_id": "evt-bbbbbbbbbbbb", "timestamp": "2026-11-01T00:00:00Z", "type": "prompt",
         "summary": "rounding of bundle prices uses banker rounding through decimal quantize helpers",
         "project": "shop"},
        {"event_id": "evt-cccccccccccc", "timestamp": "2026-11-01T00:00:00Z", "type": "prompt",
         "summary": "terraform state lock stuck after ci cancelled", "project": "infra"},
    ])
    sid = "11111111-2222-4333-8444-555555555555"
    calls = {"call-use": ("discount code", ["evt-cccccccccccc", "evt-aaaaaaaaaaaa"]),
             "call-bad": ("state lock", ["evt-cccccccccccc"]),
             "call-good": ("bundle price", ["evt-bbbbbbbbbbbb"]),
             "call-none": ("anything", ["evt-cccccccccccc"]),
             "call-marked": ("discount", ["evt-aaaaaaaaaaaa"])}
    served, lines = [], []
    for n, (call_id, (query, ids)) in enumerate(calls.items()):
        at = T0 + timedelta(minutes=10 * n)
        served += [{"timestamp": iso(at), "call_id": call_id, "purpose": "remember", "session_id": sid,
                    "provider": "claude", "query": query, "event_id": e, "rank": r, "source": "changelog",
                    "project": "shop"} for r, e in enumerate(ids, 1)]
        lines.append(claude_line("user", at - timedelta(seconds=20), text=f"please look at {query}"))
        lines.append(claude_line("assistant", at - timedelta(seconds=10), tool="Bash",
                                 input={"command": f"carto search '{query}'"}))
        # the search's own output names every result: never read as use
        lines.append(claude_line("result", at + timedelta(seconds=1), text=" ".join(ids) + " discounts.py"))
        follow = {
            "call-use": dict(tool="Read", input={"file_path": "/w/shop/src/checkout/discounts.py"}),
            "call-bad": dict(tool="Grep", input={"pattern": "state lock"}),
            "call-good": dict(text="Bundle prices go through the decimal quantize helpers with banker rounding."),
            "call-none": dict(text="Done with the unrelated change."),
            "call-marked": dict(text="ok"),
        }[call_id]
        lines.append(claude_line("assistant", at + timedelta(seconds=5), **follow))
    append_rows(home.log("served"), served)
    append_rows(home.log("access"), [{"event_id": "evt-aaaaaaaaaaaa", "timestamp": iso(T0 + timedelta(minutes=41)),
                                      "source": "result_used", "call_id": "call-marked", "session_id": sid}])
    projects = Path(os.environ["HOME"]) / ".claude" / "projects" / "-w-shop"
    projects.mkdir(parents=True)
    (projects / f"{sid}.jsonl").write_text("".join(json.dumps(l) + "\n" for l in lines))
    return root


def test_abandonment_categories_and_credited_mrr(recall_home):
    doc = run("report", "abandonment", "--json")
    assert doc["calls"] == 5 and doc["marked"] == 1 and doc["abandoned"] == 4
    assert doc["categories"] == {"unmarked_use": 1, "good_abandonment": 1, "bad_abandonment": 1,
                                 "no_need": 1, "unread": 0}
    [use] = doc["examples"]["unmarked_use"]
    assert use["call_id"] == "call-use" and use["credited_rank"] == 2
    assert doc["examples"]["bad_abandonment"][0]["call_id"] == "call-bad"
    assert doc["examples"]["good_abandonment"][0]["call_id"] == "call-good"
    # explicit: only call-marked (rank 1) of five calls; credited: + call-use at rank 2
    assert doc["mrr"]["explicit"] == pytest.approx(1 / 5)
    assert doc["mrr"]["implicit_credited"] == pytest.approx((1 + 0.5) / 5)


def test_abandonment_without_a_transcript_is_unread(recall_home):
    for path in (Path(os.environ["HOME"]) / ".claude" / "projects").rglob("*.jsonl"):
        path.unlink()
    doc = run("report", "abandonment", "--json")
    assert doc["categories"]["unread"] == 4 and doc["mrr"]["implicit_credited"] == doc["mrr"]["explicit"]


def test_reports_on_an_empty_home_exit_3(tmp_path, monkeypatch):
    (tmp_path / "h").mkdir()
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "h"))
    assert run("report", "abandonment", "--json", ok=(3,))["calls"] == 0
    assert run("report", "hit-rate", ok=(3,)).exit_code == 3
    assert run("report", "abandonment", "--window", "0", ok=(2,)).exit_code == 2
