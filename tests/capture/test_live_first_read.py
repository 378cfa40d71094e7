"""The Stop hook's first read at a new path (a subagent's file, a moved transcript) looks up the
rows the turns log holds for the session (`capture.live.stored_digests`), and searches only the
log's bytes since the session began: from the size the log had at the newest mark
(`record_mark`, at most one an hour, taken as rows are appended) older than the session's
earliest turn less a day (`MARK_SLACK_SECONDS`). A row is appended after its turn began, and a
stored row that keeps a turn from being written again holds the same `timestamp`, so what the
search leaves out is only what the slack says cannot be there. A log rewritten, replaced or
changed before the mark is searched whole."""

from __future__ import annotations

import json
import mmap
import os
import time
from datetime import datetime, timezone
from pathlib import Path

from carto_core.capture import live
from carto_core.logio.appendlog import append_lines
from carto_core.logio.home import current_home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.rewrite import rewrite_log
from tests.capture.stophook import stop
from tests.clikit import object_rows

SESSION = "7a3e0c51-0b9e-4c55-9d7e-2f6a1c0e9b42"
DAY = 86_400
T = 1_800_000_000  # the session's first turn (2027-01-15T08:00:00Z)


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _transcript(path: Path, start: float) -> None:
    """Two turns of a Claude Code session, the first one `start`, the second a minute later."""
    lines = []
    for n, (prompt, answer) in enumerate([("list the walrus modules", "There are three."),
                                          ("rename the first", "Renamed walrus_a.")]):
        stamp = _iso(start + 60 * n)
        common = {"sessionId": SESSION, "cwd": "/work/demo", "timestamp": stamp, "isSidechain": False}
        lines.append({**common, "type": "user", "uuid": f"00000000-0000-4000-8000-00000000000{n}",
                      "message": {"role": "user", "content": prompt}})
        lines.append({**common, "type": "assistant", "uuid": f"00000000-0000-4000-8001-00000000000{n}",
                      "message": {"id": f"msg_{n}", "role": "assistant",
                                  "content": [{"type": "text", "text": answer}]}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")


def _stop(transcript: Path) -> None:
    stop(transcript, SESSION)


def _turns() -> list[tuple[str, bool | None]]:
    log = current_home().log("turns")
    return [(r["event_id"], r.get("open")) for r in object_rows(log)] if log.exists() else []


def test_the_lookup_starts_at_the_hooks_own_mark(tmp_path):
    """The session's turns begin two days after the hook's first mark (its stamps are two days
    ahead of this clock, standing in for a session begun two days later): its rows appended
    before that mark, against the slack's rule, are not searched for, so its moved transcript
    writes them again. Read whole, the log would have kept them from being written."""
    first = tmp_path / "projects" / "-work-demo" / f"{SESSION}.jsonl"
    _transcript(first, time.time() + 2 * DAY)
    _stop(first)
    assert _turns() == [(f"turn-{SESSION}-1", None), (f"turn-{SESSION}-2", True)]
    size = current_home().log("turns").stat().st_size

    moved = first.parent.with_name("-work-demo-moved")
    first.parent.rename(moved)
    _stop(moved / first.name)

    assert _turns()[2:] == [(f"turn-{SESSION}-1", None), (f"turn-{SESSION}-2", True)]
    # one mark (the second append came within the hour), taken after the first append
    (mark,) = (current_home().state / "live" / live.MARKS).read_text().splitlines()
    assert int(mark.split()[1]) == size


def _row(event_id: str, stamp: float, summary: str = "x") -> dict:
    return {"event_id": event_id, "timestamp": _iso(stamp), "summary": summary}


def _fill(n: int, stamp: float) -> None:
    """Rows of another session, as the log holds between marks."""
    append_lines(current_home().log("turns"),
                 [dumps_row(_row(f"turn-other-{stamp:.0f}-{i}", stamp, "y" * 300)) for i in range(n)])


def _start(rows: list[dict]) -> int:
    log = current_home().log("turns")
    with open(log, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return live.search_start(current_home(), os.fstat(handle.fileno()), data, rows)


def _history() -> list[int]:
    """A log that grew over three days, a mark taken as it grew: the sizes at the marks."""
    home, sizes = current_home(), []
    for taken in (T - 3 * DAY, T - 2 * DAY, T - DAY // 2):
        _fill(40, taken)
        live.record_mark(home, now=taken)
        sizes.append(home.log("turns").stat().st_size)
    return sizes


def test_the_search_starts_at_the_newest_mark_a_day_before_the_earliest_turn():
    sizes = _history()
    session = [_row(f"turn-{SESSION}-1", T), _row(f"turn-{SESSION}-2", T + 600)]
    assert _start(session) == sizes[1]  # 2 days before: the newest mark at or before T - 1 day
    assert _start([_row(f"turn-{SESSION}-9", T + 3 * DAY)]) == sizes[2]
    assert _start(session + [_row(f"turn-{SESSION}-0", T - 1.5 * DAY)]) == sizes[0]
    assert _start([_row(f"turn-{SESSION}-1", T - 5 * DAY)]) == 0  # older than every mark
    assert _start(session + [{"event_id": f"turn-{SESSION}-3", "summary": "no time"}]) == 0
    assert _start([{**session[0], "timestamp": "2027-01-15T09:00:00+01:00"}]) == sizes[1]  # an instant

    # the stored rows: those appended since the mark are found, one appended long before is not
    stored = [dumps_row(_row(f"turn-{SESSION}-1", T)), dumps_row({**_row(f"turn-{SESSION}-2", T + 600), "open": True})]
    append_lines(current_home().log("turns"), stored)
    digests, closed = live.stored_digests(current_home(), session)
    assert digests == {row["event_id"]: live.version(line.rstrip(b"\n"), row)
                       for line, row in zip(stored, [json.loads(line) for line in stored])}
    assert closed == {f"turn-{SESSION}-1"}


def test_a_mark_of_a_log_since_rewritten_or_changed_is_not_used():
    sizes = _history()
    session = [_row(f"turn-{SESSION}-1", T)]
    assert _start(session) == sizes[1]
    log = current_home().log("turns")

    rewrite_log(log, lambda rows: rows)  # the same rows in a new file, the generation bumped
    assert log.read_bytes().count(b"\n") == 120 and _start(session) == 0

    live.record_mark(current_home(), now=T - 2 * DAY)  # a mark of the rewritten log
    assert _start(session) == log.stat().st_size
    data = bytearray(log.read_bytes())
    data[-10:-9] = b"z"  # the bytes before the mark changed in place
    with open(log, "r+b") as handle:
        handle.write(data)
    assert _start(session) == 0


def test_marks_are_taken_once_an_hour_and_read_from_the_files_end():
    home = current_home()
    _fill(2, T)
    live.record_mark(home)
    live.record_mark(home)
    path = home.state / "live" / live.MARKS
    (taken, size, *_), = [line.split() for line in path.read_text().splitlines()]
    assert (int(size), abs(int(taken) - time.time()) < 60) == (home.log("turns").stat().st_size, True)

    # an older session's mark lies before the end the first read covers: the file is read whole
    path.unlink()
    live.record_mark(home, now=T - 3 * DAY)
    size = home.log("turns").stat().st_size
    for hour in range(400):
        live.record_mark(home, now=T + hour * 3600)
    assert path.stat().st_size > live.MARKS_TAIL_BYTES
    with open(path, "a") as handle:
        handle.write("1 2 3\nnot a mark at all\n")  # lines that are no mark are passed over
    assert _start([_row(f"turn-{SESSION}-1", T - DAY)]) == size
    assert _start([_row(f"turn-{SESSION}-1", T + 300 * 3600)]) == size  # the log did not grow
