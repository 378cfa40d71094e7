"""Hand-built Codex rollout lines for the tests (imported by path: tests are not a package)."""

from __future__ import annotations

import json
import os
from pathlib import Path


def line(kind: str, payload: dict, ts: str = "2026-02-01T10:00:00.000Z") -> str:
    return json.dumps({"timestamp": ts, "type": kind, "payload": payload})


def meta(sid: str, cwd: str, ts: str = "2026-02-01T10:00:00.000Z", **extra) -> str:
    return line("session_meta", {"id": sid, "timestamp": ts, "cwd": cwd, **extra}, ts)


def user_event(text: str, ts: str = "2026-02-01T10:00:01.000Z") -> str:
    return line("event_msg", {"type": "user_message", "message": text}, ts)


def user_item(text: str, ts: str = "2026-02-01T10:00:01.000Z") -> str:
    return line("response_item", {"type": "message", "role": "user",
                                  "content": [{"type": "input_text", "text": text}]}, ts)


def assistant_item(text: str, ts: str = "2026-02-01T10:00:02.000Z") -> str:
    return line("response_item", {"type": "message", "role": "assistant",
                                  "content": [{"type": "output_text", "text": text}]}, ts)


def turn_complete(ts: str = "2026-02-01T10:00:03.000Z") -> str:
    return line("event_msg", {"type": "task_complete"}, ts)


def write_rollout(folder: Path, sid: str, lines: list[str], *, old: bool = True,
                  date: str = "2026-02-01T10-00-00") -> Path:
    path = folder / f"rollout-{date}-{sid}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(l + "\n" for l in lines), "utf-8")
    if old:  # a finished rollout: untouched for a day
        stamp = path.stat().st_mtime - 86_400
        os.utime(path, (stamp, stamp))
    return path
