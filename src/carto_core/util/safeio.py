"""Opening files a hook does not own without ever blocking on them. Stdlib only.

A hook reads files under the agent's cwd and at paths a payload names (`.git/HEAD`, refs,
`packed-refs`, the reflog, `commondir`, transcripts). Any of them can be a FIFO, a socket or a
device: a plain `open()` of a FIFO waits for a writer forever, and reading `/dev/zero` never
ends. `open_regular` opens with `O_NONBLOCK` (a FIFO opens at once instead of waiting), checks
on the open descriptor (no race with a rename) that it is a regular file, and refuses anything
else with `NotRegularFile`, an `OSError`, so every caller's `except OSError` already covers it.

Use it for every file a hook (or a hook-started ingest) opens that carto did not write:

    from carto_core.util.safeio import open_regular, read_bytes
    with open_regular(transcript_path) as handle:   # a binary file object, reads as usual
        handle.seek(offset)
        chunk = handle.read(1 << 20)
"""

from __future__ import annotations

import errno
import os
import stat

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


class NotRegularFile(OSError):
    """The path names a FIFO, socket, device or folder, which a hook never reads."""

    def __init__(self, path: os.PathLike | str, mode: int):
        kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a folder" if stat.S_ISDIR(mode) else "not a regular file")
        super().__init__(errno.EINVAL, f"{kind}, not a regular file: never read", os.fspath(path))
        self.mode = mode


def open_fd(path: os.PathLike | str) -> int:
    """A read-only descriptor of a regular file, opened without blocking; raises OSError
    (`NotRegularFile` for anything else)."""
    fd = os.open(path, _FLAGS)
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegularFile(path, mode)
    return fd


def open_regular(path: os.PathLike | str):
    """`open(path, "rb")` for a regular file only, never blocking (see the module doc)."""
    return os.fdopen(open_fd(path), "rb")


class ForeignFile(OSError):
    """A path naming another user's file: carto never reads it (a symlink in the agent's
    folder to someone else's transcript, a shared folder)."""


def check_owner(info: os.stat_result) -> None:
    """Raise ForeignFile unless `info` (of an open descriptor, or of a path followed through
    its symlinks) is this user's."""
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise ForeignFile(f"belongs to another user (uid {info.st_uid}), never read")


def open_own(path: os.PathLike | str):
    """`open_regular(path)` for a file this user owns (checked on the open descriptor: no race
    with a rename); raises OSError (`ForeignFile`, `NotRegularFile`) otherwise. The live hook
    opens a payload's transcript so, and every backfill each stream's file."""
    handle = open_regular(path)
    try:
        check_owner(os.fstat(handle.fileno()))
    except OSError:
        handle.close()
        raise
    return handle


def leads_out(path: os.PathLike | str, roots) -> bool:
    """True when `path` lies in one of the folders `roots` as written, but its real path
    (symlinks followed) does not lie in that folder's real path: a symlink leading out."""
    absolute = os.path.abspath(os.fspath(path))
    real = os.path.realpath(absolute)
    for root in roots:
        root = os.path.abspath(os.fspath(root))
        if absolute != root and not absolute.startswith(root.rstrip(os.sep) + os.sep):
            continue
        real_root = os.path.realpath(root)
        if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
            return True
    return False


def read_bytes(path: os.PathLike | str, limit: int | None = None) -> bytes:
    """The file's bytes (at most `limit`); raises OSError as `open` would, and for a non-file."""
    with open_regular(path) as handle:
        return handle.read() if limit is None else handle.read(limit)


def read_text(path: os.PathLike | str, encoding: str = "utf-8", errors: str = "strict",
              limit: int | None = None) -> str:
    return read_bytes(path, limit).decode(encoding, errors)


def is_regular(path: os.PathLike | str) -> bool:
    """True when `path` (symlinks followed) is a regular file; never opens it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def file_stamp(path: os.PathLike | str | None) -> list[int] | None:
    """[size, mtime_ns] of a file, what a cache keyed on it compares (None: no such file)."""
    try:
        info = os.stat(path) if path else None
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns] if info else None
