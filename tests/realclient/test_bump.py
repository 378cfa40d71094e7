"""bump.py's reduction of a session to shapes and its summary diff (no client needed: these run
everywhere; the tier runs bump's sessions through the same harness)."""

from __future__ import annotations

from .bump import claude_line_types, codex_record_types, diff, payload_shapes


def test_payload_shapes_are_keys_per_event_and_per_tool():
    shapes = payload_shapes([
        {"hook_event_name": "PostToolUse", "session_id": "s", "tool_name": "Bash",
         "tool_input": {"command": "ls"}, "tool_response": {"stdout": "", "gitOperation": {}}},
        {"hook_event_name": "PostToolUse", "session_id": "s", "tool_name": "Bash",
         "tool_input": {"command": "ls", "description": "d"}, "tool_response": "text"},
        {"hook_event_name": "Stop", "session_id": "s", "last_assistant_message": "done"},
    ])
    assert shapes == {
        "PostToolUse": ["hook_event_name", "session_id", "tool_input", "tool_name", "tool_response"],
        "PostToolUse:Bash tool_input": ["command", "description"],
        "PostToolUse:Bash tool_response": ["gitOperation", "stdout", "str"],
        "Stop": ["hook_event_name", "last_assistant_message", "session_id"],
    }


def test_line_types_name_attachments_and_payload_types():
    assert claude_line_types([{"type": "user"}, {"type": "attachment", "attachment": {"type": "date"}},
                              {"type": "cost-state"}]) == ["attachment", "attachment/date", "cost-state", "user"]
    assert codex_record_types([{"type": "session_meta", "payload": {"id": "x"}},
                               {"type": "event_msg", "payload": {"type": "task_started"}}]) == [
        "event_msg/task_started", "session_meta"]


def test_diff_says_what_was_added_and_removed_and_nothing_else():
    old = {"events": {"Stop": 1, "PostToolUse": 2}, "line_types": ["user", "assistant"],
           "payload_keys": {"Stop": ["session_id"], "PostToolUse": ["tool_name"]}}
    new = {"events": {"Stop": 1, "PostToolBatch": 1, "PostToolUse": 5}, "line_types": ["user", "assistant", "tools-used"],
           "payload_keys": {"Stop": ["last_assistant_message", "session_id"], "PostToolUse": ["tool_name"]}}
    assert diff(old, new) == {
        "events": {"added": ["PostToolBatch"], "removed": []},
        "line_types": {"added": ["tools-used"], "removed": []},
        "payload_keys": {"Stop": {"added": ["last_assistant_message"], "removed": []}},
    }
    assert diff(new, new) == {}
