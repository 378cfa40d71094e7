"""Lineage across /clear, forks, resumes and compactions, on what the genuine Claude Code 2.1.328
recorded (`plugins/claude/tests/fixtures/claude-2.1.328-lineage`: a session resumed, compacted,
forked and cleared), checked against a json-only scan of the same transcripts and payloads:

- backfilled (transcripts only): the fork is linked (its copied assistant lines name the
  session that made the request); /clear is not (nothing in either transcript names the other);
- hook-fed (the recorded payloads, in the order the client fired them, through carto's
  handler): the fork, the /clear (SessionEnd reason clear, then SessionStart source clear) and
  every resume and compaction as restarts; `carto wrapup --pending` lists the thread once.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.clikit import run as _run

FIXTURE = Path(__file__).resolve().parents[2] / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328-lineage"
ORIGIN = "2a1c0000-0000-4000-8000-000000000003"
FORK = "2a1c0000-0000-4000-8000-000000000004"
CLEARED = "2a1c0000-0000-4000-8000-000000000005"
RECORDED_PROJECTS = "/home/dev/.claude/projects/-home-dev-repo"


def _lines(path: Path) -> list[dict]:
    return [json.loads(raw) for raw in path.read_text("utf-8").splitlines() if raw.strip()]


def scan_forks(projects: Path) -> set[tuple[str, str]]:
    """(parent, child) for every transcript holding an assistant line another session requested."""
    out = set()
    for path in projects.rglob("*.jsonl"):
        for line in _lines(path):
            origin, own = line.get("requestSessionId"), line.get("sessionId")
            if line.get("type") == "assistant" and origin and own and origin != own:
                out.add((origin, own))
    return out


def scan_payloads() -> dict:
    """From the recorded payloads: clear links (the session a `clear` SessionEnd closed, then
    the session a `clear` SessionStart opened), forks by source, restarts per session."""
    payloads = [json.loads(p.read_text()) for p in sorted((FIXTURE / "payloads").glob("*.json"))]
    clears, forks, restarts, ended_by_clear = set(), set(), {}, None
    for p in payloads:
        sid, event = p["session_id"], p["hook_event_name"]
        if event == "SessionEnd" and p.get("reason") == "clear":
            ended_by_clear = sid
        elif event == "SessionStart" and p.get("source") == "clear" and ended_by_clear:
            clears.add((ended_by_clear, sid))
        if event == "SessionStart" and p.get("source") == "fork":
            forks.add(sid)
        if (event == "SessionStart" and p.get("source") in ("resume", "fork", "clear")) or event == "PreCompact":
            kind = "compact" if event == "PreCompact" else p["source"]
            restarts.setdefault(sid, []).append(kind)
    return {"clears": clears, "forks": forks, "restarts": restarts}


@pytest.fixture
def projects(tmp_path) -> Path:
    folder = tmp_path / "projects" / "-home-dev-repo"
    shutil.copytree(FIXTURE, folder, ignore=shutil.ignore_patterns("*.md", "payloads"))
    return folder


def _links(sid: str) -> dict:
    return _run("session", sid, "--json")["lineage"]


def test_backfilled_fork_is_linked_and_clear_is_not(projects):
    _run("ingest", "claude", "--root", str(projects), "--json")
    forks = scan_forks(projects)
    assert forks == {(ORIGIN, FORK)}
    for parent, child in forks:
        assert [(c["session_id"], c["kind"]) for c in _links(child)["continues"]] == [(parent, "fork")]
        assert [(c["session_id"], c["kind"]) for c in _links(parent)["continued_by"]] == [(child, "fork")]
    cleared = _links(CLEARED)
    assert cleared["continues"] == [] and cleared["thread"] == [CLEARED]
    text = _run("session", FORK)
    assert f"continues {ORIGIN} (fork, " in text


def _replay(home, projects: Path, monkeypatch) -> None:
    from carto_claude.capture import handle
    from carto_core.capture.context import write_outcome

    import time as _time
    import types

    from carto_core.capture import context

    monkeypatch.setenv("CARTO_CATCHUP", "0")  # the detached backfill: this home holds the hooks' rows
    clock = [1796213460.0]  # the recording's start; one second between payloads, in their order
    monkeypatch.setattr(context, "time", types.SimpleNamespace(
        time=lambda: clock[0], strftime=_time.strftime, gmtime=_time.gmtime))
    for path in sorted((FIXTURE / "payloads").glob("*.json")):
        clock[0] += 1
        payload = json.loads(path.read_text().replace(RECORDED_PROJECTS, str(projects)))
        outcome = handle(payload["hook_event_name"], payload, home)
        write_outcome(home, outcome)


def test_hook_fed_clear_fork_and_restarts(projects, monkeypatch):
    from carto_core.logio.home import Home

    home = Home(Path(os.environ["CARTO_HOME"]))
    _replay(home, projects, monkeypatch)
    truth = scan_payloads()
    assert truth["clears"] == {(ORIGIN, CLEARED)} and truth["forks"] == {FORK}
    for parent, child in truth["clears"]:
        assert [(c["session_id"], c["kind"]) for c in _links(child)["continues"]] == [(parent, "clear")]
    # The fork's link comes from the transcript its Stop hook read; the payload names the kind.
    for child in truth["forks"]:
        assert [(c["session_id"], c["kind"]) for c in _links(child)["continues"]] == [(ORIGIN, "fork")]
    for sid, kinds in truth["restarts"].items():
        assert [r["kind"] for r in _links(sid)["restarts"]] == kinds, sid
    assert truth["restarts"][ORIGIN] == ["resume", "compact", "resume", "resume"]
    assert _links(ORIGIN)["thread"] == [ORIGIN, FORK, CLEARED]
    digest = _run("digest", "session", "--session", CLEARED, "--no-git", "--json")
    assert digest["lineage"]["thread"] == [ORIGIN, FORK, CLEARED]


def test_pending_lists_a_thread_once_under_its_newest_session(projects, monkeypatch):
    from carto_core.logio.home import Home

    monkeypatch.setenv("CARTO_WRAPUP_STALE_HOURS", "0")
    monkeypatch.setenv("CARTO_WRAPUP_MIN_EVENTS", "1")
    monkeypatch.setenv("CARTO_WRAPUP_MIN_MINUTES", "0")
    home = Home(Path(os.environ["CARTO_HOME"]))
    _replay(home, projects, monkeypatch)
    listed = {s["session_id"]: s for s in _run("sessions", "--json")["sessions"]}
    newest = max((ORIGIN, FORK, CLEARED), key=lambda s: listed[s]["ended"])
    pending = _run("wrapup", "--pending", "--json")["pending"]
    mine = [p for p in pending if p["session_id"] in (ORIGIN, FORK, CLEARED)]
    assert [(p["session_id"], p["thread"]) for p in mine] == [(newest, [ORIGIN, FORK, CLEARED])]
    # Its own counts stay its own (every lens gives a session the same numbers).
    assert mine[0]["events"] == listed[newest]["events"] and mine[0]["commits"] == listed[newest]["commits"]
    # The cleared session alone has too little work; the thread has the origin's commits.
    assert listed[CLEARED]["commits"] == 0 and listed[ORIGIN]["commits"] > 0


def test_a_clear_links_the_session_that_cleared_in_the_same_folder(tmp_path):
    """Two sessions end with /clear a moment apart in two folders: the new session in folder B
    continues B's, though A's ended later; one /clear starts one session (a later clear start
    with no end of its own links nothing)."""
    from carto_core.lenses.lineage import lineage
    from carto_core.logio.home import Home
    from carto_core.logio.appendlog import append_rows

    home = Home(Path(os.environ["CARTO_HOME"]))
    home.root.mkdir(parents=True, exist_ok=True)
    rows = [("b-old", "session_end_clear", "/work/b", "10"), ("a-old", "session_end_clear", "/work/a", "11"),
            ("b-new", "session_start_clear", "/work/b", "12"), ("a-new", "session_start_clear", "/work/a", "13"),
            ("late", "session_start_clear", "/work/b", "59")]
    append_rows(home.log("milestones"), [
        {"event_id": f"evt-{sid}-{name}", "timestamp": f"2026-12-02T12:00:{sec}Z", "milestone": name,
         "session_id": sid, "cwd": cwd} for sid, name, cwd, sec in rows])
    found = lineage(home)
    assert sorted((l.parent, l.child, l.kind) for l in found.links) == [
        ("a-old", "a-new", "clear"), ("b-old", "b-new", "clear")]
    assert found.thread("b-new") == ["b-old", "b-new"] and found.thread("late") == ["late"]
