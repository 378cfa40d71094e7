"""Writing a whole file safely: a temporary file beside it, fsynced, renamed over it. A new file
is private (0600); an existing one keeps its permission bits."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: os.PathLike | str, data: bytes | str, *, mode: int | None = None) -> None:
    """Replace `path` with `data` atomically (a reader sees the old file or the new one)."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o600
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
