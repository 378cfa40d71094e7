"""The lean live-hook dispatcher: `carto hook <provider> <EventName>` with the payload on stdin.

Always exits 0 and never writes to stdout except a note meant for the agent; every problem goes
to `<home>/.carto/hook.log`. Stdlib only on this path.
"""

from __future__ import annotations

import os
import sys
import traceback


def log_problem(message: str) -> None:
    """Append one line to `<home>/.carto/hook.log`; never raises."""
    try:
        from carto_core.home import current_home
        from carto_core.timeparse import format_timestamp, utcnow

        state = current_home().state
        os.makedirs(state, exist_ok=True)
        line = f"{format_timestamp(utcnow())} {message}".replace("\n", " ") + "\n"
        fd = os.open(state / "hook.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8", "replace"))
        finally:
            os.close(fd)
    except Exception:
        pass


def main(args: list[str]) -> int:
    try:
        if len(args) < 2:
            log_problem(f"usage: carto hook <provider> <EventName>; got {args!r}")
            return 0
        provider, event_name = args[0], args[1]
        log_problem(f"no live capture installed for provider {provider!r} (event {event_name})")
    except Exception:
        log_problem("hook dispatcher failed: " + traceback.format_exc(limit=3))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
