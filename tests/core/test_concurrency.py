"""Several processes append while another rewrites: no row lost, no row torn. A control shows
that the naive rewrite (read, write a copy, rename) does lose rows under the same load.

The race is forced, not hoped for: in each of ROUNDS rewrites, the rewriter stops between its
read of the log and its swap (inside the transform, where `rewrite_log` has read everything it
will copy) until every appender has appended BATCH rows, which then exist only in the old file.
The safe rewrite must carry each of them over; the naive one loses each of them. After the
forced rounds the appenders write the rest of their rows while the rewriter keeps rewriting
freely, so unforced interleavings are run too. Nothing waits on the clock: events, with long
timeouts that only turn a hang into a failure.
"""

import json
import multiprocessing
import os

from carto_core.logio.appendlog import append_rows
from carto_core.logio.reader import ReadReport, iter_lines
from carto_core.logio.rewrite import generation, rewrite_log

WRITERS, ROUNDS, BATCH, FREE = 4, 5, 10, 150
CTX = multiprocessing.get_context("fork")
WAIT = 60  # seconds: only a broken protocol waits this long


class Protocol:
    """Shared between the processes: the rewriter opens window r, the appenders fill it."""

    def __init__(self):
        self.start = CTX.Event()
        self.stop = CTX.Event()
        self.opened = [CTX.Event() for _ in range(ROUNDS)]
        self.filled = [CTX.Event() for _ in range(ROUNDS)]
        self.appended = CTX.Value("i", 0)

    def fill(self, round_: int, rows: int) -> None:
        with self.appended.get_lock():
            self.appended.value += rows
            if self.appended.value == (round_ + 1) * WRITERS * BATCH:
                self.filled[round_].set()


def window_id(writer: int, round_: int, i: int) -> str:
    return f"w{writer}-r{round_}-{i}"


def _append(path: str, row: dict, naive: bool) -> None:
    if naive:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(fd, (json.dumps(row) + "\n").encode())
        os.close(fd)
    else:
        append_rows(path, [row])


def _appender(path, writer, naive, protocol):
    protocol.start.wait(WAIT)
    payload = "x" * 200  # long enough that a torn write would show
    for round_ in range(ROUNDS):
        if not protocol.opened[round_].wait(WAIT):
            raise SystemExit(f"window {round_} never opened")
        for i in range(BATCH):
            _append(path, {"event_id": window_id(writer, round_, i), "pad": payload}, naive)
        protocol.fill(round_, BATCH)
    for i in range(FREE):
        _append(path, {"event_id": f"w{writer}-{i}", "pad": payload}, naive)


def _hold_window(protocol, round_):
    """Between the read and the swap: let every appender write its batch to the old file."""
    protocol.opened[round_].set()
    if not protocol.filled[round_].wait(WAIT):
        raise SystemExit(f"window {round_} never filled")


def _naive_rewrite(path, during):
    with open(path, "rb") as handle:
        data = handle.read()
    during()
    tmp = path + ".tmp"
    with open(tmp, "wb") as out:
        out.write(data)
    os.replace(tmp, path)


def _rewriter(path, naive, protocol):
    protocol.start.wait(WAIT)
    round_ = 0
    while not protocol.stop.is_set():
        forced = round_ < ROUNDS

        def during(r=round_, forced=forced):
            if forced:
                _hold_window(protocol, r)

        if naive:
            _naive_rewrite(path, during)
        else:
            def transform(rows):
                rows = list(rows)  # everything rewrite_log read: the copy's content
                during()
                return rows

            rewrite_log(path, transform)
        round_ += 1


def _run(path, naive):
    protocol = Protocol()
    appenders = [CTX.Process(target=_appender, args=(path, w, naive, protocol)) for w in range(WRITERS)]
    rewriter = CTX.Process(target=_rewriter, args=(path, naive, protocol))
    for proc in appenders + [rewriter]:
        proc.start()
    protocol.start.set()
    for proc in appenders:
        proc.join(WAIT * 2)
    protocol.stop.set()
    rewriter.join(WAIT * 2)
    assert [p.exitcode for p in appenders + [rewriter]] == [0] * (WRITERS + 1)
    report = ReadReport(path)
    ids = {line.row["event_id"] for line in iter_lines(path, report)}
    return ids, report


WINDOWED = {window_id(w, r, i) for w in range(WRITERS) for r in range(ROUNDS) for i in range(BATCH)}
EXPECTED = WINDOWED | {f"w{w}-{i}" for w in range(WRITERS) for i in range(FREE)}


def test_rewrite_during_appends_loses_nothing(tmp_path):
    path = str(tmp_path / "changelog.jsonl")
    append_rows(path, [{"event_id": "seed"}])
    ids, report = _run(path, naive=False)
    assert EXPECTED <= ids, f"lost {sorted(EXPECTED - ids)[:10]} of {len(EXPECTED - ids)}"
    assert "seed" in ids and generation(path) >= ROUNDS
    assert report.malformed == 0 and not report.problems


def test_control_naive_rewrite_loses_rows(tmp_path):
    # The same forced windows against the naive rewrite: every row appended between its read
    # and its rename is gone, each time (so the test above does exercise that window).
    path = str(tmp_path / "changelog.jsonl")
    with open(path, "w") as handle:
        handle.write('{"event_id":"seed"}\n')
    ids, _ = _run(path, naive=True)
    assert WINDOWED & ids == set()
