"""Claude Code transcripts into turn rows: the parser both the backfill and the Stop hook use.

Stdlib only (plus carto_core's stdlib modules): the Stop hook imports this on the agent's
critical path, so no attrs, no orjson, no click. `carto_claude.transcripts` wraps it into the
backfill source (`ClaudeSource`), which passes orjson's decoder for speed.

Transcripts (reference/formats.md 1.1-1.5) live under `~/.claude/projects/<project>/`:
`<session>.jsonl` (subagent threads inline with `isSidechain: true` in 1.0.x), `agent-<id>.jsonl`
beside the sessions (2.0.x), and `<session>/subagents/**/agent-<id>.jsonl` with a
`.meta.json` sidecar (2.1.x). All three make turns; a subagent's turns carry the parent
session id and their own id space (`turn-<sid>-side-<n>` inline, `turn-<sid>-agent-<id>-<n>`).

A turn (DESIGN section 4) starts at a human prompt, a `user` line with text that is not only
tool results, not `isMeta`, not a compaction summary and not injected scaffolding (local command
output, caveats, system reminders, interrupts), and holds everything up to the next one. Streamed
assistant lines sharing a `message.id` are one message (counted once, text not repeated).
Unknown line types, broken lines and duplicate uuids are skipped and counted; bookkeeping lines
(summary, snapshots, titles, ...) are read past silently. A turn's text keeps its head and its
final answer (the last assistant text) within `body_max`: the answer is what a peer most often
searches for, and a long turn's tool calls would otherwise push it out.

A forked session's transcript (`--fork-session`) starts with copies of its parent's lines; each
copied assistant line names the session that made the request (`requestSessionId`), and the turn
holding one says `copied_from: <that session>` (`carto_core.lenses.lineage` links the two).

Open turns. A turn is closed once the next prompt of its thread starts, or when the transcript
is finished (`carto_core.transcript.settle`: quiet for `settle_seconds`, by the file's mtime or by its own
newest timestamp). A turn that is not closed is written all the same, with `"open": true`, and
written again whenever it grows; readers fold rows by event_id, the newest row winning
(`carto_core.logio.fold`). The checkpoint therefore points at the start of the last turn of each
thread (the earliest of them), with each thread's turn number there: re-reading from it rebuilds
the same ids, so a turn that grows after its file settled (a long tool call) is rewritten, never
lost. A read of an unchanged, finished file costs a `stat`.

Checkpoint (per file): `{version, offset, threads, session, size, mtime_ns, last_ts, final,
answer?}`; `answer` is the Stop hook's `last_assistant_message` for the turn starting at
`answer.offset` (kept so that a turn whose final line is not in the file yet keeps its answer).
"""

from __future__ import annotations

import gc
import os
import re
import time
from collections import Counter
from pathlib import Path

from carto_core.api import (
    DEFAULT_SETTLE_SECONDS as _SETTLE, OPEN_KEY, SCAFFOLDING_PREFIXES, TurnRead, classify, clip,
    final_at, holds, is_finished, is_human_prompt, is_scaffolding, order_row, project_for,
    redact_text, stamp_epoch, UsageSum, claude_usage,
)

from carto_claude.turn_tools import TurnTools

CHECKPOINT_VERSION = 2
#: Checkpoints of this older version still resume (their offset is a valid turn start).
READABLE_VERSIONS = frozenset({1, CHECKPOINT_VERSION})
DEFAULT_BODY_MAX = 2000
DEFAULT_SETTLE_SECONDS = int(_SETTLE)
TOOL_RESULT_CHARS = 300
#: Most of `body_max` the final answer may take when a turn is longer than that.
ANSWER_SHARE = 0.5

#: Line types that are conversation (read) and bookkeeping (passed over without a count).
CONVERSATION_TYPES = frozenset({"user", "assistant"})
BOOKKEEPING_TYPES = frozenset({
    "system", "summary", "attachment", "file-history-snapshot", "queue-operation", "ai-title",
    "custom-title", "agent-name", "last-prompt", "permission-mode", "mode", "progress", "pr-link",
    "agent-setting", "file-history-delta", "tag",
    # Claude Code 2.1.3xx: request records, cost and tool-set state (no conversation in them;
    # the request records repeat what the user/assistant lines already hold).
    "atis-latch", "api-request-shape", "api-request-blob", "api-request", "tools-used", "cost-state",
})

_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9_-]*>")
_INPUT_KEYS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query",
               "description", "prompt", "subagent_type")


def claude_dir(env: dict | None = None) -> Path:
    """`$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    env = os.environ if env is None else env
    return Path(env.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude"))


def default_projects_root(env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    explicit = env.get("CARTO_CLAUDE_PROJECTS") or env.get("CARTOGRAPHER_CLAUDE_TRANSCRIPTS_DIR")
    return Path(explicit).expanduser() if explicit else claude_dir(env) / "projects"


def default_history(env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    explicit = env.get("CARTO_CLAUDE_HISTORY") or env.get("CARTOGRAPHER_CLAUDE_HISTORY")
    return Path(explicit).expanduser() if explicit else claude_dir(env) / "history.jsonl"


# ---------------------------------------------------------------------------------------------
# Line classification


def _flat(text: str) -> str:
    if "<" in text:
        # Redacted before the tags go: `<password>x</password>` names what `x` is.
        text = _TAG.sub(" ", redact_text(text))
    return " ".join(text.split())


def _tool_result_text(block: dict) -> str:
    content = block.get("content")
    if isinstance(content, list):
        content = " ".join(b.get("text", "") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return clip(content, TOOL_RESULT_CHARS) if isinstance(content, str) else ""


def line_texts(line: dict) -> list[str]:
    """Searchable text of one conversation line: prompts, replies, tool calls, result heads."""
    message = line.get("message")
    if not isinstance(message, dict):
        return []
    content = message.get("content")
    if isinstance(content, str):
        return [content] if content.strip() and not is_scaffolding(content) else []
    out: list[str] = []
    if not isinstance(content, list):
        return out
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str) and text.strip() and not is_scaffolding(text):
                out.append(text)
        elif kind == "tool_use":
            args = block.get("input") if isinstance(block.get("input"), dict) else {}
            parts = [str(block.get("name") or "tool")]
            parts += [args[k] for k in _INPUT_KEYS if isinstance(args.get(k), str) and args[k]]
            out.append(" ".join(parts))
        elif kind == "tool_result":
            text = _tool_result_text(block)
            if text.strip():
                out.append(text)
    return out


def assistant_text(line: dict) -> str:
    """The prose of an assistant line (its text blocks), "" for tool calls only."""
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return " ".join(b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text"
                    and isinstance(b.get("text"), str) and b["text"].strip())


# ---------------------------------------------------------------------------------------------
# Turn assembly


class _Turn:
    __slots__ = ("thread", "idx", "start", "timestamp", "cwd", "parts", "size", "seen", "answer",
                 "tools", "prompt", "copied_from", "usage", "last")

    def __init__(self, thread: str, idx: int, start: int, timestamp: str, cwd: str):
        self.thread, self.idx, self.start = thread, idx, start
        self.timestamp, self.cwd = timestamp, cwd
        self.parts: list[str] = []
        self.size = 0
        self.seen: set = set()
        #: The last assistant prose of the turn (its final answer so far).
        self.answer = ""
        self.tools = TurnTools()
        #: The human prompt that opened the turn (its intent is classified from it alone).
        self.prompt = ""
        #: The session whose request an assistant line of this turn answered, when not this one
        #: (`requestSessionId`: a fork's copies of its parent's lines name the parent).
        self.copied_from = ""
        #: Tokens the API reported for the turn's messages (each message id once).
        self.usage = UsageSum()
        #: The timestamp of the turn's newest line: when its answer (or its last call) ended.
        self.last = timestamp

    def add(self, texts: list[str], limit: int, key: object = None) -> None:
        for text in texts:
            if self.size >= limit:
                return
            marker = (key, text) if key is not None else None
            if marker is not None:
                if marker in self.seen:
                    continue
                self.seen.add(marker)
            self.parts.append(text)
            self.size += len(text) + 1


def compose_body(parts: list[str], answer: str, body_max: int) -> str:
    """A turn's text within `body_max`: all of it when it fits; else its head and its final
    answer (the answer's start, up to ANSWER_SHARE of the room), joined by an ellipsis."""
    body = _flat(" ".join(parts))
    answer = _flat(answer)
    if not answer or holds(body[:body_max], answer):
        return clip(body, body_max)  # clip redacts before it cuts (half a credential is kept)
    if not holds(body, answer) and len(body) + 1 + len(answer) <= body_max:
        return f"{body} {answer}" if body else answer
    tail = clip(answer, max(1, int(body_max * ANSWER_SHARE)), "…")
    head = clip(body, max(0, body_max - len(tail) - 3)).rstrip()
    return f"{head} … {tail}" if head else tail


def usable_checkpoint(checkpoint: object) -> dict | None:
    if isinstance(checkpoint, dict) and checkpoint.get("version") in READABLE_VERSIONS:
        return checkpoint
    return None


class TranscriptReader:
    """Reads one transcript file from a checkpoint into turn rows."""

    def __init__(self, path: Path, *, body_max: int = DEFAULT_BODY_MAX,
                 settle_seconds: float = DEFAULT_SETTLE_SECONDS, now: float | None = None,
                 agent_id: str = "", parent_session: str = "", loads=None,
                 last_answer: str = ""):
        self.path = Path(path)
        self.body_max = body_max
        self.settle_seconds = settle_seconds
        self.now = time.time() if now is None else now
        self.agent_id = agent_id
        self.parent_session = parent_session
        if loads is None:
            from json import loads
        self.loads = loads
        #: The Stop hook's `last_assistant_message`: the newest main-thread turn's answer.
        self.last_answer = last_answer
        self._projects: dict[str, str] = {}

    def _project(self, cwd: str) -> str:
        if cwd not in self._projects:
            self._projects[cwd] = project_for(cwd) if cwd else ""
        return self._projects[cwd]

    def _thread_prefix(self, session: str, thread: str) -> str:
        if thread == "main":
            return f"turn-{session}-"
        if thread == "side":
            return f"turn-{session}-side-"
        return f"turn-{session}-agent-{thread[6:]}-"

    def pending_bytes(self, checkpoint: dict | None, size: int) -> int:
        """How many bytes a read from `checkpoint` would parse in a file of `size` bytes."""
        state = usable_checkpoint(checkpoint)
        offset = int(state.get("offset", 0)) if state else 0
        return size - offset if offset <= size else size

    def read(self, checkpoint: dict | None, handle=None) -> TurnRead:
        """Read from `checkpoint`; `handle` is the file already opened (binary), else it is
        opened here (refusing a FIFO, a device or another user's file: `carto_core.util.safeio`)."""
        from carto_core.api import open_own

        # Parsing makes many short-lived dicts and no cycles: the collector's passes over
        # everything alive (the runner's id sets, earlier rows) only cost time here.
        enabled = gc.isenabled()
        gc.disable()
        owned = handle is None
        try:
            if owned:
                try:
                    handle = open_own(self.path)
                except OSError as exc:
                    result = TurnRead()
                    result.messages.append(f"{self.path}: {exc.strerror or exc}")
                    return result
            return self._read(checkpoint, handle)
        finally:
            if owned and handle is not None:
                handle.close()
            if enabled:
                gc.enable()

    def _read(self, checkpoint: dict | None, handle) -> TurnRead:
        result = TurnRead()
        skipped: Counter = result.skipped
        stat = os.fstat(handle.fileno())
        state = usable_checkpoint(checkpoint)
        if (state and state.get("final") and state.get("size") == stat.st_size
                and state.get("mtime_ns") == stat.st_mtime_ns and not self.last_answer):
            result.checkpoint = state  # finished and untouched since: nothing to read
            return result
        offset = int(state.get("offset", 0)) if state else 0
        next_idx: dict[str, int] = dict(state.get("threads", {})) if state else {}
        session = state.get("session", "") if state else ""
        last_ts = state.get("last_ts") if state else None
        answer_state = state.get("answer") if state and isinstance(state.get("answer"), dict) else None
        seen_uuids: set[str] = set()
        if offset > stat.st_size:  # truncated or replaced: start over
            offset, next_idx, session, last_ts, answer_state = 0, {}, "", None, None
        handle.seek(offset)
        data = handle.read()
        loads = self.loads
        is_agent_file = self.path.name.startswith("agent-")
        default_thread = f"agent:{self.agent_id or self.path.stem[6:]}" if is_agent_file else "main"
        if not session:
            session = self.parent_session or ("" if is_agent_file else self.path.stem)
        open_turns: dict[str, _Turn] = {}
        closed: list[_Turn] = []
        message_ids: set = set()
        newest_stamp: object = None
        position = 0
        # Complete lines first; whether the transcript is finished is known after them (its
        # newest timestamp), and only a finished one reads its unterminated last line (else
        # that line is still being written).
        end = data.rfind(b"\n") + 1
        finished = None
        while True:
            while position < end:
                newline = data.find(b"\n", position, end)
                if newline < 0:
                    newline = end
                raw = data[position:newline]
                line_start = offset + position
                position = newline + 1
                if not raw.strip():
                    continue
                try:
                    line = loads(raw)
                except ValueError:
                    skipped["broken_line"] += 1
                    continue
                if not isinstance(line, dict):
                    skipped["not_an_object"] += 1
                    continue
                stamp = line.get("timestamp")
                if stamp is not None:
                    newest_stamp = stamp
                kind = line.get("type")
                if not isinstance(kind, str):
                    skipped["no_type"] += 1
                    continue
                if kind not in CONVERSATION_TYPES:
                    if kind not in BOOKKEEPING_TYPES:
                        skipped[f"unknown_type:{kind}"] += 1
                    elif kind == "attachment":  # a hook's injected context: recorded, never words
                        thread = default_thread if is_agent_file else ("side" if line.get("isSidechain") else "main")
                        if thread in open_turns:
                            open_turns[thread].tools.attachment_line(line)
                    continue
                message = line.get("message")
                if not isinstance(message, dict):
                    skipped["bad_message"] += 1
                    continue
                uuid = line.get("uuid")
                if isinstance(uuid, str):
                    if uuid in seen_uuids:
                        skipped["duplicate_uuid"] += 1
                        continue
                    seen_uuids.add(uuid)
                if not session and isinstance(line.get("sessionId"), str):
                    session = line["sessionId"]
                thread = default_thread if is_agent_file else ("side" if line.get("isSidechain") else "main")
                if kind == "assistant":
                    message_id = message.get("id")
                    key = (thread, message_id) if isinstance(message_id, str) else None
                    if key is None or key not in message_ids:
                        result.units += 1
                        if key is not None:
                            message_ids.add(key)
                else:
                    result.units += 1
                if kind == "user" and is_human_prompt(line):
                    previous = open_turns.pop(thread, None)
                    if previous is not None:
                        closed.append(previous)
                    idx = next_idx.get(thread, 1)
                    next_idx[thread] = idx + 1
                    cwd = line.get("cwd")
                    open_turns[thread] = _Turn(thread, idx, line_start, stamp if isinstance(stamp, str) else "",
                                               cwd if isinstance(cwd, str) else "")
                    open_turns[thread].prompt = " ".join(line_texts(line))
                    if thread == "side" and "main" in open_turns:
                        open_turns["main"].tools.sidechain_started(open_turns[thread].prompt, f"side-{idx}")
                turn = open_turns.get(thread)
                if turn is None:
                    skipped["before_first_prompt"] += 1
                    continue
                if not turn.timestamp and isinstance(stamp, str):
                    turn.timestamp = stamp
                if isinstance(stamp, str) and stamp:
                    turn.last = stamp
                if not turn.cwd and isinstance(line.get("cwd"), str):
                    turn.cwd = line["cwd"]
                message_id = message.get("id") if kind == "assistant" else None
                if kind == "assistant":
                    prose = assistant_text(line)
                    if prose:
                        turn.answer = prose
                    turn.usage.add(claude_usage(message), message.get("id"))
                    origin = line.get("requestSessionId")
                    if isinstance(origin, str) and origin and origin != session:
                        turn.copied_from = origin
                turn.add(line_texts(line), self.body_max, key=message_id)
                if kind == "assistant":
                    turn.tools.assistant_line(line, turn.cwd)
                else:
                    turn.tools.user_line(line, turn.cwd)
            if finished is not None:
                break
            if newest_stamp is not None:
                last_ts = stamp_epoch(newest_stamp) or last_ts
            finished = is_finished(stat.st_mtime, last_ts, self.settle_seconds, self.now)
            if not finished or end == len(data):
                break
            end = len(data)
        # Come back to the earliest last turn of a thread next time; every thread restarts its
        # numbering at its first turn from there, so turns re-read get the same ids (and rows
        # written now are folded by event_id, the newest winning).
        rewind = offset + end
        last = list(open_turns.values())
        if last:
            rewind = min(turn.start for turn in last)
            for turn in [*closed, *last]:
                if turn.start >= rewind and turn.idx < next_idx.get(turn.thread, turn.idx + 1):
                    next_idx[turn.thread] = turn.idx
        newest_main = open_turns.get(default_thread)
        answer = self.last_answer or (answer_state.get("text", "") if answer_state else "")
        answer_offset = newest_main.start if self.last_answer and newest_main else (
            answer_state.get("offset") if answer_state else None)
        for turn in sorted([*closed, *last], key=lambda t: t.start):
            extra = answer if answer and turn.start == answer_offset and turn.thread == default_thread else ""
            is_open = not finished and turn in last
            result.rows.append(self._row(session, turn, is_open=is_open, extra_answer=extra))
            if is_open:
                result.open_rows += 1
        if result.open_rows:
            result.open_until = final_at(stat.st_mtime, last_ts, self.settle_seconds)
        checkpoint_out = {
            "version": CHECKPOINT_VERSION, "offset": rewind, "threads": next_idx, "session": session,
            "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "last_ts": last_ts,
            "final": finished,
        }
        if answer and answer_offset is not None and answer_offset >= rewind:
            checkpoint_out["answer"] = {"offset": answer_offset, "text": answer[: self.body_max]}
        # The thread's last turn is always read again (the checkpoint is its start) and takes
        # the answer: only a thread with no turn at all, now or before, leaves it out.
        result.answer_unplaced = bool(self.last_answer) and default_thread not in next_idx
        result.checkpoint = checkpoint_out
        return result

    def _row(self, session: str, turn: _Turn, *, is_open: bool, extra_answer: str = "") -> dict:
        answer = turn.answer
        if extra_answer and not holds(_flat(" ".join(turn.parts)), _flat(extra_answer)):
            answer = extra_answer  # the Stop payload's final answer, not yet in the file
        fields = {
            "event_id": f"{self._thread_prefix(session, turn.thread)}{turn.idx}",
            "timestamp": turn.timestamp,
            "project": self._project(turn.cwd),
            "type": "transcript",
            "provider": "claude",
            "summary": compose_body(turn.parts, answer, self.body_max),
            "transcript_path": str(self.path),
            "session": session,
            "turn_idx": turn.idx,
            "prompt_intent": classify(turn.prompt),
        }
        if turn.thread != "main":
            fields["agent_id"] = turn.thread[6:] if turn.thread.startswith("agent:") else "sidechain"
        if turn.cwd:
            fields["cwd"] = turn.cwd
        if turn.last and turn.last != turn.timestamp:
            fields["ended"] = turn.last
        if turn.copied_from and turn.copied_from != session:
            fields["copied_from"] = turn.copied_from
        tokens = turn.usage.total()
        if tokens is not None:
            fields["tokens"] = tokens
        fields.update(turn.tools.fields(session))  # tool calls, edits, commits, injected context, subagents
        if is_open:
            fields[OPEN_KEY] = True
        return order_row("turns", fields)


def subagent_identity(path: Path) -> tuple[str, str]:
    """(agent id, parent session id from the 2.1.x folder layout) of an `agent-*.jsonl` file."""
    if not path.name.startswith("agent-"):
        return "", ""
    agent_id = path.stem[len("agent-"):]
    parent_session = ""
    parts = path.parts
    if "subagents" in parts:
        index = len(parts) - 1 - parts[::-1].index("subagents")
        if index >= 1:
            parent_session = parts[index - 1]
    return agent_id, parent_session
