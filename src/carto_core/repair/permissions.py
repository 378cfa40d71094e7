"""Files and folders of a home that other users can read, and tightening them.

carto creates the home 0700, its folders 0700 and its files 0600 (`carto_core.util.privatefiles`),
but a home made by an older carto, by hand or by a copy keeps the modes it was given: under the
usual umask 022 every log is 0644 and every folder 0755, and any local user reads every turn.
`scan` walks the home (the home itself included; symlinks are neither followed nor changed, nor
are FIFOs and devices) and lists what grants anything to the group or to others; `tighten` takes
those bits away (0644 -> 0600, 0755 -> 0700), through a descriptor opened without following a
symlink, so an entry swapped for a link meanwhile is left alone. `carto doctor` reports the
scan; `carto repair permissions --write` tightens.
"""

from __future__ import annotations

import os
import stat

#: Bits a private entry never has: everything for the group and for others.
SHARED_BITS = 0o077
EXAMPLES = 10


def _kind(mode: int) -> str | None:
    """What a mode's bits guard: a folder's or a file's contents, a socket's connections. None
    for a FIFO or a device: nothing of carto's is read through one (a FIFO holds nothing, and
    one in the place of carto's file is a problem of its own, fixed by moving it aside, which
    its mode does not change), and opening a device to change its mode could act on it."""
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISSOCK(mode):
        return "socket"
    return None


def scan(root: os.PathLike | str) -> list[dict]:
    """Every entry under `root` (and `root` itself) whose mode grants the group or others
    anything: `{path, kind, mode, private}` with the modes as octal text and `path` relative to
    the home ("." for the home)."""
    root = os.fspath(root)
    found: list[dict] = []

    def check(path: str) -> None:
        try:
            info = os.lstat(path)
        except OSError:
            return
        kind = _kind(info.st_mode)  # None for a symlink too
        if kind is None or not info.st_mode & SHARED_BITS:
            return
        mode = stat.S_IMODE(info.st_mode)
        found.append({"path": os.path.relpath(path, root), "kind": kind,
                      "mode": f"{mode:04o}", "private": f"{mode & ~SHARED_BITS:04o}"})

    if not os.path.isdir(root):
        return found
    check(root)
    for folder, dirs, files in os.walk(root):  # never follows a symlinked folder
        for name in dirs + files:
            check(os.path.join(folder, name))
    return found


def _chmod_here(path: str, mode: int) -> None:
    """chmod `path` itself, never what a symlink there points to."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        # A socket cannot be opened: chmod it by name when it is still not a symlink.
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            raise exc
        os.chmod(path, mode)
        return
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def tighten(root: os.PathLike | str, entries: list[dict]) -> tuple[int, list[str]]:
    """Take the group's and others' bits away from `entries` (from `scan`); returns (how many
    were changed, one line per entry that could not be: another user's, or gone)."""
    root = os.fspath(root)
    changed, failed = 0, []
    for entry in entries:
        path = os.path.normpath(os.path.join(root, entry["path"]))
        try:
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                continue
            _chmod_here(path, stat.S_IMODE(info.st_mode) & ~SHARED_BITS)
        except OSError as exc:
            failed.append(f"{entry['path']}: {exc.strerror or exc}")
            continue
        changed += 1
    return changed, failed


def summary(entries: list[dict]) -> dict:
    """Counts per kind and a few examples, for doctor and the repair's document."""
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry["kind"]] = counts.get(entry["kind"], 0) + 1
    return {"open": len(entries), "kinds": counts, "examples": entries[:EXAMPLES]}
