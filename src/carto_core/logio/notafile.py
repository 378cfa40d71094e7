"""A folder, FIFO, socket or device where carto keeps one of its own files under `.carto/`:
what stands there, what it harms, and what to do, said the same way wherever it is met. Stdlib
only. Looked at (`lstat`/`stat`), never opened: a FIFO would not answer.

The forget tombstones (`logio.tombstone`) keep forgotten events out; nothing rebuilds them.
"""

from __future__ import annotations

import errno
import os
import shlex
import stat


def not_a_file(path: os.PathLike | str, *, follow: bool = False) -> str | None:
    """"a folder" or "a FIFO, socket or device" for what stands at `path`; None for a regular
    file, nothing, or (unless `follow`: then what it leads to) a symbolic link."""
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    return "a folder" if stat.S_ISDIR(mode) else "a FIFO, socket or device"


class NotAFile(OSError):
    """A command refused on a folder, FIFO, socket or device in the place of one of carto's
    files: `problem` (what stands where, and the harm) and `fix`; its text is both, one line."""

    def __init__(self, path: os.PathLike | str, what: str, problem: str, fix: str):
        code = errno.EISDIR if what == "a folder" else errno.EINVAL
        super().__init__(code, f"{what}, not a file", os.fspath(path))
        self.problem, self.fix = problem, fix

    def __str__(self) -> str:
        return f"{self.problem}; fix: {self.fix}"


def _aside(path: os.PathLike | str) -> str:
    """`mv PATH PATH.aside`, quoted for a shell."""
    return f"mv {shlex.quote(os.fspath(path))} {shlex.quote(f'{os.fspath(path)}.aside')}"


def tombstones_refusal(path: os.PathLike | str) -> NotAFile | None:
    """The error a copy of the home (a backup, an export) ends with when the forget tombstones
    at `path` are a folder, FIFO, socket or device (through a symbolic link too: they are read
    through one); None otherwise."""
    what = not_a_file(path, follow=True)
    if what is None:
        return None
    return NotAFile(path, what,
                    f"the forget tombstones {os.fspath(path)} are {what}, not a file: nothing keeps "
                    "the events `carto forget` took out from coming back, in this home (a hook can "
                    "write them again) or in one made from a copy of it",
                    f"put the tombstone file back in its place, or `{_aside(path)}` and forget "
                    "those events again")
