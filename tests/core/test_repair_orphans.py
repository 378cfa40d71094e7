"""`carto repair orphan-sessions`: strict matching by transcript, then by project and time;
ambiguity refused; every copy of an event gets the same session; a row appended meanwhile by
another process survives."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.logio.reader import ReadReport, iter_lines
from carto_core.repair import run_repair
from carto_core.model import decisions as model
from carto_core.repair.orphans import OrphanSessions

SID_A = "aaaaaaaa-0000-4000-8000-000000000001"
SID_B = "bbbbbbbb-0000-4000-8000-000000000002"


def at(minute: int) -> str:
    return f"2026-03-01T10:{minute:02d}:00Z"


def seed(home: Home) -> None:
    """Session A works in shop 10:00-10:20, session B in shop 10:30-10:40 and in docs at 10:05."""
    append_rows(home.log("changelog"), [
        {"event_id": "a1", "timestamp": at(0), "provider": "claude", "session_id": SID_A, "project": "shop",
         "transcript_path": f"/t/{SID_A}.jsonl"},
        {"event_id": "a2", "timestamp": at(20), "provider": "claude", "session_id": SID_A, "project": "shop"},
        {"event_id": "b1", "timestamp": at(30), "provider": "claude", "session_id": SID_B, "project": "shop"},
        {"event_id": "b2", "timestamp": at(40), "provider": "claude", "session_id": SID_B, "project": "shop"},
        {"event_id": "b3", "timestamp": at(5), "provider": "claude", "session_id": SID_B, "project": "docs"},
    ])


def rows(home: Home, label: str) -> dict:
    return {line.row["event_id"]: line.row for line in iter_lines(home.log(label), ReadReport(label))}


def test_matches_by_transcript_then_by_project_and_time_and_refuses_ambiguity(tmp_path):
    home = Home(tmp_path)
    seed(home)
    append_rows(home.log("changelog"), [
        # the transcript one session recorded, even far away in time
        {"event_id": "o-transcript", "timestamp": at(59), "provider": "claude", "session_id": "",
         "project": "shop", "transcript_path": f"/t/{SID_A}.jsonl"},
        # a file name ending in a known session id (B never recorded that path)
        {"event_id": "o-name", "timestamp": at(59), "session_id": "unknown",
         "transcript_path": f"/elsewhere/{SID_B}.jsonl"},
        # shop at 10:24: A's last event is 4 min before, B's first 6 min after: both in window
        {"event_id": "o-ambiguous", "timestamp": at(24), "provider": "claude", "project": "shop"},
        # shop at 10:12: only A is within 10 minutes (B's shop events are at :30, :40)
        {"event_id": "o-near", "timestamp": at(12), "provider": "claude", "session_id": None, "project": "shop"},
        # nobody in that project
        {"event_id": "o-nobody", "timestamp": at(12), "provider": "claude", "project": "infra"},
        # no time: nothing to go on
        {"event_id": "o-undated", "provider": "claude", "project": "shop"},
        # backfilled from git: sessionless by design
        {"event_id": "git-1234567", "timestamp": at(12), "type": "git_commit", "project": "shop",
         "commit_hash": "1234567"},
    ])
    dry = run_repair(OrphanSessions(10), home)
    assert (dry["orphans"], dry["matched_transcript"], dry["matched_proximity"], dry["ambiguous"],
            dry["unmatched"], dry["fixed"], dry["would_fix"]) == (6, 2, 1, 1, 2, 0, 3)
    assert rows(home, "changelog")["o-near"]["session_id"] is None  # dry run: untouched
    ambiguous = next(e for e in dry["examples"] if e["what"] == "ambiguous")
    assert ambiguous["sessions"] == f"{SID_A},{SID_B}"
    done = run_repair(OrphanSessions(10), home, write=True)
    assert done["fixed"] == 3
    after = rows(home, "changelog")
    assert after["o-transcript"]["session_id"] == SID_A
    assert after["o-name"]["session_id"] == SID_B
    assert after["o-near"]["session_id"] == SID_A
    assert after["o-ambiguous"].get("session_id") is None
    assert after["o-nobody"].get("session_id") is None and "session_id" not in after["git-1234567"]
    # the key keeps its place in the row (upstream key order)
    assert list(after["o-near"]) == ["event_id", "timestamp", "provider", "session_id", "project"]
    again = run_repair(OrphanSessions(10), home, write=True)
    assert (again["orphans"], again["fixed"]) == (3, 0)


def test_a_narrower_window_turns_an_ambiguous_row_into_a_match(tmp_path):
    home = Home(tmp_path)
    seed(home)
    append_rows(home.log("changelog"), [{"event_id": "o", "timestamp": at(24), "project": "shop"}])
    assert run_repair(OrphanSessions(10), home)["ambiguous"] == 1
    assert run_repair(OrphanSessions(5), home)["matched_proximity"] == 1  # only A (4 min)
    assert run_repair(OrphanSessions(3), home)["unmatched"] == 1


def test_every_copy_of_an_event_gets_the_same_session_from_their_pooled_evidence(tmp_path):
    home = Home(tmp_path)
    seed(home)
    # The tool-use row knows the transcript, the changelog copy only the project and time, which
    # alone would be ambiguous (10:24).
    append_rows(home.log("tool-use"), [{"event_id": "o", "timestamp": at(24), "tool": "Bash", "session": "",
                                        "transcript_path": f"/t/{SID_A}.jsonl"}])
    append_rows(home.log("changelog"), [{"event_id": "o", "timestamp": at(24), "project": "shop", "session_id": ""}])
    done = run_repair(OrphanSessions(10), home, write=True)
    assert (done["orphans"], done["matched_transcript"], done["fixed"]) == (2, 2, 2)
    assert rows(home, "tool-use")["o"]["session"] == SID_A
    assert rows(home, "changelog")["o"]["session_id"] == SID_A


def test_row_appended_by_another_process_during_the_repair_survives(tmp_path, during_write):
    home = Home(tmp_path)
    seed(home)
    append_rows(home.log("changelog"), [{"event_id": "o", "timestamp": at(12), "project": "shop"}])
    repair = OrphanSessions(10)
    during_write(repair, "changelog", home.log("changelog"), {"event_id": "during", "session_id": SID_A})
    assert run_repair(repair, home, write=True)["fixed"] == 1
    after = rows(home, "changelog")
    assert after["o"]["session_id"] == SID_A and after["during"]["session_id"] == SID_A
    assert len(after) == 7


def test_cli(tmp_path):
    home = Home(tmp_path)
    seed(home)
    env = {"CARTO_HOME": str(tmp_path)}
    result = CliRunner().invoke(cli, ["repair", "orphan-sessions", "--json"], env=env)
    assert result.exit_code == 3 and json.loads(result.stdout)["orphans"] == 0
    append_rows(home.log("changelog"), [{"event_id": "o", "timestamp": at(12), "project": "shop"}])
    result = CliRunner().invoke(cli, ["repair", "orphan-sessions", "--write", "--window", "10"], env=env)
    assert result.exit_code == 0 and "1 orphan row found, 1 fixed" in result.stdout
    result = CliRunner().invoke(cli, ["repair", "orphan-sessions", "--window", "-1"], env=env)
    assert result.exit_code == 2


def test_a_decision_changed_at_a_terminal_keeps_no_session_an_agents_gets_its_session(tmp_path, monkeypatch):
    """`carto decision retire` typed at a terminal wrote a row without a session, and the repair
    gave it the one agent session of its project inside --window: a person's change became the
    agent's. It is left alone as a git commit is; a change an agent made (its provider named)
    and whose session was lost is matched as before."""
    from datetime import timedelta

    from carto_core.util.timeparse import format_timestamp, utcnow

    monkeypatch.setenv("CARTO_HOME", str(tmp_path))
    home = Home(tmp_path)
    work = str(tmp_path / "shop")
    before = utcnow() - timedelta(minutes=20)
    append_rows(home.log("changelog"), [
        {"event_id": f"a{i}", "timestamp": format_timestamp(before + timedelta(minutes=i)),
         "type": "tool_bash", "provider": "claude", "session_id": SID_A, "project": "shop",
         "cwd": work, "summary": f"pytest -k cart {i}"} for i in range(3)])

    def carto(*args, **env):
        result = CliRunner().invoke(cli, list(args), env=env)
        assert result.exit_code == 0, (args, result.output)
        return json.loads(result.stdout) if "--json" in args else result.stdout

    carto("wrapup", "--session", SID_A, "--decision", "keep the cart in redis",
          "--decision", "price in cents")
    ids = {r["text"]: r["id"] for r in carto("decision", "list", "--json")["records"]}
    person = carto("decision", "retire", ids["keep the cart in redis"], "--json")["event_id"]
    agent = carto("decision", "retire", ids["price in cents"], "--json", CARTO_PROVIDER="claude")["event_id"]
    done = carto("repair", "orphan-sessions", "--window", "30", "--write", "--json")
    # the agent's row and its changelog copy; the person's two copies are no orphans
    assert (done["orphans"], done["matched_proximity"], done["fixed"]) == (2, 2, 2)
    for label in ("milestones", "changelog"):
        after = rows(home, label)
        assert after[person].get("session_id") is None and after[person]["provider"] == "unknown", label
        assert after[agent]["session_id"] == SID_A, label


def test_a_decision_the_mcp_tool_changed_without_a_session_is_an_agents(tmp_path, monkeypatch):
    """The MCP `decide` tool answers an agent, though the server's environment may name neither
    its session nor its provider: its row says it came through the tool, and the repair gives
    it the one session of its project inside --window, as any orphan."""
    from datetime import timedelta

    from carto_core.mcp.server import CartoMcp
    from carto_core.util.timeparse import format_timestamp, utcnow

    monkeypatch.setenv("CARTO_HOME", str(tmp_path))
    home = Home(tmp_path)
    before = utcnow() - timedelta(minutes=20)
    append_rows(home.log("changelog"), [
        {"event_id": f"a{i}", "timestamp": format_timestamp(before + timedelta(minutes=i)),
         "type": "tool_bash", "provider": "claude", "session_id": SID_A, "project": "shop",
         "cwd": str(tmp_path), "summary": f"pytest -k cart {i}"} for i in range(3)])
    assert CliRunner().invoke(cli, ["wrapup", "--session", SID_A, "--decision", "price in cents"]).exit_code == 0
    rid = model.record_id("decision", "shop", "price in cents")
    changed = CartoMcp(home, env={}).call("decide", {"action": "retire", "id": rid})["row"]
    assert (changed["provider"], changed.get("session_id"), changed["via"]) == ("unknown", None, "mcp")
    done = run_repair(OrphanSessions(30), home, write=True)
    assert (done["orphans"], done["matched_proximity"], done["fixed"]) == (2, 2, 2)
    for label in ("milestones", "changelog"):
        row = rows(home, label)[changed["event_id"]]
        assert (row["session_id"], row["via"]) == (SID_A, "mcp"), label


def test_a_wrapup_written_later_is_no_sign_its_session_was_at_work_then(tmp_path):
    """A's wrapup, written at 10:50 from a terminal, made A a candidate for a row at 10:55 beside
    B, which worked then: ambiguous. carto's own rows about a session (its wrapup, a decision
    change) are not its activity; only B was at work."""
    home = Home(tmp_path)
    seed(home)
    append_rows(home.log("milestones"), [
        {"event_id": "w", "timestamp": at(50), "milestone": "session_wrapup", "provider": "claude",
         "session_id": SID_A, "project": "shop"},
        {"event_id": "u", "timestamp": at(51), "milestone": "decision_update", "provider": "claude",
         "session_id": SID_A, "project": "shop", "via": "mcp"}])
    append_rows(home.log("changelog"), [
        {"event_id": "w", "timestamp": at(50), "type": "milestone_session_wrapup", "provider": "claude",
         "session_id": SID_A, "project": "shop"},
        {"event_id": "b4", "timestamp": at(58), "provider": "claude", "session_id": SID_B, "project": "shop"},
        {"event_id": "o", "timestamp": at(55), "provider": "claude", "project": "shop"}])
    done = run_repair(OrphanSessions(10), home, write=True)
    assert (done["orphans"], done["matched_proximity"], done["ambiguous"]) == (1, 1, 0)
    assert rows(home, "changelog")["o"]["session_id"] == SID_B
