"""Claude Code live capture: `carto hook claude <EventName>` lands here (entry point group
`carto.capture`, name `claude`).

Maps each Claude Code hook event (reference/formats.md 1.8) onto the provider-neutral builders
of `carto_core.capture` (reference/cartographer.md 1.4-1.8):

| event | rows |
|---|---|
| PostToolUse Bash | new commits (`git_commit`, reflog when `duration_ms` is set), shell writes, `Pushed:`/`Ran:` unless noise |
| PostToolUse Edit/Write/MultiEdit/NotebookEdit/apply_patch | `tool_file_edit` `Modified: <path>` |
| PostToolUse WebFetch, `mcp__*fetch*`, `mcp__*open*` | research `fetch` + changelog `research_fetch` |
| PostToolUse WebSearch, `mcp__*search*` | research `search` + changelog `research_search` + `search_result` rows |
| PostToolUseFailure Bash | only the commits the failed call made |
| PreToolUse Edit/Write/MultiEdit/NotebookEdit | no row; prints the edit-collision note when a peer touched the file |
| SessionStart | no row; starts the detached transcript catch-up; prints the opt-in start note |
| PreCompact | milestone `compaction_<trigger>` |
| PostCompact | changelog `derived_compaction_summary` |
| SubagentStop | milestone `agent_<type>` for Explore, Plan, general-purpose |
| SessionEnd | milestone `session_end_<reason>` (dropped when the transcript is gone and the session has no events) |
| Stop, anything else | nothing |

Import-light (stdlib + carto_core's stdlib modules): runs on every tool call.
"""

from __future__ import annotations

import os

# PostToolUse (most calls) needs only these; rarer events import their builders where used.
from carto_core.capture.context import Context, Outcome
from carto_core.capture.tooluse import capture_file_edit, capture_patch, capture_shell

PROVIDER = "claude"
FILE_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
#: What the SessionStart catch-up ingests (`carto_core.capture.catchup`).
CATCH_UP_SOURCE = "carto_claude.transcripts:catch_up_source"

#: Events that need a session id to write anything.
_ROW_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure", "PreCompact", "PostCompact",
                         "SubagentStop", "SessionEnd"})


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _file_path(tool: str, tool_input: dict) -> str:
    key = "notebook_path" if tool == "NotebookEdit" else "file_path"
    return _str(tool_input.get(key)) or _str(tool_input.get("file_path")) or _str(tool_input.get("path"))


def _patch_text(tool_input: dict) -> str:
    for key in ("patch", "input", "command"):
        value = tool_input.get(key)
        if isinstance(value, list):
            value = "\n".join(str(v) for v in value)
        if isinstance(value, str) and "*** " in value:
            return value
    return ""


def handle(event_name: str, payload: dict, home) -> Outcome:
    out = Outcome()
    ctx = Context(home, PROVIDER, event_name, payload)
    if event_name in _ROW_EVENTS and not ctx.session:
        out.problems.append("payload has no session_id; nothing captured")
        return out
    if event_name in ("PostToolUse", "PostToolUseFailure"):
        _tool_event(ctx, out, failed=event_name == "PostToolUseFailure")
    elif event_name == "PreToolUse":
        tool, tool_input = payload.get("tool_name"), payload.get("tool_input")
        if tool in FILE_TOOLS and isinstance(tool_input, dict):
            from carto_core.capture.output import edit_collision_output

            edit_collision_output(ctx, out, [p for p in (_file_path(tool, tool_input),) if p])
    elif event_name == "SessionStart":
        _session_start(ctx, out)
    elif event_name == "SessionEnd":
        from carto_core.capture.milestones import capture_milestone

        reason = _str(payload.get("reason")) or "other"
        capture_milestone(ctx, out, milestone=f"session_end_{reason}", description=f"Session ended ({reason})",
                          drop_when_unverified_and_empty=True)
    else:
        # PreCompact, PostCompact, SubagentStop as every provider; Stop writes nothing (upstream:
        # prompts come from history.jsonl).
        from carto_core.capture.milestones import capture_agent_event

        capture_agent_event(ctx, out)
    return out


def _tool_event(ctx: Context, out: Outcome, *, failed: bool) -> None:
    payload = ctx.payload
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if not isinstance(tool, str) or not tool:
        out.problems.append("payload has no tool_name; nothing captured")
        return
    if not isinstance(tool_input, dict):
        out.problems.append(f"{tool}: payload has no tool_input object; nothing captured")
        return
    if tool == "Bash":
        duration = payload.get("duration_ms")
        capture_shell(ctx, out, tool=tool, command=_str(tool_input.get("command")), failed=failed,
                      duration_ms=duration if isinstance(duration, (int, float)) and not isinstance(duration, bool) else None)
        return
    if failed:
        return  # a failed edit or fetch changed nothing worth a row
    if tool in FILE_TOOLS:
        path = _file_path(tool, tool_input)
        if path:
            capture_file_edit(ctx, out, tool=tool, paths=[path])
    elif tool == "apply_patch":
        capture_patch(ctx, out, tool=tool, patch=_patch_text(tool_input))
    else:
        from carto_core.capture.webtools import capture_web_tool

        capture_web_tool(ctx, out, tool=tool, tool_input=tool_input)


def _session_start(ctx: Context, out: Outcome) -> None:
    if ctx.transcript and not os.path.exists(ctx.transcript):
        out.problems.append(f"transcript_path {ctx.transcript} does not exist (yet)")
    from carto_core.capture.catchup import start_catch_up

    start_catch_up(ctx, out, CATCH_UP_SOURCE)
    try:
        from carto_core.lenses.start_note import start_note
    except ImportError:
        return
    note = start_note(ctx.home, ctx.session, ctx.cwd)
    if note:
        from carto_core.capture.output import context_output

        out.output = context_output("SessionStart", note)
