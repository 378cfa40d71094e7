"""Tombstones: the event ids `carto forget` took out, so that nothing writes them back. Stdlib only
(the hook path asks it).

`<home>/.carto/tombstones.bin` holds a 16-byte magic and then the sorted 64-bit hashes (BLAKE2b,
8 bytes, little-endian) of every forgotten event id, never the ids themselves: an id can carry
text (a session id, a file name in a note's id), and a forgotten event must leave none behind.
One false positive is a 64-bit collision between a forgotten id and a new one (at a million
tombstones and a million new ids, about one chance in 10^7): that row would not be written.

Who asks:

- the ingest runner (`carto_core.ingest.runner`), for every row a backfill reads: a forgotten
  transcript turn, git commit or Hermes message is never written back (`TombstoneSet`, the
  whole file in a set);
- the live hook path (`carto_core.capture.context.write_outcome`, `carto_core.capture.live`),
  for the rows of one call: ids that are made from their content (a turn `turn-<sid>-<n>`, a
  Codex prompt `evt-<digest>`) would otherwise come back on the next Stop; one `stat` when no
  tombstone exists, else a binary search by `os.pread` per row (`is_buried`).

`bury` adds hashes: the file is merged and replaced atomically (a temporary file renamed over
it, fsynced), under `<home>/.carto/locks/tombstones.lock` so two forgets never lose each
other's ids. Readers take no lock: they see the old file or the new one, whole.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

MAGIC = b"CARTO-TOMBSTONE1"
FILE = "tombstones.bin"
_ENTRY = 8


def path_of(home) -> str:
    return os.path.join(os.fspath(home.state), FILE)


def id_hash(event_id: str) -> int:
    """The 64-bit hash a tombstone keeps for an event id."""
    try:  # the C module: `hashlib` would load OpenSSL first (a hook would pay for it)
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover
        from hashlib import blake2b

    digest = blake2b(event_id.encode("utf-8", "surrogatepass"), digest_size=_ENTRY).digest()
    return int.from_bytes(digest, "little")


def _read(path: str):
    """Every hash of the file (sorted, an `array` of "Q"), empty when there is none; raises
    ValueError on a file that is not a tombstone file, `notafile.NotAFile` on a folder, FIFO,
    socket or device in its place."""
    from array import array

    from carto_core.util.safeio import NotRegularFile, read_bytes

    try:  # a FIFO or folder in its place is never waited on
        data = read_bytes(path)
    except FileNotFoundError:
        return array("Q")
    except NotRegularFile as exc:  # said with what it breaks and its fix, as backup says it
        from carto_core.logio.notafile import tombstones_refusal

        raise (tombstones_refusal(path) or exc) from None
    if not data.startswith(MAGIC) or (len(data) - len(MAGIC)) % _ENTRY:
        raise ValueError(f"{path}: not a carto tombstone file")
    values = array("Q")
    values.frombytes(data[len(MAGIC):])
    if array("Q", [1]).tobytes() != (1).to_bytes(_ENTRY, "little"):  # pragma: no cover - big-endian
        values.byteswap()
    return values


def check(home) -> None:
    """Raise `notafile.NotAFile` when a folder, FIFO, socket or device stands in the place of
    the home's tombstones (looked at, never opened), before a command that needs them starts:
    a forget that wrote its intent could not bury its ids, a backup would leave them out
    without a word (nothing rebuilds them)."""
    from carto_core.logio.notafile import tombstones_refusal

    refusal = tombstones_refusal(path_of(home))
    if refusal is not None:
        raise refusal


def count(home) -> int:
    """How many ids are buried (from the file's size; none in a folder or FIFO there)."""
    try:
        found = os.stat(path_of(home))
    except OSError:
        return 0
    if not stat.S_ISREG(found.st_mode):
        return 0
    return max(0, (found.st_size - len(MAGIC)) // _ENTRY)


class TombstoneSet:
    """Every buried hash of a home, held in memory: for readers that ask about many ids (a
    backfill, a forget's resume)."""

    def __init__(self, hashes: Iterable[int] = ()):
        self.hashes = frozenset(hashes)

    @classmethod
    def of(cls, home, *, strict: bool = False) -> "TombstoneSet":
        """`strict`: raise ValueError on a file that is not a tombstone file, for a caller that
        must know every buried id (a restore keeping them out of what it writes)."""
        try:
            return cls(_read(path_of(home)))
        except ValueError:
            if strict:
                raise
            return cls()  # unreadable: `carto doctor` reports it; nothing is refused

    def __bool__(self) -> bool:
        return bool(self.hashes)

    def __len__(self) -> int:
        return len(self.hashes)

    def __contains__(self, event_id: object) -> bool:
        return isinstance(event_id, str) and bool(self.hashes) and id_hash(event_id) in self.hashes


def is_buried(home, event_ids: list) -> list[bool]:
    """For each id, whether it is buried: one `stat` when the home has no tombstone, else a
    binary search of the file per id (a hook asks about the few rows of one call)."""
    from carto_core.util.safeio import open_fd

    path = path_of(home)
    try:  # a FIFO in its place would hold the hook in open(): none is read as no tombstones
        fd = open_fd(path)
    except OSError:
        return [False] * len(event_ids)
    try:
        size = os.fstat(fd).st_size
        n = (size - len(MAGIC)) // _ENTRY
        if n <= 0 or os.pread(fd, len(MAGIC), 0) != MAGIC:
            return [False] * len(event_ids)
        out = []
        for event_id in event_ids:
            if not isinstance(event_id, str):
                out.append(False)
                continue
            wanted = id_hash(event_id)
            lo, hi = 0, n
            while lo < hi:
                mid = (lo + hi) // 2
                value = int.from_bytes(os.pread(fd, _ENTRY, len(MAGIC) + mid * _ENTRY), "little")
                if value < wanted:
                    lo = mid + 1
                else:
                    hi = mid
            out.append(lo < n and int.from_bytes(
                os.pread(fd, _ENTRY, len(MAGIC) + lo * _ENTRY), "little") == wanted)
        return out
    finally:
        os.close(fd)


def bury(home, event_ids: Iterable[str]) -> int:
    """Add the ids' hashes to the home's tombstone; returns how many were new."""
    return bury_hashes(home, {id_hash(e) for e in event_ids if isinstance(e, str)})


def bury_hashes(home, new: set[int]) -> int:
    """Add hashes (another home's tombstones) to the home's tombstone; returns how many were new."""
    import fcntl
    from array import array

    from carto_core.logio.rewrite_journal import fsync_folder

    if not new:
        return 0
    from carto_core.util.privatefiles import make_dirs, open_fd

    state = os.fspath(home.state)
    make_dirs(os.path.join(state, "locks"))
    lock = open_fd(os.path.join(state, "locks", "tombstones.lock"), os.O_RDWR)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = path_of(home)
        try:
            held = _read(path)
        except ValueError:
            held = array("Q")  # not ours to keep: replaced by a readable one
        merged = set(held)
        added = len(new - merged)
        if not added:
            return 0
        merged |= new
        values = array("Q", sorted(merged))
        if array("Q", [1]).tobytes() != (1).to_bytes(_ENTRY, "little"):  # pragma: no cover
            values.byteswap()
        tmp = f"{path}.{os.getpid()}.tmp"
        fd = open_fd(tmp, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(fd, MAGIC + values.tobytes())
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        fsync_folder(state)
        return added
    finally:
        os.close(lock)
