"""How far a cache has read each log, and whether the log is still the one it read.

Every derived cache (keyword index, facts columns, semantic vectors) records, per log, the
state `log_state` returns after reading it: which file it was (inode, device, the rewrite
generation from `carto_core.logio.rewrite.generation`), the offset after the last complete line
consumed, the line count there, and SHA-1 fingerprints of up to 4096 bytes at the start of the
log and before that offset. `log_status` compares a log with such a state without reading
more than those 8 KiB:

- ``fresh``: nothing new;
- ``grown``: same file, not shorter, same fingerprints: only the bytes after the recorded end
  are new (appends, folded in from the tail);
- ``stale``: rewritten, truncated, replaced or vanished: what was read is no longer there as
  it was.

Stdlib only (the facts cold path reads this).
"""

from __future__ import annotations

import os
from pathlib import Path

from carto_core.logio.reader import BOUNDARY_BYTES, boundary_hash, unreadable
from carto_core.logio.rewrite import generation


def head_hash(path: Path, end: int) -> str:
    """SHA-1 of the first 4096 bytes (or fewer, up to `end`): `boundary_hash` at that offset."""
    return boundary_hash(path, min(end, BOUNDARY_BYTES))


def identity(path: Path) -> dict:
    """Which file a log is (taken *before* reading it: a rewrite that lands while it is read
    then leaves a state that no longer matches, and the next open rebuilds). A log that
    cannot be read (`reader.unreadable`) is no file a cache could have read: absent."""
    if unreadable(path):
        return {"exists": False}
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return {"exists": False}
    return {"exists": True, "inode": st.st_ino, "dev": st.st_dev, "generation": generation(path)}


def log_state(path: Path, end: int, lines: int, before: dict) -> dict:
    """What a log looked like when `end` bytes (`lines` complete lines) of it were consumed;
    `before` is its `identity` taken before the read."""
    if not before.get("exists"):
        if end == 0:
            return {"exists": False, "end": 0, "lines": 0}
        # Created while it was read: rows were consumed from a file whose identity is unknown;
        # an impossible inode makes the next open rebuild rather than guess.
        before = {"exists": True, "inode": -1, "dev": -1, "generation": -1}
    try:
        head = head_hash(path, end) if end else ""
        boundary = boundary_hash(path, end) if end else ""
    except OSError:
        head = boundary = "unreadable"  # vanished while read: matches nothing, next open rebuilds
    return {**before, "end": end, "lines": lines, "head": head, "boundary": boundary}


def log_status(path: Path, state: dict | None) -> str:
    """"fresh", "grown" or "stale" (rewritten, truncated, replaced or vanished)."""
    state = state or {"exists": False, "end": 0}
    absent = "stale" if state.get("end", 0) > 0 else "fresh"
    if unreadable(path):  # read as absent, as `identity` says
        return absent
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return absent
    end = state.get("end", 0)
    if not state.get("exists") or end == 0:
        # Nothing consumed yet: reading from 0 is a full read of this log whatever happened.
        return "grown" if st.st_size > 0 else "fresh"
    if (st.st_ino, st.st_dev) != (state.get("inode"), state.get("dev")) or st.st_size < end:
        return "stale"
    if generation(path) != state.get("generation"):
        return "stale"
    if head_hash(path, end) != state.get("head") or boundary_hash(path, end) != state.get("boundary"):
        return "stale"
    return "grown" if st.st_size > end else "fresh"
