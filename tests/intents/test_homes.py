"""Issue 17's commands on the demo home and on a home ingested from the shared fixtures, with
--json, each count checked against a scan of the logs (or of the files) written here:
search --intent, report hit-rate / abandonment, repair intents, digest session, and the
memory-file and desktop sources (fixture files built from the documented formats)."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from carto_core.capture.turnactivity import own_row
from carto_core.logio.home import Home
from carto_core.intents import INTENT_KEYS
from carto_core.lenses.digest import TEMPO_BINS

from .conftest import rows_of, run

PROMPT_LOGS = ("prompt-history.jsonl", "turns.jsonl")


@pytest.fixture(params=["demo", "fixture"])
def any_home(request):
    return request.getfixturevalue(f"{request.param}_home")


def stored_intents(root: Path) -> dict[str, str | None]:
    return {r["event_id"]: r.get("prompt_intent") for name in PROMPT_LOGS for r in rows_of(root / name)}


def words_of(root: Path, key: str) -> list[str]:
    """Words of the prompts stored under `key`, most frequent first."""
    counts: Counter = Counter()
    for name in PROMPT_LOGS:
        for row in rows_of(root / name):
            if row.get("prompt_intent") == key:
                counts.update(set(re.findall(r"[a-z]{5,}", str(row.get("summary", "")).lower())))
    return [w for w, _ in counts.most_common()]


def test_search_intent_equals_the_unfiltered_results_kept_by_the_stored_key(any_home):
    """--intent K returns exactly the rows an unfiltered search returns whose logged key is K."""
    stored = stored_intents(any_home)
    keys = Counter(k for k in stored.values() if k)
    assert keys, "the home has classified prompts"
    checked = 0
    for key, _ in keys.most_common(3):
        for word in words_of(any_home, key)[:3]:
            every = run("search", word, "--json", "--all", "--no-semantic", "--no-collapse", "--limit", "1000", ok=(0, 3))
            expected = {r["event_id"] for r in every.get("results", []) if stored.get(r["event_id"]) == key}
            if not expected:
                continue
            got = run("search", word, "--intent", key, "--json", "--all", "--no-semantic", "--no-collapse", "--limit", "1000")
            assert {r["event_id"] for r in got["results"]} == expected, (key, word)
            assert got["facets"]["intents"] == {key: len(expected)}
            checked += 1
    assert checked >= 2


def test_repair_intents_finds_what_a_scan_finds_unclassified(any_home):
    missing = sum(1 for k in stored_intents(any_home).values() if k not in INTENT_KEYS)
    doc = run("repair", "intents", "--json", ok=(0, 3))
    assert doc["unclassified"] == missing
    assert (missing == 0) == (doc.get("would_fix", 0) == 0)


def test_hit_rate_and_abandonment_after_real_searches(any_home):
    stored = stored_intents(any_home)
    word = words_of(any_home, Counter(k for k in stored.values() if k).most_common(1)[0][0])[0]
    first = run("search", word, "--json", "--all", "--no-semantic", "--call-id", "call-h1")
    run("search", word, "--json", "--all", "--no-semantic", "--call-id", "call-h2", "--limit", "3")
    run("search", "--touch", first["results"][0]["event_id"], "--call-id", "call-h1")
    home = Home(any_home)
    served = [json.loads(l) for l in home.log("served").read_text().splitlines() if l.strip()]
    access = [json.loads(l) for l in home.log("access").read_text().splitlines() if l.strip()]
    used = {(a["call_id"], a["event_id"]) for a in access if a.get("call_id")}
    doc = run("report", "hit-rate", "--json")
    assert doc["overall"]["served"] == len(served) == len(first["results"]) + min(3, len(first["results"]))
    assert doc["overall"]["used"] == sum((s["call_id"], s["event_id"]) in used for s in served) == 1
    assert doc["overall"]["calls"] == len({s["call_id"] for s in served}) == 2
    assert doc["mrr"]["value"] == pytest.approx(0.5)  # call-h1 at rank 1, call-h2 nothing
    gone = run("report", "abandonment", "--json")
    assert gone["calls"] == 2 and gone["marked"] == 1 and gone["abandoned"] == 1
    # the searches ran outside any agent session: no transcript to read the unmarked call in
    assert gone["categories"]["unread"] == 1


def session_rows(root: Path, sid: str) -> list[dict]:
    """The session's rows in every log, a row copied into two logs once, carto's own rows about
    it (a wrapup, a decision update) left out: the digest's events."""
    rows = {}
    from carto_core.logio.home import Home
    from carto_core.logio.logs import SEARCHED_LOGS

    for label in SEARCHED_LOGS:
        for r in rows_of(Home(root).log(label)):
            if sid in (r.get("session_id"), r.get("session")) and not own_row(r):
                rows.setdefault(r["event_id"], r)
    return list(rows.values())


def test_digest_session_tempo_recounts_the_demo_sessions_rows(demo_home):
    counts = Counter(r["session_id"] for r in rows_of(demo_home / "changelog.jsonl") if r.get("session_id"))
    sid = counts.most_common(1)[0][0]
    rows = session_rows(demo_home, sid)
    doc = run("digest", "session", "--session", sid, "--json")
    assert doc["event_count"] == len(rows) and doc["evidence"] == "hooks"
    stamps = sorted(datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) for r in rows)
    span = (stamps[-1] - stamps[0]).total_seconds()
    recount = [0] * TEMPO_BINS
    for stamp in stamps:
        recount[min(TEMPO_BINS - 1, int((stamp - stamps[0]).total_seconds() / (span / TEMPO_BINS)))] += 1
    assert doc["tempo"]["bins"] == recount
    assert [c == " " for c in doc["tempo"]["sparkline"]] == [n == 0 for n in recount]
    # the demo's working folders are not on this machine: no repository to describe
    assert doc["leaving"] == [] and doc["repos"] == []


def test_digest_session_of_a_backfilled_session_counts_its_turns(fixture_home):
    turns = Counter(r["session"] for r in rows_of(fixture_home / "turns.jsonl") if r.get("session"))
    sid, n = turns.most_common(1)[0]
    doc = run("digest", "session", "--session", sid, "--json")
    assert doc["evidence"] == "turns" and doc["turns"] == n
    assert sum(doc["tempo"]["bins"]) == doc["event_count"] and len(doc["tempo"]["bins"]) == TEMPO_BINS


# ------------------------------------------------------------------ memory files, desktop app

MEMORY = "# Sample project memory\n\n- the viewer reads albatrossfield first\n"
TOPIC = "# Testing\n\nrun the cormorantsuite before a release\n"


def add_claude_memory(home_dir: Path) -> Path:
    """An auto-memory folder in the folder of an existing project (its transcripts name the cwd)."""
    projects = home_dir / ".claude" / "projects"
    folder = next((p for p in sorted(projects.iterdir()) if any(p.glob("*.jsonl"))), None) \
        if projects.is_dir() else None
    if folder is None:  # the demo home has no transcripts: a folder of its own
        folder = projects / "-work-demo"
    (folder / "memory").mkdir(parents=True)
    (folder / "memory" / "MEMORY.md").write_text(MEMORY)
    (folder / "memory" / "testing.md").write_text(TOPIC)
    return folder


def transcript_cwd(folder: Path) -> str | None:
    for path in sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True):
        for line in path.read_text("utf-8").splitlines()[:40]:
            try:
                cwd = json.loads(line).get("cwd")
            except (ValueError, AttributeError):
                continue
            if cwd:
                return cwd
    return None


def memory_rows(root: Path) -> list[dict]:
    return [r for r in rows_of(root / "changelog.jsonl") if r.get("memory_key")]


def test_claude_memory_on_both_homes(any_home):
    folder = add_claude_memory(Path(os.environ["HOME"]))
    files = sorted((folder / "memory").glob("*.md"))
    summary = run("ingest", "claude-memory", "--json")
    rows = memory_rows(any_home)
    assert summary["rows_written"] == len(rows) == len(files)
    assert {r["memory_key"] for r in rows} == {f"claude-memory:{folder.name}/{p.name}" for p in files}
    cwd = transcript_cwd(folder)
    if cwd:  # the fixture project: the project its transcripts name, as every other row of it
        # (a changelog row leaves out a project it cannot name; a turn row writes "")
        projects = {r.get("project") or "" for r in rows_of(any_home / "turns.jsonl") if r.get("cwd") == cwd}
        assert {r.get("project") or "" for r in rows} == projects and len(projects) == 1
    hits = run("search", "albatrossfield", "--json", "--all", "--no-semantic")["results"]
    assert [h["event_id"] for h in hits] == [r["event_id"] for r in rows if "albatrossfield" in r["summary"]]
    assert run("ingest", "claude-memory", "--json", ok=(0, 3))["rows_written"] == 0


def test_codex_memory_on_the_fixture_home(fixture_home):
    root = Path(os.environ["HOME"]) / ".codex" / "memories"
    (root / "rollout_summaries").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Task Group: viewer\ncwd=/work/viewer\nkeep the pelicanparser\n"
                                    "# Task Group: release\nbump the version first\n")
    (root / "memory_summary.md").write_text("## User preferences\nterse\n## Tips\nuse rg\n## Empty\n")
    (root / "rollout_summaries" / "one.md").write_text("# Rollout\nOutcome: fixed the viewer\n")
    groups = re.findall(r"^# Task Group: (.+)$", (root / "MEMORY.md").read_text(), re.M)
    sections = re.findall(r"^## (.+)$", (root / "memory_summary.md").read_text(), re.M)
    expected = {f"codex:MEMORY.md#{g}" for g in groups} | {f"codex:memory_summary.md#{s}" for s in sections} \
        | {"codex:rollout_summaries/one.md"}
    summary = run("ingest", "codex-memory", "--json")
    rows = memory_rows(fixture_home)
    assert {r["memory_key"] for r in rows} == expected and summary["rows_written"] == len(expected)
    assert {r["project"] for r in rows if r["memory_key"].endswith("#viewer")} == {"viewer"}
    (root / "MEMORY.md").write_text("# Task Group: viewer\ncwd=/work/viewer\nkeep the grebeparser\n")
    summary = run("ingest", "codex-memory", "--json")
    rows = memory_rows(fixture_home)
    assert summary["rows_written"] == 2  # one revision, one deletion mark
    assert {r["memory_key"]: r["memory_state"] for r in rows}["codex:MEMORY.md#release"] == "deleted"
    assert run("search", "pelicanparser", "--json", "--all", "--no-semantic", ok=(3,))["results"] == []
    assert len(run("search", "grebeparser", "--json", "--all", "--no-semantic")["results"]) == 1


def test_a_desktop_session_names_a_backfilled_session_and_its_digest_still_reads_the_turns(fixture_home):
    """A desktop row carries the Claude Code session id; it is metadata, not a hook row: the
    session's digest still reads the transcript's turns (it read none when the row counted as
    a hook row), and the row is no event of the session (it was one more)."""
    turns = Counter(r["session"] for r in rows_of(fixture_home / "turns.jsonl")
                    if r.get("session") and r.get("provider") == "claude")
    sid, n = turns.most_common(1)[0]
    before = run("digest", "session", "--session", sid, "--json")
    app = Path(os.environ.get("XDG_CONFIG_HOME") or Path(os.environ["HOME"]) / ".config") / "Claude"
    folder = app / "claude-code-sessions" / "acct" / "ws"
    folder.mkdir(parents=True)
    (folder / "local_0a0b0c0d-1111-4222-8333-444455556666.json").write_text(json.dumps({
        "sessionId": "local_0a0b0c0d-1111-4222-8333-444455556666", "cliSessionId": sid,
        "title": "Tidy the heronviewer", "cwd": "/work/viewer", "createdAt": 1790000000000}))
    summary = run("ingest", "claude-desktop", "--json")
    rows = [r for r in rows_of(fixture_home / "changelog.jsonl") if r.get("type") == "desktop_session"]
    assert summary["rows_written"] == len(rows) == 1 and rows[0]["session_id"] == sid
    after = run("digest", "session", "--session", sid, "--json")
    assert after["evidence"] == "turns" and after["turns"] == before["turns"] == n
    assert after["event_count"] == before["event_count"]
