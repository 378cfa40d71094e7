"""A hook-fed home from a Claude Code transcript: the hooks the client fires, replayed in order.

For each transcript line, what Claude Code sends its hooks at that moment (reference
formats.md; payload keys as the recorded 2.1.328 payloads in plugins/claude/tests/fixtures):
SessionStart before the first line, PostToolUse / PostToolUseFailure when a tool result comes
back (subagent calls too: the client fires them under the parent session), SubagentStop when a
Task/Agent call returns, Stop after each main-thread answer that ends a turn, SessionEnd after
the last line. Each payload goes through carto's Claude handler in-process, with the hook
clock set to the line's timestamp, so the rows carry the times a live session would have
given them. No row is written by anything but the handler.
"""

from __future__ import annotations

import json
import time as _time
import types
from pathlib import Path

from carto_core.util.timeparse import parse_timestamp


def _lines(path: Path) -> list[dict]:
    out = []
    for raw in path.read_text("utf-8", errors="replace").splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def _blocks(line: dict) -> list[dict]:
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def replay_claude(home, transcript: Path, monkeypatch, *, cwd: str | None = None) -> int:
    """Fire the hooks of one transcript into `home`; returns how many payloads were sent."""
    from carto_claude.capture import handle
    from carto_core.capture import context
    from carto_core.capture.context import write_outcome

    lines = _lines(transcript)
    ids = [l.get("sessionId") if isinstance(l.get("sessionId"), str) else None for l in lines]
    first = next((sid for sid in ids if sid), None)
    if not first:
        return 0
    # A line without a session id belongs to the session of the lines before it.
    for i, sid in enumerate(ids):
        ids[i] = sid or (ids[i - 1] if i else first)
    cwd = cwd or next((l.get("cwd") for l in lines if isinstance(l.get("cwd"), str)), "/")
    session = first
    # The SessionStart catch-up would backfill the transcripts in a detached child: this home
    # is to hold what the hooks themselves write.
    monkeypatch.setenv("CARTO_CATCHUP", "0")
    clock = [0.0]
    monkeypatch.setattr(context, "time", types.SimpleNamespace(
        time=lambda: clock[0], strftime=_time.strftime, gmtime=_time.gmtime))
    sent = 0

    def fire(event: str, at: float, **fields) -> None:
        nonlocal sent
        clock[0] = at
        payload = {"session_id": session, "transcript_path": str(transcript), "cwd": cwd,
                   "hook_event_name": event, **fields}
        outcome = handle(event, payload, home)
        if outcome is not None:
            write_outcome(home, outcome)
        sent += 1

    stamps = [parse_timestamp(l.get("timestamp")) for l in lines]
    dated = [s.timestamp() for s in stamps if s is not None]
    if not dated:
        return 0
    times = [s.timestamp() if s is not None else None for s in stamps]
    started: set[str] = set()
    last_at = {sid: at for sid, at in zip(ids, times) if at is not None}
    calls: dict[str, dict] = {}
    stopped: set[Path] = set()
    for line, sid, at in zip(lines, ids, times):
        at = at if at is not None else dated[0]
        session = sid
        if sid not in started:
            started.add(sid)
            fire("SessionStart", at - 1, source="startup")
        for block in _blocks(line):
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                calls[block["id"]] = block
            elif block.get("type") == "tool_result":
                call = calls.get(block.get("tool_use_id"))
                if call is None:
                    continue
                response = line.get("toolUseResult", block.get("content"))
                event = "PostToolUseFailure" if block.get("is_error") else "PostToolUse"
                extra = {"error": response} if event == "PostToolUseFailure" else {"tool_response": response}
                fire(event, at, tool_name=call.get("name"), tool_input=call.get("input") or {},
                     tool_use_id=call["id"], **extra)
                if call.get("name") in ("Task", "Agent") and not block.get("is_error"):
                    kind = (call.get("input") or {}).get("subagent_type") or "general-purpose"
                    extra = {}
                    agent = response.get("agentId") if isinstance(response, dict) else None
                    for candidate in (transcript.parent / transcript.stem / "subagents" / f"agent-{agent}.jsonl",
                                      transcript.parent / f"agent-{agent}.jsonl"):
                        if agent and candidate.is_file():
                            extra["agent_transcript_path"] = str(candidate)
                            stopped.add(candidate)
                            break
                    fire("SubagentStop", at, agent_type=kind, stop_hook_active=False, **extra)
        ends_turn = (line.get("type") == "assistant" and not line.get("isSidechain")
                     and any(b.get("type") == "text" for b in _blocks(line))
                     and not any(b.get("type") == "tool_use" for b in _blocks(line)))
        if ends_turn:
            fire("Stop", at, stop_hook_active=False)
    # Subagent transcripts of these sessions that no Task/Agent result named (an older client
    # wrote no agentId): their SubagentStop, at the subagent's last line.
    agents = [*transcript.parent.glob("agent-*.jsonl"), *(transcript.parent / transcript.stem).glob("subagents/agent-*.jsonl")]
    for agent in sorted(set(agents) - stopped):
        own = _lines(agent)
        sid = next((l.get("sessionId") for l in own if isinstance(l.get("sessionId"), str)), None)
        at = [t.timestamp() for t in (parse_timestamp(l.get("timestamp")) for l in own) if t is not None]
        if sid in started and at:
            session = sid
            fire("SubagentStop", at[-1], agent_type="general-purpose", stop_hook_active=False,
                 agent_transcript_path=str(agent))
    for sid in started:
        session = sid
        fire("SessionEnd", last_at.get(sid, dated[-1]) + 1, reason="other")
    return sent
