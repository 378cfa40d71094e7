"""`carto_core.capture.output`: the text a hook hands the agent. Which path of an edit gets the
collision note, and the exact JSON both clients read as added context (mutmut found no
in-process test of this module: the only one ran the hook in a child process)."""

from __future__ import annotations

import json

from carto_core.capture.context import Context, Outcome
from carto_core.capture.output import context_output, edit_collision_output
from carto_core.logio.home import Home
from carto_core.capture.hookpath import run


def test_context_output_is_the_clients_additional_context_document():
    text = context_output("SessionStart", "déjà vu: 3 sessions")
    assert json.loads(text) == {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                       "additionalContext": "déjà vu: 3 sessions"}}
    assert "déjà" in text  # kept as UTF-8, not \u-escaped: the agent reads it as written


def _peer_edited(tmp_path):
    """A home where session `peer` edited proj/app.py; returns (home, project folder)."""
    home = Home(tmp_path / "home")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "app.py").write_text("x = 1\n")
    (proj / "other.py").write_text("y = 2\n")
    peer = {"session_id": "peer", "cwd": str(proj), "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "transcript_path": str(tmp_path / "peer.jsonl"), "tool_input": {"file_path": str(proj / "app.py")}}
    run("claude", "PostToolUse", json.dumps(peer).encode(), home)
    return home, proj


def _note(home, session, cwd, paths):
    ctx = Context(home, "claude", "PreToolUse", {"session_id": session, "cwd": cwd})
    out = Outcome()
    edit_collision_output(ctx, out, paths)
    return out.output


def test_the_first_path_a_peer_touched_gets_the_note(tmp_path):
    home, proj = _peer_edited(tmp_path)
    # a path nobody else touched comes first: the loop goes on to the one the peer edited
    output = _note(home, "me", str(proj), [str(proj / "other.py"), str(proj / "app.py")])
    document = json.loads(output)["hookSpecificOutput"]
    assert document["hookEventName"] == "PreToolUse"
    assert "app.py" in document["additionalContext"] and "other.py" not in document["additionalContext"]


def test_a_relative_path_is_the_cwds_and_an_absolute_one_is_kept(tmp_path):
    home, proj = _peer_edited(tmp_path)
    assert "app.py" in json.loads(_note(home, "me", str(proj), ["app.py"]))["hookSpecificOutput"]["additionalContext"]
    # an absolute path stands on its own, whatever the cwd
    assert _note(home, "me", str(tmp_path / "elsewhere"), [str(proj / "app.py")]) is not None
    # without a cwd a relative path cannot be placed
    assert _note(home, "me", "", ["app.py"]) is None


def test_no_note_for_the_peer_itself_without_a_session_or_without_paths(tmp_path):
    home, proj = _peer_edited(tmp_path)
    assert _note(home, "peer", str(proj), [str(proj / "app.py")]) is None
    assert _note(home, "", str(proj), [str(proj / "app.py")]) is None
    assert _note(home, "me", str(proj), []) is None
    assert _note(home, "me", str(proj), [str(proj / "other.py")]) is None
