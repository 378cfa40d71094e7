"""The live transcript, ingested by the agent's own Stop hook: searchable within a turn.

Each Stop (and SubagentStop, SessionEnd) reads the session's transcript from its checkpoint,
writes the turns it finds, the newest one too while it is still open (`"open": true`), and
rewrites a turn whenever it grew (readers keep the newest row of an event_id:
`carto_core.logio.fold`). Stdlib only, no child process on the common path.

Per call the work is bounded: only the bytes since the checkpoint are parsed (the start of the
last turn of each thread, so the previous turn and the new one: `carto_claude.turns`,
`carto_codex.rollout`). When more than `CARTO_LIVE_MAX_BYTES` (8 MiB) wait (the first Stop of
a resumed long session that no backfill has read), the work is handed to a detached child
(`python -m carto_core.jobs.live`), which reads it all under the same lock.

State, under `<home>/.carto/live/`:

- `<source>/<sha1(stream key)>.json`: `{v, key, checkpoint, written}`: the reader's checkpoint
  and, per event_id the next read will produce again, the `version` of the row last written
  (the CRC-32 of its words, `content_digest`, with its end when it has one), so an unchanged
  turn is not appended again (`newer`). `carto ingest` (the shared runner) uses and updates
  this file for a stream that has one, so the two paths never re-read what the other read.
  `closed` (optional): those ids whose row written was closed, so a re-read that sees the turn
  open again writes nothing.
  A stream with no state takes its digests from the turns log (`stored_digests`), as `carto
  ingest` does, when it starts from the backfill's checkpoint (the turns read again are the
  ones the backfill stored) or, with no checkpoint, when its read holds finished turns (a
  transcript moved or copied, a session resumed at its new path): only the new and changed
  turns are written. The log is searched from where rows of those turns can lie
  (`search_start`: a mark of its size taken before the earliest turn began, less a day), not
  from its start.
- `turns.marks`: the turns log's size in time (`record_mark`), at most a line an hour.
- `<source>.lock`: held (flock) while a transcript of that source is read and its rows
  appended, by the hook and by the runner alike, so that rows are appended in the order their
  transcript states were read (the newest row is the newest state). A hook that finds it busy
  waits up to `LOCK_WAIT_SECONDS`, then hands the read to the detached child.

Bad input never fails the hook: a transcript path that is missing, unreadable, a FIFO, a device
or another user's file costs one hook.log line and writes nothing but, at Stop, the payload's
final answer (`answer_row`), which a transcript with no turn yet leaves too.

A provider's reader is named `"module:function"` (so that the detached child can load it):
`read(path, handle, checkpoint, *, answer, now) -> result` with `rows`, `checkpoint`,
`open_rows`, `messages` (`carto_claude.live:read`, `carto_codex.live:read`).
"""

from __future__ import annotations

import functools
import json
import os
import time
import zlib
from contextlib import contextmanager

from carto_core.capture import detached
from carto_core.util.privatefiles import make_dirs, open_private
from carto_core.util.safeio import open_regular

LIVE_DIR = "live"
MAX_BYTES_DEFAULT = 8 << 20
#: How long a hook waits for a busy lock before it hands the read over (seconds).
LOCK_WAIT_SECONDS = 0.25
FORMAT = 1
#: Shortest common prefix of a read's event_ids the turns log is searched for (`turn-` and a
#: session id's first characters): a shorter one would parse most of the log.
MIN_SESSION_PREFIX = 16
#: Marks of the turns log's size in time (`record_mark`), under LIVE_DIR: a line each, `<epoch
#: seconds> <size> <device> <inode> <rewrite generation> <CRC-32 of the bytes before size>`.
MARKS = "turns.marks"
#: A mark is taken at most once an hour: a year of them is some 400 KB, a lookup reads the end.
MARK_EVERY_SECONDS = 3600
#: A turn's rows are appended after the turn began, less this: a transcript whose clock ran ahead
#: of this machine's (a session copied from another one) or a time read in the wrong zone.
MARK_SLACK_SECONDS = 86_400
#: Bytes before a mark's size its CRC-32 covers (a log rewritten or replaced no longer matches).
MARK_CHECK_BYTES = 256
#: Bytes of the marks file read first (its newest marks); all of it only for an older session.
MARKS_TAIL_BYTES = 8192
#: Row key of a turn still being written (`carto_core.logio.fold.OPEN_KEY`, not imported: the
#: hook does not load the folding module).
OPEN_KEY = "open"
#: Characters of the Stop payload's answer kept (a turn's body holds at most `body_max`).
ANSWER_MAX = 16000


def enabled() -> bool:
    """`CARTO_LIVE_INGEST=0` turns the Stop-hook ingest off (the backfill still writes turns)."""
    return detached.switched_on("CARTO_LIVE_INGEST")


def max_bytes() -> int:
    try:
        return int(os.environ.get("CARTO_LIVE_MAX_BYTES", "") or MAX_BYTES_DEFAULT)
    except ValueError:
        return MAX_BYTES_DEFAULT


def _digest(text: str) -> str:
    try:  # the C module: `hashlib` would load OpenSSL first (the hook would pay for it)
        from _sha1 import sha1
    except ImportError:  # pragma: no cover
        from hashlib import sha1

    return sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def state_path(home, source: str, key: str):
    return home.state / LIVE_DIR / source / (_digest(key)[:24] + ".json")


def transcript_changed(home, source: str, key: str, path: str) -> bool:
    """Whether the transcript at `path` was written since its live state was saved (True when
    it was never ingested live; False when it cannot be stat'ed): two stats, so a hook can look
    over several transcripts and read only those that changed."""
    try:
        written = os.stat(path).st_mtime_ns
    except OSError:
        return False
    try:
        return written > os.stat(state_path(home, source, key)).st_mtime_ns
    except OSError:
        return True


def lock_name(source: str) -> str:
    return f"{LIVE_DIR}/{source}.lock"


def load_state(home, source: str, key: str) -> dict | None:
    """The live state of a stream, or None when it was never ingested live."""
    try:
        with open_regular(state_path(home, source, key)) as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("v") != FORMAT or data.get("key") != key:
        return None
    return data


def save_state(home, source: str, key: str, checkpoint: dict | None, rows: list[dict],
               written: dict[str, int | list], closed: set[str] = frozenset()) -> None:
    """Record the checkpoint and the versions of the rows of this read, those the next read can
    produce again: it starts at the last turn of each thread, and the later turns of a thread
    whose last turn began after another's (a sidechain's within a main turn) come with it;
    `closed`: those of them whose row written was closed (no `open`)."""
    keep = {row["event_id"]: written[row["event_id"]] for row in rows
            if isinstance(row.get("event_id"), str) and row["event_id"] in written}
    if checkpoint:
        # A reader's checkpoint may keep text (the Stop payload's answer for a turn the file
        # does not hold yet): stored redacted, like every other byte under the home.
        from carto_core.privacy.redact import default_redactor

        checkpoint = default_redactor().value(checkpoint)
    path = state_path(home, source, key)
    make_dirs(path.parent)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open_private(tmp, "w", encoding="utf-8") as handle:
        data = {"v": FORMAT, "key": key, "checkpoint": checkpoint, "written": keep}
        if closed and not closed.isdisjoint(keep):
            data["closed"] = sorted(closed.intersection(keep))
        json.dump(data, handle)
    os.replace(tmp, path)


def drop_state(home, source: str, key: str) -> None:
    try:
        os.unlink(state_path(home, source, key))
    except OSError:
        pass


def encoded(row: dict, log: str = "turns") -> tuple[bytes, int | list]:
    """A row redacted and encoded as the logs hold it, with its `version`:
    `carto_core.ingest.runner.row_version` of the same row is the same (both writers classify a
    prompt the row lacks the same way: `carto_core.intents.ensure`)."""
    from carto_core.intents import ensure
    from carto_core.logio.jsonl import dumps_row
    from carto_core.privacy.redact import redact_row

    clean = redact_row(ensure(log, row))
    line = dumps_row(clean)
    return line, version(line, clean)


def version(line: bytes, row: dict) -> int | list:
    """What a stored row is compared by when its turn is read again (`newer`): its
    `content_digest`, and with it its end when it has one (`[digest, ended]`, as JSON keeps it
    in the live state), since the digest leaves the end out."""
    digest = content_digest(line, row)
    ended = row.get("ended")
    return [digest, ended] if isinstance(ended, str) and ended else digest


def newer(read: int | list, stored: int | list | None) -> bool:
    """Whether a row read (its `version`) is to be written over the row stored for its id
    (`stored`; None: none is): when its words differ, or when both hold an end and the one read
    is the later instant. So a session's span reaches a turn's newest line when only its time
    moved (the answer's message written again on a later line). A row stored without an end is
    not written again for one alone (every row written before turns held it would be), nor one
    whose end read again is the same or earlier (two readers of a turn never undo each other)."""
    if stored is None:
        return True
    if _words(read) != _words(stored):
        return True
    if not (isinstance(read, list) and isinstance(stored, list) and len(read) == len(stored) == 2):
        return False
    return _later(read[1], stored[1])


def _words(value) -> object:
    return value[0] if isinstance(value, list) and value else value


def _later(read, stored) -> bool:
    """Whether timestamp `read` is a later instant than `stored`; False when either is no time.
    Both are usually spelled alike (`...Z`, one precision): compared as text then, no parse."""
    if not (isinstance(read, str) and isinstance(stored, str)) or read == stored:
        return False
    if len(read) == len(stored) and read[-1:] == stored[-1:] == "Z" and read[10:11] == stored[10:11] == "T":
        return read > stored
    from carto_core.util.timeparse import epoch_seconds

    read_at, stored_at = epoch_seconds(read), epoch_seconds(stored)
    return read_at is not None and stored_at is not None and read_at > stored_at


def content_digest(line: bytes, row: dict) -> int:
    """CRC-32 of a row's encoded line (newline excluded) less its `"transcript_path":...` and
    `"ended":...` members. The path says where the row was read, not what the turn holds: a
    transcript read again from a moved or copied file gives the same digest, so it is not
    written again, while a turn that grew still differs. A turn's end is left out with its
    comma: it came to the rows after their text, and a turn stored without it is not written
    again for it alone (a turn that grew has new text as well; `version` keeps the end beside
    the digest, for the one rule that moves it: `newer`). `row` is `line` decoded (each
    member is looked up as the one encoder writes it: `carto_core.logio.jsonl.dumps_row`); a
    row with neither member has the digest of its whole line."""
    end = len(line) - 1 if line.endswith(b"\n") else len(line)
    cuts = []
    path = row.get("transcript_path")
    if path is not None:
        cuts.append(_path_member(path) if isinstance(path, str) else _encode_member(path))
    ended = row.get("ended")
    if ended is not None:  # with its comma: the row written before it had none there
        cuts.append(b"," + _ended_member(ended))
    spans = sorted((found, found + len(member)) for member in cuts
                   for found in (line.find(member, 0, end),) if found >= 0)
    crc, at = 0, 0
    for start, stop in spans:
        crc, at = zlib.crc32(line[at:start], crc), stop
    return zlib.crc32(line[at:end], crc)


def stored_digests(home, rows: list[dict]) -> tuple[dict[str, int | list], set[str]]:
    """event_id -> `version` of the newest row the turns log holds for each of `rows`'
    ids (what `carto ingest` compares with: `carto_core.ingest.runner.KnownIds`), and the ids
    whose newest row is closed. The log is searched for the ids' common prefix
    (`turn-<session>-`), so only that session's lines are parsed; ids of no common session
    prefix are not looked up (read as never written). The search starts where rows of these
    turns can begin (`search_start`): a first read at a new path (a subagent's file, a moved
    transcript) costs the log's bytes since the session began, not the whole log."""
    import mmap

    ids = {row["event_id"] for row in rows if isinstance(row.get("event_id"), str)}
    prefix = os.path.commonprefix(sorted(ids)) if ids else ""
    out: dict[str, int | list] = {}
    closed: set[str] = set()
    if len(prefix) < MIN_SESSION_PREFIX:
        return out, closed
    from carto_core.logio.jsonl import dumps_row

    needle = b'"event_id":' + dumps_row(prefix)[:-2]  # the prefix's opening quote, not its closing one
    try:
        with open_regular(home.log("turns")) as handle, \
                mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            at = data.find(needle, search_start(home, os.fstat(handle.fileno()), data, rows))
            while at >= 0:
                start = data.rfind(b"\n", 0, at) + 1
                end = data.find(b"\n", at)
                if end < 0:
                    break  # a line still being written
                line = data[start:end]
                try:
                    row = json.loads(line)
                except ValueError:
                    row = None
                if isinstance(row, dict) and row.get("event_id") in ids:
                    out[row["event_id"]] = version(line, row)
                    (closed.discard if row.get(OPEN_KEY) else closed.add)(row["event_id"])
                at = data.find(needle, end)
    except (OSError, ValueError):  # no turns log yet, or an empty one (mmap refuses 0 bytes)
        pass
    return out, closed


def record_mark(home, now: float | None = None) -> None:
    """Note the turns log's size and the time (`MARKS`): a row appended later lies past that
    size, so rows of a turn that began later (less `MARK_SLACK_SECONDS`) are searched for from
    there (`search_start`). The size is taken first and the time after it. At most one mark
    per `MARK_EVERY_SECONDS` (by the marks file's mtime); `now` given, always (a history)."""
    import stat

    path = home.state / LIVE_DIR / MARKS
    if now is None:
        try:
            if time.time() - os.stat(path).st_mtime < MARK_EVERY_SECONDS:
                return
        except OSError:
            pass
    log = home.log("turns")
    try:
        fd = os.open(log, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return
        begin = max(0, info.st_size - MARK_CHECK_BYTES)
        check = zlib.crc32(os.pread(fd, info.st_size - begin, begin))
    except OSError:
        return
    finally:
        os.close(fd)
    from carto_core.logio.rewrite_journal import generation

    taken = int(time.time() if now is None else now) + 1  # rounded up: never before the size
    make_dirs(path.parent)
    with open_private(path, "a", encoding="ascii") as handle:
        handle.write(f"{taken} {info.st_size} {info.st_dev} {info.st_ino} {generation(log)} {check}\n")


def search_start(home, info: os.stat_result, data, rows: list[dict]) -> int:
    """The offset of the turns log (`data`, `info` its stat) from which rows of `rows`' turns
    can lie: the size at the newest mark taken before the earliest of them began, less
    `MARK_SLACK_SECONDS`. A row is appended after its turn began, and a stored row that would
    keep its turn from being written again holds the same `timestamp` (it is in the digest).
    0 (the whole log) when a turn's start is not known, or no mark of this very file (device,
    inode, rewrite generation, the bytes before the mark) is that old."""
    begun = _earliest(rows)
    if begun is None:
        return 0
    bound = begun - MARK_SLACK_SECONDS
    best = None
    for mark in _marks(home, bound):
        taken, size, device, inode = mark[:4]
        if (taken <= bound and (device, inode) == (info.st_dev, info.st_ino) and size <= len(data)
                and (best is None or size > best[1])):
            best = mark
    if best is None:
        return 0
    from carto_core.logio.rewrite_journal import generation

    size = best[1]
    before = data[max(0, size - MARK_CHECK_BYTES):size]
    if best[4] != generation(home.log("turns")) or best[5] != zlib.crc32(before):
        return 0  # rewritten since (compacted, forgotten, restored): its offsets moved
    return size


def _earliest(rows: list[dict]) -> float | None:
    """Epoch seconds of the earliest `timestamp` of `rows`; None when one has none."""
    from carto_core.util.timeparse import epoch_seconds

    earliest = None
    for row in rows:
        seconds = epoch_seconds(row.get("timestamp"))
        if seconds is None:
            return None
        earliest = seconds if earliest is None else min(earliest, seconds)
    return earliest


def _marks(home, bound: float) -> list[tuple[int, ...]]:
    """The marks (`MARKS`), as tuples of ints: the file's end, or all of it when the marks
    there are all later than `bound`."""
    path = home.state / LIVE_DIR / MARKS
    try:
        with open_regular(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(0, size - MARKS_TAIL_BYTES))
            lines = handle.read().split(b"\n")
            if size > MARKS_TAIL_BYTES:
                lines = lines[1:]  # begun inside a line: a cut time would read as an older one
            marks = [mark for mark in map(_mark, lines) if mark]
            if size > MARKS_TAIL_BYTES and not any(mark[0] <= bound for mark in marks):
                handle.seek(0)
                marks = [mark for mark in map(_mark, handle.read().split(b"\n")) if mark]
    except OSError:
        return []
    return marks


def _mark(line: bytes) -> tuple[int, ...] | None:
    try:
        mark = tuple(int(field) for field in line.split())
    except ValueError:
        return None
    return mark if len(mark) == 6 else None


def _encode_member(path, key: str = "transcript_path") -> bytes:
    from carto_core.logio.jsonl import dumps_row

    return dumps_row({key: path})[1:-2]


def _ended_member(value) -> bytes:
    """`"ended":"<timestamp>"` as the encoder writes it; a timestamp needs no escaping, and
    every turn has its own, so this is not cached as the path's member is."""
    if isinstance(value, str) and value.isascii() and value.isprintable() and not (
            '"' in value or "\\" in value):
        return b'"ended":"' + value.encode() + b'"'
    return _encode_member(value, "ended")


#: Encoded once per transcript, not once per row: the runner digests every row of the turns
#: log, and a transcript holds many turns.
_path_member = functools.lru_cache(maxsize=4096)(_encode_member)


def _seed_checkpoint(home, source: str, key: str) -> dict | None:
    """The backfill's checkpoint of a stream never ingested live (the first Stop of a session
    a backfill already read): read from the runner's store once."""
    path = home.state / "checkpoints" / f"{source}.json"
    try:
        if os.stat(path).st_size > 32 << 20:
            return None  # parsing it would cost more than re-reading the transcript
        with open_regular(path) as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else None


def source_options(source: str) -> dict:
    """`[sources.<source>]` of the config file (body_max, settle_seconds, ...), read without
    `carto_core.model.config` (its dataclasses cost the hook more than this): the live path must
    make the rows the backfill makes, or each would rewrite the other's."""
    from carto_core.logio.home import config_file

    path = config_file()
    try:
        if not path.is_file():
            return {}
        import tomllib

        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    sources = data.get("sources")
    value = sources.get(source) if isinstance(sources, dict) else None
    return value if isinstance(value, dict) else {}


def open_own_transcript(path: str):
    """(binary file, stat) of a payload's transcript: a regular file (`carto_core.util.safeio`:
    never blocks on a FIFO or device) owned by this user (`safeio.open_own`, the check every
    backfill makes too). Raises OSError otherwise."""
    from carto_core.util.safeio import open_own

    handle = open_own(path)
    return handle, os.fstat(handle.fileno())


def _why(exc: OSError) -> str:
    from carto_core.util.safeio import ForeignFile

    if isinstance(exc, ForeignFile):
        return str(exc)
    if isinstance(exc, FileNotFoundError):
        return "does not exist"
    if isinstance(exc, PermissionError):
        return "is not readable (permission denied)"
    return exc.strerror or str(exc)


def _load_reader(target: str):
    from carto_core.plugin.resolve import resolve

    return resolve(target)


class Job:
    """One transcript to ingest: which source and stream it is, and how to read it."""

    __slots__ = ("source", "key", "path", "reader", "answer")

    def __init__(self, source: str, key: str, path: str, reader: str, answer: str = ""):
        self.source, self.key, self.path, self.reader, self.answer = source, key, path, reader, answer

    def args(self) -> list[str]:
        """The detached child's command line: where to read, never what was said (the answer
        travels on its standard input: `detached.spawn`)."""
        out = ["--source", self.source, "--key", self.key, "--path", self.path, "--reader", self.reader]
        return out + (["--answer-on-stdin"] if self.answer else [])


def ingest(home, job: Job, *, limit: int | None = None, wait: float = LOCK_WAIT_SECONDS,
           now: float | None = None) -> dict:
    """Read `job`'s transcript from its checkpoint and append its new or grown turns.

    Returns `{outcome, rows, open, problem?, answer_unplaced?}`: outcome `written` (rows may
    be 0: nothing changed; `answer_unplaced` when the transcript holds no turn to keep
    `job.answer`), `refused` (bad path: `problem` says why), `unread` (the reader failed:
    `problem`; nothing written) or `handed_off` (too much to read here, or the lock stayed busy:
    a detached child does it, the payload's answer passed along)."""
    try:
        handle, info = open_own_transcript(job.path)
    except OSError as exc:
        return {"outcome": "refused", "rows": 0, "open": 0,
                "problem": f"transcript_path {job.path}: {_why(exc)}; the live transcript is not ingested"}
    with handle:
        with _lock(home, job.source, wait) as held:
            if not held:
                return _hand_off(home, job, "the live-ingest lock stayed busy")
            state = load_state(home, job.source, job.key)
            checkpoint = state.get("checkpoint") if state else _seed_checkpoint(home, job.source, job.key)
            offset = checkpoint.get("offset", 0) if isinstance(checkpoint, dict) else 0
            if not isinstance(offset, int) or not 0 <= offset <= info.st_size:
                offset = 0
            if limit is not None and info.st_size - offset > limit:
                return _hand_off(home, job, f"{info.st_size - offset} bytes to read since the checkpoint")
            try:
                read = _load_reader(job.reader)(job.path, handle, checkpoint, answer=job.answer, now=now)
            except Exception as exc:  # nothing is written yet: the hook may still keep the answer
                return {"outcome": "unread", "rows": 0, "open": 0,
                        "problem": f"live ingest of {job.path} failed: {type(exc).__name__}: {exc}"}
            written = dict(state.get("written", {})) if state else {}
            closed = set(state.get("closed", ())) if state else set()
            if state is None and (checkpoint is not None or any(not row.get(OPEN_KEY) for row in read.rows)):
                # Never read live at this path: from the backfill's checkpoint, the turns read
                # again are the ones it stored; from the start, turns finished before now mean a
                # transcript moved or copied (a renamed project folder, a resumed session there)
                # whose turns may be stored from their first path already.
                written, closed = stored_digests(home, read.rows)
            lines: list[bytes] = []
            from carto_core.capture.context import kept_rows

            wanted = {id(row) for _, row in kept_rows(home, [("turns", row) for row in read.rows])}
            for row in read.rows:
                if id(row) not in wanted:
                    continue  # an excluded project's turn, or a forgotten one
                line, digest = encoded(row)
                if not newer(digest, written.get(row.get("event_id"))):
                    continue  # the newest row already (an end alone moves it only later: `newer`)
                if row.get(OPEN_KEY) and row.get("event_id") in closed:
                    # Read again from an earlier turn (a moved transcript read from its start),
                    # a thread's last turn is open until the file settles: stored closed with
                    # the same words, it is not written back as open.
                    shut = encoded({k: v for k, v in row.items() if k != OPEN_KEY})[1]
                    if not newer(shut, written[row["event_id"]]):
                        continue
                lines.append(line)
                written[row["event_id"]] = digest
                (closed.add if not row.get(OPEN_KEY) else closed.discard)(row["event_id"])
            if lines:
                from carto_core.logio.appendlog import append_lines

                append_lines(home.log("turns"), lines)
                record_mark(home)
            save_state(home, job.source, job.key, read.checkpoint, read.rows, written, closed)
    result = {"outcome": "written", "rows": len(lines), "open": read.open_rows}
    if read.answer_unplaced:
        result["answer_unplaced"] = True
    if read.messages:
        result["notes"] = list(read.messages)
    return result


def source_lock(home, source: str):
    """The source's live lock, waited for (the ingest runner takes it per live stream)."""
    return _lock(home, source, None)


@contextmanager
def _lock(home, source: str, wait: float | None):
    """The source's live lock, polled for up to `wait` seconds (None: block until free)."""
    make_dirs(home.state / LIVE_DIR)
    if wait is None:
        with detached.exclusive(home, lock_name(source), wait=True) as held:
            yield held
        return
    deadline = time.monotonic() + wait
    while True:
        with detached.exclusive(home, lock_name(source)) as held:
            if held or time.monotonic() >= deadline:
                yield held
                return
        time.sleep(0.01)


def _hand_off(home, job: Job, why: str) -> dict:
    problem = detached.spawn(home, "carto_core.jobs.live", ["--home", str(home.root), *job.args()],
                             data=job.answer.encode("utf-8", "replace"))
    result = {"outcome": "handed_off", "rows": 0, "open": 0, "reason": why}
    if problem:
        result["problem"] = f"{why}, and {problem}"
    return result


def answer_row(ctx, path: str, answer: str) -> dict | None:
    """The Stop payload's final answer as a turns row of its own, for a transcript that cannot
    be read (deleted, not yet written, on another machine) or holds no turn yet (empty, lines
    it cannot read, no prompt of the thread): the answer is the one part of the turn the hook
    still holds. Its id is stable per session and answer, so a Stop fired again folds into the
    same event; no `turn_idx` (which turn it ends is in the transcript) and `answer_only: true`."""
    if not ctx.session or not answer.strip():
        return None
    from carto_core.capture.shell import flatten
    from carto_core.logio.logs import order_row

    digest = _digest(f"{ctx.provider}|{ctx.session}|{answer}")[:12]
    return order_row("turns", {
        "event_id": f"turn-{ctx.session}-answer-{digest}", "timestamp": ctx.timestamp,
        "project": ctx.project or None, "type": "transcript", "provider": ctx.provider,
        "summary": " ".join(flatten(answer).split()), "transcript_path": path or None,
        "session": ctx.session,
        # the row holds no prompt: the intent an empty prompt gets, never the answer's own
        "prompt_intent": "other", "cwd": ctx.cwd or None, "answer_only": True,
    })


def capture_transcript(ctx, out, *, source: str, key: str, path: str, reader: str,
                       answer: str = "", keep_answer: bool = False) -> None:
    """A hook's live ingest of `path`: problems go to `out.problems` (hook.log), never raise.
    With `keep_answer` (Stop), a transcript that cannot be read, or holds no turn yet (empty,
    no prompt, only lines the reader cannot read), still leaves `answer`, as `answer_row`."""
    if not enabled():
        return
    if answer:
        # Redacted where it enters: the reader keeps it in the checkpoint (the live state and
        # the runner's store) and may hand it to a detached child; the rows are redacted again.
        from carto_core.privacy.redact import redact_kept

        answer = redact_kept(answer, ANSWER_MAX)
    if not path:
        out.problems.append(f"{ctx.event_name}: payload names no transcript_path; the live "
                            "transcript is not ingested")
        result = {"outcome": "refused"}
    else:
        try:
            result = ingest(ctx.home, Job(source, key, path, reader, answer), limit=max_bytes())
        except Exception as exc:  # past the read (writing) must not fail the hook; the backfill re-reads
            out.problems.append(f"live ingest of {path} failed: {type(exc).__name__}: {exc}")
            return
        if result.get("problem"):
            out.problems.append(result["problem"])
    # Only when no turn read holds the answer (a transcript that holds it never gets a second
    # row for it): the file cannot be opened, the reader failed, or it has no turn yet.
    if keep_answer and answer and (result.get("outcome") in ("refused", "unread")
                                   or result.get("answer_unplaced")):
        row = answer_row(ctx, path, answer)
        if row is not None:
            out.add("turns", row)
