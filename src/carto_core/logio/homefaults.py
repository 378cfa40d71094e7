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


def home_refusal(root: os.PathLike | str) -> tuple[str, str] | None:
    """(problem, fix) when what is at the home's path cannot serve as a home: a file, or a
    folder this user may not read; None when it is a folder carto can read, or nothing is there
    (a command that needs the home says so itself)."""
    import stat

    from carto_core.logio.notafile import aside_command

    path = os.path.abspath(os.fspath(root))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        above = in_the_way(path)
        if above is None:
            return None
        return (f"the home {path} cannot be a folder: {above} is a file, not a folder",
                f"point CARTO_HOME at a folder (or move {above} aside: `{aside_command(above)}`)")
    except PermissionError:
        above = next((p for p in _ancestors(path) if not os.access(p, os.X_OK)), os.path.dirname(path))
        return (f"cannot read the home {path}: the folder {above} above it is not readable by "
                "this user (permission denied)", _owner_fix(above))
    if not stat.S_ISDIR(mode):
        return (f"the home {path} is a file, not a folder (carto keeps its logs in a folder there)",
                f"move the file aside (`{aside_command(path)}`; `carto install claude` or `carto "
                "ingest --all` then makes the home), or point CARTO_HOME at a folder")
    if not os.access(path, os.R_OK | os.X_OK):
        return (f"cannot read the home {path}: it is not readable by this user (permission "
                f"denied, mode {stat.S_IMODE(mode):04o})", _owner_fix(path))
    return None


def in_the_way(path: str) -> str | None:
    """What keeps a folder from being at `path` (the error ENOTDIR): the first of the folders
    above it, or `path` itself, that is there and is not a folder; None when none is."""
    return next((p for p in [*_ancestors(path), path] if os.path.exists(p) and not os.path.isdir(p)),
                None)


def _ancestors(path: str) -> list[str]:
    """The folders above `path`, the outermost first."""
    found = []
    parent = os.path.dirname(path)
    while parent and parent not in found:
        found.append(parent)
        parent = os.path.dirname(parent)
    return found[::-1]


def _owner_fix(path: str) -> str:
    """The command that gives this user back a folder: chmod when it is theirs, else whose it is."""
    try:
        owner = os.stat(path).st_uid
    except OSError:
        owner = None
    if owner is None or owner == os.geteuid():
        return f"`chmod 700 {path}` gives it back to its owner (carto keeps its home private)"
    try:
        import pwd

        name = pwd.getpwuid(owner).pw_name
    except (ImportError, KeyError):
        name = f"uid {owner}"
    return (f"the folder belongs to {name}: run carto as {name}, or point CARTO_HOME at a home "
            "of your own")


def refused_path(path: str) -> tuple[str, str] | None:
    """(the path the file system refuses, what it refuses: "read" or "write") for a permission
    error on `path`, found from the modes; None when the modes do not say."""
    for folder in _ancestors(path):
        if not os.access(folder, os.X_OK):
            return folder, "read"
    if os.path.lexists(path):
        if not os.access(path, os.R_OK):
            return path, "read"
        if not os.access(path, os.W_OK):
            return path, "write"
        return None
    parent = os.path.dirname(path)
    if parent and not os.access(parent, os.W_OK):
        return parent, "write"
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
    if unusable:  # a folder where a log (or a file of carto's) should be refuses reads and writes alike
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
        refused = refused_path(os.path.abspath(os.fsdecode(path))) if path else None
        if refused is not None and refused[1] == "read":
            shown = f"the home {root}" if root and refused[0] == os.path.abspath(root) else refused[0]
            return (f"{doing}cannot read {shown}: it is not readable by this user (permission "
                    f"denied); {_owner_fix(refused[0])}")
        if refused is not None:
            where = refused[0]
        return f"{doing}permission denied writing {where}: {place} is not writable by this user"
    if exc.errno in FULL:
        return (f"{doing}no space left on the disk holding {where} (or a quota is reached); "
                "free some space and run it again")
    if exc.errno in VANISHED and in_home:
        return f"{doing}{where} vanished while carto was using it (was the home {root} moved or deleted?)"
    return f"{doing}{exc.strerror or type(exc).__name__}: {where}"
