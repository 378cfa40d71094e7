"""What the Stop-hook tests share: `carto hook claude Stop` run as a process, as Claude Code
runs it, and a turn appended to a transcript as Claude Code appends a resumed session's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from carto_core.logio.home import current_home

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]


def stop(transcript: Path, session: str) -> None:
    """One Stop of `session` on `transcript`: exit 0, nothing on stdout, no failure in hook.log."""
    payload = {"session_id": session, "transcript_path": str(transcript), "cwd": "/work/demo",
               "hook_event_name": "Stop", "stop_hook_active": False}
    env = {**os.environ, "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}
    done = subprocess.run([*CARTO, "hook", "claude", "Stop"], input=json.dumps(payload).encode(),
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == b"", done.stderr.decode()
    log = current_home().state / "hook.log"
    assert not log.exists() or "failed" not in log.read_text("utf-8")


def resume(transcript: Path, session: str, prompt: str, answer: str) -> None:
    """A prompt and its answer, stamped now, appended as Claude Code appends a resumed turn."""
    now = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    n = len(transcript.read_bytes().splitlines())
    lines = [
        {"type": "user", "uuid": f"9e0c0000-0000-4000-8000-{n:012d}", "sessionId": session,
         "cwd": "/work/demo", "timestamp": now, "message": {"role": "user", "content": prompt}},
        {"type": "assistant", "uuid": f"9e0c0000-0000-4000-8001-{n:012d}", "sessionId": session,
         "cwd": "/work/demo", "timestamp": now,
         "message": {"id": f"msg_resumed_{n}", "role": "assistant", "content": [{"type": "text", "text": answer}]}},
    ]
    with open(transcript, "a", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(line) + "\n" for line in lines))
