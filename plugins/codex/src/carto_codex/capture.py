"""Codex live capture: `carto hook codex <EventName>` lands here (entry point group
`carto.capture`, name `codex`).

Codex sends the same hook shapes as Claude Code (reference/formats.md 2.9) and these rows are
Claude's rows, built by the same provider-neutral builders (`carto_core.capture`), stamped
`provider: "codex"`. Where Codex differs:

| event | rows |
|---|---|
| PostToolUse Bash/shell/exec_command | new commits: the ones the output's `[branch sha] subject` lines name, else read from **HEAD** (Codex payloads carry no `duration_ms`, so no reflog window; never older than the session), shell writes, `Pushed:`/`Ran:` unless noise |
| PostToolUse apply_patch | one `tool_file_edit` row `Modified: a,b` (paths from the patch headers) |
| PostToolUse WebFetch/WebSearch, `mcp__*fetch*`/`open`/`search` | research rows, as Claude |
| PreToolUse apply_patch (and file tools) | no row; prints the edit-collision note for the first patched file a peer touched |
| Stop | milestone `turn_stop` ("Codex turn completed"); the live rollout's new and grown turns (`carto_core.capture.live`, the payload's `last_assistant_message` kept as the answer; a rollout that cannot be read, null and not found by session id, or that has had no turn yet, leaves that answer as a turn row of its own, `answer_only: true`); starts the semantic keep-up |
| PreCompact / PostCompact | as Claude |
| SubagentStop | milestone `agent_<role>` for every subagent (each is one a `spawn_agent` call started; role `default` unless the call named one), Claude's only for Explore, Plan, general-purpose; one event per subagent (`agent_id`), though Codex fires it after each of its turns |
| SessionStart | milestone `session_start_resume` when the source is a restart (0.169 sends `resume` for `codex exec resume`), as Claude's; starts the detached rollout catch-up (`carto_core.capture.catchup`), as Claude's |
| UserPromptSubmit | a prompt-history row (`type: prompt`, the prompt as the summary, cut at `PROMPT_MAX` characters, id stable per session and `turn_id`): searchable before the rollout is ingested; prompt-time recall as `additionalContext` when `[recall] prompt = true` or `CARTO_PROMPT_RECALL=1` (`carto_core.recall.prompt`) |
| SessionEnd | milestone `session_end_<reason>` (0.169 sends reason `other`), as Claude's; the rollout's last turns, as Stop |
| anything else | nothing |

Codex has no PostToolUseFailure. Its `transcript_path` may be null: for milestones the rollout
is then looked up by session id (`carto_core.transcript.resolver`).

Import-light (stdlib + carto_core's stdlib modules): runs on every tool call.
"""

from __future__ import annotations

import os

# PostToolUse (most calls) needs only these; rarer events import their builders where used.
from carto_core.api import (
    Context, Outcome, capture_file_edit, capture_patch, capture_shell, reported_commits,
)

from carto_codex.patch import patch_paths, patch_text

PROVIDER = "codex"
SHELL_TOOLS = frozenset({"Bash", "shell", "exec_command", "local_shell", "container.exec"})
FILE_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
TURN_STOP_DESCRIPTION = "Codex turn completed"
#: What the SessionStart catch-up ingests (`carto_core.capture.catchup`).
CATCH_UP_SOURCE = "carto_codex.source:catch_up_source"

#: Events that need a session id to write anything.
_ROW_EVENTS = frozenset({"PostToolUse", "PreCompact", "PostCompact", "SubagentStop", "Stop", "SessionEnd",
                         "UserPromptSubmit"})
#: Events whose milestone row says whether the transcript exists (worth a lookup when null).
_MILESTONE_EVENTS = frozenset({"PreCompact", "SubagentStop", "Stop", "SessionEnd"})


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def shell_command(tool_input: dict) -> str:
    """The command line of a shell call: `command` as a string, or an argv list joined
    (`["bash", "-lc", "git commit -m x"]` becomes its script)."""
    command = tool_input.get("command")
    if command is None:
        command = tool_input.get("cmd")
    if isinstance(command, list):
        parts = [str(p) for p in command]
        if len(parts) >= 3 and parts[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh") and parts[1] in ("-lc", "-c"):
            return parts[2]
        return " ".join(parts)
    return _str(command)


def handle(event_name: str, payload: dict, home) -> Outcome:
    out = Outcome()
    if event_name in _MILESTONE_EVENTS and not _str(payload.get("transcript_path")):
        payload = {**payload, "transcript_path": _find_rollout(_str(payload.get("session_id")))}
    ctx = Context(home, PROVIDER, event_name, payload)
    if event_name in _ROW_EVENTS and not ctx.session:
        out.problems.append("payload has no session_id; nothing captured")
        return out
    if event_name == "PostToolUse":
        _tool_event(ctx, out)
    elif event_name == "PreToolUse":
        _pre_tool_use(ctx, out)
    elif event_name == "SessionStart":
        from carto_core.api import capture_session_start, start_catch_up

        capture_session_start(ctx, out)
        start_catch_up(ctx, out, CATCH_UP_SOURCE)
    elif event_name == "Stop":
        from carto_core.api import capture_milestone

        capture_milestone(ctx, out, milestone="turn_stop", description=TURN_STOP_DESCRIPTION)
        _live_rollout(ctx, out, ctx.transcript, answer=_str(payload.get("last_assistant_message")),
                      keep_answer=True)
    elif event_name == "SessionEnd":
        from carto_core.api import capture_milestone

        reason = _str(payload.get("reason")) or "other"
        capture_milestone(ctx, out, milestone=f"session_end_{reason}", description=f"Session ended ({reason})",
                          drop_when_unverified_and_empty=True)
        if ctx.transcript and os.path.exists(ctx.transcript):
            _live_rollout(ctx, out, ctx.transcript)  # the rollout's last lines, final
    elif event_name == "UserPromptSubmit":
        _prompt(ctx, out)
        from carto_core.api import prompt_recall

        text = prompt_recall(ctx, out)
        if text:
            from carto_core.api import context_output

            out.output = context_output("UserPromptSubmit", text)
    else:
        # PreCompact, PostCompact as Claude (Codex's PostCompact may carry no summary);
        # SubagentStop for every subagent: each is one a spawn_agent call started.
        from carto_core.api import capture_agent_event

        capture_agent_event(ctx, out, quiet_without_summary=True, every_subagent=True)
    return out


def _live_rollout(ctx: Context, out: Outcome, path: str, *, answer: str = "",
                  keep_answer: bool = False) -> None:
    """Stop: the rollout's new and grown turns, written now (with `keep_answer`, `answer` even
    when the rollout cannot be read or has had no turn yet); then the semantic keep-up."""
    from carto_core.api import capture_transcript, start_keep_up

    from carto_codex.live import READER, SOURCE, stream_key

    capture_transcript(ctx, out, source=SOURCE, key=stream_key(path) if path else "", path=path,
                       reader=READER, answer=answer, keep_answer=keep_answer)
    start_keep_up(ctx, out)


def _find_rollout(session: str) -> str:
    if not session:
        return ""
    try:
        from carto_core.api import find_session

        found = find_session(session, provider="codex")
    except Exception:
        return ""
    return str(found) if found is not None else ""


def _tool_event(ctx: Context, out: Outcome) -> None:
    payload = ctx.payload
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if not isinstance(tool, str) or not tool:
        out.problems.append("payload has no tool_name; nothing captured")
        return
    if isinstance(tool_input, str) and tool == "apply_patch":
        tool_input = {"input": tool_input}
    if not isinstance(tool_input, dict):
        out.problems.append(f"{tool}: payload has no tool_input object; nothing captured")
        return
    if tool in SHELL_TOOLS:
        command = shell_command(tool_input)
        if "*** Begin Patch" in command and "apply_patch" in command:
            capture_patch(ctx, out, tool="apply_patch", patch=patch_text({"command": command}) or command)
            return
        # No duration_ms on Codex payloads: the commits git printed, else a fresh, unlogged HEAD commit.
        response = payload.get("tool_response")
        output = response if isinstance(response, str) else (
            _str(response.get("output")) or _str(response.get("stdout")) if isinstance(response, dict) else "")
        capture_shell(ctx, out, tool=tool, command=command, failed=False, duration_ms=None,
                      reported_commits=reported_commits(command, ctx.cwd, output))
    elif tool == "apply_patch":
        capture_patch(ctx, out, tool=tool, patch=patch_text(tool_input))
    elif tool in FILE_TOOLS:
        path = _str(tool_input.get("file_path")) or _str(tool_input.get("path"))
        if path:
            capture_file_edit(ctx, out, tool=tool, paths=[path])
    else:
        from carto_core.api import capture_web_tool

        capture_web_tool(ctx, out, tool=tool, tool_input=tool_input)


#: A prompt row keeps this many characters (a Stop's answer as many): a pasted 20 MB log
#: redacted and written whole outran the hook's timeout, and the row was lost.
PROMPT_MAX = 16_000
#: How much of the payload's prompt is read at most, before its whitespace is folded.
PROMPT_READ = 4 * PROMPT_MAX


def _prompt(ctx: Context, out: Outcome) -> None:
    """UserPromptSubmit: the prompt as a prompt-history row (upstream's prompt shape), so it is
    found before the rollout is ingested; its id is stable per (session, turn), so a repeated
    hook call folds."""
    import hashlib

    from carto_core.api import SALIENCE, clip, flatten, order_row

    raw = _str(ctx.payload.get("prompt"))
    if len(raw) > PROMPT_READ:
        # The word the read cuts is dropped whole: half a credential is too short for its rule.
        raw = raw[:PROMPT_READ + 1].rsplit(None, 1)[0]
    prompt = clip(" ".join(raw.split()), PROMPT_MAX, tail="…")
    if not prompt:
        return
    turn = _str(ctx.payload.get("turn_id")) or ctx.timestamp
    digest = hashlib.sha256(f"codex-prompt|{ctx.session}|{turn}".encode()).hexdigest()[:12]
    out.add("prompts", order_row("prompts", {
        "event_id": f"evt-{digest}", "timestamp": ctx.timestamp, "type": "prompt", "provider": PROVIDER,
        "summary": flatten(prompt), "project": ctx.project or None, "cwd": ctx.cwd or None,
        "session_id": ctx.session, "transcript_path": ctx.transcript or None, "salience": SALIENCE["prompt"],
    }))


def _pre_tool_use(ctx: Context, out: Outcome) -> None:
    tool = ctx.payload.get("tool_name")
    tool_input = ctx.payload.get("tool_input")
    if tool == "apply_patch":
        paths = patch_paths(patch_text(tool_input if not isinstance(tool_input, str) else {"input": tool_input}))
    elif tool in FILE_TOOLS and isinstance(tool_input, dict):
        paths = [p for p in (_str(tool_input.get("file_path")) or _str(tool_input.get("path")),) if p]
    else:
        return
    from carto_core.api import edit_collision_output

    edit_collision_output(ctx, out, paths)
