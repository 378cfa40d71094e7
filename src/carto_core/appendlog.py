"""Appending rows to a log, safely against concurrent writers and rewrites. Stdlib only.

Every row is one `os.write` of one whole line on an `O_APPEND` descriptor, so appends from many
processes never interleave. A rewrite (see `rewrite.py`) replaces the file by renaming a new one
over it; an appender that wrote into the replaced inode notices (the path no longer names the
inode it wrote to) and writes the row again to the new file. Together with the rewriter copying
the old inode's tail after the swap, a row is never lost; it may occur twice, and readers fold
duplicates by event_id (at-least-once).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from carto_core.jsonl import dumps_row

_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
_MAX_REOPENS = 8


def _write_all(fd: int, data: bytes) -> None:
    written = os.write(fd, data)
    if written != len(data):
        # A short write on a regular file means the disk is full or a quota hit; never leave a
        # torn line behind silently.
        raise OSError(f"short write: {written} of {len(data)} bytes")


def append_lines(path: os.PathLike | str, lines: Iterable[bytes]) -> int:
    """Append already-encoded lines (each ending in a newline). Returns how many were written."""
    path = os.fspath(path)
    pending = list(lines)
    if not pending:
        return 0
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    for _ in range(_MAX_REOPENS):
        fd = os.open(path, _FLAGS, 0o644)
        try:
            for line in pending:
                _write_all(fd, line)
            written_to = os.fstat(fd)
        finally:
            os.close(fd)
        try:
            current = os.stat(path)
        except FileNotFoundError:
            current = None
        if current is not None and (current.st_ino, current.st_dev) == (
            written_to.st_ino,
            written_to.st_dev,
        ):
            return len(pending)
        # The file was swapped by a rewrite while we wrote: write the rows again to the file
        # that now holds the name (a duplicate is folded by readers; a loss would be final).
    raise OSError(f"{path} kept being replaced while appending; gave up after {_MAX_REOPENS} tries")


def append_rows(path: os.PathLike | str, rows: Iterable[dict]) -> int:
    """Append rows as compact JSON lines, one `os.write` per row."""
    return append_lines(path, (dumps_row(row) for row in rows))
