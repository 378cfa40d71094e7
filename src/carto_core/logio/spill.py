"""The hook's spill file: rows a full or unwritable home refused, kept until it accepts them.

A hook must never lose a row without a trace and never fail the agent. When appending to the
home fails with a disk or permission error (ENOSPC, EDQUOT, EROFS, EACCES, EPERM, EIO), the rows
that did not go in are appended to a small spill file outside the home (by default
`$TMPDIR/carto-spill-<uid>/<crc of the home path>.jsonl`, a folder of mode 0700 owned by the
user; `CARTO_SPILL_DIR` moves it), one `{"home", "log", "line"}` entry per row, at most
`CARTO_SPILL_MAX_BYTES` (default 1 MiB; rows beyond are dropped and counted in hook.log). The
next hook call whose append succeeds flushes it: the file is claimed by renaming it (only one
flusher wins), every entry is appended to its log (in order, the row's bytes unchanged), and the
claimed file is removed; rows that fail again go back to the spill file. A claimed file whose
flusher died (killed by the hook's wall-clock cap, or a failed put-back) is adopted by the next
flush and appended whole: rows the dead flusher had already appended appear twice, none is lost.
Two homes whose paths have the same crc share a spill file: a flush appends its own home's
entries and puts the other home's back for that home's own flush.
`carto doctor` lists what waits (`pending`); `carto repair spill --write` flushes it by hand.

Stdlib only (the hook path imports this): on a normal call it costs one `stat`.
"""

from __future__ import annotations

import errno
import json
import os
import zlib

#: Errors that mean "the home cannot take rows now" (as opposed to a bug); a folder in a log's
#: place is one, and so is a FIFO or device (`safeio.NotRegularFile`, checked by type: its
#: EINVAL could be a bug's too).
SPILL_ERRNOS = frozenset(
    code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EROFS, errno.EACCES,
                      errno.EPERM, errno.EIO, errno.ENOENT, errno.ENOTDIR, errno.EISDIR)
    if code is not None
)
DEFAULT_MAX_BYTES = 1 << 20


def max_bytes() -> int:
    try:
        return max(0, int(os.environ.get("CARTO_SPILL_MAX_BYTES") or DEFAULT_MAX_BYTES))
    except ValueError:
        return DEFAULT_MAX_BYTES


def spill_folder(*, create: bool = True) -> str | None:
    """The user's private spill folder, created on first use (unless `create` is false: a
    reader's look); None when it is not safe (owned by someone else, a symlink, or not
    creatable) or, not created, absent."""
    folder = os.environ.get("CARTO_SPILL_DIR")
    if not folder:
        base = os.environ.get("TMPDIR") or "/tmp"
        folder = os.path.join(base, f"carto-spill-{os.getuid()}")
    if create:
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
    from carto_core.util.safeio import NotRegularFile

    cause = exc.__cause__ if exc.__cause__ is not None else exc
    return isinstance(exc, OSError) and (exc.errno in SPILL_ERRNOS
                                         or isinstance(cause, NotRegularFile))


def spill(home_root: os.PathLike | str, log_path: os.PathLike | str, lines: list[bytes]) -> tuple[int, int]:
    """Keep `lines` (meant for `log_path`) in the spill file. Returns (kept, dropped)."""
    path = spill_path(home_root)
    if path is None or not lines:
        return 0, len(lines)
    from carto_core.logio.appendlog import append_lines

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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (not ours to signal) or cannot be told: leave its claim alone
    return True


def _claims(path: str) -> list[tuple[str, int]]:
    """The claimed copies of the spill file `path` (`<path>.flush-<pid>`), with their pids."""
    folder, name = os.path.split(path)
    prefix = name + ".flush-"
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    out = []
    for entry in names:
        if entry.startswith(prefix) and entry[len(prefix):].isdigit():
            out.append((os.path.join(folder, entry), int(entry[len(prefix):])))
    return sorted(out)


def _orphans(path: str, claims: list[tuple[str, int]] | None = None) -> list[str]:
    """Claimed copies (`claims`, else the folder's) whose flusher is gone (a claim of this
    very pid is a dead process's whose pid came round again: nothing in this process is
    flushing)."""
    me = os.getpid()
    return [claim for claim, pid in (_claims(path) if claims is None else claims)
            if (pid == me and claim not in _HELD) or (pid != me and not _alive(pid))]


#: Claims this process keeps because their put-back failed: a later flush in the same process
#: must not append them again (the next process adopts them).
_HELD: set[str] = set()
_SCANNED: set[str] = set()


def pending(home_root: os.PathLike | str) -> list[dict]:
    """What waits to be appended to the home: the spill file and every claimed copy of it,
    each `{"path", "entries", "bytes", "claimed_by"}` (`claimed_by`: the pid of the flusher
    holding it, None for the spill file itself; `orphaned` when that flusher is gone).
    Reads only: never creates the spill folder."""
    folder = spill_folder(create=False)
    path = spill_path(home_root, folder) if folder else None
    if path is None:
        return []
    claims = _claims(path)
    orphans = set(_orphans(path, claims))  # one listing and one liveness check a claim
    found = []
    for name, pid in [(path, None), *claims]:
        try:
            with open(name, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        # entries as `flush` reads them (one a line; a last line cut by a crash counts)
        found.append({"path": name, "entries": len(data.splitlines()), "bytes": len(data),
                      "claimed_by": pid, "orphaned": name in orphans})
    return found


def flush(home_root: os.PathLike | str) -> tuple[int, int]:
    """Append what the spill file (and any claimed copy a dead flusher left) holds to the
    home's logs. Returns (flushed, left).

    Never raises; costs a `stat` when there is nothing to flush (and, on a process' first call,
    a listing of the small private spill folder).
    """
    path = spill_path(home_root)
    if path is None:
        return 0, 0
    # the folder is listed once a process (a hook lands several logs): a claim only dies with
    # its process, and this one's own kept claims are in _HELD
    orphans = [] if path in _SCANNED else _orphans(path)
    _SCANNED.add(path)
    if not orphans and not os.path.exists(path):
        return 0, 0
    claimed = f"{path}.flush-{os.getpid()}"
    flushed = left = 0
    # the orphans first: they are older than what the spill file holds now
    for source in [*orphans, path]:
        try:
            if source != claimed and (claimed in _HELD or os.path.exists(claimed)):
                continue  # our claim is still held (its put-back failed): never overwrite it
            if source != claimed:
                os.rename(source, claimed)
        except OSError:
            continue  # another flusher took it
        done, kept = _flush_claimed(home_root, path, claimed)
        flushed, left = flushed + done, left + kept
    return flushed, left


def _flush_claimed(home_root, path: str, claimed: str) -> tuple[int, int]:
    try:
        with open(claimed, "rb") as handle:
            data = handle.read()
    except OSError:
        return 0, 0
    from carto_core.logio.appendlog import append_lines

    root = os.path.abspath(os.fspath(home_root))
    flushed = 0
    leftover: list[bytes] = []
    # Another home's entries (its path has the same crc, so the same spill file) go back for
    # its own flush: dropping them lost that home's rows. They never hold this home's rows
    # back, so they are kept apart from `leftover`, which keeps this home's order.
    others: list[bytes] = []
    for raw in data.splitlines():
        try:
            entry = json.loads(raw)
            home = entry.get("home")
            if home != root and isinstance(home, str) and home.startswith(os.sep):
                others.append(raw + b"\n")
                continue
            if leftover:
                leftover.append(raw + b"\n")
                continue
            target = os.path.normpath(os.path.join(root, entry["log"]))
            if home != root or not target.startswith(root + os.sep):
                continue  # a path out of the home: never written
            line = entry["line"].encode("utf-8")
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # a spill entry cut by a crash: nothing to restore
        try:
            append_lines(target, [line if line.endswith(b"\n") else line + b"\n"])
            flushed += 1
        except OSError:
            leftover.append(raw + b"\n")
    if leftover or others:
        try:
            append_lines(path, others + leftover, settle=False)
        except OSError:
            _HELD.add(claimed)
            return flushed, len(leftover)  # keep the claimed file: the next process adopts it
    try:
        os.unlink(claimed)
    except OSError:
        pass
    return flushed, len(leftover)


def land(home_root: os.PathLike | str, log_path: os.PathLike | str, lines: list[bytes], *, on_seal=None) -> dict:
    """Append `lines` to `log_path`, spilling what a full or unwritable home refuses.

    Returns counts: written, spilled, dropped (and raises only for errors that are not the
    home's fault, such as a bug)."""
    from carto_core.logio.appendlog import AppendError, append_lines

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
