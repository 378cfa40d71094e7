"""Creating files and folders only their owner can read, whatever the umask. Stdlib only: the
hook path creates its logs through it.

A home holds prompts, commands and transcript turns, so the home is 0700, every folder carto
makes 0700 and every file 0600. The mode is the one `os.open` and `os.mkdir` are given when
they create (the umask can only narrow it), so creating privately costs no system call more
than creating did, and no chmod follows. What already exists keeps its mode (a home made by an
older carto, or by hand): `carto doctor` reports what others can read and `carto repair
permissions --write` tightens it (`carto_core.repair.permissions`).

    from carto_core.util.privatefiles import make_dirs, open_private, write_text
    make_dirs(home.state)                       # os.makedirs(..., exist_ok=True), 0700 each
    with open_private(tmp, "w") as handle:      # open(), but a new file is 0600
        handle.write(text)
"""

from __future__ import annotations

import os

FILE_MODE = 0o600
DIR_MODE = 0o700


def opener(path, flags: int) -> int:
    """The `opener=` of `open()`: a file it creates is 0600."""
    return os.open(path, flags, FILE_MODE)


def open_private(path, mode: str = "w", **kwargs):
    """`open(path, mode, ...)`; a file it creates is 0600."""
    return open(path, mode, opener=opener, **kwargs)


def open_fd(path, flags: int) -> int:
    """`os.open(path, flags | O_CREAT | O_CLOEXEC)` with mode 0600."""
    return os.open(path, flags | os.O_CREAT | _CLOEXEC, FILE_MODE)


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def write_bytes(path, data: bytes) -> None:
    """`Path.write_bytes` (truncate or create), a new file 0600."""
    with open_private(path, "wb") as handle:
        handle.write(data)


def write_text(path, text: str, encoding: str = "utf-8") -> None:
    """`Path.write_text` (truncate or create), a new file 0600."""
    with open_private(path, "w", encoding=encoding) as handle:
        handle.write(text)


def make_dir(path) -> None:
    """`os.mkdir(path)` with mode 0700 (FileExistsError when it exists, as mkdir)."""
    os.mkdir(path, DIR_MODE)


def make_dirs(path) -> None:
    """`os.makedirs(path, exist_ok=True)`, every folder it creates 0700.

    One `mkdir` when the folder exists (the common case; `os.makedirs` stats twice more). A
    file in the way is not reported here: the open that follows fails on it instead."""
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        return
    except FileNotFoundError:
        parent = os.path.dirname(os.path.abspath(os.fspath(path)))
        if not parent or parent == os.path.abspath(os.fspath(path)):
            raise
        make_dirs(parent)
        try:
            os.mkdir(path, DIR_MODE)
        except FileExistsError:
            pass
