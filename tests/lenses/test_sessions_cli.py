"""`carto sessions`, `carto session PREFIX`, `carto wrapup --pending`, `--session PREFIX` on
wrapup and digest, and the pending count of the SessionStart note."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.lenses.sessions import AmbiguousSession, SessionNotFound, pending, resolve_session
from carto_core.lenses.start_note import build_start_note
from carto_core.evaluation.sample import SESSIONS, build_sample_home


def _invoke(home, *args):
    return CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(home.root)})


def test_sessions_lists_newest_first_with_the_explorers_numbers(tmp_path):
    home = build_sample_home(tmp_path / "h")
    done = _invoke(home, "sessions", "--json")
    assert done.exit_code == 0, done.output
    document = json.loads(done.output)
    rows = document["sessions"]
    assert {r["session_id"] for r in rows} == set(SESSIONS.values())
    assert [r["ended"] for r in rows] == sorted((r["ended"] for r in rows), reverse=True)
    a = next(r for r in rows if r["session_id"] == SESSIONS["a"])
    assert (a["project"], a["provider"], a["commits"], a["edits"], a["wrapup"]) == ("webshop", "claude", 1, 2, True)
    from carto_core.lenses.livecorpus import LiveCorpus
    from carto_core.lenses.views import list_sessions

    served = list_sessions(LiveCorpus(home), days=None, project=None, provider=None, limit=50)
    assert served["sessions"] == rows  # the explorer's route serves the same rows
    only = json.loads(_invoke(home, "sessions", "--provider", "codex", "--json").output)["sessions"]
    assert [r["session_id"] for r in only] == [SESSIONS["b"]]
    text = _invoke(home, "sessions", "--project", "infra")
    assert text.exit_code == 0 and SESSIONS["c"][:8] in text.output and SESSIONS["a"][:8] not in text.output
    none = _invoke(home, "sessions", "--project", "no-such-project")
    assert none.exit_code == 3
    # -n is --limit, as on carto search: the newest first
    newest = json.loads(_invoke(home, "sessions", "-n", "1", "--json").output)["sessions"]
    assert [r["session_id"] for r in newest] == [rows[0]["session_id"]]


def test_session_by_prefix_shows_events_in_order_and_an_ambiguous_prefix_lists_and_exits_2(tmp_path):
    home = build_sample_home(tmp_path / "h")
    done = _invoke(home, "session", SESSIONS["a"][:4], "--json")
    assert done.exit_code == 0, done.output
    detail = json.loads(done.output)
    assert detail["session"]["session_id"] == SESSIONS["a"]
    stamps = [e["timestamp"] for e in detail["events"]]
    assert stamps == sorted(stamps)
    assert detail["wrapup"] and detail["wrapup"][0]["decisions"] == ["apply discounts before tax"]
    assert {f["path"].rsplit("/", 1)[-1] for f in detail["files"]} == {"cart.py", "discounts.py"}
    text = _invoke(home, "session", SESSIONS["a"][:4]).output
    listed = [line.split()[1] for line in text.split("events (", 1)[1].splitlines()[1:]
              if line.startswith("  ") and not line.startswith("  ...")]
    assert listed and listed == [e["event_id"] for e in detail["events"]][:len(listed)]
    ambiguous = _invoke(home, "session", "5")
    assert ambiguous.exit_code == 2
    assert all(sid in ambiguous.output for sid in SESSIONS.values())
    assert _invoke(home, "session", "ffff").exit_code == 3


def test_wrapup_and_digest_take_a_unique_prefix(tmp_path):
    home = build_sample_home(tmp_path / "h")
    done = _invoke(home, "digest", "session", "--session", SESSIONS["b"][:6], "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["session_id"] == SESSIONS["b"]
    positional = _invoke(home, "digest", "session", SESSIONS["b"][:6], "--json")
    assert positional.exit_code == 0, positional.output
    assert json.loads(positional.output)["session_id"] == SESSIONS["b"]
    both = _invoke(home, "digest", "session", SESSIONS["b"][:6], "--session", SESSIONS["c"][:6])
    assert both.exit_code == 2 and "two sessions given" in both.output
    dry = _invoke(home, "wrapup", "--session", SESSIONS["b"][:6], "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    assert json.loads(dry.output)["row"]["session_id"] == SESSIONS["b"]
    assert _invoke(home, "wrapup", "--session", "5", "--dry-run").exit_code == 2
    assert _invoke(home, "digest", "session", "--session", "zzzz").exit_code == 3
    assert resolve_session(home, SESSIONS["c"]) == SESSIONS["c"]
    try:
        resolve_session(home, "5")
    except AmbiguousSession as exc:
        assert sorted(exc.candidates) == sorted(SESSIONS.values())
    else:
        raise AssertionError("an ambiguous prefix resolved")
    try:
        resolve_session(home, "")
    except SessionNotFound:
        pass


def _summary(sid, *, ended, minutes=30, events=20, commits=0, wrapup=False, session_end=False, project="p"):
    return {"session_id": sid, "project": project, "projects": [project], "started": ended - timedelta(minutes=minutes),
            "ended": ended, "events": events, "commits": commits, "wrapup": wrapup, "session_end": session_end}


def test_pending_rules_ended_substantial_and_without_wrapup():
    now = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
    rows = [
        _summary("quiet-work", ended=now - timedelta(hours=3)),
        _summary("live-work", ended=now - timedelta(minutes=30)),                   # still live
        _summary("ended-work", ended=now - timedelta(minutes=30), session_end=True),
        _summary("wrapped", ended=now - timedelta(hours=5), wrapup=True),
        _summary("tiny", ended=now - timedelta(hours=5), events=4, minutes=2),      # not enough work
        _summary("short-commit", ended=now - timedelta(hours=5), events=2, minutes=1, commits=1),
        _summary("brief", ended=now - timedelta(hours=5), events=30, minutes=3),   # under 5 minutes
        _summary("other", ended=now - timedelta(hours=4), project="q"),
    ]
    found = pending(rows, now, project=lambda name: name == "p")
    assert [r["session_id"] for r in found] == ["ended-work", "quiet-work", "short-commit"]
    assert [r["ended_by"] for r in found] == ["session_end", "quiet", "quiet"]
    assert [r["session_id"] for r in pending(rows, now, exclude="quiet-work")][:2] == ["ended-work", "other"]


def test_the_sample_sessions_span_hours_not_the_months_of_their_projects(tmp_path):
    """The sample's older work (for decay) is in sessions of its own: a live session shown by
    standup spans its hours (it once spanned "119d 23h", its project's whole history)."""
    from carto_core.lenses.livecorpus import LiveCorpus
    from carto_core.lenses.views import session_summaries

    home = build_sample_home(tmp_path / "h")
    summaries = session_summaries(LiveCorpus(home))
    assert {r["session_id"] for r in summaries} == set(SESSIONS.values())
    for r in summaries:
        assert r["ended"] - r["started"] <= timedelta(days=1), r["session_id"]
    live = [r for r in summaries if r["session_id"] in (SESSIONS["a"], SESSIONS["b"], SESSIONS["c"])]
    assert max(r["ended"] - r["started"] for r in live) < timedelta(hours=3)


def test_wrapup_pending_lists_what_the_note_counts(tmp_path):
    home = build_sample_home(tmp_path / "h")
    late = datetime.now(timezone.utc) + timedelta(hours=6)  # every sample session is quiet by then
    assert _invoke(home, "wrapup", "--pending").exit_code in (0, 3)
    from carto_core.lenses.sessions import pending as rule
    from carto_core.lenses.livecorpus import LiveCorpus
    from carto_core.lenses.views import session_summaries

    pending = rule(session_summaries(LiveCorpus(home)), late)
    expected = [r["session_id"] for r in pending]
    assert SESSIONS["a"] not in expected  # it has a wrapup
    assert expected  # the sample's other sessions have commits and no wrapup
    note = build_start_note(home, "someone-new", "/work/webshop", now=late)
    webshop = [r["session_id"] for r in pending if r["project"] == "webshop"]
    assert SESSIONS["b"] in webshop and webshop != expected  # the infra-tools ones are not counted
    assert note["pending_wrapups"] == len(webshop)
    # Wrapping one up removes it from both.
    append_rows(home.log("changelog"), [{"event_id": "evt-wrapb0000001", "timestamp": late.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                         "type": "milestone_session_wrapup", "provider": "codex",
                                         "session_id": SESSIONS["b"], "project": "webshop", "summary": "done"}])
    again = build_start_note(home, "someone-new", "/work/webshop", now=late + timedelta(minutes=1))
    assert again["pending_wrapups"] == len(webshop) - (SESSIONS["b"] in webshop)


def test_wrapup_pending_says_each_count_with_its_noun_agreeing(tmp_path):
    """A pending session with one commit reads "1 commit" (it read "1 commits"); the JSON keeps
    its numbers."""
    home = build_sample_home(tmp_path / "h")
    env = {"CARTO_HOME": str(home.root), "CARTO_WRAPUP_STALE_HOURS": "0"}  # every session is quiet
    rows = {r["session_id"]: r for r in json.loads(
        CliRunner().invoke(cli, ["wrapup", "--pending", "--json"], env=env).output)["pending"]}
    assert [(rows[SESSIONS[k]]["events"], rows[SESSIONS[k]]["commits"], rows[SESSIONS[k]]["edits"])
            for k in "bd"] == [(5, 1, 2), (1, 1, 0)]
    text = CliRunner().invoke(cli, ["wrapup", "--pending"], env=env).output
    lines = {line[:8]: line for line in text.splitlines()}
    assert "  5 events, 1 commit, 2 edits  ->" in lines[SESSIONS["b"][:8]]
    assert "  1 event, 1 commit, 0 edits  ->" in lines[SESSIONS["d"][:8]]
