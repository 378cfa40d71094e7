"""census: every count equals an independent scan of the raw logs written here, every sample
id fetches back from the logs, and nothing is written."""

from __future__ import annotations

import json
import os
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest

from carto_core.facts import run_facts
from tests.facts.conftest import NOW, build_messy_home

LOG_FILES = {  # independent of carto_core.logio.logs on purpose
    "changelog": "changelog.jsonl", "research": "research-log.jsonl",
    "milestones": "session-milestones.jsonl", "tool-use": "tool-use-log.jsonl",
    "prompts": "prompt-history.jsonl", "turns": "turns.jsonl",
}


def resolved(value):
    return value is not None and not (isinstance(value, str) and value.strip().lower() in ("", "unknown"))


def first(row, keys):
    for key in keys:
        if resolved(row.get(key)):
            return row[key]
    return None


def when(value):
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value / 1000 if value > 1e12 else value, tz=timezone.utc)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def scan(root, since=None, before=None, project=None):
    """The census a person would compute with jq: fold by event_id, domain logs first."""
    events, seen = [], set()
    order = [label for label in LOG_FILES if label != "changelog"] + ["changelog"]
    for label in order:
        with open(os.path.join(root, LOG_FILES[label]), "rb") as handle:
            for lineno, line in enumerate(handle, 1):
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                key = row.get("event_id") if resolved(row.get("event_id")) else f"{label}-{lineno}"
                if key in seen:
                    continue
                seen.add(key)
                events.append((label, row))
    out = {"project": Counter(), "type": Counter(), "source": Counter(), "provider": Counter()}
    unattributed = Counter()
    sessions, total, windowed_out, undated_dropped = set(), 0, 0, 0
    for label, row in events:
        moment = when(row.get("timestamp"))
        if since or before:
            if moment is None:
                undated_dropped += 1
                continue
            if (since and moment < since) or (before and moment > before):
                windowed_out += 1
                continue
        if project is not None and not (resolved(row.get("project")) and project.lower() in row["project"].lower()):
            continue
        total += 1
        for dim, value in (("project", row.get("project")), ("type", first(row, ("type", "event", "milestone"))),
                           ("source", label), ("provider", row.get("provider"))):
            if resolved(value):
                out[dim][value] += 1
            else:
                unattributed[dim] += 1
        sid = first(row, ("session_id", "session", "sessionId"))
        if sid:
            sessions.add(sid)
        else:
            unattributed["session"] += 1
        if not resolved(row.get("event_id")):
            unattributed["event_id"] += 1
    return out, unattributed, len(sessions), total, windowed_out, undated_dropped


def raw_ids(root):
    ids = {}
    for label, name in LOG_FILES.items():
        with open(os.path.join(root, name), "rb") as handle:
            for line in handle:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                if resolved(row.get("event_id")):
                    ids.setdefault(row["event_id"], []).append((label, row))
    return ids


def census(home, **fields):
    request = {"contract_version": 1, "verb": "census", "call_id": "t", "top": 200, "sample": 10, **fields}
    return run_facts(request, home, now=NOW)["facts"]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("window", [None, ("3d", None), ("10d", "2d")])
@pytest.mark.parametrize("project", [None, "carto", "WEB"])
def test_census_counts_equal_an_independent_scan(tmp_path, seed, window, project):
    home = build_messy_home(tmp_path / "h", seed=seed)
    fields = {}
    since = before = None
    if window:
        fields["since"] = window[0]
        since = NOW - timedelta(days=int(window[0][:-1]))
        if window[1]:
            fields["before"] = window[1]
            before = NOW - timedelta(days=int(window[1][:-1]))
    if project:
        fields["project"] = project
    facts = census(home, **fields)
    buckets, unattributed, sessions, total, windowed_out, undated_dropped = scan(
        home.root, since, before, project)
    assert facts["events"] == total
    assert total > 0  # the fixture exercises something in every combination
    assert facts["windowed_out"] == windowed_out
    assert facts["undated_dropped"] == undated_dropped
    assert facts["sessions"]["resolved"] == sessions
    for dim in ("project", "session", "provider", "type", "event_id"):
        assert facts["unattributed"][dim] == unattributed[dim], dim
    for key, dim in (("by_project", "project"), ("by_type", "type"), ("by_source", "source"),
                     ("by_provider", "provider")):
        got = {b["name"]: b["count"] for b in facts[key]}
        assert got == dict(buckets[dim]), key
        # Sorted by count desc then name asc.
        assert [(-b["count"], b["name"]) for b in facts[key]] == sorted((-b["count"], b["name"]) for b in facts[key])
        # Buckets plus unattributed add up to the total (sources are never unattributed).
        assert sum(got.values()) + (unattributed[dim] if dim != "source" else 0) == total
    if project:
        assert facts["unattributed"]["project"] == 0  # a scoped census leaves them out


def test_every_sample_id_fetches_back_from_the_logs_with_its_bucket(messy_home):
    facts = census(messy_home, since="7d")
    ids = raw_ids(messy_home.root)
    checked = 0
    for key, dim in (("by_project", "project"), ("by_type", None), ("by_source", "source"),
                     ("by_provider", "provider")):
        for bucket in facts[key]:
            assert 0 < len(bucket["event_ids"]) <= 10
            assert len(bucket["event_ids"]) <= bucket["count"]
            assert len(set(bucket["event_ids"])) == len(bucket["event_ids"])
            for event_id in bucket["event_ids"]:
                assert event_id in ids, event_id
                rows = ids[event_id]
                if dim == "source":
                    assert bucket["name"] in [label for label, _ in rows]
                elif dim:
                    assert any(row.get(dim) == bucket["name"] for _, row in rows)
                else:
                    assert any(first(row, ("type", "event", "milestone")) == bucket["name"] for _, row in rows)
                checked += 1
    for commit in facts["commits"]:
        assert commit["type"].startswith("git_")
        # A commit row without a real id is still listed (it happened) but carries null.
        assert commit["event_id"] is None or commit["event_id"] in ids
    assert checked > 20


def test_samples_are_the_newest_ids_of_the_bucket(messy_home):
    facts = census(messy_home, sample=3)
    ids = raw_ids(messy_home.root)
    bucket = facts["by_source"][0]
    times = [when(ids[i][0][1]["timestamp"]) for i in bucket["event_ids"]]
    assert times == sorted(times, reverse=True)


def test_sample_zero_omits_event_ids_and_top_cuts(messy_home):
    facts = census(messy_home, sample=0, top=2)
    assert all("event_ids" not in b for b in facts["by_type"])
    assert len(facts["by_type"]) == 2


def test_span_and_commits_are_newest_first(messy_home):
    facts = census(messy_home)
    commits = facts["commits"]
    assert commits and len(commits) <= 200
    times = [when(c["timestamp"]) for c in commits if when(c["timestamp"])]
    assert times == sorted(times, reverse=True)
    assert when(facts["span"]["oldest"]) <= when(facts["span"]["newest"])


def test_facts_write_no_log_or_telemetry_row(messy_home):
    """Facts never write a log row or a telemetry row; the only thing they may write is their
    own derived cache under `.carto/facts/`."""
    logs = {p: (os.stat(p).st_mtime_ns, p.read_bytes()) for p in messy_home.root.glob("*.jsonl")}
    for verb in ("census", "tempo"):
        run_facts({"contract_version": 1, "verb": verb, "call_id": "t", "since": "30d"}, messy_home, now=NOW)
    delta = run_facts({"contract_version": 1, "verb": "delta", "call_id": "t"}, messy_home)
    run_facts({"contract_version": 1, "verb": "delta", "call_id": "t", "cursor": delta["facts"]["cursor"]}, messy_home)
    assert {p: (os.stat(p).st_mtime_ns, p.read_bytes()) for p in messy_home.root.glob("*.jsonl")} == logs
    written = sorted(str(p.relative_to(messy_home.root)) for p in messy_home.root.rglob("*")
                     if p.is_file() and p not in logs)
    assert written == [".carto/facts/columns.bin"]
    assert not (messy_home.root / "served-log.jsonl").exists()
    assert not (messy_home.root / "access-ledger.jsonl").exists()


def test_every_sample_id_fetches_back_with_carto_search_get(messy_home):
    from click.testing import CliRunner

    from carto_core.cli import cli

    facts = census(messy_home, sample=3)
    ids = sorted({i for key in ("by_project", "by_type", "by_source", "by_provider")
                  for b in facts[key] for i in b["event_ids"]}
                 | {c["event_id"] for c in facts["commits"] if c["event_id"]})
    assert len(ids) > 20
    result = CliRunner().invoke(cli, ["search", "x", "--get", ",".join(ids), "--json"],
                                env={"CARTO_HOME": str(messy_home.root)})
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["missing"] == []
    assert sorted(document["found"]) == ids
