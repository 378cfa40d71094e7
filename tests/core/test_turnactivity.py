"""The `tools` field of a turn row and the hook-shaped events lenses derive from it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from carto_core.model.events import Event
from carto_core.capture.turnactivity import INPUT_CUT, MAX_TOOLS, ToolLog, commit_from_output, derived_events


def turn(tools: list[dict], **row) -> Event:
    base = {"event_id": "turn-s1-1", "timestamp": "2026-03-01T10:00:00Z", "type": "transcript",
            "provider": "claude", "session": "s1", "project": "shop", "cwd": "/w/shop", "summary": "x",
            "tools": tools, **row}
    return Event.from_row(base, "turns")


@given(st.from_regex(r"[a-z][a-z0-9/._-]{0,20}", fullmatch=True), st.from_regex(r"[0-9a-f]{7,40}", fullmatch=True),
       st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1).map(str.strip).filter(bool))
def test_git_commit_line_reads_back(branch, sha, subject):
    for line in (f"[{branch} {sha}] {subject}", f"[{branch} (root-commit) {sha}] {subject}"):
        found = commit_from_output(f"Exit code 3\n{line}\n 1 file changed, 1 insertion(+)\n")
        assert found == {"sha": sha, "branch": branch, "subject": subject}


def test_output_without_a_commit_line_names_none():
    assert commit_from_output("nothing to commit, working tree clean") is None
    assert commit_from_output("[100%] 1 passed") is None
    assert commit_from_output(None) is None


def test_tool_log_caps_calls_and_inputs():
    log = ToolLog()
    for n in range(MAX_TOOLS + 7):
        log.call(f"id{n}", "Bash", "x" * (INPUT_CUT + 50), "2026-03-01T10:00:00Z")
    assert log.call("id0", "Bash", "again") is None  # a streamed line repeating a block
    fields = log.fields()
    assert len(fields["tools"]) == MAX_TOOLS and fields["tools_dropped"] == 7
    assert len(fields["tools"][0]["input"]) == INPUT_CUT and fields["tools"][0]["input"].endswith("…")
    assert ToolLog().fields() == {}


def test_derived_events_follow_the_hook_rules():
    events = derived_events(turn([
        {"name": "Bash", "input": "ls -la", "at": "2026-03-01T10:00:01Z"},                      # noise
        {"name": "Bash", "input": "npm test", "at": "2026-03-01T10:00:02Z"},                     # Ran:
        {"name": "Edit", "input": "/w/shop/a.py", "edits": ["/w/shop/a.py"]},                     # edit
        {"name": "Write", "input": "/w/shop/b.py", "failed": True},                               # refused
        {"name": "Bash", "input": "echo x > c.txt", "edits": ["/w/shop/c.txt"]},                   # via bash
        {"name": "Bash", "input": "git commit -m 'fix: y' && false", "failed": True,
         "commit": {"sha": "abc1234", "subject": "fix: y"}},                                     # commit
        {"name": "Bash", "input": "git push origin main"},                                        # Pushed:
        {"name": "Edit", "input": "/w/shop/node_modules/x.js", "edits": ["/w/shop/node_modules/x.js"]},
        {"name": "WebFetch", "input": "https://docs.example.com/a"},
        {"name": "WebSearch", "input": "pluggy hookspec"},
        {"name": "Task", "input": "survey", "agent_type": "Explore"},
        {"name": "Task", "input": "other", "agent_type": "custom-agent"},
        {"name": "Read", "input": "/w/shop/a.py"},
    ]))
    got = [(e.type, e.summary) for e in events]
    assert got == [
        ("tool_bash", "Ran: npm test "),  # the trailing space upstream's echo left, as the hooks write it
        ("tool_file_edit", "Modified: /w/shop/a.py"),
        ("tool_file_edit", "Modified: /w/shop/c.txt (via bash)"),
        ("git_commit", "[fix] Commit abc1234: fix: y"),
        ("git_push", "Pushed: git push origin main "),
        ("research_fetch", "Fetched: https://docs.example.com/a"),
        ("research_search", "Search: pluggy hookspec"),
        ("milestone_agent_Explore", "Subagent Explore: survey"),
    ]
    assert [e.event_id for e in events][:2] == ["turn-s1-1#2", "turn-s1-1#3"]
    assert {e.session_id for e in events} == {"s1"} and {e.source for e in events} == {"turns"}
    commit = next(e for e in events if e.type == "git_commit")
    assert commit.row["commit_hash"] == "abc1234" and commit.row["commit_type"] == "fix"
    ran = events[0]
    assert ran.timestamp.isoformat() == "2026-03-01T10:00:02+00:00"  # the call's own time
    assert events[1].timestamp.isoformat() == "2026-03-01T10:00:00+00:00"  # else the turn's


def test_a_turn_without_tools_stands_for_nothing():
    assert derived_events(turn([])) == []
    assert derived_events(Event.from_row({"event_id": "turn-s-1", "session": "s"}, "turns")) == []
    assert derived_events(turn(["not a dict", {"name": 3}])) == []
