"""Run installed hook commands the way an agent does, and say whether each one fires.

An agent runs a hook's command string through `/bin/sh -c` with its own environment, which is
usually not the shell where carto's virtual environment is active. `run_hook_command` does the
same with the least an agent passes on: `PATH=/usr/bin:/bin` and `HOME`, nothing else (no
virtual environment, no CARTO_HOME), the payload on stdin.

`probe(provider, event, command)` runs one command against a scratch HOME (so the rows land in a
throwaway home, never the user's) with a probe payload for the event, and judges it:

- `fires`: the command exited 0, and for PostToolUse (a Write of a scratch file) carto's row is
  in the scratch home; other events write nothing to check, so exit 0 and no dispatcher failure
  in the scratch hook.log is the test;
- `silent`: anything else, with the reason (the shell's or carto's own words) and the fix.

Stdlib only (the doctor imports it, the realclient harness reuses `run_hook_command`).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import uuid
from pathlib import Path

AGENT_PATH = "/usr/bin:/bin"
#: Lines of hook.log that mean the dispatcher itself could not do its job.
FATAL_MARKERS = ("no live capture installed", "hook dispatcher failed")
PROBE_SESSION_PREFIX = "carto-doctor-probe-"


def agent_env(home: os.PathLike | str, extra: dict | None = None) -> dict:
    """The environment an agent started outside the virtual environment gives a hook."""
    return {"PATH": AGENT_PATH, "HOME": str(home), **(extra or {})}


def run_hook_command(command: str, payload: dict, home: os.PathLike | str, *, timeout: float = 15,
                     cwd: os.PathLike | str | None = None, extra_env: dict | None = None):
    """`/bin/sh -c COMMAND` with `payload` as JSON on stdin under `agent_env(home)`; returns the
    CompletedProcess (text mode). Raises subprocess.TimeoutExpired."""
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload), text=True,
                          env=agent_env(home, extra_env), cwd=cwd, capture_output=True, timeout=timeout)


def probe_payload(event: str, session: str, work: Path) -> dict:
    """A payload of the shape both agents send (reference/formats.md 1.8, 2.9) for `event`."""
    transcript = work / "transcript.jsonl"
    transcript.touch()
    payload = {"session_id": session, "hook_event_name": event, "cwd": str(work),
               "transcript_path": str(transcript), "permission_mode": "default"}
    target = str(work / "carto-probe.txt")
    if event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
        payload.update(tool_name="Write", tool_use_id=f"toolu_{session[-12:]}",
                       tool_input={"file_path": target, "content": "probe\n"})
    if event == "PostToolUse":
        payload["tool_response"] = {"type": "create", "filePath": target, "content": "probe\n"}
    if event == "PostToolUseFailure":
        payload["error"] = "probe"
    if event == "SessionStart":
        payload["source"] = "startup"
    if event in ("SessionEnd",):
        payload["reason"] = "other"
    if event in ("PreCompact", "PostCompact"):
        payload["trigger"] = "manual"
    return payload


def _rows_of(home: Path, session: str) -> int:
    count = 0
    for log in home.glob("*.jsonl"):
        try:
            with open(log, encoding="utf-8") as handle:
                count += sum(1 for line in handle if session in line)
        except OSError:
            continue
    return count


def _fix_for(provider: str, stderr: str, returncode: int) -> str:
    reinstall = f"run `carto install {provider}` from the environment carto is installed in"
    if returncode in (126, 127) or "not found" in stderr or "No such file" in stderr:
        return f"the command's launcher is gone (a moved or deleted environment): {reinstall}"
    return f"{reinstall}; if it still fails, run the command by hand with a payload on stdin"


def probe(provider: str, event: str, command: str, *, timeout: float = 15) -> dict:
    """Run one installed hook command as the agent would, against a scratch home; returns
    `{provider, event, command, fires, reason, fix}` (reason/fix None when it fires)."""
    result = {"provider": provider, "event": event, "command": command, "fires": False,
              "reason": None, "fix": None}
    # ignore_cleanup_errors: a child the hook detached despite the switches below must not turn
    # the clean-up of the scratch home into the doctor's crash.
    with tempfile.TemporaryDirectory(prefix="carto-probe-", ignore_cleanup_errors=True) as scratch:
        root = Path(scratch)
        home, work = root / "home", root / "work"
        home.mkdir()
        work.mkdir()
        session = PROBE_SESSION_PREFIX + uuid.uuid4().hex[:12]
        payload = probe_payload(event, session, work)
        try:
            # The detached children a hook may start (SessionStart's catch-up, Stop's semantic
            # keep-up) would outlive the scratch home: carto's own switches turn them off.
            done = run_hook_command(command, payload, home, timeout=timeout, cwd=work,
                                    extra_env={"CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"})
        except subprocess.TimeoutExpired:
            result.update(reason=f"did not finish within {timeout:g} s",
                          fix="a hook must return at once; run the command by hand to see where it waits")
            return result
        except OSError as exc:
            result.update(reason=f"could not start /bin/sh ({exc.strerror})", fix="check the system shell")
            return result
        carto_home = home / ".local" / "share" / "carto"
        log = carto_home / ".carto" / "hook.log"
        logged = log.read_text("utf-8", "replace").splitlines() if log.exists() else []
        fatal = [line for line in logged if any(marker in line for marker in FATAL_MARKERS)]
        stderr = done.stderr.strip()
        if done.returncode != 0:
            last = stderr.splitlines()[-1] if stderr else f"exit status {done.returncode}"
            result.update(reason=f"exit {done.returncode}: {last}", fix=_fix_for(provider, stderr, done.returncode))
        elif fatal:
            result.update(reason=fatal[-1].split(" ", 1)[-1],
                          fix=f"reinstall the {provider} plugin in the environment the command names "
                              f"(pip install carto-{provider}), then `carto install {provider}`")
        elif event == "PostToolUse" and _rows_of(carto_home, session) == 0:
            reason = logged[-1].split(" ", 1)[-1] if logged else "it exited 0 but wrote no row"
            result.update(reason=reason, fix=f"see {log} of a real home; `carto install {provider}` again")
        else:
            result["fires"] = True
    return result
