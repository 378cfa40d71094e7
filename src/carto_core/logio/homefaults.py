"""A home that cannot be written (read-only, full, not ours) or that vanished: how commands find
out and what they say. Stdlib only.

Every command ends an `OSError` of this kind with one line naming the problem and exit 1
(`carto_core.cli.CartoGroup` is the net); read-only lenses that can answer without writing
(`carto search`) probe first with `probe_writable` and answer from the logs, saying so.
"""

from __future__ import annotations

import errno
import os

#: The errors that mean "the home (or the disk under it) refuses": the caller's machine, not a bug.
READ_ONLY = frozenset({errno.EROFS})
NOT_PERMITTED = frozenset({errno.EACCES, errno.EPERM})
FULL = frozenset(code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None)) if code is not None)
VANISHED = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ESTALE})


def probe_writable(root: os.PathLike | str) -> str | None:
    """None when a file can be created in `root` (the home), else why not, in a few words.

    Costs one create and one unlink. A missing `root` is not a fault here (a command that needs
    the home says so itself).
    """
    folder = os.fspath(root)
    if not os.path.isdir(folder):
        return None
    probe = os.path.join(folder, f".carto-write-probe-{os.getpid()}")
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return None
    except OSError as exc:
        return why(exc)
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:
        pass
    return None


def why(exc: OSError) -> str:
    """What refused, to follow "the home X is ..."."""
    if exc.errno in READ_ONLY:
        return "on a read-only file system"
    if exc.errno in NOT_PERMITTED:
        return "not writable by this user"
    if exc.errno in FULL:
        return "on a full disk (no space left)"
    return f"not writable ({exc.strerror or type(exc).__name__})"


def fault_message(exc: OSError, home_root: os.PathLike | str | None, command: str = "") -> str:
    """One line for the user: what refused, where, and what to do."""
    from carto_core.logio.reader import cannot_read

    unusable = cannot_read(exc)
    if unusable:  # a folder where a log should be refuses reads and writes alike
        return f"{command + ': ' if command else ''}{unusable}"
    path = exc.filename or ""
    where = f"{path}" if path else "a file"
    doing = f"{command}: " if command else ""
    root = os.fspath(home_root) if home_root is not None else ""
    in_home = bool(root) and bool(path) and os.path.abspath(os.fsdecode(path)).startswith(os.path.abspath(root))
    place = f"the home {root}" if in_home or not path else where
    if exc.errno in READ_ONLY:
        return (f"{doing}{place} is on a read-only file system ({where} could not be written); "
                "read-only commands such as `carto search` still answer")
    if exc.errno in NOT_PERMITTED:
        return f"{doing}permission denied writing {where}: {place} is not writable by this user"
    if exc.errno in FULL:
        return (f"{doing}no space left on the disk holding {where} (or a quota is reached); "
                "free some space and run it again")
    if exc.errno in VANISHED and in_home:
        return f"{doing}{where} vanished while carto was using it (was the home {root} moved or deleted?)"
    return f"{doing}{exc.strerror or type(exc).__name__}: {where}"
