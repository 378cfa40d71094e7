"""Appending rows to a log, safely against concurrent writers, rewrites and torn lines. Stdlib only.

Every row is one `os.write` of one whole line on an `O_APPEND` descriptor, so appends from many
processes never interleave. Before the first row, the appender looks at the file's last byte:
when it is not a newline (a writer died mid-row, or a disk filled up), the row starts with one,
so the torn piece stays a line of its own (readers count it, `carto repair torn-rows` settles
it) instead of gluing itself to this row and taking it down with it.

A last byte that is not a newline is also what a live writer's long row looks like while its
`os.write` is under way (the file grows page by page, and `pread` takes no lock), and sealing
that would add a blank line after it. So every appender holds a shared `flock` while it writes,
and one that sees a torn end takes the exclusive lock before sealing: granted, no write is under
way and the end is looked at again; not granted within `_SEAL_WAIT` seconds, a live writer is
mid-row and this row, appended after its write (`O_APPEND` writes do not interleave), needs no
seal. A writer that died holds no lock. Waits are bounded, so a stopped process holding a lock
delays an append but never blocks it.

A rewrite (see `rewrite.py`) replaces the file by renaming a new one over it; an appender that
wrote into the replaced inode notices (the path no longer names the inode it wrote to) and
writes the row again to the new file. Together with the rewriter copying the old inode's tail
after the swap, a row is never lost; it may occur twice, and readers fold duplicates by
event_id (at-least-once). A rewrite that died is finished or rolled back first (`settle`).
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from collections.abc import Callable, Iterable

from carto_core.logio.jsonl import dumps_row
from carto_core.logio.rewrite_journal import pending
from carto_core.util.privatefiles import FILE_MODE, make_dirs
from carto_core.util.safeio import NotRegularFile

_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
_MAX_REOPENS = 8
#: How long an appender waits for a lock before going on without it (seconds).
_LOCK_WAIT = 1.0
#: How long an appender that sees a torn end waits for the writers under way to finish.
_SEAL_WAIT = 1.0


class AppendError(OSError):
    """An append that failed part way: `written` of the lines went in before the error."""

    def __init__(self, error: OSError, written: int):
        super().__init__(error.errno, error.strerror or str(error), error.filename)
        self.written = written


def _write_all(fd: int, data: bytes) -> None:
    written = os.write(fd, data)
    if written != len(data):
        # A short write on a regular file means the disk is full or a quota hit; never leave a
        # torn line behind silently.
        import errno

        raise OSError(errno.ENOSPC, f"short write: {written} of {len(data)} bytes")


def _ends_torn(fd: int) -> bool:
    """True when the file is not empty and its last byte is not a newline."""
    size = os.fstat(fd).st_size
    return size > 0 and os.pread(fd, 1, size - 1) != b"\n"


def _lock(fd: int, kind: int, wait: float) -> bool:
    """Take `kind` (`fcntl.LOCK_SH`/`LOCK_EX`) on `fd` within `wait` seconds; False when not
    granted (or the file system has no locks)."""
    deadline = time.monotonic() + wait
    pause = 0.0005
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
        except OSError:
            return False


def _needs_seal(fd: int) -> bool:
    """Whether the file ends in a torn row of a writer that is gone. Called holding the shared
    lock; leaves it held (or the exclusive one, when the end was looked at again under it)."""
    if not _ends_torn(fd):
        return False
    if not _lock(fd, fcntl.LOCK_EX, _SEAL_WAIT):
        return False  # a live writer is mid-row: this row lands after its whole line
    return _ends_torn(fd)


def append_lines(
    path: os.PathLike | str,
    lines: Iterable[bytes],
    *,
    settle: bool = True,
    on_seal: Callable[[str], None] | None = None,
) -> int:
    """Append already-encoded lines (each ending in a newline). Returns how many were written.

    A file whose last byte is not a newline gets one first (`on_seal(path)` is told). Raises
    `AppendError` (an `OSError` saying how many lines went in) when the disk refuses.
    """
    path = os.fspath(path)
    pending_lines = list(lines)
    if not pending_lines:
        return 0
    if settle and pending(path):
        from carto_core.logio.rewrite_journal import settle as settle_log

        settle_log(path)
    parent = os.path.dirname(path)
    if parent:
        make_dirs(parent)
    for _ in range(_MAX_REOPENS):
        fd = os.open(path, _FLAGS, FILE_MODE)
        written = 0
        try:
            written_to = os.fstat(fd)  # the inode the rows go to, checked after the writes
            if not stat.S_ISREG(written_to.st_mode):
                # a FIFO opened read-write takes a few rows and loses them when closed (or
                # blocks once its buffer is full): the row goes where a failed append's goes
                raise NotRegularFile(path, written_to.st_mode)
            _lock(fd, fcntl.LOCK_SH, _LOCK_WAIT)
            if _needs_seal(fd):
                _write_all(fd, b"\n" + pending_lines[0])
                written = 1
                if on_seal is not None:
                    on_seal(path)
            for line in pending_lines[written:]:
                _write_all(fd, line)
                written += 1
        except OSError as exc:
            raise AppendError(exc, written) from exc
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
            return len(pending_lines)
        # The file was swapped by a rewrite while we wrote: write the rows again to the file
        # that now holds the name (a duplicate is folded by readers; a loss would be final).
    raise OSError(f"{path} kept being replaced while appending; gave up after {_MAX_REOPENS} tries")


def append_rows(path: os.PathLike | str, rows: Iterable[dict]) -> int:
    """Append rows as compact JSON lines, one `os.write` per row."""
    return append_lines(path, (dumps_row(row) for row in rows))
