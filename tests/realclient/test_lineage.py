"""The genuine Claude Code's resume, fork and /clear, linked by what its hooks wrote live: the
payloads the client sent (tapped) say which session started from which, and `carto session`
must say the same."""

from __future__ import annotations

import pytest

from .harness import Run, _claude, resume_claude_session


@pytest.fixture(scope="module")
def family(claude_session):
    # A session of its own (its prompt makes it one): the taps write to its folder, so a clone
    # would not see the payloads of what follows.
    run = claude_session(prompt="please add a file and commit it, then we fork and clear")
    assert run.rc == 0, run.diagnosis()
    origin = run.payloads("SessionStart")[0]["session_id"]
    resumed = resume_claude_session(run, "one more thing: say quokkaresumed",
                                    [[{"type": "text", "text": "Sure: quokkaresumed"}]])
    assert resumed.rc == 0, resumed.diagnosis()
    forked = _claude(Run(**{**run.__dict__, "requests": []}), [[{"type": "text", "text": "Forked: ibisforked"}]],
                     "forked question ibis", ["--resume", origin, "--fork-session"], None, 180, None,
                     "claude-debug-fork.log")
    assert forked.rc == 0, forked.diagnosis()
    cleared = _claude(Run(**{**run.__dict__, "requests": []}), [[{"type": "text", "text": "Cleared."}]],
                      "/clear", ["--resume", origin], None, 180, None, "claude-debug-clear.log")
    assert cleared.rc == 0, cleared.diagnosis()
    return run, origin


def test_fork_clear_and_resume_as_the_payloads_say(family):
    run, origin = family
    starts = run.payloads("SessionStart")
    by_source = {}
    for payload in starts:
        by_source.setdefault(payload.get("source"), []).append(payload["session_id"])
    [fork] = by_source["fork"]
    [cleared] = by_source["clear"]
    assert len({fork, cleared, origin}) == 3 and set(by_source["resume"]) == {origin}
    ended = [p for p in run.payloads("SessionEnd") if p.get("reason") == "clear"]
    assert [p["session_id"] for p in ended] == [origin]
    detail = run.carto_json("session", origin)
    lineage = detail["lineage"]
    assert {(c["session_id"], c["kind"]) for c in lineage["continued_by"]} == {(fork, "fork"), (cleared, "clear")}
    assert [r["kind"] for r in lineage["restarts"]] == ["resume"] * len(by_source["resume"])
    assert lineage["thread"] == [origin, fork, cleared]
    assert [(c["session_id"], c["kind"]) for c in run.carto_json("session", fork)["lineage"]["continues"]] == [
        (origin, "fork")]
