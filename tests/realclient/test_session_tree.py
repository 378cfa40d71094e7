"""The genuine Claude Code's subagent, as `carto session --tree` shows it: under the Task call
that started it, with the transcript the client's own SubagentStop payload names, on the home
the hooks wrote live and on one backfilled from the transcripts afterwards."""

from __future__ import annotations

import pytest

from .scripts import CLAUDE_EVERY_EVENT


@pytest.fixture(scope="module")
def subagent_run(claude_session):
    run = claude_session(CLAUDE_EVERY_EVENT)
    assert run.rc == 0, run.diagnosis()
    return run


@pytest.mark.parametrize("home", ["hooks", "backfill"])
def test_the_subagent_hangs_under_its_task_call(subagent_run, tmp_path, home):
    run = subagent_run.clone(tmp_path)
    if home == "backfill":
        run.carto("ingest", "claude", "--json", check=True, CARTO_HOME=str(tmp_path / "backfilled"))
    env = {"CARTO_HOME": str(tmp_path / "backfilled")} if home == "backfill" else {}
    [start] = run.payloads("SessionStart")
    [stop] = run.payloads("SubagentStop")
    # Rows keep the original run's paths (the clone copies the files, not the names in them).
    original = subagent_run.home
    main = start["transcript_path"]
    agent_file = stop["agent_transcript_path"]
    if home == "backfill":
        main = main.replace(str(original), str(run.home))
        agent_file = agent_file.replace(str(original), str(run.home))
    tree = run.carto_json("session", start["session_id"][:8], "--tree", **env)
    assert tree["session_id"] == start["session_id"] and tree["transcript_path"] == main
    [task] = [c for t in tree["tree"]["turns"] for c in t["tools"] if c["name"] == "Task"]
    node = task["agent"]
    assert (node["agent"], node["kind"], node["agent_type"], node["transcript_path"]) == (
        stop["agent_id"], "file", stop["agent_type"], agent_file)
    assert node["spawned_by"] == task["event_id"] and tree["counts"]["unlinked_agents"] == 0
    assert run.carto_json("session", start["session_id"], **env)["session"]["transcript_path"] == main
