"""Codex rollouts into turns (`turn-codex-<sid>-<idx>`, the upstream turn shape).

A rollout (`reference/formats.md` section 2) interleaves two logs: `response_item` (what the
model saw) and `event_msg` (what the UI showed). The human prompt occurs in both; we take it from
`event_msg/user_message` and fall back to `response_item` user messages only in files that have
no `user_message` events (older writers). Scaffolding that Codex injects as user messages
(environment context, AGENTS.md, permission and user instructions) never starts a turn. A
0.169 sub-agent's rollout has no `user_message`: a `response_item/agent_message` sent to its
own `agent_path` after `inter_agent_communication_metadata {trigger_turn: true}` is its prompt
(the text blocks; `encrypted_content` is never read), the turn starting at the metadata line.

A turn is a human prompt and everything up to the next one: the assistant's messages (the
`response_item` copies, else the `event_msg/agent_message` ones) and the tool calls with a
clipped view of their output. Reasoning is never rendered (it is encrypted or a summary of what
follows anyway).

A sub-agent's rollout (`session_meta.payload.source.subagent.thread_spawn`) begins by replaying
lines of its parent; those lines are dropped (they are the parent's turns) when they equal a line
of the parent's rollout or are older than the child's own `session_meta`. Its turns carry the
parent's id in `parent_session`; the parent's `spawn_agent` call carries `spawned`, the child's
first turn id (from the `collab_tool_call` event naming `new_thread_id`; in 0.169 the
`item_completed` event whose `SubAgentActivity` item, `kind: "started"`, names `agent_thread_id`).

Unknown record types are skipped and counted (`unknown_type:<t>`; a type that is no string:
`no_type`), though one stamped later than its turn's end so far moves that end (`ended`: it was
written while the turn went on); a line that is not JSON is
counted (`broken_line`); a last line without its newline is a rollout still being written or
cut short (`torn_line`): it is not read, and the turn it belongs to waits for the next run.

Stdlib only (the Stop hook parses the live rollout with it): the decoder is a parameter, and
the backfill passes orjson's.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from carto_core.api import (
    SPAWN_TOOLS, ToolLog, UsageSum, clip, codex_usage, commit_from_output, holds, set_edits, shell,
)

from carto_codex.patch import patch_paths

SCAFFOLDING_PREFIXES = (
    "<environment_context>",
    "# AGENTS.md instructions for",
    "<INSTRUCTIONS>",
    "<permissions instructions>",
    "<user_instructions>",
)

#: Record kinds of a rollout line; anything else is skipped and counted.
KNOWN_TYPES = frozenset({
    "session_meta", "turn_context", "response_item", "event_msg", "compacted", "world_state",
    "inter_agent_communication", "inter_agent_communication_metadata",
    # 0.169: per-response token usage (no conversation in it).
    "token_usage_record",
})
#: `event_msg` kinds that close a turn (both spellings occur, by version).
TURN_END_EVENTS = frozenset({"turn_complete", "task_complete", "turn_aborted"})
TOOL_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call",
                        "tool_search_call", "image_generation_call"})
TOOL_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output", "tool_search_output"})
#: Argument keys whose values say what a tool call did (upstream harvests similar keys).
HARVESTED_ARGS = ("cmd", "command", "query", "url", "path", "file_path", "pattern", "message",
                  "prompt", "task_name", "description", "plan")

TURN_BODY_MAX = 50_000
TOOL_TEXT_MAX = 300
OUTPUT_TEXT_MAX = 200
SETTLE_SECONDS = 600


def is_scaffolding(text: str) -> bool:
    return text.lstrip().startswith(SCAFFOLDING_PREFIXES)


def content_text(content: object) -> str:
    """Text of a message's content: a string, or blocks with `text`."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text") for b in content if isinstance(b, dict)]
        return " ".join(p for p in parts if isinstance(p, str) and p)
    return ""


#: The header Codex's unified exec puts before a tool's output ("Chunk ID: 9f2c1a", "Wall time:
#: 0.0000 seconds", "Process exited with code 0", "Original token count: 22", "Output:"; an
#: apply_patch run through exec_command nests its own "Exit code: 0 / Wall time / Output:").
_OUTPUT_HEADER_LINE = re.compile(
    r"(?:Chunk ID|Wall time|Process exited with code|Process running with session ID|"
    r"Original token count|Exit code|Total output lines)\b[^\n]*\n|Output:\n")
_EXIT_CODE = re.compile(r"(?:Process exited with code|Exit code:)\s*(-?\d+)")


def split_output_header(text: str) -> tuple[int | None, str]:
    """(exit code the header names, or None; the output after Codex's exec header)."""
    position = 0
    code = None
    while True:
        match = _OUTPUT_HEADER_LINE.match(text, position)
        if match is None:
            break
        found = _EXIT_CODE.match(match.group(0))
        if found:
            code = int(found.group(1))
        position = match.end()
    return code, text[position:]


def strip_output_header(text: str) -> str:
    """A tool output without Codex's exec header (it filled most of what a turn kept); a
    non-zero exit code survives as `(exit N)`."""
    code, body = split_output_header(text)
    return f"(exit {code}) {body}" if code else body


def _clip(text: str, limit: int) -> str:
    return clip(" ".join(text.split()), limit, "…")


def describe_call(payload: dict) -> tuple[str, str]:
    """(tool name, what it did) for one tool-call item."""
    kind = payload.get("type")
    name = payload.get("name") if isinstance(payload.get("name"), str) else str(kind)
    if kind == "custom_tool_call":
        text = payload.get("input") if isinstance(payload.get("input"), str) else ""
        if name == "apply_patch":
            return name, ", ".join(patch_paths(text))
        return name, text
    if kind == "local_shell_call":
        action = payload.get("action") if isinstance(payload.get("action"), dict) else {}
        command = action.get("command")
        return "shell", " ".join(command) if isinstance(command, list) else str(command or "")
    if kind == "web_search_call":
        action = payload.get("action") if isinstance(payload.get("action"), dict) else {}
        return "web_search", str(action.get("query") or "")
    arguments = payload.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return name, arguments
    if not isinstance(arguments, dict):
        return name, ""
    if name == "apply_patch" or "*** Begin Patch" in str(arguments.get("input", "")):
        from carto_codex.patch import patch_text

        return name, ", ".join(patch_paths(patch_text(arguments)))
    parts = []
    for key in HARVESTED_ARGS:
        value = arguments.get(key)
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        if isinstance(value, str) and value:
            parts.append(value)
    return name, " ".join(parts)


def call_workdir(payload: dict) -> str:
    """The working directory a tool call names (`workdir` argument), "" when none."""
    if payload.get("type") == "local_shell_call":
        action = payload.get("action") if isinstance(payload.get("action"), dict) else {}
        value = action.get("working_directory")
        return value if isinstance(value, str) else ""
    arguments = payload.get("arguments")
    if isinstance(arguments, str) and "workdir" not in arguments:
        return ""  # most calls name none: not worth a parse
    value = _arguments(payload).get("workdir")
    return value if isinstance(value, str) else ""


def _arguments(payload: dict) -> dict:
    """A function call's arguments as an object (sent as a JSON string); {} when there are none."""
    arguments = payload.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return {}
    return arguments if isinstance(arguments, dict) else {}


@dataclass
class Turn:
    offset: int  # byte offset of the line that starts the turn
    timestamp: object
    prompt: str
    item_texts: list[str] = field(default_factory=list)
    event_texts: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    closed: bool = False
    #: The row's structured `tools` field (carto_core.capture.turnactivity): calls, edits, commits.
    calls: ToolLog = field(default_factory=ToolLog)
    commit_calls: set = field(default_factory=set)  # call ids whose command ran a commit verb
    #: The Stop payload's final answer, when the rollout does not hold it (yet).
    answer: str = ""
    #: Tokens the API reported for the turn's requests (`token_count` events).
    usage: UsageSum = field(default_factory=UsageSum)
    #: The timestamp of the turn's newest record: when its answer (or its last call) ended.
    last: str = ""

    def body(self, limit: int = TURN_BODY_MAX) -> str:
        texts = self.item_texts or self.event_texts
        body = " ".join(self.prompt.split())
        if texts:
            body += " " + " ".join(" ".join(t.split()) for t in texts)
        answer = " ".join(self.answer.split())
        if answer and not holds(body, answer):  # the answer is redacted, the body not yet
            body += " " + answer
        if self.tools:
            body += " [tools: " + "; ".join(self.tools) + "]"
        return clip(body, limit, "…")


@dataclass
class SessionState:
    """What a rollout's opening lines said; kept in the checkpoint to resume mid-file."""

    session: str = ""
    parent: str = ""
    #: A sub-agent's own path (`/root/<task>`): the recipient of the messages that start its turns.
    agent_path: str = ""
    cwd: str = ""
    project: str = ""
    meta_timestamp: str = ""
    user_events: bool = False
    replay_done: bool = True
    next_idx: int = 1

    def as_dict(self) -> dict:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: dict) -> "SessionState":
        state = cls()
        for key, value in data.items():
            if hasattr(state, key) and type(value) is type(getattr(state, key)):
                setattr(state, key, value)
        return state


@dataclass
class ParseResult:
    state: SessionState
    turns: list[Turn]
    #: Byte offset just past the last complete line read.
    end: int
    lines: int = 0
    skipped: Counter = field(default_factory=Counter)
    torn: bool = False
    workdirs: Counter = field(default_factory=Counter)
    #: The `timestamp` of the newest record read (raw), for the settle rule.
    newest_stamp: object = None


def _subagent_parent(meta: dict) -> str:
    """The parent thread of a sub-agent's rollout, "" for a top-level thread."""
    source = meta.get("source")
    if isinstance(source, dict):
        sub = source.get("subagent")
        spawn = sub.get("thread_spawn") if isinstance(sub, dict) else None
        if isinstance(spawn, dict) and isinstance(spawn.get("parent_thread_id"), str):
            return spawn["parent_thread_id"]
    value = meta.get("parent_thread_id")  # newer writers put it on the meta itself
    return value if isinstance(value, str) else ""


def _agent_path(meta: dict) -> str:
    """A sub-agent thread's path (0.169: `agent_path` on the meta and in its `thread_spawn`)."""
    source = meta.get("source")
    sub = source.get("subagent") if isinstance(source, dict) else None
    spawn = sub.get("thread_spawn") if isinstance(sub, dict) else None
    for value in (meta.get("agent_path"), spawn.get("agent_path") if isinstance(spawn, dict) else None):
        if isinstance(value, str) and value:
            return value
    return ""


def _readable_text(content: object) -> str:
    """The text blocks of an inter-agent message; its `encrypted_content` is never read."""
    if not isinstance(content, list):
        return content_text(content)
    parts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") in ("input_text", "text")]
    return " ".join(p for p in parts if isinstance(p, str) and p)


def parse_rollout(
    data: bytes,
    *,
    start: int = 0,
    state: SessionState | None = None,
    parent_lines: frozenset[bytes] | set[bytes] = frozenset(),
    loads=json.loads,
) -> ParseResult:
    """Parse rollout bytes (`data` begins at file offset `start`) into turns.

    `state` is None for a read from the beginning; `parent_lines` are the raw lines of a
    sub-agent's parent rollout (to drop the lines the child replays); `loads` decodes a line
    (raising ValueError on bad JSON: json's and orjson's both do).
    """
    fresh = state is None
    state = SessionState() if state is None else state
    result = ParseResult(state=state, turns=[], end=start)
    records: list[tuple[int, bytes, dict]] = []
    position = 0
    size = len(data)
    while position < size:
        newline = data.find(b"\n", position)
        if newline < 0:
            if data[position:].strip():
                result.torn = True
                result.skipped["torn_line"] += 1
            break
        raw = data[position:newline]
        offset = start + position
        position = newline + 1
        if not raw.strip():
            continue
        result.lines += 1
        try:
            obj = loads(raw)
        except ValueError:
            # Bytes that are not UTF-8 cost only themselves (U+FFFD), not the whole line.
            obj = _loads_lossy(raw, loads)
            if obj is None:
                result.skipped["broken_line"] += 1
                continue
            result.skipped["invalid_utf8_replaced"] += 1
        if not isinstance(obj, dict):
            result.skipped["broken_line"] += 1
            continue
        if obj.get("type") == "event_msg" and _kind(obj) == "user_message":
            state.user_events = True
        if obj.get("timestamp") is not None:
            result.newest_stamp = obj["timestamp"]
        records.append((offset, raw, obj))
    result.end = start + position

    current: Turn | None = None
    saw_meta = not fresh
    #: Offset of an `inter_agent_communication_metadata {trigger_turn: true}` line: the
    #: message after it, sent to this sub-agent, starts a turn there (a re-read resumes there).
    trigger: int | None = None
    for offset, raw, obj in records:
        kind = obj.get("type")
        payload = obj.get("payload")
        payload = payload if isinstance(payload, dict) else {}
        if kind == "session_meta":
            if not saw_meta:
                saw_meta = True
                _read_meta(state, payload, obj)
            else:
                result.skipped["extra_session_meta"] += 1
            continue
        if not state.replay_done:
            if raw.strip() in parent_lines or _older(obj.get("timestamp"), state.meta_timestamp):
                result.skipped["replayed_parent_line"] += 1
                continue
            state.replay_done = True
        if not isinstance(kind, str) or kind not in KNOWN_TYPES:
            # Not read, but written while the turn went on (a newer Codex's record): a later
            # time ends the turn later. Only a later instant counts, not any string.
            result.skipped[f"unknown_type:{kind}" if isinstance(kind, str) else "no_type"] += 1
            stamp = obj.get("timestamp")
            if current is not None and _older(current.last or current.timestamp, stamp):
                current.last = stamp
            continue
        if kind == "inter_agent_communication_metadata":
            trigger = offset if payload.get("trigger_turn") is True else None
        elif kind == "event_msg":
            sub = payload.get("type")
            if sub == "user_message":
                text = payload.get("message") if isinstance(payload.get("message"), str) else ""
                if not text.strip() or is_scaffolding(text):
                    result.skipped["scaffolding" if text.strip() else "empty_prompt"] += 1
                    continue
                current = Turn(offset, obj.get("timestamp"), text)
                result.turns.append(current)
            elif sub == "agent_message" and current is not None:
                text = payload.get("message")
                if isinstance(text, str) and text.strip():
                    current.event_texts.append(text)
            elif sub in TURN_END_EVENTS and current is not None:
                current.closed = True
            elif sub == "item_completed" and current is not None:
                _completed_item(current, payload.get("item"))
            elif sub == "collab_tool_call" and current is not None:
                _spawned_thread(current, payload)
            elif sub == "token_count" and current is not None:
                current.usage.add(codex_usage(payload))
        elif kind == "response_item":
            sub = payload.get("type")
            if sub == "agent_message":
                # 0.169: a sub-agent's task comes as a message from its parent agent, never as
                # a user_message; one that triggers a turn and is addressed to this thread is
                # its prompt.
                if (trigger is not None and state.agent_path and not state.user_events
                        and payload.get("recipient") == state.agent_path):
                    current = Turn(trigger, obj.get("timestamp"), _readable_text(payload.get("content")))
                    result.turns.append(current)
                trigger = None
            elif sub == "message":
                role = payload.get("role")
                text = content_text(payload.get("content") if "content" in payload else payload.get("text"))
                if role == "user":
                    if is_scaffolding(text):
                        result.skipped["scaffolding"] += 1
                    elif not state.user_events and text.strip():
                        current = Turn(offset, obj.get("timestamp"), text)
                        result.turns.append(current)
                elif role == "assistant" and current is not None and text.strip():
                    current.item_texts.append(text)
            elif sub in TOOL_CALLS:
                workdir = call_workdir(payload)
                if workdir:
                    result.workdirs[workdir] += 1
                if current is not None:
                    name, what = describe_call(payload)
                    current.tools.append(_clip(f"{name} {what}".strip(), TOOL_TEXT_MAX))
                    _record_call(current, payload, name, obj.get("timestamp"), workdir or state.cwd)
            elif sub in TOOL_OUTPUTS and current is not None:
                output = payload.get("output")
                code, text = split_output_header(output if isinstance(output, str) else content_text(output))
                _record_output(current, payload.get("call_id"), code, text, state.cwd)
                text = f"(exit {code}) {text}" if code else text
                if text.strip() and current.tools:
                    current.tools[-1] += " -> " + _clip(text, OUTPUT_TEXT_MAX)
        stamp = obj.get("timestamp")
        if current is not None and isinstance(stamp, str) and stamp:
            current.last = stamp
    if not saw_meta:
        result.skipped["no_session_meta"] += 1
    return result


def _call_text(payload: dict) -> str:
    """The whole text a call ran: a shell command or a patch (not clipped)."""
    if payload.get("type") == "custom_tool_call":
        return payload.get("input") if isinstance(payload.get("input"), str) else ""
    if payload.get("type") == "local_shell_call":
        action = payload.get("action") if isinstance(payload.get("action"), dict) else {}
        command = action.get("command")
        return " ".join(command) if isinstance(command, list) else str(command or "")
    arguments = payload.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return arguments
    if not isinstance(arguments, dict):
        return ""
    for key in ("cmd", "command", "input", "patch"):
        value = arguments.get(key)
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        if isinstance(value, str) and value:
            return value
    return ""


def _record_call(turn: Turn, payload: dict, name: str, at: object, cwd: str) -> None:
    """A tool call on the turn's `tools` field: its edits as far as the call itself says
    (a patch's paths, an `apply_patch` heredoc sent through `exec_command`, which fires no
    hook, a shell write), refined by its output and `item_completed` later."""
    text = _call_text(payload)
    entry = turn.calls.call(payload.get("call_id"), name, text or describe_call(payload)[1], at)
    if entry is None:
        return
    if name in SPAWN_TOOLS:  # its role, when the call names one (Codex's default role else)
        role = _arguments(payload).get("agent_type")
        if isinstance(role, str) and role.strip():
            entry["agent_type"] = clip(role.strip(), 64)
    if "*** Begin Patch" in text:
        set_edits(entry, patch_paths(text), cwd)
    elif text:
        set_edits(entry, shell.shell_writes(text), cwd)
        if shell.mentions_commit(shell.git_calls(text, cwd)) and isinstance(payload.get("call_id"), str):
            turn.commit_calls.add(payload["call_id"])


def _record_output(turn: Turn, call_id: object, code: int | None, text: str, cwd: str) -> None:
    entry = turn.calls.get(call_id)
    if entry is None:
        return
    if call_id in turn.commit_calls:
        commit = commit_from_output(text)
        if commit:
            entry["commit"] = commit
    if code:
        entry["failed"] = True
        entry.pop("edits", None)


def _completed_item(turn: Turn, item: object) -> None:
    """`event_msg/item_completed` (0.169): a FileChange names the absolute paths a patch
    changed; a failed file change or command edited nothing; a SubAgentActivity `started`
    names the thread its `spawn_agent` call started (`agent_thread_id`), as `collab_tool_call`
    did before it."""
    if not isinstance(item, dict):
        return
    entry = turn.calls.get(item.get("id"))
    if entry is None:
        return
    if item.get("type") == "SubAgentActivity" and item.get("kind") == "started":
        _spawned(entry, item.get("agent_thread_id"))
    if item.get("type") == "FileChange" and isinstance(item.get("changes"), dict):
        set_edits(entry, list(item["changes"]))
    failed = item.get("status") == "failed" or (
        isinstance(item.get("exit_code"), int) and not isinstance(item.get("exit_code"), bool) and item["exit_code"] != 0)
    if failed:
        entry["failed"] = True
        entry.pop("edits", None)


def _spawned_thread(turn: Turn, payload: dict) -> None:
    """`event_msg/collab_tool_call` (before 0.169): the thread a `spawn_agent` call started
    (`new_thread_id`)."""
    entry = turn.calls.get(payload.get("call_id"))
    if entry is not None:
        _spawned(entry, payload.get("new_thread_id"))


def _spawned(entry: dict, child: object) -> None:
    """The thread a `spawn_agent` call started, recorded on the call as `spawned`: the id of
    that sub-agent's first turn (`carto session --tree` hangs its rollout there)."""
    if isinstance(child, str) and _THREAD_ID.match(child):
        entry["spawned"] = f"turn-codex-{child}-1"


_THREAD_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")


def _loads_lossy(raw: bytes, loads=json.loads) -> object:
    try:
        raw.decode("utf-8")
        return None  # valid UTF-8, so the JSON itself is broken
    except UnicodeDecodeError:
        pass
    try:
        return loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        return None


def _kind(obj: dict) -> object:
    payload = obj.get("payload")
    return payload.get("type") if isinstance(payload, dict) else None


def _read_meta(state: SessionState, payload: dict, obj: dict) -> None:
    sid = payload.get("id") or payload.get("session_id")
    if isinstance(sid, str) and sid.strip():
        state.session = sid.strip()
    if isinstance(payload.get("cwd"), str):
        state.cwd = payload["cwd"]
    stamp = payload.get("timestamp") or obj.get("timestamp")
    state.meta_timestamp = stamp if isinstance(stamp, str) else ""
    state.parent = _subagent_parent(payload)
    state.replay_done = not state.parent
    state.agent_path = _agent_path(payload) if state.parent else ""


def _older(stamp: object, reference: object) -> bool:
    """True when `stamp` is an instant before `reference` (both ISO strings)."""
    if not isinstance(stamp, str) or not isinstance(reference, str) or not reference:
        return False
    from carto_core.api import parse_timestamp

    a, b = parse_timestamp(stamp), parse_timestamp(reference)
    return a is not None and b is not None and a < b


def infer_project(cwd: str, workdirs: Counter) -> str:
    """session_meta.cwd's project, else the most frequent tool workdir's, else "unknown"."""
    from carto_core.api import project_for

    name = project_for(cwd) if cwd else ""
    if name:
        return name
    for workdir, _ in workdirs.most_common():
        name = project_for(workdir)
        if name:
            return name
    return "unknown"


def settled(path: Path, settle_seconds: float, now: float | None = None,
            last_stamp: float | None = None) -> bool:
    """A rollout untouched for `settle_seconds`, or whose newest record is that old (a copy
    made now of an old rollout), is finished: its last turn is final (`carto_core.transcript.settle`)."""
    from carto_core.api import is_finished

    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return False
    return is_finished(mtime, last_stamp, settle_seconds, now if now is not None else time.time())


# ---------------------------------------------------------------------------------------------
# One read of one rollout from its checkpoint (the backfill source and the Stop hook)

CHECKPOINT_VERSION = 1


def read_rollout(path: Path, checkpoint: dict | None, *, settle_seconds: float = SETTLE_SECONDS,
                 body_max: int = TURN_BODY_MAX, now: float | None = None, loads=json.loads,
                 parent_lines=None, handle=None, answer: str = ""):
    """Read a rollout from `checkpoint` into turn rows.

    Checkpoint: `{v, size, mtime_ns, offset, state, last_ts, final}`; `offset` is where the
    first turn not yet final starts. A turn Codex closed (`turn_complete`) is final; the last
    turn otherwise is written as it stands, with `"open": true` while the rollout is not
    finished (`carto_core.transcript.settle`), and read again from its start next time.
    `parent_lines(parent_id)` gives a sub-agent's parent rollout lines (replay filter).
    `handle` is the rollout already opened (binary), else it is opened here (refusing a FIFO,
    a device or another user's file: `carto_core.util.safeio`). `answer` is the Stop payload's
    `last_assistant_message`: the newest turn keeps it when the rollout does not hold it yet
    (kept in the checkpoint for that turn). Raises ValueError for a file that is not a rollout,
    OSError for one that cannot be read.
    """
    from carto_core.api import open_own

    if handle is None:
        handle = open_own(path)
        with handle:
            return _read_rollout(path, checkpoint, settle_seconds, body_max, now, loads,
                                 parent_lines, handle, answer)
    return _read_rollout(path, checkpoint, settle_seconds, body_max, now, loads, parent_lines,
                         handle, answer)


def _read_rollout(path, checkpoint, settle_seconds, body_max, now, loads, parent_lines,
                  handle, answer):
    from carto_core.api import OPEN_KEY, TurnRead, final_at, is_finished, stamp_epoch

    out = TurnRead()
    stat = os.fstat(handle.fileno())
    if checkpoint and checkpoint.get("v") != CHECKPOINT_VERSION:
        checkpoint = None
    if (checkpoint and checkpoint.get("size") == stat.st_size and not answer
            and checkpoint.get("mtime_ns") == stat.st_mtime_ns and checkpoint.get("final", True)):
        out.checkpoint = checkpoint  # finished and untouched since: nothing to read
        return out
    offset = 0
    state = None
    last_ts = checkpoint.get("last_ts") if checkpoint else None
    if checkpoint and isinstance(checkpoint.get("state"), dict) and 0 < checkpoint.get("offset", 0) <= stat.st_size:
        offset = int(checkpoint["offset"])
        state = SessionState.from_dict(checkpoint["state"])
    handle.seek(offset)
    data = handle.read()
    lines: frozenset[bytes] = frozenset()
    if state is None:
        peek = parse_rollout(data[: data.find(b"\n") + 1] if b"\n" in data else b"", loads=loads)
        if peek.state.parent and parent_lines is not None:
            lines = parent_lines(peek.state.parent)
    result = parse_rollout(data, start=offset, state=state, parent_lines=lines, loads=loads)
    state = result.state
    out.units = result.lines
    out.skipped.update(result.skipped)
    if offset == 0:
        if not state.session:
            from carto_core.api import session_id_from_path

            state.session = session_id_from_path(path) or ""
        if not state.session:
            raise ValueError(
                "not a Codex rollout: no session_meta with an id and no session id in the "
                "file name")
        state.project = infer_project(state.cwd, result.workdirs)
    if result.newest_stamp is not None:
        last_ts = stamp_epoch(result.newest_stamp) or last_ts
    now = time.time() if now is None else now
    finished = not result.torn and is_finished(stat.st_mtime, last_ts, settle_seconds, now)
    resume_at = result.end
    kept = checkpoint.get("answer") if checkpoint and isinstance(checkpoint.get("answer"), dict) else None
    if answer and result.turns:
        kept = {"offset": result.turns[-1].offset, "text": answer[:body_max]}
    # A closed turn is not read again: an answer with no turn now is unplaced only when the
    # rollout has had no turn at all (else it may end a turn read before).
    out.answer_unplaced = bool(answer) and not result.turns and state.next_idx == 1
    for position, turn in enumerate(result.turns):
        if kept and turn.offset == kept.get("offset"):
            turn.answer = str(kept.get("text") or "")
        row = turn_row(path, state, turn, body_max)
        if position == len(result.turns) - 1 and not turn.closed:
            # Codex has not closed it: written as it stands, read again from its start (its
            # number is not used up), so that whatever it still gets is written too.
            resume_at = turn.offset
            if not finished:
                row[OPEN_KEY] = True
                out.open_rows += 1
            out.rows.append(row)
            break
        out.rows.append(row)
        state.next_idx += 1
    if out.open_rows:
        out.open_until = final_at(stat.st_mtime, last_ts, settle_seconds)
    if result.torn:
        out.messages.append(f"{path}: last line is cut short (rollout truncated or still being "
                            f"written); it is not read, and its turn waits for the next run")
    out.checkpoint = {
        "v": CHECKPOINT_VERSION, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
        "offset": resume_at, "state": state.as_dict(), "last_ts": last_ts,
        "final": not out.open_rows and not result.torn,
    }
    if kept and isinstance(kept.get("offset"), int) and kept["offset"] >= resume_at:
        out.checkpoint["answer"] = kept
    return out


def turn_row(path: Path, state: SessionState, turn: Turn, body_max: int) -> dict:
    """The `turns.jsonl` row of a rollout turn (number `state.next_idx`)."""
    from carto_core.api import classify, order_row

    fields = {
        "event_id": f"turn-codex-{state.session}-{state.next_idx}",
        "timestamp": turn.timestamp if isinstance(turn.timestamp, str) else state.meta_timestamp,
        "project": state.project or "unknown",
        "type": "transcript",
        "provider": "codex",
        "summary": turn.body(body_max),
        "transcript_path": str(path),
        "session": state.session,
        "turn_idx": state.next_idx,
        "prompt_intent": classify(turn.prompt),
    }
    if state.parent:
        fields["parent_session"] = state.parent
    if state.cwd:
        fields["cwd"] = state.cwd
    if turn.last and turn.last != fields["timestamp"]:
        fields["ended"] = turn.last
    fields.update(turn.calls.fields())  # tool calls, edits, commits (carto_core.capture.turnactivity)
    tokens = turn.usage.total()
    if tokens is not None:
        fields["tokens"] = tokens
    return order_row("turns", fields)


def parent_rollout_lines(parent: str, roots=None) -> frozenset[bytes]:
    """Raw lines of a sub-agent's parent rollout, found by the shared resolver (`roots`: Codex
    homes; None: the default ones)."""
    from carto_core.api import TranscriptRoots, find_session

    found = find_session(parent, provider="codex",
                         roots=TranscriptRoots(codex=tuple(roots)) if roots else None)
    if found is None:
        return frozenset()
    try:
        return frozenset(line.strip() for line in found.read_bytes().splitlines() if line.strip())
    except OSError:
        return frozenset()
