"""`carto facts pulse`: its census and commits equal a recount of the logs, its tempo is the
tempo verb's over 21 days, and its delta lists exactly the rows appended since the last pulse."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from carto_core.logio.appendlog import append_rows
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.util.timeparse import parse_timestamp

from .conftest import run


def recount(root: Path, since: datetime | None) -> tuple[set[str], set[str]]:
    """(event ids in the window, commit ids in it): every log read here, ids deduplicated."""
    ids, commits = set(), set()
    for name in SEARCHED_LOGS.values():
        path = root / name
        if not path.exists():
            continue
        for line in path.read_text("utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            moment = parse_timestamp(row.get("timestamp"))
            if moment is None or (since is not None and moment < since) or not row.get("event_id"):
                continue
            ids.add(row["event_id"])
            kind = row.get("type") or row.get("event") or row.get("milestone") or ""
            if str(kind).startswith("git_") or (not kind and row["event_id"].startswith("git-")):
                commits.add(row["event_id"])
    return ids, commits


def check(root: Path, since_text: str, since: datetime | None, cursor_file: Path):
    doc = run("facts", "pulse", "--since", since_text, "--json", "--top", "200",
              "--cursor-file", str(cursor_file))
    facts = doc["facts"]
    ids, commits = recount(root, since)
    assert facts["census"]["events"] == len(ids)
    assert {c["event_id"] for c in facts["commits"]} == commits
    tempo = run("facts", "tempo", "--since", "21d", "--json", "--top", "200")["facts"]
    assert facts["tempo"]["projects"] == tempo["projects"]
    assert facts["delta"]["baseline"] is True and json.loads(cursor_file.read_text())["verb"] == "pulse"
    return doc


def test_pulse_on_the_demo_home(demo_home, tmp_path):
    now = datetime.now(timezone.utc)
    cursor = tmp_path / "pulse.cursor"
    doc = check(demo_home, "30d", now - timedelta(days=30), cursor)
    assert doc["facts"]["census"]["events"] > 10 and doc["facts"]["commits"]
    # what arrives after this pulse is the next pulse's delta, and nothing else
    append_rows(demo_home / "changelog.jsonl", [
        {"event_id": "evt-new000000001", "timestamp": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
         "type": "tool_bash", "summary": "Ran: make", "project": "webshop"},
        {"event_id": "evt-new000000002", "timestamp": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
         "type": "git_commit", "summary": "Commit abc1234: feat x", "project": "webshop"}])
    second = run("facts", "pulse", "--json", "--cursor-file", str(cursor))["facts"]
    assert [e["event_id"] for e in second["delta"]["events"]] == ["evt-new000000001", "evt-new000000002"]
    assert "evt-new000000002" in {c["event_id"] for c in second["commits"]}  # default window 24h
    third = run("facts", "pulse", "--json", "--cursor-file", str(cursor))["facts"]
    assert third["delta"]["returned"] == 0 and not third["delta"]["baseline"]


def test_pulse_on_a_fixture_home_and_a_project_scope(fixture_home, tmp_path):
    check(fixture_home, "3650d", None, tmp_path / "c1")
    scoped = run("facts", "pulse", "--since", "3650d", "--json", "--project", "Demo")["facts"]
    everything = run("facts", "pulse", "--since", "3650d", "--json")["facts"]
    outside = scoped["outside_scope"]
    assert outside["events"] == everything["census"]["events"] - scoped["census"]["events"] > 0
    assert all("demo" not in p["name"].lower() for p in outside["projects"])


def test_pulse_text_and_bad_input(demo_home):
    text = run("facts", "pulse").output
    for heading in ("## What happened (counted)", "## Commits", "## Tempo", "## Since the last pulse"):
        assert heading in text
    assert run("facts", "census", "--cursor", "abc", ok=(2,)).exit_code == 2
    assert run("facts", "pulse", "--cursor", "not-a-cursor", ok=(2,)).exit_code == 2
