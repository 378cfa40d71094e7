"""The hook's spill file: rows a full or unwritable home refused, kept until it accepts them.

A hook must never lose a row without a trace and never fail the agent. When appending to the
home fails with a disk or permission error (ENOSPC, EDQUOT, EROFS, EACCES, EPERM, EIO), the rows
that did not go in are appended to a small spill file outside the home (by default
`$TMPDIR/carto-spill-<uid>/<crc of the home path>.jsonl`, a folder of mode 0700 owned by the
user; `CARTO_SPILL_DIR` moves it), one `{"home", "log", "line"}` entry per row, at most
`CARTO_SPILL_MAX_BYTES` (default 1 MiB; rows beyond are dropped and counted in hook.log). The
next hook call whose append succeeds flushes it: the file is claimed by renaming it (only one
flusher wins), every entry is appended to its log (in order, the row's bytes unchanged), and the
claimed file is removed; rows that fail again go back to the spill file.

Stdlib only (the hook path imports this): on a normal call it costs one `stat`.
"""

from __future__ import annotations

import errno
import json
import os
import zlib

#: Errors that mean "the home cannot take rows now" (as opposed to a bug).
SPILL_ERRNOS = frozenset(
    code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EROFS, errno.EACCES,
                      errno.EPERM, errno.EIO, errno.ENOENT, errno.ENOTDIR) if code is not None
)
DEFAULT_MAX_BYTES = 1 << 20


def max_bytes() -> int:
    try:
        return max(0, int(os.environ.get("CARTO_SPILL_MAX_BYTES") or DEFAULT_MAX_BYTES))
    except ValueError:
        return DEFAULT_MAX_BYTES


def spill_folder() -> str | None:
    """The user's private spill folder, created on first use; None when it is not safe (owned
    by someone else, a symlink, or not creatable)."""
    folder = os.environ.get("CARTO_SPILL_DIR")
    if not folder:
        base = os.environ.get("TMPDIR") or "/tmp"
        folder = os.path.join(base, f"carto-spill-{os.getuid()}")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(folder)
    except OSError:
        return None
    import stat

    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        return None
    return folder


def spill_path(home_root: os.PathLike | str, folder: str | None = None) -> str | None:
    folder = folder or spill_folder()
    if folder is None:
        return None
    root = os.path.abspath(os.fspath(home_root))
    return os.path.join(folder, f"{zlib.crc32(root.encode('utf-8', 'replace')):08x}.jsonl")


def is_spill_error(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in SPILL_ERRNOS


def spill(home_root: os.PathLike | str, log_path: os.PathLike | str, lines: list[bytes]) -> tuple[int, int]:
    """Keep `lines` (meant for `log_path`) in the spill file. Returns (kept, dropped)."""
    path = spill_path(home_root)
    if path is None or not lines:
        return 0, len(lines)
    from carto_core.appendlog import append_lines

    root = os.path.abspath(os.fspath(home_root))
    name = os.path.relpath(os.path.abspath(os.fspath(log_path)), root)
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    limit = max_bytes()
    entries = []
    for line in lines:
        entry = (json.dumps({"home": root, "log": name, "line": line.decode("utf-8", "replace")},
                            ensure_ascii=False) + "\n").encode("utf-8", "replace")
        if size + len(entry) > limit:
            break
        size += len(entry)
        entries.append(entry)
    try:
        append_lines(path, entries, settle=False)
    except OSError:
        return 0, len(lines)
    return len(entries), len(lines) - len(entries)


def flush(home_root: os.PathLike | str) -> tuple[int, int]:
    """Append what the spill file holds to the home's logs. Returns (flushed, left).

    Never raises; costs one `stat` when there is nothing to flush.
    """
    path = spill_path(home_root)
    if path is None or not os.path.exists(path):
        return 0, 0
    claimed = f"{path}.flush-{os.getpid()}"
    try:
        os.rename(path, claimed)
    except OSError:
        return 0, 0  # another hook is flushing it
    try:
        with open(claimed, "rb") as handle:
            data = handle.read()
    except OSError:
        return 0, 0
    from carto_core.appendlog import append_lines

    root = os.path.abspath(os.fspath(home_root))
    flushed = 0
    leftover: list[bytes] = []
    for raw in data.splitlines():
        if leftover:
            leftover.append(raw + b"\n")
            continue
        try:
            entry = json.loads(raw)
            target = os.path.normpath(os.path.join(root, entry["log"]))
            if entry.get("home") != root or not target.startswith(root + os.sep):
                continue  # not this home's (a crc collision) or a path out of it: never written
            line = entry["line"].encode("utf-8")
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # a spill entry cut by a crash: nothing to restore
        try:
            append_lines(target, [line if line.endswith(b"\n") else line + b"\n"])
            flushed += 1
        except OSError:
            leftover.append(raw + b"\n")
    if leftover:
        try:
            append_lines(path, leftover, settle=False)
        except OSError:
            return flushed, len(leftover)  # keep the claimed file: the next flush has it
    try:
        os.unlink(claimed)
    except OSError:
        pass
    return flushed, len(leftover)


def land(home_root: os.PathLike | str, log_path: os.PathLike | str, lines: list[bytes], *, on_seal=None) -> dict:
    """Append `lines` to `log_path`, spilling what a full or unwritable home refuses.

    Returns counts: written, spilled, dropped (and raises only for errors that are not the
    home's fault, such as a bug)."""
    from carto_core.appendlog import AppendError, append_lines

    try:
        written = append_lines(log_path, lines, on_seal=on_seal)
    except OSError as exc:
        if not is_spill_error(exc):
            raise
        done = exc.written if isinstance(exc, AppendError) else 0
        kept, dropped = spill(home_root, log_path, lines[done:])
        return {"written": done, "spilled": kept, "dropped": dropped, "error": exc}
    flushed, _ = flush(home_root)
    return {"written": written, "spilled": 0, "dropped": 0, "flushed": flushed}
