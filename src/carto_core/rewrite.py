"""Rewriting a log in place without losing rows appended meanwhile.

The one sanctioned way to change existing lines (migrations, pruning, id backfill):

1. lock: an exclusive `flock` on `<home>/.carto/locks/<file>.lock` keeps rewriters apart
   (appenders never take it: hooks must not block);
2. spool: read the log up to its current end and write the transformed rows to a temporary file
   beside it, fsync, and rename it over the log;
3. the old inode is the spool for whatever appenders wrote after step 2 began: after the swap,
   copy its tail (from the offset read in step 2) onto the new file. Appenders that wrote into
   the old inode after that copy notice the swap themselves and write again (`appendlog.py`);
4. generation: bump `<home>/.carto/generations.json` for the log so that caches and cursors
   built on the old bytes know to rebuild.

Rows may end up twice (at-least-once); readers fold duplicates by event_id.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from carto_core.appendlog import append_lines
from carto_core.jsonl import dumps_row
from carto_core.reader import ReadReport, iter_lines

Transform = Callable[[Iterable[dict]], Iterable[dict]]


def _generations_path(log_path: Path) -> Path:
    return log_path.parent / ".carto" / "generations.json"


def generation(log_path: os.PathLike | str) -> int:
    """How many times this log has been rewritten (0 for never)."""
    path = _generations_path(Path(log_path))
    try:
        return int(json.loads(path.read_text("utf-8")).get(Path(log_path).name, 0))
    except (OSError, ValueError, AttributeError):
        return 0


def _bump_generation(log_path: Path) -> int:
    path = _generations_path(log_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        data = json.loads(path.read_text("utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[log_path.name] = int(data.get(log_path.name, 0)) + 1
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, sort_keys=True), "utf-8")
    os.replace(tmp, path)
    return data[log_path.name]


def rewrite_log(log_path: os.PathLike | str, transform: Transform) -> ReadReport:
    """Rewrite a log through `transform` (rows in, rows out); returns what was read.

    Bad lines are carried over verbatim: a rewrite never destroys what it could not parse.
    """
    log_path = Path(log_path)
    lock_dir = log_path.parent / ".carto" / "locks"
    lock_dir.mkdir(parents=True, exist_ok=True)
    with open(lock_dir / (log_path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        old_fd = os.open(log_path, os.O_RDONLY | os.O_CREAT, 0o644)
        try:
            data = b""
            while chunk := os.read(old_fd, 1 << 20):
                data += chunk
            read_upto = len(data)
            report = ReadReport(str(log_path))
            lines = list(iter_lines(log_path, report, data=data))
            kept_bytes = _unparsed_lines(data, {line.offset for line in lines})
            tmp = log_path.with_name(f".{log_path.name}.rewrite-{os.getpid()}")
            with open(tmp, "wb") as out:
                for raw in kept_bytes:
                    out.write(raw)
                for row in transform(line.row for line in lines):
                    out.write(dumps_row(row))
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, log_path)
            # Whatever appenders put into the old inode since we read it.
            os.lseek(old_fd, read_upto, os.SEEK_SET)
            tail = b""
            while chunk := os.read(old_fd, 1 << 20):
                tail += chunk
            if tail:
                append_lines(log_path, [line + b"\n" for line in tail.split(b"\n") if line])
        finally:
            os.close(old_fd)
        _bump_generation(log_path)
        return report


def _unparsed_lines(data: bytes, parsed_offsets: set[int]) -> list[bytes]:
    """Complete lines that did not parse into a row (kept verbatim) and a torn tail."""
    out = []
    position = 0
    while position < len(data):
        newline = data.find(b"\n", position)
        end = len(data) if newline < 0 else newline + 1
        raw = data[position:end]
        if position not in parsed_offsets and raw.strip():
            out.append(raw if raw.endswith(b"\n") else raw + b"\n")
        position = end
    return out
