"""Reading logs: rows with their byte positions, and every bad line counted and explained.

A torn last line (no newline yet, a writer may be mid-row), a line that is not JSON, a JSON
value that is not an object, a row without an event_id and bytes that are not UTF-8 are all
counted in a `ReadReport` with line numbers; none is skipped silently, and a row with a minor
problem (bad UTF-8, no event_id) is still returned. Stdlib only.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import Counter
from collections.abc import Iterator

from carto_core.logio.jsonl import fast_loads_line, lines_containing, loads_line
from carto_core.util.records import NEW, FrozenRecord, Record
from carto_core.logio.rewrite_journal import settle

BOUNDARY_BYTES = 4096

# Problems after which the line still yields a row, and those that drop the line.
KEPT_PROBLEMS = ("invalid_utf8", "lone_surrogate", "missing_event_id", "glued_row")
DROPPED_PROBLEMS = ("malformed_json", "not_an_object", "torn_line", "torn_row")

PROBLEM_TEXT = {
    "invalid_utf8": "bytes that are not UTF-8 (replaced by U+FFFD, row kept)",
    "lone_surrogate": "a lone UTF-16 surrogate escape (replaced by U+FFFD, row kept)",
    "missing_event_id": "a row without event_id (kept, keyed by position)",
    "glued_row": ("a row glued to the torn row before it (the row is read; "
                  "`carto repair torn-rows` splits the line)"),
    "malformed_json": "a line that is not JSON (skipped)",
    "not_an_object": "a JSON value that is not an object (skipped)",
    "torn_line": "a last line without its newline (a write in progress or a crash; not read)",
    "torn_row": ("a row cut short by a crash or a full disk, sealed by the next append "
                 "(skipped; `carto repair torn-rows` restores it from a copy)"),
}


def split_glued(raw: bytes) -> tuple[int, dict] | None:
    """(where the row starts, the row) for a line that is a torn row's piece followed by a
    whole row, else None. The leftmost `{"` from which the rest of the line is one JSON object
    wins, so a glued row's nested objects are never taken for a row of their own."""
    position = raw.find(b'{"', 1)
    while position > 0:
        value, problem = loads_line(raw[position:])
        if problem != "malformed_json" and isinstance(value, dict):
            return position, value
        position = raw.find(b'{"', position + 1)
    return None


_LITERALS = ("null", "true", "false")


def looks_torn(raw: bytes) -> bool:
    """A line that is the start of a JSON object cut short: the decoder ran out of text, inside
    a string, an escape, a number or a literal (`nu` of null), or before what must follow."""
    import json
    import re

    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    if not text.startswith("{"):
        return False
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        rest = text[exc.pos:]
        return (exc.pos >= len(text) - 1 and not rest.strip(" \t").startswith(("}", "]"))
                or exc.msg.startswith("Unterminated string")
                or (exc.msg.startswith("Invalid \\uXXXX escape") and len(text) - exc.pos <= 6)
                or any(literal.startswith(rest) for literal in _LITERALS)
                or re.fullmatch(r"-?\d*\.?\d*(?:[eE][+-]?\d*)?", rest) is not None)
    return False


_ROW_START = b'{"event_id":"'


def split_torn(raw: bytes) -> list[bytes] | None:
    """The torn rows of a line made of several, one straight after another, split where each
    row starts; None when it is not. Such a line is what writers that died mid-row leave when
    none sealed the piece before it with a newline (writers older than sealing appends, other
    tools: carto's own appenders always seal first). A key of a JSON string is escaped, so
    `{"event_id":"` in a line's raw bytes starts an object."""
    starts = [0]
    while (position := raw.find(_ROW_START, starts[-1] + 1)) > 0:
        starts.append(position)
    if len(starts) < 2 or not raw.startswith(_ROW_START):
        return None
    parts = [raw[a:b] for a, b in zip(starts, [*starts[1:], len(raw)])]
    return parts if all(looks_torn(part) for part in parts) else None


class ReadReport(Record):
    """What reading one log found. A plain record (carto_core.util.records: no dataclass to
    generate on every cold search)."""

    _fields = ("path", "rows", "lines", "problems", "examples", "end_offset", "newest_timestamp")
    _factories = {"problems": Counter, "examples": dict}
    path: str
    rows: int
    lines: int
    problems: Counter
    #: Up to 5 example line numbers per problem kind, 1-based.
    examples: dict
    end_offset: int
    newest_timestamp: object

    def __init__(self, path: str, rows: int = 0, lines: int = 0, problems: Counter = NEW,
                 examples: dict = NEW, end_offset: int = 0, newest_timestamp: object = None):
        self.path = path
        self.rows = rows
        self.lines = lines
        self.problems = Counter() if problems is NEW else problems
        self.examples = {} if examples is NEW else examples
        self.end_offset = end_offset
        self.newest_timestamp = newest_timestamp

    def note(self, kind: str, lineno: int) -> None:
        self.problems[kind] += 1
        examples = self.examples.setdefault(kind, [])
        if len(examples) < 5:
            examples.append(lineno)

    @property
    def malformed(self) -> int:
        return sum(self.problems[kind] for kind in DROPPED_PROBLEMS)

    def messages(self) -> list[str]:
        out = []
        for kind, count in sorted(self.problems.items()):
            lines = ", ".join(str(n) for n in self.examples.get(kind, []))
            out.append(f"{self.path}: {count} x {PROBLEM_TEXT.get(kind, kind)} (lines {lines})")
        return out


class Line(FrozenRecord):
    """One row read from a log: the parsed object and where its bytes lie."""

    __slots__ = _fields = ("row", "offset", "end", "lineno", "problem")
    row: dict
    offset: int
    end: int
    lineno: int
    problem: str | None

    def __init__(self, row: dict, offset: int, end: int, lineno: int, problem: str | None = None):
        setattr_ = object.__setattr__
        setattr_(self, "row", row)
        setattr_(self, "offset", offset)
        setattr_(self, "end", end)
        setattr_(self, "lineno", lineno)
        setattr_(self, "problem", problem)


#: Bytes read from a log at a time: memory stays this size whatever the log's size.
READ_BLOCK = 4 << 20


class NotALogFile(OSError):
    """A log's path holds a FIFO, a socket or a device: reading it could wait forever."""


def _nonblocking(path: str, flags: int) -> int:
    # Opening a FIFO for reading waits for a writer; without O_NONBLOCK no check after the
    # open would ever run. A regular file reads the same either way.
    return os.open(path, flags | os.O_NONBLOCK)


def open_log(path: os.PathLike | str):
    """The log at `path` opened for reading in binary (FileNotFoundError when it does not
    exist, IsADirectoryError for a folder, NotALogFile for a FIFO, socket or device, any other
    OSError the system gives)."""
    handle = open(path, "rb", opener=_nonblocking)
    if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        handle.close()
        raise NotALogFile(errno.EINVAL, "not a regular file", os.fspath(path))
    return handle


def unreadable_reason(exc: OSError) -> str:
    """Why a log could not be opened, in a few words (`carto doctor`, `carto search`)."""
    from carto_core.util.safeio import NotRegularFile

    if isinstance(exc, IsADirectoryError) or (isinstance(exc, NotRegularFile) and stat.S_ISDIR(exc.mode)):
        return "a folder, not a log file"
    if isinstance(exc, (NotALogFile, NotRegularFile)):
        return "a FIFO, socket or device, not a log file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.ELOOP:
        return "a symbolic link that loops"
    return (exc.strerror or type(exc).__name__).lower()


def cannot_read(exc: OSError) -> str | None:
    """"cannot read PATH (why)" when `exc` says a log's path holds something that is no log
    (a folder, a FIFO, a looping link); None for any other error. Commands that must read
    every log (backup, export, forget, repair) end with it instead of skipping the log. One of
    carto's own files with such a thing in its place (`notafile.NotAFile`: the tombstones, an
    index's pointer) is said with what that breaks and its fix."""
    from carto_core.logio.notafile import NotAFile
    from carto_core.util.safeio import NotRegularFile

    if isinstance(exc, NotAFile):
        return str(exc)
    if not exc.filename or not (isinstance(exc, (IsADirectoryError, NotALogFile, NotRegularFile))
                                or exc.errno == errno.ELOOP):
        return None
    return f"cannot read {os.fsdecode(exc.filename)} ({unreadable_reason(exc)})"


def unreadable(path: os.PathLike | str) -> str | None:
    """Why the log at `path` cannot be read, in a few words; None when it can, or when there
    is nothing there (an absent log is an empty one). A symbolic link to nothing is not absent:
    the log it stands for is elsewhere (a disk not mounted), and reading on without it would
    answer as if its events never happened."""
    try:
        open_log(path).close()
    except FileNotFoundError:
        try:
            target = os.readlink(path)
        except OSError:  # no link (or gone meanwhile): nothing there
            return None
        return f"a symbolic link to {target}, which does not exist"
    except OSError as exc:
        return unreadable_reason(exc)
    return None


#: Bytes `line_chunks` reads at a time: a home's logs are read whole otherwise (hundreds of MB
#: held at once).
CHUNK = 8 << 20


def line_chunks(handle) -> Iterator[bytes]:
    """`handle` from where it stands in pieces of about `CHUNK` bytes, each ending at a line's
    end (the last piece as it is, which may lack one), so that no row is split between two
    pieces."""
    rest = b""
    while True:
        block = handle.read(CHUNK)
        if not block:
            if rest:
                yield rest
            return
        data = rest + block
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            rest = data
            continue
        rest = data[cut:]
        yield data[:cut]


def rows_containing(path, needle: bytes, *, among: tuple[bytes, ...] = (),
                    fast: bool = False) -> list[dict]:
    """The rows (objects) of the whole lines of the log at `path` that contain `needle` (and
    one of `among`, when given), in file order, read a piece at a time (`line_chunks`: the
    turns log is among the largest, and a session's rows are a small share of it); [] when
    it cannot be read (absent, a FIFO never waited on: `open_log`). `fast`: decode with
    orjson (`fast_loads_line`; not on the hook path)."""
    decode = fast_loads_line if fast else loads_line
    out = []
    try:
        with open_log(path) as handle:
            for data in line_chunks(handle):
                if needle not in data:
                    continue
                for raw in lines_containing(data[: data.rfind(b"\n") + 1], needle):
                    if among and not any(part in raw for part in among):
                        continue
                    row, _ = decode(raw)
                    if isinstance(row, dict):
                        out.append(row)
    except OSError:
        return []
    return out


def _blocks(path: str, start: int, block: int) -> Iterator[bytes]:
    """The file's bytes from `start` in blocks of about `block` bytes (FileNotFoundError when
    it does not exist, NotALogFile when it is no regular file)."""
    with open_log(path) as handle:
        handle.seek(start)
        while True:
            data = handle.read(block)
            if not data:
                return
            yield data


def iter_lines(
    path: os.PathLike | str,
    report: ReadReport | None = None,
    *,
    start: int = 0,
    start_lineno: int = 0,
    data: bytes | None = None,
    loads=loads_line,
    block: int = READ_BLOCK,
) -> Iterator[Line]:
    """Yield every row of a log from byte `start`, recording problems in `report`.

    Only complete lines are consumed; `report.end_offset` ends after the last newline read.
    `data` may pass the file's bytes already read (from `start`); otherwise the file is read
    in blocks of `block` bytes, so a log of any size costs one block of memory (a line longer
    than a block is carried over whole). `loads` decodes one line (same contract as
    `jsonl.loads_line`); bulk readers pass `jsonl.fast_loads_line`.
    """
    path = os.fspath(path)
    report = report if report is not None else ReadReport(path)
    if data is None:
        settle(path)  # a rewrite that died is finished (or rolled back) before reading
    blocks = iter((data,)) if data is not None else _blocks(path, start, max(1, block))
    base = start  # file offset of `buffer[0]`
    buffer = b""
    lineno = start_lineno
    try:
        for chunk in blocks:
            buffer = buffer + chunk if buffer else chunk
            position = 0
            size = len(buffer)
            while position < size:
                newline = buffer.find(b"\n", position)
                if newline < 0:
                    break
                lineno += 1
                raw = buffer[position:newline]
                line_start = base + position
                position = newline + 1
                report.lines += 1
                if not raw.strip():
                    continue
                value, problem = loads(raw)
                if problem == "malformed_json":
                    glued = split_glued(raw)
                    if glued is None:
                        torn = looks_torn(raw) or split_torn(raw) is not None
                        report.note("torn_row" if torn else problem, lineno)
                        continue
                    cut, value = glued
                    line_start += cut
                    problem = "glued_row"
                if not isinstance(value, dict):
                    report.note("not_an_object", lineno)
                    continue
                if problem:
                    report.note(problem, lineno)
                event_id = value.get("event_id")
                if not isinstance(event_id, str) or not event_id.strip():
                    report.note("missing_event_id", lineno)
                    problem = problem or "missing_event_id"
                report.rows += 1
                report.end_offset = base + position
                yield Line(value, line_start, base + position, lineno, problem)
            base += position
            buffer = buffer[position:]
            report.end_offset = base
    except FileNotFoundError:
        report.end_offset = start
        return
    if buffer.strip():
        report.note("torn_line", lineno + 1)
    report.end_offset = base


def boundary_hash(path: os.PathLike | str, offset: int) -> str:
    """SHA-1 of up to 4096 bytes before `offset`: detects a log rewritten under a cursor."""
    begin = max(0, offset - BOUNDARY_BYTES)
    with open_log(path) as handle:
        handle.seek(begin)
        chunk = handle.read(offset - begin)
    try:  # the C module: `hashlib` would load OpenSSL first (every cold search would pay)
        from _sha1 import sha1
    except ImportError:  # pragma: no cover
        from hashlib import sha1
    return sha1(chunk).hexdigest()
