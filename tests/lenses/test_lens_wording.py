"""The lenses' text as a person reads it: counts agree with their nouns, nothing a person would
paste is cut, times are said in words. Each test runs the command the person types and reads
what it prints."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home

ONE = "aaaa1111-0000-4000-8000-000000000001"
TWO = "bbbb2222-0000-4000-8000-000000000002"
LONG_PROJECT = "customer-billing-reconciliation"


def _home() -> Home:
    root = Path(os.environ["CARTO_HOME"])
    root.mkdir(parents=True, exist_ok=True)
    return Home(root)


def _row(event_id, session, summary, *, second=0, kind="tool_bash", project=LONG_PROJECT, cwd="/w/app"):
    return {"event_id": event_id, "timestamp": f"2026-03-02T10:00:{second:02d}Z", "type": kind,
            "provider": "claude", "session_id": session, "project": project, "cwd": cwd,
            "summary": summary}


def _carto(*args):
    return CliRunner().invoke(cli, list(args), env={"NO_COLOR": "1"})


def test_related_counts_one_document_and_one_shared_term_in_the_singular():
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-rel000000001", ONE, "Ran: quokka migrate"),
        _row("evt-rel000000002", TWO, "Ran: quokka ledger", second=1),
        _row("evt-rel000000003", TWO, "Ran: quokka ledger check", second=2),
    ])
    done = _carto("related", "quokka")
    assert done.exit_code == 0, done.output
    lines = {line.split()[1]: line for line in done.output.splitlines() if line.startswith("  ") and "documen" in line}
    assert " 1 document " in lines[ONE[:8]] and " 2 documents " in lines[TWO[:8]], done.output
    assert "1 documents" not in done.output
    # a co-term says how many of these documents hold it, and how many in all (it said
    # "together 9 · df 11" beside "8 documents" for a session: occurrences, read as documents)
    ledger = next(line for line in done.output.splitlines() if " ledger " in line)
    assert ledger.endswith("ledger                   in   2 of these · 2 documents in all"), ledger
    # the project is printed whole, so it can be pasted into --project
    assert LONG_PROJECT in lines[ONE[:8]], done.output
    by_session = _carto("related", ONE, "--session")
    assert by_session.exit_code == 0, by_session.output
    assert by_session.output.startswith(f"related to session {ONE}: 1 document of 3"), by_session.output
    migrate = next(line for line in by_session.output.splitlines() if " migrate " in line)
    assert migrate.endswith("migrate                  said   1 time · 1 document in all"), migrate
    # the other session holds two documents holding the shared terms: each counted once
    other = next(line for line in by_session.output.splitlines() if TWO[:8] in line)
    assert re.search(r" 2 shared terms, 2 documents  last ", other), other


def test_wrapup_description_counts_agree_with_their_nouns():
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-wrp000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"),
        _row("evt-wrp000000002", ONE, "Ran: make test", second=30, project="app"),
    ])
    done = _carto("wrapup", "--session", ONE[:8], "--dry-run")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[1] == "  2 events on app over 0m: 0 commits, 1 edit, 1 file left uncommitted", done.output
    assert "insight: work concentrated in app.py (1 edit)" in done.output, done.output


LONG_SUBJECT = "fix(billing): round every reconciled line total with Decimal quantize before summing the invoice"


def _commit(event_id, session, second, subject=LONG_SUBJECT, sha="c0ffee1234567890c0ffee1234567890c0ffee12"):
    return {**_row(event_id, session, f"[fix] Commit {sha}: {subject} | files: app.py", second=second,
                   kind="git_commit", project="app"), "commit_hash": sha, "commit_type": "fix"}


def test_digest_session_says_a_short_sessions_tempo_and_prints_commit_subjects_whole():
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-dig000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"),
        _commit("evt-dig000000002", ONE, 1),
        _row("evt-dig000000003", ONE, "Ran: make test", second=2, project="app"),
    ])
    done = _carto("digest", "session", ONE[:8], "--no-git")
    assert done.exit_code == 0, done.output
    lines = {line[:9].strip(): line for line in done.output.splitlines() if not line.startswith(" ")}
    # a two-second session is cut in bars shorter than a second: "0s a bar" said nothing
    assert "0s a bar" not in done.output and re.search(r"\(under 1s a bar\)$", lines["tempo"]), done.output
    assert lines["commits"] == "commits  1 (fix 1)", done.output
    assert f"  2026-03-02T10:00:01Z  c0ffee12  {LONG_SUBJECT}" in done.output.splitlines(), done.output


def test_digest_session_without_commits_says_none_without_a_dangling_space():
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-dig000000011", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app")])
    done = _carto("digest", "session", ONE[:8], "--no-git")
    assert done.exit_code == 0, done.output
    assert "commits  0" in done.output.splitlines(), done.output


def test_digest_day_prints_commit_subjects_whole():
    home = _home()
    append_rows(home.log("changelog"), [_commit("evt-day000000001", ONE, 1)])
    done = _carto("digest", "day", "2026-03-02", "--no-git")
    assert done.exit_code == 0, done.output
    assert f"  [unverified] c0ffee12 {LONG_SUBJECT}" in done.output.splitlines(), done.output


def test_standup_says_when_a_file_was_last_touched_in_words_and_a_silent_session_agrees_with_its_count(monkeypatch):
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    now = utcnow()
    stamp = format_timestamp(now - timedelta(seconds=20))
    append_rows(home.log("changelog"), [
        {**_row("evt-stu000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"), "timestamp": stamp},
        {**_row("evt-stu000000002", TWO, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"), "timestamp": stamp},
    ])
    # a Codex session whose hooks did not run: its rollout, and the turn a backfill read from it
    codex = "cccc3333-0000-4000-8000-000000000003"
    rollout = Path(os.environ["HOME"]) / ".codex" / "sessions" / "2026" / "03" / "02" / f"rollout-2026-03-02T10-00-00-{codex}.jsonl"
    rollout.parent.mkdir(parents=True)
    rollout.write_text('{"timestamp": "%s", "type": "session_meta", "payload": {"id": "%s"}}\n' % (stamp, codex))
    append_rows(home.log("turns"), [{"event_id": f"turn-codex-{codex}-1", "timestamp": stamp, "project": "app",
                                     "type": "transcript", "provider": "codex", "summary": "rename price",
                                     "session": codex, "turn_idx": 1, "cwd": "/w/app"}])
    done = _carto("standup", "--no-git")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    touched = next(line for line in lines if "last touched" in line)
    assert touched.endswith("last touched just now"), done.output
    # the roster counts the Codex session's turn as an event; SILENT must not say it logged none
    head = next(i for i, line in enumerate(lines) if line.startswith(f"● {codex[:8]}"))
    assert " · 1 event · " in lines[head + 1], done.output
    silent = next(line for line in lines if line.startswith("  codex  " + codex[:8]))
    assert "0 events" not in silent and silent.endswith("· no hook rows (its turns were read from the transcript)"), silent


def test_project_handoff_cites_events_says_commits_as_people_do_and_closes_files_another_session_committed():
    three = "dddd4444-0000-4000-8000-000000000004"
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-hof000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"),
        _row("evt-hof000000002", TWO, "Modified: /w/app/app.py", kind="tool_file_edit", project="app", second=1),
        _commit("evt-hof000000003", ONE, 2, subject="fix: round totals"),
        _row("evt-hof000000004", three, "Modified: /w/app/notes.py", kind="tool_file_edit", project="app", second=3),
        _row("evt-hof000000005", three, "Modified: /w/app/notes.py", kind="tool_file_edit", project="app", second=4),
    ])
    done = _carto("handoff", "--project", "app")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    # app.py went into ONE's commit after both sessions edited it: no thread is left open on it
    threads = lines[lines.index("Open threads:") + 1:lines.index("Commits:")]
    assert threads == ["- uncommitted edits: /w/app/notes.py  [evt-hof000000005]"], done.output
    commits = lines[lines.index("Commits:") + 1:lines.index("Files:")]
    assert commits == ["- fix: round totals (c0ffee1)  [evt-hof000000003]"], done.output
    files = lines[lines.index("Files:") + 1:lines.index("Sessions:")]
    assert sorted(files) == ["- /w/app/app.py ×2  [evt-hof000000002]",
                             "- /w/app/notes.py ×2  [evt-hof000000005]"], done.output


def _turn(event_id, session, second, project=LONG_PROJECT, tokens=None):
    return {"event_id": event_id, "timestamp": f"2026-03-02T10:00:{second:02d}Z", "project": project,
            "type": "transcript", "provider": "claude", "summary": "round the totals", "session": session,
            "turn_idx": 1, "cwd": "/w/app",
            "tokens": tokens or {"input": 10, "output": 5, "cache_read": 0, "cache_write": 0}}


def test_facts_tokens_counts_agree_and_names_and_subjects_are_whole():
    home = _home()
    append_rows(home.log("turns"), [_turn("turn-tok-1", ONE, 0)])
    append_rows(home.log("changelog"), [{**_commit("evt-tok000000001", ONE, 1), "project": LONG_PROJECT}])
    done = _carto("facts", "tokens", "--since", "2026-03-01")
    assert done.exit_code == 0, done.output
    text = done.output
    for wrong in ("1 turns", "1 commits", "1 sessions"):
        assert wrong not in text, text
    session = next(line for line in text.splitlines() if ONE[:8] in line)
    assert LONG_PROJECT in session and " 1 turn " in session and " 1 commit " in session, text
    project = next(line for line in text.splitlines() if line.strip().endswith("1 turn") and ONE[:8] not in line)
    assert LONG_PROJECT in project and " 1 session " in project, text
    assert LONG_SUBJECT in text, text


def test_facts_census_and_pulse_print_commit_summaries_whole():
    home = _home()
    append_rows(home.log("changelog"), [_commit("evt-fcp000000001", ONE, 1)])
    for verb in ("census", "pulse"):
        done = _carto("facts", verb, "--since", "2026-03-01")
        assert done.exit_code == 0, done.output
        assert f"{LONG_SUBJECT} | files: app.py" in done.output, (verb, done.output)


def test_profile_and_trustmap_refuse_a_budget_or_minimum_that_cannot_be_met():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-prf000000001", ONE, "Ran: make test")])
    for args in (["profile", "--budget", "-5", "--no-write"], ["profile", "--budget", "50", "--no-write"],
                 ["trustmap", "--min", "0"], ["trustmap", "--cap", "-1"]):
        done = _carto(*args)
        assert done.exit_code == 2, (args, done.output)
        assert "Invalid value for" in done.output and args[1] in done.output, (args, done.output)
    assert not (home.state / "profile.md").exists()
    # the smallest budget it takes holds the heading and says what it trimmed
    done = _carto("profile", "--budget", "200", "--no-write", "--json")
    assert done.exit_code == 0, done.output


def test_wrapup_and_decision_changes_say_what_happened_in_words_and_the_ledger_keeps_its_columns():
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-dec000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit"),
        _row("evt-dec000000002", TWO, "Modified: /w/app/app.py", kind="tool_file_edit", second=5),
    ])
    dry = _carto("wrapup", "--session", ONE[:8], "--decision", "apply discounts before tax", "--dry-run")
    assert dry.exit_code == 0 and dry.output.startswith("wrapup not written (--dry-run): evt-"), dry.output
    done = _carto("wrapup", "--session", ONE[:8], "--decision", "apply discounts before tax")
    assert done.exit_code == 0 and done.output.startswith("wrapup written: evt-"), done.output
    again = _carto("wrapup", "--session", ONE[:8], "--decision", "apply discounts before tax")
    assert again.output.startswith("wrapup already recorded: evt-"), again.output
    _carto("wrapup", "--session", TWO[:8], "--decision", "apply discounts after tax instead")
    listed = _carto("decision", "list").output.splitlines()
    old = next(line.split()[0] for line in listed if line.endswith("  apply discounts before tax"))
    new = next(line.split()[0] for line in listed if line.endswith("  apply discounts after tax instead"))
    retire = _carto("decision", "retire", old, "--dry-run")
    assert retire.exit_code == 0, retire.output
    assert retire.output.splitlines()[0].startswith(f"{old} would be retired (--dry-run: nothing written"), retire.output
    changed = _carto("decision", "supersede", old, "--by", new)
    assert changed.output.splitlines()[0].startswith(f"{old} superseded by {new} (written: evt-"), changed.output
    repeat = _carto("decision", "supersede", old, "--by", new)
    assert repeat.output.splitlines()[0].startswith(f"{old} superseded by {new} (already recorded: evt-"), repeat.output
    assert "dry_run" not in dry.output + retire.output and "already_present" not in again.output + repeat.output
    rows = _carto("decision", "list", "--all").output.splitlines()
    # one column each, whatever the state's length; the project whole
    assert len({line.index(LONG_PROJECT) for line in rows}) == 1, rows


def test_sessions_and_pending_wrapups_print_project_names_whole_in_aligned_columns(monkeypatch):
    monkeypatch.setenv("CARTO_WRAPUP_STALE_HOURS", "0")
    home = _home()
    append_rows(home.log("changelog"), [
        _commit("evt-ses000000001", ONE, 1) | {"project": LONG_PROJECT},
        _commit("evt-ses000000002", TWO, 2, sha="beef000000000000000000000000000000000000") | {"project": "app"},
    ])
    table = _carto("sessions").output.splitlines()
    assert any(LONG_PROJECT in line for line in table), table
    assert len({line.index("claude") for line in table[1:]}) == 1, table
    assert table[0].index("provider") == table[1].index("claude"), table
    pending = _carto("wrapup", "--pending").output.splitlines()
    assert any(LONG_PROJECT in line for line in pending), pending
    assert len({line.index("claude") for line in pending}) == 1, pending


def test_report_abandonment_names_its_categories_in_words():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-abn000000001", ONE, "Ran: quokka ledger check")])
    assert _carto("search", "quokka").exit_code == 0
    done = _carto("report", "abandonment")
    assert done.exit_code == 0, done.output
    assert re.search(r"^  unread \(no transcript to read\) +1$", done.output, re.M), done.output
    for key in ("unmarked_use", "good_abandonment", "bad_abandonment", "no_need"):
        assert key not in done.output, done.output
    assert re.search(r"^  used without a mark \(the agent named a result\) +0$", done.output, re.M), done.output


def test_a_session_with_no_events_is_not_found_in_every_lens(monkeypatch):
    """digest session and wrapup said exit 1 (an error) where handoff, related and `carto
    session` say 3 (ran fine, found nothing) for the same session."""
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-nev000000001", ONE, "Ran: make test")])
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", TWO)
    for args in (["digest", "session"], ["wrapup", "--dry-run"], ["handoff"]):
        done = CliRunner().invoke(cli, args)
        assert done.exit_code == 3, (args, done.exit_code, done.output)
        assert TWO in done.output and len(done.output.strip().splitlines()) == 1, (args, done.output)


def test_digest_help_teaches_with_examples_and_exit_codes():
    for verb in ("session", "day"):
        done = _carto("digest", verb, "--help")
        assert "Examples:" in done.output and "Exit codes:" in done.output, done.output


def test_handoff_says_a_file_a_wrapup_left_open_once():
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-hwr000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app")])
    assert _carto("wrapup", "--session", ONE[:8]).exit_code == 0
    for args in (["handoff", ONE[:8]], ["handoff", "--project", "app"]):
        done = _carto(*args)
        assert done.exit_code == 0, done.output
        lines = done.output.splitlines()
        threads = lines[lines.index("Open threads:") + 1:]
        threads = threads[:next((i for i, line in enumerate(threads) if not line.startswith("- ")), len(threads))]
        assert len(threads) == 1 and "app.py" in threads[0], (args, done.output)


def test_a_wrapup_written_later_leaves_the_sessions_span_and_liveness_as_its_work_left_them():
    """A wrapup run from another terminal after the session ended is about the session, not
    work in it: its span, its end and its liveness in the standup stay the work's."""
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    worked = utcnow() - timedelta(hours=3)
    append_rows(home.log("changelog"), [
        {**_row("evt-lat000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"),
         "timestamp": format_timestamp(worked)},
        {**_row("evt-lat000000002", ONE, "Ran: make test", project="app"),
         "timestamp": format_timestamp(worked + timedelta(minutes=4))},
    ])
    before = _carto("sessions", "--json")
    assert _carto("wrapup", "--session", ONE[:8]).exit_code == 0
    after = _carto("sessions", "--json")
    import json

    was, now = json.loads(before.output)["sessions"][0], json.loads(after.output)["sessions"][0]
    assert (now["started"], now["ended"]) == (was["started"], was["ended"]), (was, now)
    assert now["wrapup"] is True
    digest = _carto("digest", "session", ONE[:8], "--no-git").output
    assert f"span     {was['started']} .. {was['ended']} (4m)" in digest.splitlines(), digest
    standup = _carto("standup", "--no-git").output.splitlines()
    assert any(line.startswith(f"○ {ONE[:8]}") for line in standup), standup
    assert any(line.startswith("    2h56m idle · 4m span") for line in standup), standup


def test_report_intents_counts_one_prompt_as_one_and_marks_a_shortened_sample():
    home = _home()
    long_prompt = "fix the rounding bug in the invoice totals " + "and check every reconciled line " * 5
    append_rows(home.log("prompts"), [{"event_id": "evt-int000000001", "timestamp": "2026-03-02T10:00:00Z",
                                       "type": "prompt", "provider": "claude", "summary": long_prompt.strip(),
                                       "project": "app", "session_id": ONE, "prompt_intent": "bug-fixes"}])
    done = _carto("report", "intents")
    assert done.exit_code == 0, done.output
    assert done.output.startswith("Prompt intents: 1 classified prompt ("), done.output
    sample = next(line for line in done.output.splitlines() if "evt-int000000001" in line)
    assert sample.endswith("…") and len(sample.split("  ", 1)[1].strip()) <= 120, sample


def test_session_view_lists_commits_by_short_sha_and_whole_subject():
    home = _home()
    append_rows(home.log("changelog"), [_commit("evt-svc000000001", ONE, 1)])
    done = _carto("session", ONE[:8])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[lines.index("commits") + 1] == f"  2026-03-02T10:00:01Z c0ffee12  {LONG_SUBJECT}", done.output


def test_standup_says_how_many_commits_it_did_not_list():
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    start = utcnow() - timedelta(minutes=30)
    append_rows(home.log("changelog"), [
        {**_commit(f"evt-smc00000000{i}", ONE, 0, subject=f"step {i}", sha=f"{i}" * 40),
         "timestamp": format_timestamp(start + timedelta(minutes=i))} for i in range(1, 6)])
    done = _carto("standup", "--no-git")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert " · 5 commits" in lines[2], done.output
    listed = [line for line in lines if re.match(r"    \d{8}  step \d$", line)]
    assert len(listed) == 3, done.output
    assert f"    … 2 more (carto digest session {ONE[:8]})" in lines, done.output


def test_a_missing_transcript_is_said_where_its_path_is_printed():
    home = _home()
    gone = "/w/.claude/projects/-w-app/gone.jsonl"
    append_rows(home.log("changelog"), [
        {**_row("evt-mis000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"),
         "transcript_path": gone},
        {**_row("evt-mis000000002", ONE, "Ran: make test", second=3, project="app"), "transcript_path": gone}])
    for args in (["session", ONE[:8]], ["handoff", ONE[:8]]):
        done = _carto(*args)
        assert done.exit_code == 0, done.output
        assert f"transcript {gone} (not on disk)" in done.output.splitlines(), (args, done.output)
    tree = _carto("session", ONE[:8], "--tree")
    assert tree.exit_code == 0, tree.output
    lines = tree.output.splitlines()
    assert lines[2] == f"main agent · 0 turns · {gone} (not on disk)", tree.output
    # the tree is read from transcript turns: with none, it says where the session's work is
    assert lines[3] == f"  no transcript turn recorded: hooks recorded 2 tool calls, listed by carto session {ONE[:8]}", tree.output


def test_every_lens_help_gives_examples_and_exit_codes():
    commands = (["standup"], ["sessions"], ["wrapup"], ["digest", "session"], ["digest", "day"], ["memory"],
                ["handoff"], ["related"], ["profile"], ["decision"], ["report"], ["facts"], ["trustmap"])
    for args in commands:
        done = _carto(*args, "--help")
        assert done.exit_code == 0, (args, done.output)
        assert "Examples:" in done.output and re.search(r"Exit (codes:|\d)", done.output), (args, done.output)


def test_standup_does_not_count_a_decision_changed_at_the_terminal_as_an_unattributed_event():
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    stamp = format_timestamp(utcnow() - timedelta(minutes=10))
    append_rows(home.log("changelog"), [
        {**_row("evt-sud000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"), "timestamp": stamp}])
    assert _carto("wrapup", "--session", ONE[:8], "--decision", "apply discounts before tax").exit_code == 0
    record = _carto("decision", "list").output.split()[0]
    assert _carto("decision", "retire", record).exit_code == 0  # run at a terminal: no session
    done = _carto("standup", "--no-git")
    assert done.exit_code == 0, done.output
    assert "NOT COUNTED" not in done.output, done.output
    import json

    assert json.loads(_carto("standup", "--no-git", "--json").output)["unattributed_events"] == 0


def test_a_torn_row_does_not_make_a_session_prefix_ambiguous():
    """A row a crash cut inside its session id ran on into the next line: the prefix named two
    sessions, one of them "<id piece>\\n{", and digest, handoff and wrapup refused it."""
    import json

    home = _home()
    whole = json.dumps(_row("evt-tor000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit"))
    torn = whole[: whole.index(ONE) + 20]
    after = json.dumps(_row("evt-tor000000002", ONE, "Ran: make test", second=4))
    home.log("changelog").write_text(torn + "\n" + after + "\n")
    for args in (["digest", "session", ONE[:4], "--no-git"], ["handoff", ONE[:4]],
                 ["wrapup", "--session", ONE[:4], "--dry-run"], ["related", ONE[:8]]):
        done = _carto(*args)
        assert done.exit_code == 0, (args, done.output)
        assert "sessions start with" not in done.output, (args, done.output)


def test_facts_tempo_says_when_its_series_is_shorter_than_the_window_asked():
    """census counted the window asked for; tempo's total silently covered at most 366 days of it."""
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    old = format_timestamp(utcnow() - timedelta(days=500))
    append_rows(home.log("changelog"), [
        {**_row("evt-tmp000000001", ONE, "Ran: make test", project="app"), "timestamp": old},
        {**_row("evt-tmp000000002", TWO, "Ran: make test", project="app"),
         "timestamp": format_timestamp(utcnow() - timedelta(days=3))}])
    done = _carto("facts", "tempo", "--since", "1000d")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert any(line.startswith("days counted: ") and line.endswith("(tempo reads at most 366 days of the window)")
               for line in lines), done.output
    app = next(line for line in lines if line.strip().startswith("app "))
    assert " days · " in app and " d · " not in app, app


def test_a_dry_run_of_a_wrapup_already_recorded_says_so():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-dry000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit")])
    written = _carto("wrapup", "--session", ONE[:8])
    event_id = written.output.split()[2]
    dry = _carto("wrapup", "--session", ONE[:8], "--dry-run")
    assert dry.output.splitlines()[0] == f"wrapup already recorded (--dry-run: nothing written): {event_id}", dry.output


def test_handoff_says_what_its_bound_cut_in_words():
    home = _home()
    append_rows(home.log("changelog"), [
        _row(f"evt-cut0000000{i:02d}", ONE, f"Modified: /w/app/module_with_a_long_name_{i:02d}.py",
             kind="tool_file_edit", second=i) for i in range(40)])
    done = _carto("handoff", ONE[:8], "--max-chars", "1000")
    assert done.exit_code == 0, done.output
    last = done.output.splitlines()[-1]
    assert re.fullmatch(r"\(cut to 1000 characters: (\d+ files?|\d+ open threads?|\d+ decisions?|\d+ last turns?"
                        r"|\d+ sessions?|\d+ commits?|\d+ wrapups?)(, .+)* left out\)", last), last
    assert "_" not in last and not re.search(r"\b1 \w+s\b", last), last


def test_a_wrapups_changelog_copy_counts_one_event_as_one():
    import json

    home = _home()
    append_rows(home.log("changelog"), [_row("evt-wcc000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit")])
    assert _carto("wrapup", "--session", ONE[:8]).exit_code == 0
    copy = [json.loads(line) for line in home.log("changelog").read_text().splitlines()][-1]
    assert copy["type"] == "milestone_session_wrapup" and copy["summary"].endswith(" [1 event]"), copy["summary"]


def test_digest_day_says_how_many_files_it_did_not_list():
    home = _home()
    append_rows(home.log("changelog"), [
        _row(f"evt-ddf0000000{i:02d}", ONE, f"Modified: /w/app/f{i:02d}.py", kind="tool_file_edit", project="app",
             second=i) for i in range(11)])
    done = _carto("digest", "day", "2026-03-02", "--no-git")
    assert done.exit_code == 0, done.output
    files = next(line for line in done.output.splitlines() if line.startswith("  files: "))
    assert files.count(".py ×1") == 8 and files.endswith(" (+3 more: --json)"), files


def test_digest_day_names_work_of_no_project_as_every_other_view_does():
    """The day digest headed work no project was recorded for "outside any repo"; the sessions
    list, the session view, the handoff and the explorer say "no project". The JSON keeps the
    pseudo-project's name (upstream's `carto.day-digest/1`), marked by its kind."""
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-dnp000000001", ONE, "Ran: make", project="app", second=1),
        _row("evt-dnp000000002", TWO, "Ran: ls ~", project=None, cwd="/home/someone", second=2)])
    for fmt in ((), ("--md",)):
        done = _carto("digest", "day", "2026-03-02", "--no-git", *fmt)
        assert done.exit_code == 0, done.output
        assert "outside any repo" not in done.output, done.output
        heading = ("## " if fmt else "") + "no project: 1 event, 5 min, 1 session"
        assert heading in done.output.splitlines(), done.output
    document = json.loads(_carto("digest", "day", "2026-03-02", "--no-git", "--json").output)
    pseudo = [p for p in document["projects"] if p["kind"] == "pseudo"]
    assert [(p["name"], p["events"]) for p in pseudo] == [("outside any repo", 1)]


def test_the_start_note_does_not_call_a_session_a_live_peer_for_its_wrapup():
    from datetime import timedelta

    from carto_core.lenses.start_note import start_note
    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    repo = Path(os.environ["HOME"]) / "shop"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    worked = format_timestamp(utcnow() - timedelta(hours=2))
    append_rows(home.log("changelog"), [
        {**_row("evt-stn000000001", ONE, f"Modified: {repo}/app.py", kind="tool_file_edit", project="shop",
                cwd=str(repo)), "timestamp": worked}])
    assert _carto("wrapup", "--session", ONE[:8]).exit_code == 0  # written now, from a terminal
    note = start_note(home, TWO, str(repo), env={"CARTO_START_NOTE": "1"})
    assert note is not None and "last wrapup" in note, note
    assert "live peer" not in note, note


def test_report_hit_rate_quotes_a_query_as_typed_not_as_a_python_repr():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-hrt000000001", ONE, "Ran: quokka ledger check")])
    query = "quokka ledger"
    for _ in range(3):
        assert _carto("search", query).exit_code == 0
    done = _carto("report", "hit-rate")
    assert done.exit_code == 0, done.output
    line = next(line for line in done.output.splitlines() if "evt-hrt000000001" in line)
    assert line.endswith(f'3 serves; last query: "{query}"'), line


def test_a_decision_prefix_too_short_to_name_a_record_is_said_so():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-dsh000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit")])
    _carto("wrapup", "--session", ONE[:8], "--decision", "apply discounts before tax")
    record = _carto("decision", "list").output.split()[0]
    assert record.startswith("dec-")
    done = _carto("decision", "retire", record[:5])
    assert done.exit_code == 2, done.output  # bad input, as the help's exit codes say
    assert "no record with id" not in done.output and "too short" in done.output, done.output
    for short in ("dec", "d"):
        assert _carto("decision", "retire", short, "--dry-run").exit_code == 2
    assert _carto("decision", "retire", record[:6], "--dry-run").exit_code == 0


def test_a_hooked_sessions_searches_fetches_compactions_and_subagents_are_counted():
    """The hooks write a search or fetch to the research log (type "search"/"fetch") and a
    compaction or subagent to the milestones log (no type), each with a changelog copy typed
    research_search / milestone_compaction_auto / milestone_agent_<type>; the domain row wins
    the fold, and digest session said "0 searches · 0 fetches · 0 compactions · 0 subagents"."""
    import json

    home = _home()
    base = {"provider": "claude", "session": ONE, "project": "app", "cwd": "/w/app"}
    rows = {
        "research": [{**base, "event_id": "evt-hks000000001", "timestamp": "2026-03-02T10:00:01Z", "type": "search",
                      "query": "decimal rounding"},
                     {**base, "event_id": "evt-hks000000002", "timestamp": "2026-03-02T10:00:02Z", "type": "fetch",
                      "url": "https://docs.python.org/3/library/decimal.html"}],
        "milestones": [{**base, "event_id": "evt-hks000000003", "timestamp": "2026-03-02T10:00:03Z",
                        "milestone": "compaction_auto", "event": "PreCompact", "session_id": ONE,
                        "description": "Context compaction (auto)"},
                       {**base, "event_id": "evt-hks000000004", "timestamp": "2026-03-02T10:00:04Z",
                        "milestone": "agent_general-purpose", "event": "SubagentStop", "session_id": ONE,
                        "description": "general-purpose agent completed"}],
    }
    copies = [{"event_id": "evt-hks000000001", "type": "research_search", "summary": "Search: decimal rounding"},
              {"event_id": "evt-hks000000002", "type": "research_fetch",
               "summary": "Fetched: https://docs.python.org/3/library/decimal.html"},
              {"event_id": "evt-hks000000003", "type": "milestone_compaction_auto", "summary": "Context compaction (auto)"},
              {"event_id": "evt-hks000000004", "type": "milestone_agent_general-purpose",
               "summary": "general-purpose agent completed"}]
    for label, logged in rows.items():
        append_rows(home.log(label), logged)
    stamps = {r["event_id"]: r["timestamp"] for logged in rows.values() for r in logged}
    append_rows(home.log("changelog"), [
        _row("evt-hks000000000", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app")]
        + [{**_row(c["event_id"], ONE, c["summary"], kind=c["type"], project="app"), "timestamp": stamps[c["event_id"]]}
           for c in copies])
    done = _carto("digest", "session", ONE[:8], "--no-git")
    assert done.exit_code == 0, done.output
    activity = next(line for line in done.output.splitlines() if line.startswith("activity "))
    assert activity == "activity 1 edit · 0 bash · 1 search · 1 fetch · 1 compaction · 1 subagent", done.output
    tags = json.loads(_carto("sessions", "--json").output)["sessions"][0]["tags"]
    assert {"tool:websearch", "tool:webfetch", "tool:task"} <= set(tags), tags


def test_digest_session_names_the_hosts_a_hooked_session_fetched():
    home = _home()
    append_rows(home.log("research"), [{"event_id": "evt-rsh000000001", "timestamp": "2026-03-02T10:00:01Z",
                                        "type": "fetch", "provider": "claude", "session": ONE, "project": "app",
                                        "url": "https://docs.python.org/3/library/decimal.html", "prompt": "rounding"}])
    append_rows(home.log("changelog"), [
        {**_row("evt-rsh000000001", ONE, "Fetched: https://docs.python.org/3/library/decimal.html",
                kind="research_fetch", project="app"), "timestamp": "2026-03-02T10:00:01Z"}])
    done = _carto("digest", "session", ONE[:8], "--no-git")
    assert "research docs.python.org" in done.output.splitlines(), done.output


def test_digest_session_refuses_a_negative_number_of_commits_or_files():
    home = _home()
    append_rows(home.log("changelog"), [_commit("evt-neg000000001", ONE, 1)])
    for flag in ("--commits", "--files"):
        done = _carto("digest", "session", ONE[:8], flag, "-1", "--no-git")
        assert done.exit_code == 2 and flag in done.output, (flag, done.output)


def test_digest_session_without_files_says_none():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-nof000000001", ONE, "Ran: make test")])
    done = _carto("digest", "session", ONE[:8], "--no-git")
    assert "files    none" in done.output.splitlines(), done.output


def test_sessions_takes_a_provider_in_any_case_as_it_takes_a_project():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-prv000000001", ONE, "Ran: make test")])
    for provider in ("claude", "Claude", "CLAUDE"):
        done = _carto("sessions", "--provider", provider)
        assert done.exit_code == 0 and ONE[:8] in done.output, (provider, done.output)


def test_standup_me_takes_a_session_prefix_as_every_session_option_does():
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    stamp = format_timestamp(utcnow() - timedelta(minutes=5))
    append_rows(home.log("changelog"), [
        {**_row("evt-sme000000001", ONE, "Ran: make test", project="app"), "timestamp": stamp},
        {**_row("evt-sme000000002", TWO, "Ran: make lint", project="app"), "timestamp": stamp}])
    done = _carto("standup", "--me", ONE[:6], "--no-git")
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[1] == f"you are {ONE[:8]} · app", done.output
    assert _carto("standup", "--me", "zzzz0000-0000-4000-8000-000000000000", "--no-git").exit_code == 0


def test_a_decision_typed_over_two_lines_is_kept_on_one():
    """A decision with a newline was stored with it, and the wrapup's receipt (and `carto
    session`, which prints the row) showed it across lines; the ledger and MEMORY.md fold
    whitespace themselves."""
    import json

    home = _home()
    append_rows(home.log("changelog"), [_row("evt-nl0000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app")])
    done = _carto("wrapup", "--session", ONE[:8], "--decision", "apply discounts\nbefore tax", "--unresolved",
                  "coupon\tstacking", "--json")
    row = json.loads(done.output)["row"]
    assert row["decisions"] == ["apply discounts before tax"] and row["unresolved"] == ["coupon stacking"], row
    shown = _carto("wrapup", "--session", ONE[:8], "--decision", "apply discounts\nbefore tax", "--dry-run")
    assert "  decided: apply discounts before tax" in shown.output.splitlines(), shown.output
    assert "before tax" not in [line.strip() for line in shown.output.splitlines()], shown.output


def test_facts_help_names_every_verb_it_takes():
    done = _carto("facts", "--help")
    head = done.output.split("Options:")[0]
    for verb in ("census", "tempo", "delta", "pulse", "tokens"):
        assert verb in head, (verb, head)


def test_facts_tokens_with_no_reported_turn_says_so_in_one_line():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-tk0000000001", ONE, "Ran: make test")])
    done = _carto("facts", "tokens")
    assert done.exit_code == 0, done.output
    lines = [line for line in done.output.splitlines() if not line.startswith("facts: ")]
    assert lines[1:] == ["0 turns reported tokens: the turns a backfill or a Stop hook reads from the "
                         "transcripts carry them (carto ingest --all)"], done.output


def test_facts_census_of_an_empty_window_prints_no_empty_headings():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-ce0000000001", ONE, "Ran: make test")])
    done = _carto("facts", "census", "--since", "1h")
    assert done.exit_code == 0, done.output
    assert not [line for line in done.output.splitlines() if re.fullmatch(r"\w+:", line)], done.output
    assert "0 events · 0 sessions" in done.output, done.output


def test_report_intents_with_no_prompt_says_so_without_a_table_of_zeros():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-ri0000000001", ONE, "Ran: make test")])
    done = _carto("report", "intents")
    assert done.exit_code == 3, done.output
    assert done.output.splitlines() == [
        "Prompt intents: 0 classified prompts (prompts, turns)",
        "(no prompts in scope: backfill with `carto ingest claude` or `carto ingest codex`)"], done.output


def test_standup_does_not_count_a_trust_map_applied_at_the_terminal_as_unattributed():
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    stamp = format_timestamp(utcnow() - timedelta(minutes=10))
    append_rows(home.log("changelog"), [
        {**_row(f"evt-stt00000000{i}", ONE, "Ran: curl https://api.stripe.com/v1/charges", project="app"),
         "timestamp": stamp} for i in range(3)])
    settings = Path(os.environ["HOME"]) / "settings.json"
    settings.write_text("{}")
    assert _carto("trustmap", "--apply", "--min", "1", "--settings", str(settings)).exit_code == 0
    done = _carto("standup", "--no-git")
    assert done.exit_code == 0 and "NOT COUNTED" not in done.output, done.output


def test_memory_says_a_preference_repeated_with_a_please_once():
    home = _home()
    append_rows(home.log("prompts"), [
        {"event_id": f"evt-pre00000000{i}", "timestamp": f"2026-03-02T10:0{i}:00Z", "type": "prompt",
         "provider": "claude", "summary": text, "project": "app", "session_id": ONE}
        for i, text in enumerate(["Always use Decimal for money, never floats",
                                  "please always use Decimal for money; never floats!"])])
    done = _carto("memory", "--project", "app")
    assert done.exit_code == 0, done.output
    lines = [line for line in done.output.splitlines() if "Decimal" in line]
    assert len(lines) == 1 and "(2 prompts)" in lines[0], done.output
    assert "evt-pre000000000" in lines[0] and "evt-pre000000001" in lines[0], lines


def test_a_session_whose_only_row_in_the_window_is_its_wrapup_is_not_live():
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    append_rows(home.log("changelog"), [
        {**_row("evt-wol000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"),
         "timestamp": format_timestamp(utcnow() - timedelta(hours=7))}])
    assert _carto("wrapup", "--session", ONE[:8]).exit_code == 0  # now, inside the 6h window
    done = _carto("standup", "--no-git")
    lines = done.output.splitlines()
    assert not any(line.startswith(f"● {ONE[:8]}") for line in lines), done.output


def test_profile_out_a_folder_is_refused_naming_it_and_leaves_no_temporary_file(tmp_path):
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-pro000000001", ONE, "Ran: make test")])
    folder = tmp_path / "notes"
    folder.mkdir()
    done = _carto("profile", "--out", str(folder))
    assert done.exit_code == 2, done.output
    assert f"--out {folder} is a folder" in done.output and ".tmp" not in done.output, done.output
    assert not list(tmp_path.glob("*.tmp")), list(tmp_path.iterdir())


def test_write_profile_removes_its_temporary_file_when_the_rename_fails(tmp_path, monkeypatch):
    import pytest

    from carto_core.lenses import profile

    home = _home()
    target = tmp_path / "p.md"

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(profile.os, "replace", refuse)
    with pytest.raises(OSError) as raised:
        profile.write_profile(home, {"path": str(target), "markdown": "# p\n"})
    assert raised.value.filename == str(target), raised.value
    assert not list(tmp_path.iterdir()), list(tmp_path.iterdir())


def test_trustmap_apply_to_settings_it_cannot_read_says_why_in_words(tmp_path):
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-tsr000000001", ONE, "Ran: curl https://api.stripe.com/v1/x")])
    done = _carto("trustmap", "--apply", "--min", "1", "--settings", str(tmp_path))
    assert done.exit_code == 4, done.output
    assert done.output.strip() == f"carto: {tmp_path} cannot be read (Is a directory)", done.output


def test_memory_write_into_a_file_that_is_not_text_says_so_in_words(tmp_path):
    home = _home()
    append_rows(home.log("prompts"), [{"event_id": "evt-mbt000000001", "timestamp": "2026-03-02T10:00:00Z",
                                       "type": "prompt", "provider": "claude", "project": "app", "session_id": ONE,
                                       "summary": "Always use Decimal for money, never floats"}])
    target = tmp_path / "MEMORY.md"
    target.write_bytes(b"\xff\xfe notes")
    done = _carto("memory", "--project", "app", "--write", "--file", str(target))
    assert done.exit_code == 1, done.output
    assert done.output.strip() == f"carto: cannot read {target}: it is not UTF-8 text; nothing was written", done.output
    assert target.read_bytes() == b"\xff\xfe notes"


def test_facts_cursor_file_that_is_not_text_is_refused_in_one_line(tmp_path):
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-cur000000001", ONE, "Ran: make test")])
    cursor = tmp_path / "pulse.cursor"
    cursor.write_bytes(b"\xff\xfe\x00")
    for verb in ("delta", "pulse"):
        done = _carto("facts", verb, "--cursor-file", str(cursor))
        assert done.exit_code == 2, (verb, done.output)
        assert "Traceback" not in done.output and len(done.output.strip().splitlines()) == 1, (verb, done.output)
        assert str(cursor) in done.output and "not a facts cursor" in done.output, (verb, done.output)
    assert cursor.read_bytes() == b"\xff\xfe\x00"


def test_digest_day_at_the_edges_of_the_calendar_is_refused_in_one_line():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-cal000000001", ONE, "Ran: make test")])
    for day in ("0001-01-01", "9999-12-31"):
        done = _carto("digest", "day", day, "--no-git")
        assert done.exit_code == 2, (day, done.output)
        assert "Traceback" not in done.output and len(done.output.strip().splitlines()) == 1, (day, done.output)
        assert day in done.output, done.output


def test_report_abandonment_refuses_a_window_that_is_not_a_number_of_minutes():
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-abw000000001", ONE, "Ran: make test")])
    for window in ("nan", "inf", "-1"):
        done = _carto("report", "abandonment", "--window", window)
        assert done.exit_code == 2 and "--window" in done.output, (window, done.output)


def test_handoff_reads_a_wrapup_whose_decisions_are_one_string_as_one_decision():
    """A wrapup row an older writer left with `decisions: "..."` came out one letter a line."""
    home = _home()
    append_rows(home.log("changelog"), [_row("evt-hws000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit")])
    append_rows(home.log("milestones"), [{
        "event_id": "evt-hws000000002", "timestamp": "2026-03-02T10:00:05Z", "milestone": "session_wrapup",
        "provider": "claude", "session_id": ONE, "project": LONG_PROJECT, "description": "older wrapup",
        "decisions": "keep prices in cents", "unresolved": "coupon stacking", "key_insight": ""}])
    done = _carto("handoff", ONE[:8])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert "- keep prices in cents  [evt-hws000000002]" in lines, done.output
    assert "- coupon stacking  [evt-hws000000002]" in lines, done.output
    assert not [line for line in lines if re.fullmatch(r"- \S?  \[evt-hws000000002\]", line)], done.output


def test_the_start_note_reads_a_wrapups_single_string_thread_as_one_thread():
    from carto_core.lenses.start_note import start_note

    home = _home()
    repo = Path(os.environ["HOME"]) / "shop"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    append_rows(home.log("milestones"), [{
        "event_id": "evt-sns000000001", "timestamp": "2026-03-02T10:00:05Z", "milestone": "session_wrapup",
        "provider": "claude", "session_id": ONE, "project": "shop", "description": "older wrapup",
        "decisions": [], "unresolved": "coupon stacking", "key_insight": ""}])
    note = start_note(home, TWO, str(repo), env={"CARTO_START_NOTE": "1"})
    assert note is not None and "  unresolved: coupon stacking" in note.splitlines(), note
    assert "  unresolved: c" not in note.splitlines(), note


def test_report_intents_says_how_to_classify_the_prompts_it_could_not_count():
    home = _home()
    append_rows(home.log("prompts"), [{"event_id": "evt-ucl000000001", "timestamp": "2026-03-02T10:00:00Z",
                                       "type": "prompt", "provider": "claude", "project": "app", "session_id": ONE,
                                       "summary": "fix the rounding bug"}])
    done = _carto("report", "intents")
    lines = done.output.splitlines()
    assert lines[0] == "Prompt intents: 0 classified prompts, 1 unclassified (prompts, turns)", done.output
    assert lines[-1] == "(1 prompt written before carto classified prompts: carto repair intents --write classifies it)", done.output


def test_standup_says_an_unknown_provider_as_the_other_lenses_do():
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    home = _home()
    row = {**_row("evt-unp000000001", ONE, "Ran: make test", project="app"),
           "timestamp": format_timestamp(utcnow() - timedelta(minutes=5))}
    row.pop("provider")
    append_rows(home.log("changelog"), [row])
    standup = _carto("standup", "--no-git").output.splitlines()
    assert standup[1] == f"● {ONE[:8]}  ? app", standup
    assert " · ? · " in _carto("digest", "session", ONE[:8], "--no-git").output.splitlines()[0]


def test_a_commit_stamped_with_an_offset_is_shown_in_the_same_z_form_as_every_other_row():
    # git's %aI writes an offset ("+00:00", "+02:00"); hook rows write "Z". The stored rows keep theirs.
    home = _home()
    append_rows(home.log("changelog"), [
        _row("evt-off000000001", ONE, "Modified: /w/app/app.py", kind="tool_file_edit", project="app"),
        {**_commit("evt-off000000002", ONE, 1), "timestamp": "2026-03-02T12:00:05+02:00"},
        {"event_id": "git-5f2715e", "timestamp": "2026-03-02T10:00:07+00:00", "type": "git_commit",
         "project": "app", "summary": "Commit 5f2715e: feat: shipping fee | files: shipping.py",
         "commit_hash": "5f2715e89b73d0d4b13d6d3ee315680583546e7a"},
    ])
    views = {"orient": ("search", "--project", "app"), "census": ("facts", "census"),
             "pulse": ("facts", "pulse", "--since", "2026-03-01"), "session": ("session", ONE[:8]),
             "digest": ("digest", "session", ONE[:8], "--no-git")}
    for name, args in views.items():
        done = _carto(*args)
        assert done.exit_code == 0, (name, done.output)
        assert "+00:00" not in done.output and "+02:00" not in done.output, (name, done.output)
        assert "2026-03-02T10:00:05Z" in done.output, (name, done.output)
        if name in ("orient", "census", "pulse"):
            assert "2026-03-02T10:00:07Z" in done.output, (name, done.output)
    stored = home.log("changelog").read_text("utf-8")
    assert "2026-03-02T12:00:05+02:00" in stored and "2026-03-02T10:00:07+00:00" in stored


def test_the_session_tree_says_its_tool_calls_are_the_transcripts_and_counts_what_hooks_recorded():
    # A Codex session whose rollout was never ingested: its edit and bash run are hook rows only.
    codex = "0190aaaa-0000-7000-8000-00000000c0de"
    home = _home()
    append_rows(home.log("changelog"), [
        {**_row("evt-cdx000000001", codex, "Modified: shipping.py", kind="tool_file_edit", project="app"),
         "provider": "codex"},
        {**_row("evt-cdx000000002", codex, "Ran: pytest -q", second=3, project="app"), "provider": "codex"}])
    listed = _carto("session", codex[:8])
    assert "evt-cdx000000001" in listed.output and "evt-cdx000000002" in listed.output, listed.output
    tree = _carto("session", codex[:8], "--tree")
    assert tree.exit_code == 0, tree.output
    lines = tree.output.splitlines()
    # "0 tool calls" beside an event list showing two read as if the session did nothing
    assert lines[1] == "tree     0 subagents · 0 turns · 0 tool calls in the transcript", tree.output
    assert lines[3] == f"  no transcript turn recorded: hooks recorded 2 tool calls, listed by carto session {codex[:8]}", tree.output
    document = json.loads(_carto("session", codex[:8], "--tree", "--json").output)
    assert document["counts"]["tool_calls"] == 0 and document["counts"]["hook_tool_calls"] == 2
