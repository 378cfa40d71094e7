"""A torn end is sealed only when its writer is gone.

A live writer's long row looks torn while its `os.write` is under way (the file grows page by
page); sealing it then adds a blank line after the row and a false "torn row" message. The race
is run for real (processes appending rows of 400 KB), and each side of the rule is forced: a
writer that holds its lock mid-row is waited for and never sealed, one that died is sealed.
"""

import fcntl
import multiprocessing
import os

from carto_core.logio import appendlog
from carto_core.logio.appendlog import append_lines

CTX = multiprocessing.get_context("fork")
WRITERS, ROWS, PAD = 8, 15, 400_000


def _append_many(path: str, writer: int, seals) -> None:
    for i in range(ROWS):
        line = b'{"w":%d,"i":%d,"pad":"' % (writer, i) + b"x" * PAD + b'"}\n'
        append_lines(path, [line], on_seal=lambda _p: seals.put(1))


def test_long_rows_from_many_writers_are_never_sealed(tmp_path):
    path = str(tmp_path / "changelog.jsonl")
    seals = CTX.Queue()
    procs = [CTX.Process(target=_append_many, args=(path, w, seals)) for w in range(WRITERS)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(120)
        assert proc.exitcode == 0
    lines = open(path, "rb").read().split(b"\n")
    assert lines[-1] == b""
    assert [len(line) > PAD for line in lines[:-1]] == [True] * (WRITERS * ROWS)
    assert seals.empty()


def _hold_mid_row(path: str, ready, done) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    fcntl.flock(fd, fcntl.LOCK_SH)  # as `append_lines` holds it while it writes
    os.write(fd, b'{"half": "of a row')
    ready.set()
    done.wait(30)
    os.close(fd)


def test_a_live_writer_mid_row_is_not_sealed(tmp_path, monkeypatch):
    monkeypatch.setattr(appendlog, "_SEAL_WAIT", 0.05, raising=False)
    path = str(tmp_path / "changelog.jsonl")
    with open(path, "wb") as handle:
        handle.write(b'{"a": 1}\n')
    ready, done = CTX.Event(), CTX.Event()
    holder = CTX.Process(target=_hold_mid_row, args=(path, ready, done))
    holder.start()
    try:
        assert ready.wait(30)
        sealed = []
        assert append_lines(path, [b'{"b": 2}\n'], on_seal=sealed.append) == 1
        assert sealed == []
    finally:
        done.set()
        holder.join(30)


def test_a_dead_writers_torn_row_is_sealed(tmp_path):
    path = str(tmp_path / "changelog.jsonl")
    with open(path, "wb") as handle:
        handle.write(b'{"a": 1}\n{"half": "of a row')
    sealed = []
    assert append_lines(path, [b'{"b": 2}\n'], on_seal=sealed.append) == 1
    assert sealed == [path]
    assert open(path, "rb").read() == b'{"a": 1}\n{"half": "of a row\n{"b": 2}\n'
