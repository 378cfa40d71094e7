"""What `append_lines` promises besides the edges of test_append_edges.py: every line of a batch
lands after a seal, the count an `AppendError` carries is exact (the spill re-lands from it), a
log that vanishes under the appender gets its rows again, new logs are not executable, and the
error names the file. Each was a mutant that survived the suite (docs/testing.md)."""

from __future__ import annotations

import errno
import os

import pytest

from carto_core.logio import appendlog
from carto_core.logio.appendlog import AppendError, append_lines, append_rows
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.reader import ReadReport, iter_lines


def _ids(path):
    return [line.row["event_id"] for line in iter_lines(path, ReadReport(str(path)))]


def test_every_line_of_a_batch_lands_after_the_torn_end_is_sealed(tmp_path):
    log = tmp_path / "changelog.jsonl"
    log.write_bytes(dumps_row({"event_id": "e0"}) + b'{"event_id": "cut')
    sealed = []
    assert append_lines(log, [dumps_row({"event_id": f"e{i}"}) for i in (1, 2, 3)], on_seal=sealed.append) == 3
    assert _ids(log) == ["e0", "e1", "e2", "e3"]
    assert sealed == [str(log)]


def test_an_append_error_counts_exactly_the_lines_that_went_in(tmp_path, monkeypatch):
    log = tmp_path / "changelog.jsonl"
    real_write = os.write
    calls = []

    def third_write_fails(fd, data):
        calls.append(data)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(log))
        return real_write(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(appendlog.os, "write", third_write_fails)
        with pytest.raises(AppendError) as caught:
            append_lines(log, [dumps_row({"event_id": f"r{i}"}) for i in range(4)])
    assert caught.value.written == 2 and _ids(log) == ["r0", "r1"]
    assert caught.value.errno == errno.ENOSPC


def test_an_append_error_reads_as_the_os_error_it_wraps():
    error = AppendError(OSError(errno.ENOSPC, "No space left on device", "/h/changelog.jsonl"), 0)
    assert str(error) == "[Errno 28] No space left on device: '/h/changelog.jsonl'"
    assert error.filename == "/h/changelog.jsonl"
    # an OSError without errno/strerror (the short-write case names its own text) keeps its text
    assert AppendError(OSError("short write: 3 of 9 bytes"), 1).strerror == "short write: 3 of 9 bytes"


def test_a_log_removed_right_after_the_write_gets_the_rows_again(tmp_path, monkeypatch):
    log = tmp_path / "changelog.jsonl"
    real_stat = os.stat
    removed = []

    def stat(path, *args, **kwargs):
        # someone deletes the log between the appender's write and its check of the inode
        if os.fspath(path) == str(log) and not removed:
            removed.append(True)
            os.unlink(log)
        return real_stat(path, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(appendlog.os, "stat", stat)
        assert append_rows(log, [{"event_id": "kept"}]) == 1
    assert removed and _ids(log) == ["kept"]


def test_nothing_to_append_writes_nothing_and_creates_no_log(tmp_path):
    log = tmp_path / "sub" / "changelog.jsonl"
    assert append_lines(log, []) == 0 and append_rows(log, []) == 0
    assert not log.exists() and not log.parent.exists()


def test_a_new_log_is_read_write_for_its_owner_alone_and_never_executable(tmp_path):
    old = os.umask(0o000)  # the most permissive umask: the mode is carto's own
    try:
        append_rows(tmp_path / "new" / "changelog.jsonl", [{"event_id": "e1"}])
    finally:
        os.umask(old)
    assert os.stat(tmp_path / "new" / "changelog.jsonl").st_mode & 0o777 == 0o600
    assert os.stat(tmp_path / "new").st_mode & 0o777 == 0o700
