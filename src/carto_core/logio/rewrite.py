"""Rewriting a log in place without losing rows appended meanwhile, even if the rewriter dies.

The one sanctioned way to change existing lines (repairs, migrations, pruning, redaction):

1. lock: an exclusive `flock` on `<home>/.carto/locks/<file>.lock` keeps rewriters apart
   (appenders never take it: hooks must not block); a rewrite that died before is finished or
   rolled back first, and the temporary copies dead rewriters left are removed;
2. spool: read the log up to its current end (`read_upto`) and write the transformed rows to
   `.<file>.rewrite-<pid>` beside it, fsynced;
3. journal: write `.<file>.rewrite-intent` (durably), then hard-link the log's inode as
   `.<file>.rewrite-journal`, so the old inode outlives the swap under a name;
4. swap: rename the copy over the log;
5. tail: copy the old inode's whole lines after `read_upto` (rows appended since the read) onto
   the new file; a row the read caught half written is copied whole (`appended_since`).
   Appenders that wrote into the old inode after that notice the swap themselves and write
   again (`appendlog.py`);
6. generation: bump `<home>/.carto/generations.json` so caches and cursors built on the old
   bytes rebuild; then remove the journal and the intent.

A kill at any point loses nothing: before step 4 the log is untouched (the next writer or reader
rolls back); after it, the journal still holds the tail (the next one finishes step 5-6). See
`rewrite_journal.py`. Rows may end up twice (at-least-once); readers fold duplicates by event_id.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from carto_core.logio.jsonl import dumps_row
from carto_core.util.privatefiles import open_fd, open_private
from carto_core.logio.reader import ReadReport, iter_lines
from carto_core.logio.rewrite_journal import (
    appended_since,
    bump_generation,
    clean_temporaries,
    fsync_folder,
    generation,
    intent_path,
    journal_path,
    open_lock,
    recover_locked,
    temporary_path,
    write_intent,
)

__all__ = ["LineFilter", "LineTransform", "RewriteResult", "Transform", "generation", "parse_lines",
           "rewrite_kept", "rewrite_lines", "rewrite_log"]

Transform = Callable[[Iterable[dict]], Iterable[dict]]
#: Lines in, lines out: `(raw line, parsed row or None)` -> bytes to write (each ending in a
#: newline). For repairs that must see and fix the lines that do not parse.
LineTransform = Callable[[list[tuple[bytes, dict | None]]], Iterable[bytes]]


@dataclass
class RewriteResult:
    """What one rewrite read, wrote and cleaned up."""

    report: ReadReport
    read_upto: int = 0
    tail_lines: int = 0
    #: What the rewrite found left by a dead one ("rolled back", "finished", ...), if anything.
    recovered: str | None = None
    removed_temporaries: list[str] = field(default_factory=list)


def _reach(phase: str) -> None:
    """A named point of the rewrite; tests replace this to kill the rewriter there."""


def rewrite_log(log_path: os.PathLike | str, transform: Transform) -> ReadReport:
    """Rewrite a log through `transform` (rows in, rows out); returns what was read.

    Bad lines are carried over verbatim, before the rows: a rewrite never destroys what it
    could not parse.
    """

    def by_rows(lines: list[tuple[bytes, dict | None]]) -> Iterable[bytes]:
        for raw, row in lines:
            if row is None:
                yield raw
        for row in transform(row for _, row in lines if row is not None):
            yield dumps_row(row)

    return rewrite_lines(log_path, by_rows).report


def rewrite_lines(log_path: os.PathLike | str, transform: LineTransform) -> RewriteResult:
    """Rewrite a log line by line: `transform` gets every line of the log (whole lines and a
    last line without its newline, each with its parsed row or None) and returns the new
    lines. The crash-safe sequence of the module docstring."""
    log_path = Path(log_path)

    def spool(old_fd: int, out) -> tuple[ReadReport, int, int]:
        chunks = []
        while chunk := os.read(old_fd, 1 << 20):
            chunks.append(chunk)
        data = b"".join(chunks)
        lines, report = parse_lines(log_path, data)
        _reach("read")
        for raw in transform(lines):
            out.write(raw if raw.endswith(b"\n") else raw + b"\n")
        # Where the last line read starts: when it had no newline, its writer may have
        # been mid-row (see `appended_since`), and the tail copy starts there.
        return report, len(data), data.rfind(b"\n") + 1

    return _rewrite(log_path, spool)


#: Keep a line? `(raw line, parsed row or None)` -> bool.
LineFilter = Callable[[bytes, "dict | None"], bool]


def rewrite_kept(log_path: os.PathLike | str, keep: LineFilter) -> RewriteResult:
    """Rewrite a log keeping only the lines `keep` accepts, bytes unchanged: the crash-safe
    sequence of `rewrite_lines`, streamed (the log is read a block at a time and no row is
    held: its memory does not grow with the log, which `carto forget` needs at a million
    events). A line that does not parse as one row is given as None. `report` counts the lines
    read (`lines`) and dropped (`dropped`, in `problems`)."""
    from carto_core.logio.jsonl import fast_loads_line

    log_path = Path(log_path)

    def spool(old_fd: int, out) -> tuple[ReadReport, int, int]:
        report = ReadReport(os.fspath(log_path))
        total = 0
        line_start = 0  # offset in the log of the first byte of `rest`
        rest = b""
        first = True
        while True:
            chunk = os.read(old_fd, 1 << 20)
            if first:
                _reach("read")
                first = False
            if not chunk:
                break
            total += len(chunk)
            block = rest + chunk
            cut = block.rfind(b"\n") + 1
            rest = block[cut:]
            whole = block[:cut]
            if whole:
                for raw in whole.splitlines(keepends=True):
                    _filter_line(raw, keep, report, out, fast_loads_line)
                line_start += cut
        if rest:
            _filter_line(rest, keep, report, out, fast_loads_line)
        report.end_offset = total
        return report, total, line_start

    return _rewrite(log_path, spool)


def _filter_line(raw: bytes, keep: LineFilter, report: ReadReport, out, loads) -> None:
    if not raw.strip():
        return
    report.lines += 1
    row, problem = loads(raw.rstrip(b"\r\n"))
    if problem == "malformed_json" or not isinstance(row, dict):
        row = None
    if keep(raw, row):
        out.write(raw if raw.endswith(b"\n") else raw + b"\n")
    else:
        report.problems["dropped"] += 1


def _rewrite(log_path: Path, spool) -> RewriteResult:
    """The crash-safe sequence of the module docstring around `spool(old_fd, out)`, which
    reads the log from `old_fd` to its end, writes the new content to `out` and returns (the
    read report, the bytes read, where the last line read starts)."""
    lock = open_lock(log_path, blocking=True)
    try:
        recovered = recover_locked(log_path)
        removed = clean_temporaries(log_path)
        old_fd = open_fd(log_path, os.O_RDONLY)
        try:
            tmp = temporary_path(log_path)
            with open_private(tmp, "wb") as out:
                report, read_upto, piece_at = spool(old_fd, out)
                out.flush()
                os.fsync(out.fileno())
            _reach("spooled")
            write_intent(log_path, {"read_upto": read_upto, "piece_at": piece_at,
                                    "temporary": os.path.basename(tmp), "pid": os.getpid()})
            _reach("intent")
            journaled = _link_journal(log_path)
            _reach("journal")
            os.replace(tmp, log_path)
            fsync_folder(str(log_path.parent))
            _reach("swapped")
            # Whatever appenders put into the old inode since we read it.
            os.lseek(old_fd, piece_at, os.SEEK_SET)
            chunks = []
            while chunk := os.read(old_fd, 1 << 20):
                chunks.append(chunk)
            tail = appended_since(b"".join(chunks), read_upto - piece_at)
            if tail:
                from carto_core.logio.appendlog import append_lines

                append_lines(log_path, tail, settle=False)
            _reach("tail")
        finally:
            os.close(old_fd)
        bump_generation(log_path)
        _reach("generation")
        if journaled:
            os.unlink(journal_path(log_path))
        os.unlink(intent_path(log_path))
        fsync_folder(str(log_path.parent))
        return RewriteResult(report, read_upto, len(tail), recovered, removed)
    finally:
        os.close(lock)


def _link_journal(log_path: Path) -> bool:
    """Give the old inode a second name; False where the filesystem has no hard links (the
    rewrite still works, but a kill between swap and tail copy could then lose that tail)."""
    journal = journal_path(log_path)
    try:
        os.unlink(journal)
    except FileNotFoundError:
        pass
    try:
        os.link(log_path, journal)
    except OSError:
        return False
    return True


def parse_lines(path: os.PathLike | str, data: bytes) -> tuple[list[tuple[bytes, dict | None]], ReadReport]:
    """Every non-blank line of a log's bytes (a last line without its newline included), each
    with its row, or None when the line does not parse as one row (a glued line is None too:
    it is not one row), and the read report."""
    report = ReadReport(os.fspath(path))
    parsed = {line.offset: line.row for line in iter_lines(path, report, data=data)}
    report.end_offset = len(data)
    lines = []
    position = 0
    while position < len(data):
        newline = data.find(b"\n", position)
        end = len(data) if newline < 0 else newline + 1
        raw = data[position:end]
        if raw.strip():
            lines.append((raw, parsed.get(position)))
        position = end
    return lines, report
