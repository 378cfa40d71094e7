"""Claude Code live capture: `carto hook claude <EventName>` lands here (entry point group
`carto.capture`, name `claude`).

Maps each Claude Code hook event (reference/formats.md 1.8) onto the provider-neutral builders
of `carto_core.capture` (reference/cartographer.md 1.4-1.8):

| event | rows |
|---|---|
| PostToolUse Bash | new commits (`git_commit`: the one `tool_response.gitOperation` names, else the output's `[branch sha]` lines, else the reflog when `duration_ms` is set), shell writes (`bashEditDiff.changedFiles`, else the heuristic), `Pushed:`/`Ran:` unless noise |
| PostToolUse Edit/Write/MultiEdit/NotebookEdit/apply_patch | `tool_file_edit` `Modified: <path>` |
| PostToolUse WebFetch, `mcp__*fetch*`, `mcp__*open*` | research `fetch` + changelog `research_fetch` |
| PostToolUse WebSearch, `mcp__*search*` | research `search` + changelog `research_search` + `search_result` rows |
| PostToolUseFailure Bash | only the commits the failed call made (named by the `error` output's `[branch sha]` lines, else the reflog) |
| PostToolBatch | the rows of each call in `tool_calls` that no PostToolUse row names (by `tool_use_id`): a backstop for a PostToolUse hook that did not run |
| PreToolUse Edit/Write/MultiEdit/NotebookEdit | no row; prints the edit-collision note when a peer touched the file |
| SessionStart | milestone `session_start_<source>` when the source is resume, clear or fork (none for a plain start); starts the detached transcript catch-up; prints the opt-in start note (the transcript does not exist yet: not a problem) |
| UserPromptSubmit (installed by `carto install claude --recall`) | no row (prompts come from history.jsonl); prints prompt-time recall as `additionalContext` (`carto_core.recall.prompt`) |
| PreCompact | milestone `compaction_<trigger>` |
| PostCompact | changelog `derived_compaction_summary` |
| Stop | the live transcript's new and grown turns (`carto_core.capture.live`; the open one marked `"open": true`, the payload's `last_assistant_message` kept as its answer; a transcript that cannot be read or holds no turn yet leaves that answer as a turn row of its own, `answer_only: true`); starts the semantic keep-up |
| SubagentStop | milestone `agent_<type>` for Explore, Plan, general-purpose; the subagent's transcript (`agent_transcript_path`) as Stop |
| SessionEnd | milestone `session_end_<reason>` (dropped when the transcript is gone and the session has no events); the transcript's last turns; starts the semantic keep-up |
| anything else | nothing |

Import-light (stdlib + carto_core's stdlib modules): runs on every tool call.
"""

from __future__ import annotations

import os

# PostToolUse (most calls) needs only these; rarer events import their builders where used.
from carto_core.api import (
    Context, Outcome, capture_file_edit, capture_patch, capture_shell, recorded_tool_calls,
    reported_commits,
)

PROVIDER = "claude"
FILE_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
#: What the SessionStart catch-up ingests (`carto_core.capture.catchup`).
CATCH_UP_SOURCE = "carto_claude.transcripts:catch_up_source"

#: Events that need a session id to write anything.
_ROW_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure", "PostToolBatch", "PreCompact", "PostCompact",
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
    elif event_name == "PostToolBatch":
        _tool_batch(ctx, out)
    elif event_name == "PreToolUse":
        tool, tool_input = payload.get("tool_name"), payload.get("tool_input")
        if tool in FILE_TOOLS and isinstance(tool_input, dict):
            from carto_core.api import edit_collision_output

            edit_collision_output(ctx, out, [p for p in (_file_path(tool, tool_input),) if p])
    elif event_name == "SessionStart":
        _session_start(ctx, out)
    elif event_name == "Stop":
        _live_transcript(ctx, out, ctx.transcript, answer=_str(payload.get("last_assistant_message")),
                         subagents=True, keep_answer=True)
    elif event_name == "UserPromptSubmit":
        _prompt_submit(ctx, out)
    elif event_name == "SessionEnd":
        from carto_core.api import capture_milestone

        reason = _str(payload.get("reason")) or "other"
        capture_milestone(ctx, out, milestone=f"session_end_{reason}", description=f"Session ended ({reason})",
                          drop_when_unverified_and_empty=True)
        from carto_core.api import is_regular

        if ctx.transcript and is_regular(ctx.transcript):  # gone with its session: nothing to add
            _live_transcript(ctx, out, ctx.transcript, subagents=True)
    else:
        # PreCompact, PostCompact, SubagentStop as every provider.
        from carto_core.api import capture_agent_event

        capture_agent_event(ctx, out)
        if event_name == "SubagentStop" and _str(payload.get("agent_transcript_path")):
            _live_transcript(ctx, out, _str(payload.get("agent_transcript_path")),
                             answer=_str(payload.get("last_assistant_message")), keep_up=False)
    return out


def _live_transcript(ctx: Context, out: Outcome, path: str, *, answer: str = "",
                     keep_up: bool = True, subagents: bool = False, keep_answer: bool = False) -> None:
    """Stop, SubagentStop, SessionEnd: the transcript's new and grown turns, written now; with
    `subagents`, those of its subagents' transcripts written since they were last read; with
    `keep_answer`, `answer` even when the transcript cannot be read or holds no turn yet. (Not
    for SubagentStop: Claude Code can fire it before the subagent's file exists, and the next
    Stop reads the answer from that file.)"""
    from carto_core.api import capture_transcript

    from carto_claude.live import READER, SOURCE, stream_key

    capture_transcript(ctx, out, source=SOURCE, key=stream_key(path), path=path, reader=READER,
                       answer=answer, keep_answer=keep_answer)
    if subagents and path.endswith(".jsonl"):
        # Claude Code writes `<session>/subagents/**/agent-<id>.jsonl` and can fire
        # SubagentStop before the file exists (seen under load): that hook reads nothing, so
        # the session's next Stop or its SessionEnd reads what changed since.
        from carto_core.api import transcript_changed

        for folder, dirs, names in os.walk(path[:-len(".jsonl")] + "/subagents"):
            dirs.sort()
            for name in sorted(names):
                agent = os.path.join(folder, name)
                if (name.startswith("agent-") and name.endswith(".jsonl")
                        and transcript_changed(ctx.home, SOURCE, stream_key(agent), agent)):
                    capture_transcript(ctx, out, source=SOURCE, key=stream_key(agent),
                                       path=agent, reader=READER)
    if keep_up:
        from carto_core.api import start_keep_up

        start_keep_up(ctx, out)


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
        command = _str(tool_input.get("command"))
        response = payload.get("tool_response")
        facts = response if isinstance(response, dict) else {}
        # What Claude Code says the call did (2.1.3xx): the commit it made, the files it changed.
        output = facts.get("stdout") if facts else (response if isinstance(response, str) else payload.get("error"))
        diff = facts.get("bashEditDiff")
        changed = diff.get("changedFiles") if isinstance(diff, dict) else None
        capture_shell(ctx, out, tool=tool, command=command, failed=failed,
                      duration_ms=duration if isinstance(duration, (int, float)) and not isinstance(duration, bool) else None,
                      reported_commits=reported_commits(command, ctx.cwd, output, facts.get("gitOperation")),
                      changed_files=[p for p in changed if isinstance(p, str)] if isinstance(changed, list) else None)
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
        from carto_core.api import capture_web_tool

        capture_web_tool(ctx, out, tool=tool, tool_input=tool_input)


def _tool_batch(ctx: Context, out: Outcome) -> None:
    """PostToolBatch: once per batch of tool calls, with every call's input and (text) output.
    A call whose PostToolUse rows exist is done; the others (a PostToolUse hook that timed out,
    crashed or was not installed) are captured here, from what the batch says."""
    calls = [c for c in ctx.payload.get("tool_calls") or () if isinstance(c, dict)]
    ids = [c["tool_use_id"] for c in calls if isinstance(c.get("tool_use_id"), str) and c["tool_use_id"]]
    recorded = recorded_tool_calls(ctx.home, ids)
    for call in calls:
        if call.get("tool_use_id") in recorded:
            continue
        payload = {**ctx.payload, "hook_event_name": "PostToolUse", "tool_name": call.get("tool_name"),
                   "tool_input": call.get("tool_input"), "tool_use_id": call.get("tool_use_id"),
                   "tool_response": call.get("tool_response")}
        payload.pop("tool_calls", None)
        sub = Context(ctx.home, PROVIDER, "PostToolUse", payload, now=ctx.now)
        sub.chained(ctx.parent())  # rows of one batch chain to each other, as one call's do
        _tool_event(sub, out, failed=False)
        ctx.chained(sub.parent())


def _prompt_submit(ctx: Context, out: Outcome) -> None:
    """No row (the prompt comes from history.jsonl); prompt-time recall when it is on (the
    handler is installed by `carto install claude --recall`)."""
    from carto_core.api import prompt_recall

    text = prompt_recall(ctx, out)
    if text:
        from carto_core.api import context_output

        out.output = context_output("UserPromptSubmit", text)


def _session_start(ctx: Context, out: Outcome) -> None:
    # The client fires SessionStart before it writes the transcript, so a missing file is the
    # normal case, not a problem worth a hook.log line.
    from carto_core.api import capture_session_start, start_catch_up

    capture_session_start(ctx, out)
    start_catch_up(ctx, out, CATCH_UP_SOURCE)
    try:
        from carto_core.api import start_note
    except ImportError:
        return
    note = start_note(ctx.home, ctx.session, ctx.cwd)
    if note:
        from carto_core.api import context_output

        out.output = context_output("SessionStart", note)
