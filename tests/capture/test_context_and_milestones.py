"""The builders' shared rules in `capture.context` and `capture.milestones` that mutmut 3 changed
with the suite still passing (docs/testing.md): the parent thread's window and session, the
session's start, what `write_outcome` counts and tells hook.log, the capture switch's values,
compaction triggers and the PostCompact problem, the summary cap, the dropped-milestone line."""

from __future__ import annotations

import errno
import json
import os
import subprocess

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.capture.context import Context, Outcome, tool_use_enabled, write_outcome
from carto_core.capture.milestones import capture_agent_event, capture_compact_summary, capture_milestone
from carto_core.logio.home import Home
from carto_core.util.timeparse import format_timestamp

NOW = 1_800_000_000.0


def _ctx(tmp_path, payload=None, event="PostToolUse", now=NOW):
    base = {"session_id": "s1", "cwd": str(tmp_path)}
    return Context(Home(tmp_path / "home"), "claude", event, {**base, **(payload or {})}, now=now)


def _last_changelog_row(ctx, *, session="s1", age=0.0, event_id="evt-last"):
    from datetime import datetime, timezone

    moment = datetime.fromtimestamp(NOW - age, tz=timezone.utc)
    append_rows(ctx.home.log("changelog"), [{"event_id": event_id, "session_id": session,
                                             "timestamp": format_timestamp(moment)}])


@pytest.mark.parametrize("age, parent", [(0, "evt-last"), (60, "evt-last"), (61, None)])
def test_the_parent_is_the_sessions_last_row_up_to_sixty_seconds_old(tmp_path, age, parent):
    ctx = _ctx(tmp_path)
    _last_changelog_row(ctx, age=age)
    assert ctx.parent() == parent


def test_another_sessions_last_row_is_no_parent(tmp_path):
    ctx = _ctx(tmp_path)
    _last_changelog_row(ctx, session="someone-else")
    assert ctx.parent() is None


def test_without_a_session_nothing_is_chained(tmp_path):
    ctx = _ctx(tmp_path, {"session_id": None})
    ctx.chained("evt-just-written")
    assert ctx.parent() is None
    ctx = _ctx(tmp_path)
    ctx.chained("evt-just-written")
    assert ctx.parent() == "evt-just-written"


def test_timestamps_are_the_calls_own_moment():
    ctx = Context(None, "claude", "Stop", {}, now=0)
    assert ctx.timestamp == "1970-01-01T00:00:00Z"


def test_the_session_start_is_the_first_timestamp_among_the_transcripts_first_lines(tmp_path):
    transcript = tmp_path / "t.jsonl"
    lines = [{"type": "summary", "summary": "no time here"}, "not json",
             {"type": "user", "timestamp": "2026-11-01T12:00:00Z"}, {"type": "user", "timestamp": "2026-11-01T13:00:00Z"}]
    transcript.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    ctx = _ctx(tmp_path, {"transcript_path": str(transcript)})
    assert ctx.session_start() == 1793534400.0  # 2026-11-01T12:00:00Z
    assert _ctx(tmp_path, {"transcript_path": str(tmp_path / "absent.jsonl")}).session_start() is None


def test_a_path_that_is_not_absolute_belongs_to_the_cwds_project(tmp_path, monkeypatch):
    other = tmp_path / "other-repo"
    (other / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    monkeypatch.chdir(other)  # a relative path must not be looked up from the process's cwd
    ctx = _ctx(tmp_path / "space")
    assert ctx.project_of_file("src/app.py") == ctx.project
    assert ctx.project_of_file(str(other / "src" / "app.py")) == "other-repo"


@pytest.mark.parametrize("value, enabled", [("0", False), ("false", False), ("No", False), (" OFF ", False),
                                            ("1", True), ("yes", True), ("", True)])
def test_the_tool_use_switch(monkeypatch, value, enabled):
    monkeypatch.setenv("CARTO_CAPTURE_TOOL_USE", value)
    assert tool_use_enabled() is enabled


def test_write_outcome_counts_rows_across_logs_and_names_a_sealed_torn_log(tmp_path):
    home = Home(tmp_path / "home")
    home.log("changelog").parent.mkdir(parents=True, exist_ok=True)
    home.log("changelog").write_bytes(b'{"event_id": "cut')
    out = Outcome()
    out.add("changelog", {"event_id": "e1"})
    out.add("tool-use", {"event_id": "e1"})
    out.add("changelog", {"event_id": "e2"})
    assert write_outcome(home, out) == 3
    sealed = [p for p in out.problems if "torn" in p]
    assert sealed == [f"{home.log('changelog')} ended in a torn row; sealed it with a newline before "
                      "appending (carto repair torn-rows settles it)"]


def test_write_outcome_says_how_many_rows_a_full_home_refused(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    out = Outcome()
    for i in range(3):
        out.add("changelog", {"event_id": f"e{i}"})
    real_write = os.write
    root = str(home.root)
    into_home = []

    def full_after_one_row(fd, data):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target.startswith(root + os.sep):
            into_home.append(data)
            if len(into_home) > 1:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", full_after_one_row)
        assert write_outcome(home, out) == 1
    refused = [p for p in out.problems if "refused" in p]
    assert refused == [f"changelog: the home refused 2 row(s) ({os.strerror(errno.ENOSPC)}); "
                       "2 kept in the spill file, 0 dropped (spill full)"]


def test_a_precompact_without_trigger_is_an_automatic_compaction(tmp_path):
    ctx = _ctx(tmp_path, event="PreCompact")
    out = Outcome()
    assert capture_agent_event(ctx, out)
    milestones = [row for log, row in out.rows if log == "milestones"]
    assert [row["milestone"] for row in milestones] == ["compaction_auto"]
    assert "(auto)" in milestones[0]["description"]


@pytest.mark.parametrize("quiet", [False, True])
def test_a_postcompact_without_summary_is_a_problem_unless_quiet(tmp_path, quiet):
    out = Outcome()
    assert capture_agent_event(_ctx(tmp_path, event="PostCompact"), out, quiet_without_summary=quiet)
    assert out.rows == []
    assert out.problems == ([] if quiet else ["PostCompact payload has no compact_summary; nothing captured"])


def test_the_summary_cap_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_COMPACT_SUMMARY_MAX", "12")
    out = Outcome()
    capture_compact_summary(_ctx(tmp_path, event="PostCompact"), out, trigger="manual",
                            summary="we refactored the parser and fixed the tests")
    (log, row), = out.rows
    assert row["summary"] == "we refactore" and row["summary_truncated"] is True


def test_a_session_end_without_transcript_or_events_is_dropped_with_a_line_naming_both(tmp_path):
    ctx = _ctx(tmp_path, {"session_id": "sess-9", "transcript_path": str(tmp_path / "gone.jsonl")}, event="SessionEnd")
    out = Outcome()
    assert capture_milestone(ctx, out, milestone="session_end", description="ended",
                             drop_when_unverified_and_empty=True) is None
    assert out.rows == []
    (problem,) = out.problems
    assert "sess-9" in problem and "gone.jsonl" in problem and "session_end" in problem


@pytest.mark.parametrize("branch", [False, True])
@pytest.mark.parametrize("before, said", [(0, "0 events"), (1, "1 event"), (2, "2 events")])
def test_the_milestone_summary_counts_the_sessions_events_in_words_that_agree(tmp_path, branch, before, said):
    """The changelog copy's `[branch, N dirty, N events]` reads as a sentence: one event is
    "1 event"; the milestone row keeps the number itself."""
    repo = tmp_path / "repo"
    repo.mkdir()
    if branch:
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    ctx = _ctx(tmp_path, {"cwd": str(repo)}, event="PreCompact")
    for n in range(before):
        _last_changelog_row(ctx, event_id=f"evt-{n}")
    out = Outcome()
    capture_milestone(ctx, out, milestone="compaction_manual", description="Context compaction (manual)")
    rows = dict(out.rows)
    assert rows["milestones"]["session_event_count"] == before
    context = f"[main, 0 dirty, {said}]" if branch else f"[{said}]"
    assert rows["changelog"]["summary"] == f"Context compaction (manual) {context}"
