"""A folder, FIFO, socket or device where carto keeps one of its own files under `.carto/`:
what stands there, what it harms, and what to do, said the same way by `carto doctor` and by
the command that meets it. Stdlib only. Looked at (`lstat`/`stat`), never opened: a FIFO would
not answer.

The index pointers name an index's current state; moved aside, the index is built again:

- the keyword index's `search/CURRENT` (the name of its current generation,
  `search.index_view.read_current`): a search replaces a file or a symbolic link there, never a
  folder, so every search fails on a folder; a FIFO is read as no index;
- the semantic index's `vectors/manifest.json` (the list of the embedded store's segments,
  `semantic.embedded`): the store cannot be read through a folder or a FIFO, and is not
  written either (a writer reads the manifest first).

The forget tombstones (`logio.tombstone`) keep forgotten events out; nothing rebuilds them.
Nor does anything rebuild a log's rows: a backup refuses a log in whose place one stands
(`log_refusal`).
"""

from __future__ import annotations

import errno
import os
import shlex
import stat
from typing import NamedTuple


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


def aside_command(path: os.PathLike | str) -> str:
    """`mv PATH PATH.aside`, quoted for a shell (a home's path may hold a space)."""
    return f"mv {shlex.quote(os.fspath(path))} {shlex.quote(f'{os.fspath(path)}.aside')}"


#: What a semantic index whose manifest cannot be read does, whatever stands there.
_UNREAD_VECTORS = "searches answer from their keywords alone and `carto index` embeds nothing"


class Pointer(NamedTuple):
    where: tuple[str, ...]  # under `.carto/`
    name: str
    holds: str
    rebuilt: str
    folder_harm: str
    other_harm: str


POINTERS = {
    "keyword": Pointer(("search", "CURRENT"), "the keyword index's pointer",
                       "the name of the index's current generation",
                       "the next search builds the index again",
                       "every search and `carto index` fail on it",
                       "the index cannot be read, and the next search builds it again in its place"),
    "semantic": Pointer(("vectors", "manifest.json"), "the semantic index's manifest",
                        "the list of the vector store's segments",
                        "the next `carto index` embeds the events again",
                        _UNREAD_VECTORS, _UNREAD_VECTORS),
}


def pointer_path(home, index: str) -> str:
    return os.path.join(os.fspath(home.state), *POINTERS[index].where)


def pointer_problem(path: os.PathLike | str, index: str) -> dict | None:
    """{"problem", "fix"} for a folder, FIFO, socket or device at `path`, the pointer of the
    index `index` (a key of `POINTERS`); None for a file, a symbolic link or nothing (what
    writes the pointer replaces those)."""
    what = not_a_file(path)
    if what is None:
        return None
    pointer = POINTERS[index]
    harm = pointer.folder_harm if what == "a folder" else pointer.other_harm
    look = "; look at what the folder holds" if what == "a folder" else ""
    return {"problem": f"{pointer.name} {os.fspath(path)} is {what}, not a file: {harm}",
            "fix": f"`{aside_command(path)}` (carto keeps {pointer.holds} there; {pointer.rebuilt}{look})"}


def pointer_refusal(path: os.PathLike | str, index: str) -> NotAFile | None:
    """The error to end a command with on what `pointer_problem` names; None when it names
    nothing."""
    found = pointer_problem(path, index)
    return NotAFile(path, not_a_file(path), found["problem"], found["fix"]) if found else None


def tombstones_refusal(path: os.PathLike | str) -> NotAFile | None:
    """The error a command that needs the forget tombstones at `path` (a forget, a backfill, a
    backup, an export) ends with when they are a folder, FIFO, socket or device (through a
    symbolic link too: they are read through one), and `carto doctor`'s problem and fix; None
    otherwise."""
    what = not_a_file(path, follow=True)
    if what is None:
        return None
    return NotAFile(path, what,
                    f"the forget tombstones {os.fspath(path)} are {what}, not a file: nothing keeps "
                    "the events `carto forget` took out from coming back, in this home (a hook can "
                    "write them again) or in one made from a copy of it",
                    f"put the tombstone file back in its place, or `{aside_command(path)}` and forget "
                    "those events again")


def log_refusal(path: os.PathLike | str, by: str = "a backup") -> NotAFile | None:
    """The error a backup (or an export: `by`) ends with when the log at `path` (one of the
    home's logs, or the search telemetry log under `.carto/`) is a folder, FIFO, socket or
    device (through a symbolic link too: it is read through one): its rows would be left out,
    and nothing rebuilds them. None otherwise."""
    what = not_a_file(path, follow=True)
    if what is None:
        return None
    look = "; look at what the folder holds" if what == "a folder" else ""
    return NotAFile(path, what,
                    f"the log {os.fspath(path)} is {what}, not a file: {by} would leave out the "
                    "rows carto keeps there",
                    f"`{aside_command(path)}` (carto starts a new log there{look})")
