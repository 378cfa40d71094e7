"""The rewrite journal: how a rewrite that died is finished or rolled back. Stdlib only.

`rewrite.rewrite_log` leaves three kinds of files beside a log while it works:

- `.<log>.rewrite-<pid>`: the new content being spooled (a temporary copy);
- `.<log>.rewrite-intent`: what the rewrite is doing (`read_upto`; `piece_at`, where the last
  line it read starts when that line had no newline yet; the temporary copy's name), written
  and fsynced before anything is swapped;
- `.<log>.rewrite-journal`: a hard link to the log's old inode, made before the swap, so that
  rows appended to the old inode between the read and the swap stay reachable if the rewriter
  dies before copying them onto the new file.

`settle(log)` is what the next writer (every append, every rewrite) and the next reader
(`reader.iter_lines`) call first: one `lstat` when no rewrite died; otherwise, if it can take
the rewriters' lock without waiting (a live rewriter holds it, and is left alone), it rolls the
dead rewrite back (the swap did not happen: the log is intact, the copy is deleted) or finishes
it (the swap happened: the journal's rows after `read_upto` that the log lacks are appended,
the generation is bumped), then removes the journal and the intent. Temporary copies of dead
rewriters are removed by the next rewrite (`clean_temporaries`).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from carto_core.util.privatefiles import make_dirs, open_fd, open_private, write_text

INTENT_SUFFIX = ".rewrite-intent"
JOURNAL_SUFFIX = ".rewrite-journal"
_TEMPORARY = re.compile(r"^\.(?P<log>.+)\.rewrite-\d+$")


def intent_path(log_path: os.PathLike | str) -> str:
    head, name = os.path.split(os.fspath(log_path))
    return os.path.join(head, f".{name}{INTENT_SUFFIX}")


def journal_path(log_path: os.PathLike | str) -> str:
    head, name = os.path.split(os.fspath(log_path))
    return os.path.join(head, f".{name}{JOURNAL_SUFFIX}")


def temporary_path(log_path: os.PathLike | str, pid: int | None = None) -> str:
    head, name = os.path.split(os.fspath(log_path))
    return os.path.join(head, f".{name}.rewrite-{os.getpid() if pid is None else pid}")


def _state_of(head: str) -> str:
    """The state folder of the logs in `head`: its `.carto`, or `head` itself for the state
    folder's own logs (search calls, hook.log), which a forget rewrites too."""
    return head if os.path.basename(os.path.normpath(head)) == ".carto" else os.path.join(head, ".carto")


def lock_path(log_path: os.PathLike | str) -> str:
    """The rewriters' lock of a log: `<folder>/.carto/locks/<log>.lock`."""
    head, name = os.path.split(os.fspath(log_path))
    return os.path.join(_state_of(head), "locks", name + ".lock")


def pending(log_path: os.PathLike | str) -> bool:
    """True when a rewrite of this log is under way or died (its intent file exists)."""
    return os.path.lexists(intent_path(log_path))


def open_lock(log_path: os.PathLike | str, *, blocking: bool) -> int | None:
    """The rewriters' lock, held (an fd to close), or None when another process holds it (only
    when not `blocking`) or the lock cannot be created (a read-only home)."""
    import fcntl

    path = lock_path(log_path)
    try:
        make_dirs(os.path.dirname(path))
        fd = open_fd(path, os.O_RDWR)
    except OSError:
        if blocking:
            raise
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        if blocking:
            raise
        return None
    return fd


def write_intent(log_path: os.PathLike | str, document: dict) -> None:
    """Write the intent file durably (its bytes and its directory entry) before any swap."""
    path = intent_path(log_path)
    data = json.dumps(document, sort_keys=True).encode()
    fd = open_fd(path, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_folder(os.path.dirname(path))


def read_intent(log_path: os.PathLike | str) -> dict | None:
    try:
        with open(intent_path(log_path), "rb") as handle:
            document = json.loads(handle.read())
    except (OSError, ValueError):
        return None  # absent, or cut by a crash while it was written (nothing was swapped yet)
    return document if isinstance(document, dict) else None


def fsync_folder(folder: str) -> None:
    try:
        fd = os.open(folder or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink(path: str) -> bool:
    try:
        os.unlink(path)
        return True
    except FileNotFoundError:
        return False


def complete_lines(data: bytes) -> list[bytes]:
    """The whole lines of `data` (each with its newline); a trailing piece without one is left:
    its writer is either still writing (and, seeing the swap, writes the row again) or died
    mid-row (a torn row, which a copy would only spread)."""
    cut = data.rfind(b"\n")
    if cut < 0:
        return []
    return [line + b"\n" for line in data[:cut].split(b"\n") if line.strip()]


def appended_since(data: bytes, read: int) -> list[bytes]:
    """The whole lines an old inode got after a rewrite read it. `data` is the old inode's bytes
    from the start of the last line the read saw (`piece_at`; the read's end when it ended at a
    newline), `read` how many of them the read saw.

    A read can end inside a row: one `os.write` of a line is atomic against other appends, not
    against a reader (Linux makes a buffered write visible page by page). When the bytes after
    the read continue that line instead of starting one (an appender seals a torn line with a
    newline first), the row was being written, is whole now, and is copied whole: copying from
    the read's end would make its cut-off end a line of its own, which is not JSON."""
    if 0 < read < len(data) and data[read:read + 1] != b"\n":
        return complete_lines(data)
    return complete_lines(data[read:])


def settle(log_path: os.PathLike | str) -> str | None:
    """Finish or roll back a dead rewrite of this log. Never waits and never raises.

    Returns None when there was nothing to do, "busy" when a live rewriter holds the lock (or
    the home cannot be locked: read-only), else what was done ("rolled back", "finished").
    """
    if not pending(log_path) and not os.path.lexists(journal_path(log_path)):
        return None
    try:
        fd = open_lock(log_path, blocking=False)
    except Exception:  # noqa: BLE001 - a reader or a hook must never fail here
        return "busy"
    if fd is None:
        return "busy"
    try:
        return recover_locked(log_path)
    except Exception as exc:  # noqa: BLE001 - a read-only or full home: the next writer retries
        return f"failed: {type(exc).__name__}: {exc}"
    finally:
        os.close(fd)


def recover_locked(log_path: os.PathLike | str) -> str | None:
    """`settle`'s work, for a caller that holds the rewriters' lock (any intent is stale)."""
    log_path = os.fspath(log_path)
    intent_file, journal = intent_path(log_path), journal_path(log_path)
    intent = read_intent(log_path)
    if intent is None and not os.path.lexists(intent_file) and not os.path.lexists(journal):
        return None
    try:
        journal_stat = os.lstat(journal)
    except FileNotFoundError:
        journal_stat = None
    try:
        log_stat = os.stat(log_path)
    except FileNotFoundError:
        log_stat = None
    temporary = (intent or {}).get("temporary")
    if journal_stat is None or (
        log_stat is not None and (log_stat.st_ino, log_stat.st_dev) == (journal_stat.st_ino, journal_stat.st_dev)
    ):
        # Died before the swap: the log still is the old inode, holding every row.
        if isinstance(temporary, str) and os.path.basename(temporary) == temporary:
            _unlink(os.path.join(os.path.dirname(log_path), temporary))
        _unlink(journal)
        _unlink(intent_file)
        fsync_folder(os.path.dirname(log_path))
        return "rolled back"
    # Died after the swap: the new file has the name; the old inode (the journal) may hold rows
    # appended after the read that never reached the new file.
    if log_stat is None:
        os.rename(journal, log_path)  # the new file vanished: the old one has every row
        _unlink(intent_file)
        bump_generation(log_path)
        return "restored"
    read_upto = (intent or {}).get("read_upto")
    read_upto = read_upto if isinstance(read_upto, int) and read_upto >= 0 else 0
    piece_at = (intent or {}).get("piece_at")
    piece_at = piece_at if isinstance(piece_at, int) and 0 <= piece_at <= read_upto else read_upto
    with open(journal, "rb") as handle:
        handle.seek(piece_at)
        tail = appended_since(handle.read(), read_upto - piece_at)
    if tail:
        with open(log_path, "rb") as handle:
            present = set(handle.read().splitlines(keepends=True))
        missing = [line for line in tail if line not in present]
        if missing:
            from carto_core.logio.appendlog import append_lines

            append_lines(log_path, missing, settle=False)
    bump_generation(log_path)
    _unlink(journal)
    _unlink(intent_file)
    fsync_folder(os.path.dirname(log_path))
    return "finished"


def clean_temporaries(log_path: os.PathLike | str) -> list[str]:
    """Remove the temporary copies dead rewriters of this log left (call with the lock held)."""
    head, name = os.path.split(os.fspath(log_path))
    removed = []
    try:
        entries = os.listdir(head or ".")
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.match(entry)
        if match and match.group("log") == name and _unlink(os.path.join(head, entry)):
            removed.append(entry)
    return removed


# --- generations (caches and cursors built on a log's bytes compare it) ------------------------


def generations_path(log_path: os.PathLike | str) -> Path:
    return Path(_state_of(os.fspath(Path(log_path).parent))) / "generations.json"


def generation(log_path: os.PathLike | str) -> int:
    """How many times this log has been rewritten (0 for never)."""
    try:
        return int(json.loads(generations_path(log_path).read_text("utf-8")).get(Path(log_path).name, 0))
    except (OSError, ValueError, AttributeError):
        return 0


def bump_generation(log_path: os.PathLike | str) -> int:
    """Count one more rewrite of this log. Rewriters of different logs share the file, so the
    read-modify-write runs under a lock of its own."""
    import fcntl

    log_path = Path(log_path)
    path = generations_path(log_path)
    lock = Path(lock_path(path.parent.parent / "generations.json"))
    make_dirs(lock.parent)
    with open_private(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            data = json.loads(path.read_text("utf-8"))
            if not isinstance(data, dict):
                data = {}
        except (OSError, ValueError):
            data = {}
        data[log_path.name] = int(data.get(log_path.name, 0)) + 1
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        write_text(tmp, json.dumps(data, sort_keys=True))
        os.replace(tmp, path)
    return data[log_path.name]
