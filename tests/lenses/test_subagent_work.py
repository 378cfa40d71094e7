"""A Codex session and its own sub-agent threads are one piece of work: `carto standup`'s
CONTENTION and the PreToolUse collision note never set them against each other, and `carto
sessions` lists a sub-agent under its parent. Checked on copies of the shared fixtures' Codex
rollouts (22222222 spawns 33333333: the child's `session_meta.source.subagent.thread_spawn`
names the parent; 11111111 is another session of the same project), ingested into the test's
home, whose turn rows carry the link (`parent_session`, the session tree's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

from carto_core.capture.collision import collision_note
from carto_core.lenses.standup import render_standup, standup
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row
from tests.clikit import object_rows, opened_paths, run

OTHER = "11111111-1111-4111-8111-111111111111"
PARENT = "22222222-2222-4222-8222-222222222222"
CHILD = "33333333-3333-4333-8333-333333333333"
NOW = datetime.now(timezone.utc).replace(microsecond=0)


def _ingest(shared_fixtures: Path, tmp_path: Path, *, days=("02", "03")) -> Path:
    """Copies of the fixtures' Codex rollouts of those January days, ingested; the copy."""
    codex = tmp_path / "codex"
    source = shared_fixtures / "codex" / "claude-code-log" / "sessions" / "2026" / "01"
    for day in days:
        shutil.copytree(source / day, codex / "2026" / "01" / day)
    run("ingest", "codex", "--root", str(codex), "--json")
    return codex


def _link(codex: Path) -> dict[str, str]:
    """child -> parent, as the rollouts themselves say it (json only, no carto reader)."""
    out = {}
    for path in codex.rglob("*.jsonl"):
        for row in object_rows(path):
            source = row.get("payload", {}).get("source") if row.get("type") == "session_meta" else None
            if isinstance(source, dict):
                out[row["payload"]["id"]] = source["subagent"]["thread_spawn"]["parent_thread_id"]
    return out


def test_a_parent_and_its_sub_agent_are_no_contention(shared_fixtures, tmp_path, monkeypatch):
    """Before: `CONTENTION  synthetic-project — 2 sessions: 22222222, 33333333`."""
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "home"))
    codex = _ingest(shared_fixtures, tmp_path, days=("03",))
    assert _link(codex) == {CHILD: PARENT}
    doc = standup(Home(tmp_path / "home"), since="2026-01-01", now=NOW, scan_unclaimed=False,
                  scan_silent=False)
    assert doc["contention"] == {"projects": [], "files": []}
    by = {s["id"]: s for s in doc["sessions"]}
    assert sorted(by) == [PARENT, CHILD]
    assert (by[CHILD]["parent_session"], by[PARENT]["parent_session"]) == (PARENT, None)
    text = render_standup(doc)
    assert "CONTENTION — none. No shared project or file across these sessions." in text
    assert "○ 33333333  codex synthetic-project · sub-agent of 22222222" in text.splitlines()


def test_another_session_still_contends_with_the_piece_of_work(shared_fixtures, tmp_path, monkeypatch):
    """Before: `synthetic-project — 3 sessions: 11111111, 22222222, 33333333`."""
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "home"))
    _ingest(shared_fixtures, tmp_path)
    doc = standup(Home(tmp_path / "home"), since="2026-01-01", now=NOW, scan_unclaimed=False,
                  scan_silent=False)
    assert doc["contention"]["projects"] == [{"project": "synthetic-project",
                                              "sessions": [OTHER, PARENT],
                                              "sub_agents": {PARENT: [CHILD]}}]
    assert ("  synthetic-project — 2 sessions: 11111111, 22222222 (with sub-agent 33333333)"
            in render_standup(doc).splitlines())


def _git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   capture_output=True)


def _edits(tmp_path: Path) -> tuple[Home, Path]:
    """A repository whose src/cart.py the child edited 20 minutes ago and the parent 10 minutes
    ago (hook rows), in the home the fixtures were ingested into."""
    repo = tmp_path / "synthetic-project"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "cart.py").write_text("total = 0\n")
    _git("init", "-q", "-b", "main", cwd=repo)
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "-m", "init", cwd=repo)
    home = Home(tmp_path / "home")

    def edit(minutes, sid):
        stamp = (NOW - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
        return order_row("changelog", {
            "event_id": f"evt-{sid[:4]}{minutes:08d}", "timestamp": stamp, "type": "tool_file_edit",
            "provider": "codex", "session_id": sid, "project": "synthetic-project", "cwd": str(repo),
            "summary": f"Modified: {repo}/src/cart.py", "related_ids": []})

    append_rows(home.log("changelog"), [edit(20, CHILD), edit(10, PARENT)])
    return home, repo


def test_a_file_the_parent_and_its_sub_agent_edited_is_no_contention(shared_fixtures, tmp_path, monkeypatch):
    """Before: `Same file, different sessions (1): src/cart.py  22222222 · 33333333`."""
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "home"))
    _ingest(shared_fixtures, tmp_path, days=("03",))
    home, repo = _edits(tmp_path)
    doc = standup(home, since="2026-01-01", now=NOW, scan_unclaimed=False, scan_silent=False)
    assert doc["contention"] == {"projects": [], "files": []}
    # A session of its own editing the file later contends with the piece of work, named by
    # the parent, the sub-agent beside it.
    stamp = (NOW - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    append_rows(home.log("changelog"), [order_row("changelog", {
        "event_id": "evt-other-edit", "timestamp": stamp, "type": "tool_file_edit", "provider": "claude",
        "session_id": OTHER, "project": "synthetic-project", "cwd": str(repo),
        "summary": f"Modified: {repo}/src/cart.py", "related_ids": []})])
    doc = standup(home, since="2026-01-01", now=NOW, scan_unclaimed=False, scan_silent=False)
    files = doc["contention"]["files"]
    assert [(f["path"], f["sessions"], f["sub_agents"]) for f in files] == [
        (str(repo / "src" / "cart.py"), [OTHER, PARENT], {PARENT: [CHILD]})]
    lines = render_standup(doc, cwd=str(repo)).splitlines()
    at = lines.index("    src/cart.py")
    assert lines[at + 1].startswith("      11111111 · 22222222 (with sub-agent 33333333)   last touched ")


def test_the_collision_note_is_quiet_between_a_parent_and_its_sub_agent(shared_fixtures, tmp_path, monkeypatch):
    """Before: the parent editing cart.py was told `session 33333333 (codex) edited cart.py`."""
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "home"))
    _ingest(shared_fixtures, tmp_path, days=("03",))
    home, repo = _edits(tmp_path)
    cart = str(repo / "src" / "cart.py")
    assert collision_note(home, PARENT, cart, now=NOW) is None
    assert collision_note(home, CHILD, cart, now=NOW) is None
    # Another session is told about both, the newest named first.
    note = collision_note(home, OTHER, cart, now=NOW)
    assert note.startswith("carto: heads-up - session 22222222 (codex) and 1 other session edited cart.py 10m ago")


def test_sessions_lists_a_sub_agent_under_its_parent(shared_fixtures, tmp_path, monkeypatch):
    """Before: 33333333 first (it ended last), 22222222 below it, nothing tying them."""
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "home"))
    _ingest(shared_fixtures, tmp_path)
    lines = run("sessions").splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["22222222", "33333333", "11111111"]
    assert lines[2].endswith("  sub-agent of 22222222")
    assert not lines[1].endswith("22222222") and not lines[3].endswith("22222222")
    # A sub-agent whose parent the list leaves out stays in its place and still names it.
    alone = run("sessions", "--provider", "codex", "-n", "1").splitlines()
    assert alone[1].split()[0] == "33333333" and alone[1].endswith("  sub-agent of 22222222")
    # The JSON rows are the explorer's (`views.session_out`), unchanged.
    rows = run("sessions", "--json")["sessions"]
    assert [r["session_id"] for r in rows] == [CHILD, PARENT, OTHER]


def test_work_of_climbs_every_level_and_stops_at_a_cycle():
    from carto_core.capture.collision import thread_parents, work_of

    parents = thread_parents([{"session": "c", "parent_session": "b"}, {"session": "b", "parent_session": "a"},
                              {"session": "x", "parent_session": "y"}, {"session": "y", "parent_session": "x"},
                              {"session": "z", "parent_session": "z"}, {"session": "w"}])
    assert parents == {"c": "b", "b": "a", "x": "y", "y": "x"}
    assert [work_of(s, parents) for s in "abcxyzw"] == ["a", "a", "a", "y", "x", "z", "w"]


def _turns_opened(home: Home, *args: str):
    """(`carto sessions ARGS`' output, how many times it opened the turns log)."""
    with opened_paths() as opened:
        out = run("sessions", *args)
    return out, opened.count(os.path.realpath(home.log("turns")))


def _listing_and_turns_reads(home: Home) -> tuple[list[tuple[str, str | None]], int]:
    """`carto sessions`' (id, sub-agent tail) per line, and how many more times it opened the
    turns log than `carto sessions --json` does (no link in its rows: it opens the log only as
    the summaries and the facts columns do, to see it can be read and has not changed)."""
    text, opens = _turns_opened(home)
    _, json_opens = _turns_opened(home, "--json")
    return [(line.split()[0], line.split("  sub-agent of ")[1] if "  sub-agent of " in line else None)
            for line in text.splitlines()[1:]], opens - json_opens


def test_sessions_keeps_the_link_with_the_summaries(shared_fixtures, tmp_path, monkeypatch):
    """The link comes with the kept session summaries (read from a session's own turn rows when
    it is summarised), so a run whose summaries are kept opens the turns log only to check it
    can be read, as every other log. Before: every `carto sessions` read the whole turns log for
    it (docs/performance.md). Claude subagent files (55550000's) log under their parent's id: no
    line, no link of their own."""
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "home"))
    claude = tmp_path / "claude"
    shutil.copytree(shared_fixtures / "claude", claude, ignore=shutil.ignore_patterns("*.md"))
    run("ingest", "claude", "--root", str(claude), "--json")
    codex = _ingest(shared_fixtures, tmp_path, days=("02",))
    home = Home(tmp_path / "home")
    first = [("55550000", None), ("11111111", None), ("5c0375b4", None), ("1af7fc5e", None),
             ("edge_cas", None), ("represen", None)]
    assert _listing_and_turns_reads(home)[0] == first
    assert _listing_and_turns_reads(home) == (first, 0)
    # The parent and its sub-agent thread ingested after the summaries were kept: summarised
    # now, with the link; then kept with it.
    shutil.copytree(shared_fixtures / "codex" / "claude-code-log" / "sessions" / "2026" / "01" / "03",
                    codex / "2026" / "01" / "03")
    run("ingest", "codex", "--root", str(codex), "--json")
    both = [first[0], ("22222222", None), ("33333333", "22222222"), *first[1:]]
    assert _listing_and_turns_reads(home)[0] == both
    assert _listing_and_turns_reads(home) == (both, 0)
    # A home summarised from nothing kept lists the same.
    shutil.rmtree(tmp_path / "home" / ".carto" / "sessions")
    assert _listing_and_turns_reads(home)[0] == both
    assert _listing_and_turns_reads(home) == (both, 0)
