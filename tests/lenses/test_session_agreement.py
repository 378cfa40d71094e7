"""Every session lens tells the same story about a session, on a hook-fed and on a backfilled home.

Two homes are made from the same real transcripts (`shared/fixtures/claude`, and the two
Claude Code 2.1.328 sessions recorded from the real client):

- *backfilled*: `carto ingest claude` alone (how every user starts: turns, no hook row);
- *hook-fed*: the hooks Claude Code fires during those sessions, replayed in order with the
  hook clock at each transcript line's time (`replay.py`), the Stop hook ingesting the
  transcript as it goes (how a user with `carto install claude` is recorded).

On each home, `carto sessions`, `carto session`, `carto standup`, `carto digest session`,
`carto wrapup --dry-run` and `carto wrapup --pending` give each session the same span, events,
turns, commits and edits (and the two that count prompts the same prompts), and `carto standup --commit` finds every commit any of them lists in
the session that lists it. Once each session's wrapup is written, every lens still says the
same of it (and the digest's tempo bar is the same): the wrapup is carto's row about the
session, not one of its events. Across the two homes the work agrees: the same commits (by sha),
edits, turns and prompts for each session.

Each home also holds a session of one prompt the agent answered without a tool: a Claude
prompt-history row (backfilled) or a Codex UserPromptSubmit hook (hook-fed). `carto sessions`
listed such a session and `carto standup` left it out (it read only the changelog and turns).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli

from .replay import replay_claude

CLIENT = Path(__file__).resolve().parents[2] / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328"
COMMITTED = "2a1c0000-0000-4000-8000-000000000001"   # Bash: echo > a.txt && git commit "feat: add a"
FAILED_COMMIT = "2a1c0000-0000-4000-8000-000000000002"  # Edit README.md, git commit && exit 3
DEMO_ORCH = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"   # MultiEdit CLAUDE.md, Task subagents
PROMPT_ONLY = "7e0a0000-0000-4000-8000-00000000a5c1"  # one prompt, no tool call, no transcript


def _run(*args: str, ok: tuple[int, ...] = (0,)):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return json.loads(result.stdout) if "--json" in args else result.stdout


def _projects(shared_fixtures) -> Path:
    projects = Path(os.environ["HOME"]) / ".claude" / "projects"
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", projects)
    shutil.copytree(shared_fixtures / "claude" / "claude-code-log", projects / "claude-code-log",
                    ignore=shutil.ignore_patterns("*.md"))
    shutil.copytree(CLIENT, projects / "-home-dev-repo", ignore=shutil.ignore_patterns("*.md", "payloads"))
    old = time.time() - 3 * 86400
    for path in projects.rglob("*"):
        os.utime(path, (old, old))
    return projects


def _sessions_of(projects: Path) -> list[Path]:
    """Main-session transcripts (a subagent's own file is replayed through its parent)."""
    return sorted(p for p in projects.rglob("*.jsonl")
                  if not p.name.startswith("agent-") and "subagents" not in p.parts)


def _make(kind: str, projects: Path, carto_home: Path, monkeypatch) -> Path:
    monkeypatch.setenv("CARTO_HOME", str(carto_home))
    if kind == "backfilled":
        _run("ingest", "claude", "--json")
    else:
        from carto_core.logio.home import Home

        for transcript in _sessions_of(projects):
            replay_claude(Home(carto_home), transcript, monkeypatch)
    return carto_home


def _prompt_only_session(kind: str, carto_home: Path, monkeypatch) -> None:
    """A session that holds one prompt row and nothing else, two days old, as each kind of home
    records it: `carto ingest claude` of a history.jsonl line, or Codex's UserPromptSubmit hook."""
    at = time.time() - 2 * 86400
    cwd = str(Path(os.environ["HOME"]) / "repo")
    if kind == "backfilled":
        history = Path(os.environ["HOME"]) / ".claude" / "history.jsonl"
        history.write_text(json.dumps({"display": "why does the login test flake on CI?",
                                       "timestamp": int(at * 1000), "project": cwd,
                                       "sessionId": PROMPT_ONLY}) + "\n")
        _run("ingest", "claude", "--json")
        return
    import types

    from carto_codex.capture import handle
    from carto_core.capture import context
    from carto_core.capture.context import write_outcome
    from carto_core.logio.home import Home

    with monkeypatch.context() as patched:
        patched.setenv("CARTO_PROMPT_RECALL", "0")
        patched.setattr(context, "time", types.SimpleNamespace(
            time=lambda: at, strftime=time.strftime, gmtime=time.gmtime))
        payload = {"session_id": PROMPT_ONLY, "cwd": cwd, "hook_event_name": "UserPromptSubmit",
                   "turn_id": "1", "prompt": "why does the login test flake on CI?"}
        home = Home(carto_home)
        write_outcome(home, handle("UserPromptSubmit", payload, home))


@pytest.fixture
def fixtures_home(shared_fixtures, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    # Every session of the fixtures counts as ended and worth a wrapup, so --pending lists all.
    monkeypatch.setenv("CARTO_WRAPUP_MIN_EVENTS", "1")
    monkeypatch.setenv("CARTO_WRAPUP_MIN_MINUTES", "0")
    projects = _projects(shared_fixtures)
    yield lambda kind, where=None: _make(kind, projects, Path(where or os.environ["CARTO_HOME"]), monkeypatch)
    monkeypatch.delenv("TZ")
    time.tzset()


def _lens_views(sid: str, listed: dict, standup: dict, pending: dict | None) -> dict[str, dict]:
    """What each lens says about one session: {lens: {started, ended, events, turns, commits, edits}}."""
    out = {}
    s = listed[sid]
    out["sessions"] = {"started": s["started"], "ended": s["ended"], "events": s["events"],
                       "turns": s["turns"], "prompts": s["prompts"], "commits": s["commits"],
                       "edits": s["edits"]}
    one = _run("session", sid, "--json")["session"]
    out["session"] = {k: one[k] for k in ("started", "ended", "events", "turns", "prompts", "commits", "edits")}
    digest = _run("digest", "session", "--session", sid, "--no-git", "--json")
    out["digest session"] = {"started": digest["started_at"], "ended": digest["ended_at"],
                             "events": digest["event_count"], "turns": digest["turns"],
                             "commits": digest["counts"]["commits"], "edits": digest["counts"]["edits"]}
    x = standup[sid]
    # standup says the span in ms; the others' times are whole seconds (cut, not rounded).
    span = (_instant(s["ended"]) - _instant(s["started"])).total_seconds()
    assert span - 1 < x["span_ms"] / 1000 < span + 1, (sid, x["span_ms"], span)
    out["standup"] = {"ended": x["last_active"], "events": x["events"],
                      "turns": x["turns"], "commits": len(x["commits"]),
                      "edits": x["types"].get("tool_file_edit", 0)}
    if pending is not None:  # None: its wrapup is written, it is no longer pending
        p = pending[sid]
        out["wrapup --pending"] = {"started": p["started"], "ended": p["ended"], "events": p["events"],
                                   "turns": p["turns"], "commits": p["commits"], "edits": p["edits"]}
    row = _run("wrapup", "--session", sid, "--dry-run", "--json")["row"]
    out["wrapup --dry-run"] = {"events": row["digest"]["event_count"],
                               "minutes": row["digest"]["duration_minutes"],
                               "commits": len(row["decisions"])}
    return out, digest


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.mark.parametrize("kind", ["backfilled", "hook-fed"])
def test_every_session_lens_gives_the_same_span_and_counts(fixtures_home, kind, monkeypatch):
    _prompt_only_session(kind, fixtures_home(kind), monkeypatch)
    listed = {s["session_id"]: s for s in _run("sessions", "--limit", "1000", "--json")["sessions"]}
    standup = {x["id"]: x for x in _run("standup", "--since", "3650d", "--no-git", "--json")["sessions"]}
    pending = {p["session_id"]: p for p in _run("wrapup", "--pending", "--json")["pending"]}
    assert {COMMITTED, FAILED_COMMIT, DEMO_ORCH, PROMPT_ONLY} <= set(listed)
    assert set(standup) == set(pending) == set(listed)
    alone = listed[PROMPT_ONLY]
    assert (alone["events"], alone["turns"], alone["commits"], alone["edits"]) == (1, 0, 0, 0)
    assert alone["started"] == alone["ended"] and standup[PROMPT_ONLY]["evidence"] is None
    commits_seen = 0
    before = {}
    for sid in listed:
        views, digest = _lens_views(sid, listed, standup, pending)
        before[sid] = views, digest["tempo"]
        truth = views["sessions"]
        minutes = round((_instant(truth["ended"]) - _instant(truth["started"])).total_seconds() / 60)
        for lens, said in views.items():
            expected = {**truth, "minutes": minutes}
            assert {k: said[k] for k in said} == {k: expected[k] for k in said}, (kind, sid, lens)
        # --commit finds each of the session's commits, in this session.
        for commit in digest["commits"]:
            found = _run("standup", "--commit", commit["sha"], "--json")["commit"]
            assert found["session_id"] == sid, (kind, sid, commit)
            commits_seen += 1
    assert commits_seen == 2  # 995f281 and 396cba8
    # The wrapup of each session written: every lens says what it said before, in each count.
    for sid in listed:
        assert _run("wrapup", "--session", sid, "--json")["receipt"]["log_outcome"] == "written", sid
    listed = {s["session_id"]: s for s in _run("sessions", "--limit", "1000", "--json")["sessions"]}
    standup = {x["id"]: x for x in _run("standup", "--since", "3650d", "--no-git", "--json")["sessions"]}
    assert _run("wrapup", "--pending", "--json", ok=(3,))["pending"] == []  # 3: none pending
    assert all(s["wrapup"] for s in listed.values())
    for sid, (views, tempo) in before.items():
        after, digest = _lens_views(sid, listed, standup, None)
        views.pop("wrapup --pending")
        assert after == views, (kind, sid)
        assert digest["tempo"] == tempo, (kind, sid)


def test_a_hook_fed_and_a_backfilled_home_agree_on_each_sessions_work(fixtures_home, tmp_path):
    work = {}
    for kind in ("backfilled", "hook-fed"):
        fixtures_home(kind, tmp_path / kind)
        listed = _run("sessions", "--limit", "1000", "--json")["sessions"]
        work[kind] = {}
        for s in listed:
            digest = _run("digest", "session", "--session", s["session_id"], "--no-git", "--json")
            work[kind][s["session_id"]] = {
                "turns": s["turns"], "prompts": s["prompts"], "edits": s["edits"],
                "commits": sorted(c["sha"][:7] for c in digest["commits"]),
                "files": sorted((f["path"], f["touches"]) for f in digest["files"]),
                "span": (s["started"], s["ended"])}
    back, hooked = work["backfilled"], work["hook-fed"]
    # Hooks see sessions the transcripts hold no turn of (a SessionStart, nothing asked): more
    # sessions, never fewer.
    assert set(back) <= set(hooked)
    assert hooked[COMMITTED]["commits"] == back[COMMITTED]["commits"] == ["995f281"]
    assert hooked[FAILED_COMMIT]["commits"] == back[FAILED_COMMIT]["commits"] == ["396cba8"]
    for sid in back:
        b, h = back[sid], hooked[sid]
        # A backfilled session holds no prompt row for most sessions (the client's prompt
        # history keeps few): its prompts are its main thread's turns, as many as the hooks saw.
        assert (h["turns"], h["prompts"], h["edits"], h["commits"], h["files"]) == \
               (b["turns"], b["prompts"], b["edits"], b["commits"], b["files"]), sid
        assert b["prompts"] >= 1, sid
        # The hooks fire around the transcript's lines (SessionStart before the first, SessionEnd
        # after the last): the hook-fed span holds the transcript's.
        assert h["span"][0] <= b["span"][0] and h["span"][1] >= b["span"][1], sid


def test_the_session_list_and_its_tree_name_one_provider_and_project(tmp_path, monkeypatch):
    """On the demo home `/api/sessions` said a session was Codex's and its tree Claude's: the
    tree took its first row's provider (one prompt row a backfill tagged claude), the list the
    one most rows name. One rule now (`sessionfacts.session_provider`)."""
    from carto_core.evaluation.sample import build_sample_home

    home = build_sample_home(tmp_path / "demo")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    listed = _run("sessions", "--limit", "1000", "--json")["sessions"]
    assert len(listed) >= 3
    mixed = 0
    for session in listed:
        tree = _run("session", session["session_id"], "--tree", "--json")
        assert (tree["provider"], tree["project"]) == (session["provider"], session["project"]), session
        providers = {json.loads(line).get("provider") for log in home.root.glob("*.jsonl")
                     for line in log.read_text().splitlines()
                     if session["session_id"] in line}
        mixed += len(providers - {None, ""}) > 1
    assert mixed  # the demo holds a session whose rows name two providers


def test_a_wrapup_of_an_old_session_is_no_work_of_the_day(tmp_path, monkeypatch):
    """Wrapping up an October session made `digest day` one event, one session and five active
    minutes more: carto's own row, written today, counted as today's work."""
    from carto_core.evaluation.sample import build_sample_home

    home = build_sample_home(tmp_path / "demo")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    before = _run("digest", "day", "--json")
    old = next(s["session_id"] for s in _run("sessions", "--limit", "1000", "--json")["sessions"]
               if s["started"] < before["day"])
    _run("wrapup", "--session", old)
    after = _run("digest", "day", "--json")
    assert after["totals"] == before["totals"], (before["totals"], after["totals"])


def test_a_day_to_come_is_said_so_not_so_far(tmp_path, monkeypatch):
    """`digest day 2030-01-01` printed "Day 2030-01-01 (UTC) so far: 0 events", as if the day
    were under way; the explorer says "still to come", and so does the text now."""
    from datetime import date, timedelta

    from carto_core.evaluation.sample import build_sample_home

    home = build_sample_home(tmp_path / "demo")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    later = (date.today() + timedelta(days=2)).isoformat()
    done = CliRunner().invoke(cli, ["digest", "day", later])
    assert done.exit_code == 0 and done.stdout.startswith(f"Day {later} ("), done.output
    assert done.stdout.splitlines()[0].split(")", 1)[1].startswith(" still to come: 0 events")
    today = CliRunner().invoke(cli, ["digest", "day", "today"]).stdout.splitlines()[0]
    assert today.split(")", 1)[1].startswith(" so far: "), today
