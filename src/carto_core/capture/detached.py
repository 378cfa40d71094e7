"""Work a hook starts but never waits for: a cooldown stamp, a child process in a new session,
and an exclusive lock the child holds while it works. Stdlib only (the hook imports this).

The SessionStart catch-up (`catchup`), the live transcript's hand-off for a large backlog
(`live`) and the semantic keep-up (`carto_core.capture.keepup`) share it:

- `due(home, stamp, interval)` costs one `stat` (the stamp's mtime is when the job last
  started) or one small read when the stamp names a later time to start again (a job that found
  nothing to do, e.g. the semantic ladder switched off, backs off longer);
- `spawn(home, module, args, data=...)` starts `python -m module args...` in a new session
  with closed standard streams and returns at once; `data` (text the child needs, such as a
  Stop payload's answer) goes through its standard input, never its command line, which
  every local user can read in `/proc/<pid>/cmdline`;
- `exclusive(home, lock)` is the child's `flock` (a second child finds it held and exits; a
  crashed one releases it with its process), or with `wait=True` blocks until it is free.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager

from carto_core.util.privatefiles import make_dirs, open_private
from carto_core.util.safeio import open_regular


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


def switched_on(variable: str) -> bool:
    """False when `variable` is 0/false/no/off (every detached job has such a switch)."""
    return os.environ.get(variable, "1").strip().lower() not in {"0", "false", "no", "off"}


def due(home, stamp: str, interval: float, now: float | None = None) -> bool:
    """True when the job of `stamp` last started at least `interval` seconds ago (or never),
    and no later start time was written into the stamp."""
    now = time.time() if now is None else now
    path = home.state / stamp
    try:
        info = os.stat(path)
    except OSError:
        return True
    if now - info.st_mtime < interval:
        return False
    if info.st_size:
        try:
            with open_regular(path) as handle:
                text = handle.read(64).decode("utf-8").split()
            not_before = float(text[1]) if len(text) > 1 else 0.0
        except (OSError, ValueError):
            not_before = 0.0
        if now < not_before:
            return False
    return True


def claim(home, stamp: str, *, not_before: float | None = None) -> None:
    """Record that the job starts now (and, optionally, the earliest next start)."""
    make_dirs(home.state)
    text = str(int(time.time())) + (f" {int(not_before)}" if not_before is not None else "")
    with open_private(home.state / stamp, "w", encoding="utf-8") as handle:
        handle.write(text)


#: The most bytes of `data` a child is handed (a Stop payload's answer is cut to 16,000
#: characters before it is stored anyway).
DATA_MAX = 64 << 10


def spawn(home, module: str, args: list[str], data: bytes = b"") -> str | None:
    """Start `python -m module args` detached; returns a problem line, or None.

    `data` reaches the child on its standard input (at most `DATA_MAX` bytes), written without
    blocking: what the pipe's buffer cannot take at once is dropped (a pipe holds 64 KiB, or
    4 KiB when the user has used up the kernel's pipe pages); the child reads it with
    `read_data()`."""
    import subprocess

    env = dict(os.environ)
    env["CARTO_HOME"] = str(home.root)
    try:
        make_dirs(home.state)
        child = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdin=subprocess.PIPE if data else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True, env=env, cwd=str(home.state),
        )
    except OSError as exc:
        return f"could not start {module}: {exc}"
    if data:
        _hand_data(child.stdin, data)
    return None


def _hand_data(pipe, data: bytes) -> None:
    try:
        os.set_blocking(pipe.fileno(), False)
        os.write(pipe.fileno(), data[:DATA_MAX])  # a partial write is fine: the child decodes leniently
    except OSError:
        pass  # a full or closed pipe: the child reads the transcript without it
    finally:
        try:
            pipe.close()
        except OSError:
            pass


def read_data(limit: int = DATA_MAX) -> str:
    """What the parent handed this child on its standard input ("" when nothing)."""
    try:
        return sys.stdin.buffer.read(limit).decode("utf-8", "ignore") if sys.stdin else ""
    except (OSError, ValueError, AttributeError):
        return ""


@contextmanager
def exclusive(home, lock: str, *, wait: bool = False):
    """Hold `<home>/.carto/<lock>` exclusively; yields False (at once) when another process
    holds it and `wait` is false."""
    import fcntl

    make_dirs(home.state)
    handle = open_private(home.state / lock, "a+")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        handle.close()


def arguments(args: list[str], *flags: str) -> dict[str, str]:
    """`--flag value` pairs of a child's command line (the children take no other syntax)."""
    out = {}
    for flag in flags:
        if flag in args and args.index(flag) + 1 < len(args):
            out[flag] = args[args.index(flag) + 1]
    return out
