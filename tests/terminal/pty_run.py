"""Run a carto command as a person sees it: under a pseudo-terminal of a given size (stdout and
stderr a tty), or with its output piped. Stdlib only (pty), so the suite needs no pexpect."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import time

ANSI = __import__("re").compile(r"\x1b\[[0-9;]*m")


def env_for(extra: dict | None = None, *, colour: bool = True) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "COLUMNS")}
    env["TERM"] = "xterm-256color"
    if not colour:
        env["NO_COLOR"] = "1"
    # The progress line of a first build is wiped on a real terminal, but stays in the bytes
    # captured here: tests of the layout leave it out (tests/terminal/test_first_run_progress.py
    # turns it back on).
    env["CARTO_PROGRESS"] = "0"
    env.update(extra or {})
    return env


def in_pty(args: list[str], env: dict, *, columns: int = 100, rows: int = 50,
           timeout: float = 120) -> tuple[int, str]:
    """(exit code, everything written to the terminal with \\r\\n made \\n)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "carto_core", *args], stdin=slave,
                               stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    chunks, deadline = [], time.monotonic() + timeout
    try:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
            if time.monotonic() > deadline:
                process.kill()
                raise TimeoutError(f"carto {' '.join(args)} still running after {timeout} s")
    finally:
        os.close(master)
    code = process.wait(timeout=timeout)
    return code, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def piped(args: list[str], env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carto_core", *args], env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def plain(text: str) -> str:
    return ANSI.sub("", text)
