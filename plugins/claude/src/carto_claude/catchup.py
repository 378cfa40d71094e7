"""The SessionStart catch-up: a detached ingest of recently changed Claude transcripts.

`maybe_start(home)` is called by the SessionStart hook. It costs one `stat` when the cooldown
has not passed; otherwise it claims the slot (rewrites `<home>/.carto/claude-catch-up.last`)
and spawns `python -m carto_claude.catchup --home <home>` in a new session with its standard
streams closed, and returns at once: the hook never waits for it.

The child takes an exclusive `flock` on `<home>/.carto/claude-catch-up.lock` (a second catch-up
exits at once; a crashed one releases the lock with its process), ingests transcripts changed in
the last `CARTO_CATCHUP_DAYS` (7) days plus the prompt history through the checkpointed runner,
appends a one-line result to `<home>/.carto/claude-catch-up.jsonl`, and exits. An alarm
(`CARTO_CATCHUP_TIMEOUT`, 600 s) ends it if it ever runs long, so it never outlives its work.

Environment: `CARTO_CATCHUP=0` turns it off; `CARTO_CATCHUP_INTERVAL_SECONDS` (900) is the
cooldown.
"""

from __future__ import annotations

import os
import sys
import time

LAST_FILE = "claude-catch-up.last"
LOCK_FILE = "claude-catch-up.lock"
RUN_LOG = "claude-catch-up.jsonl"


def _int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, "") or default)
    except ValueError:
        return default


def enabled() -> bool:
    return os.environ.get("CARTO_CATCHUP", "1").strip().lower() not in {"0", "false", "no", "off"}


def due(home, now: float | None = None) -> bool:
    now = time.time() if now is None else now
    try:
        last = os.stat(home.state / LAST_FILE).st_mtime
    except OSError:
        return True
    return now - last >= _int_env("CARTO_CATCHUP_INTERVAL_SECONDS", 900)


def maybe_start(home) -> str | None:
    """Start a detached catch-up when enabled and due; returns a problem line or None."""
    if not enabled() or not due(home):
        return None
    os.makedirs(home.state, exist_ok=True)
    with open(home.state / LAST_FILE, "w", encoding="utf-8") as handle:
        handle.write(str(int(time.time())))
    import subprocess

    env = dict(os.environ)
    env["CARTO_HOME"] = str(home.root)
    try:
        subprocess.Popen(
            [sys.executable, "-m", "carto_claude.catchup", "--home", str(home.root)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True, env=env, cwd=str(home.state),
        )
    except OSError as exc:
        return f"could not start the transcript catch-up: {exc}"
    return None


def run(home, *, days: float | None = None) -> dict:
    """One catch-up run under the lock; returns the summary (or why it did not run)."""
    import fcntl
    import json

    os.makedirs(home.state, exist_ok=True)
    lock = open(home.state / LOCK_FILE, "a+")
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return {"outcome": "locked"}
        from carto_claude.transcripts import ClaudeSource
        from carto_core.ingest import run_ingest

        days = float(os.environ.get("CARTO_CATCHUP_DAYS", "7") or 7) if days is None else days
        source = ClaudeSource({"since_days": days})
        summary = run_ingest(source, home)
        result = {"outcome": "done", **summary.as_dict()}
        from carto_core.appendlog import append_rows

        append_rows(home.state / RUN_LOG, [{"timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                            **{k: result[k] for k in ("outcome", "streams", "units",
                                                                      "rows_written", "seconds")}}])
        return json.loads(json.dumps(result, default=str))
    finally:
        lock.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from carto_core.home import Home, current_home

    home = Home(args[args.index("--home") + 1]) if "--home" in args else current_home()
    try:
        import signal

        signal.alarm(_int_env("CARTO_CATCHUP_TIMEOUT", 600))
        run(home)
    except Exception as exc:  # never leave a traceback on a closed stderr; say it in hook.log
        from carto_core.hookpath import log_problem

        log_problem(f"claude catch-up failed: {type(exc).__name__}: {exc}", home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
