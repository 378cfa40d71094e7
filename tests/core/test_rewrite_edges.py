"""Edges of the rewrite that mutation testing showed no test held (docs/testing.md): a rewriter
waits for the one holding the lock; a log that does not exist yet can be rewritten; finishing a
dead rewrite copies only its tail (never the old versions of rewritten rows); rolling one back
removes its copy; the result says what was recovered; no hard links, 1 MiB reads, transforms
that drop newlines; `parse_lines` on the bytes it is given."""

from __future__ import annotations

import errno
import multiprocessing
import os
import threading

import pytest

from carto_core.logio import rewrite
from carto_core.logio.appendlog import append_rows
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.reader import ReadReport, iter_lines
from carto_core.logio.rewrite import generation, parse_lines, rewrite_lines, rewrite_log
from carto_core.logio.rewrite_journal import (
    generations_path,
    intent_path,
    journal_path,
    open_lock,
    settle,
    temporary_path,
    write_intent,
)


def _upper(lines):
    return [dumps_row({**row, "summary": row["summary"].upper()}) for _, row in lines]


def test_a_rewrite_waits_for_the_rewriter_holding_the_lock(tmp_path):
    log = tmp_path / "changelog.jsonl"
    append_rows(log, [{"event_id": "e1", "summary": "one"}])
    held = open_lock(log, blocking=True)
    done, failed = threading.Event(), []

    def rewriter():
        try:
            rewrite_lines(log, _upper)
        except BaseException as error:  # noqa: BLE001 - the test reports it
            failed.append(error)
        done.set()

    worker = threading.Thread(target=rewriter)
    worker.start()
    try:
        # while the lock is held the rewrite neither fails nor touches the log
        assert not done.wait(0.5)
        assert b'"one"' in log.read_bytes()
    finally:
        os.close(held)
    worker.join(30)
    assert done.is_set() and failed == []
    assert b'"ONE"' in log.read_bytes()


def test_a_log_that_does_not_exist_yet_is_rewritten_as_an_empty_log(tmp_path):
    log = tmp_path / "research-log.jsonl"
    seen = []

    def transform(lines):
        seen.extend(lines)
        return []

    result = rewrite_lines(log, transform)
    assert seen == [] and result.read_upto == 0 and result.tail_lines == 0
    assert log.exists() and log.read_bytes() == b""


# --- a rewriter killed after its swap, the journal's intent, hard links, sizes, line ends -----

CTX = multiprocessing.get_context("fork")


def _raw_append(path, row):
    """A row written straight into the current inode (an appender that checked before the swap)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, dumps_row(row))
    finally:
        os.close(fd)


def _redact_and_die_at(path, phase):
    def reach(name):
        if name == phase:
            os._exit(9)

    rewrite._reach = reach

    def transform(rows):
        _raw_append(path, {"event_id": "late", "summary": "appended during the rewrite"})
        return [dict(r, summary=r["summary"].replace("hunter2", "[REDACTED]")) for r in rows]

    rewrite_log(path, transform)


def _seed_secrets(tmp_path):
    log = tmp_path / "changelog.jsonl"
    append_rows(log, [{"event_id": f"e{i}", "summary": f"password hunter2 #{i}"} for i in range(4)])
    return log


def _kill_at(log, phase):
    child = CTX.Process(target=_redact_and_die_at, args=(log, phase))
    child.start()
    child.join(60)
    assert child.exitcode == 9


def _next_run(log, who):
    if who == "reader":
        list(iter_lines(log, ReadReport(str(log))))
    elif who == "appender":
        append_rows(log, [{"event_id": "next", "summary": "after"}])
    else:
        rewrite_log(log, lambda rows: list(rows))


@pytest.mark.parametrize("phase", ["swapped", "tail"])
@pytest.mark.parametrize("who", ["reader", "appender", "rewriter"])
def test_finishing_a_dead_rewrite_never_brings_back_the_rows_it_changed(tmp_path, phase, who):
    """The tail copied from the journal starts at the intent's read_upto: from anywhere earlier
    it would re-append the old versions of the rewritten rows (here, the unredacted secret)."""
    log = _seed_secrets(tmp_path)
    _kill_at(log, phase)
    _next_run(log, who)
    data = log.read_bytes()
    assert b"hunter2" not in data
    ids = [line.row["event_id"] for line in iter_lines(log, ReadReport(str(log)))]
    assert {"e0", "e1", "e2", "e3", "late"} <= set(ids)


@pytest.mark.parametrize("phase", ["intent", "journal"])
@pytest.mark.parametrize("who", ["reader", "appender"])
def test_a_reader_or_appender_rolling_back_removes_the_dead_rewriters_copy(tmp_path, phase, who):
    log = _seed_secrets(tmp_path)
    _kill_at(log, phase)
    assert [n for n in os.listdir(tmp_path) if ".rewrite-" in n]  # the copy, the intent, ...
    _next_run(log, who)
    assert [n for n in os.listdir(tmp_path) if ".rewrite-" in n] == []
    assert b"hunter2" in log.read_bytes()  # rolled back: the old log stands


def test_a_rewrite_reports_what_it_rolled_back_and_which_copies_it_removed(tmp_path):
    log = _seed_secrets(tmp_path)
    named = temporary_path(log, pid=999_991)
    stray = temporary_path(log, pid=999_992)
    for copy in (named, stray):
        with open(copy, "wb") as handle:
            handle.write(b"half a copy")
    write_intent(log, {"read_upto": 0, "temporary": os.path.basename(named), "pid": 999_991})
    result = rewrite_lines(log, lambda lines: [raw for raw, _ in lines])
    assert result.recovered == "rolled back"
    assert result.removed_temporaries == [os.path.basename(stray)]
    assert result.report.path == str(log) and result.read_upto == log.stat().st_size
    assert not os.path.exists(named) and not os.path.exists(stray)


def test_without_hard_links_a_rewrite_still_completes_and_leaves_no_journal(tmp_path, monkeypatch):
    log = _seed_secrets(tmp_path)

    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    with monkeypatch.context() as patch:
        patch.setattr(os, "link", no_links)
        rewrite_log(log, lambda rows: [dict(r, summary="clean") for r in rows])
    assert b"hunter2" not in log.read_bytes() and log.read_bytes().count(b'"clean"') == 4
    assert [n for n in os.listdir(tmp_path) if ".rewrite-" in n] == []


def test_a_log_and_a_tail_larger_than_one_read_are_copied_whole(tmp_path):
    """The rewriter reads in 1 MiB pieces: a log and a tail beyond that must join seamlessly."""
    log = tmp_path / "changelog.jsonl"
    pad = "x" * 1000
    append_rows(log, [{"event_id": f"e{i}", "summary": pad} for i in range(1500)])  # ~1.5 MB
    assert log.stat().st_size > 1 << 20

    def transform(rows):
        for i in range(1200):  # ~1.2 MB appended after the read: the tail copy carries it
            _raw_append(log, {"event_id": f"late{i}", "summary": pad})
        return list(rows)

    rewrite_log(log, transform)
    report = ReadReport(str(log))
    rows = [line.row for line in iter_lines(log, report)]
    assert not report.problems
    assert [row["event_id"] for row in rows] == [f"e{i}" for i in range(1500)] + [f"late{i}" for i in range(1200)]
    assert all(row["summary"] == pad for row in rows)  # nothing inserted where two reads meet


def test_lines_a_transform_returns_without_their_newline_still_end_in_one(tmp_path):
    log = tmp_path / "changelog.jsonl"
    append_rows(log, [{"event_id": "e1", "summary": "a"}, {"event_id": "e2", "summary": "b"}])
    rewrite_lines(log, lambda lines: [raw.rstrip(b"\n") for raw, _ in lines])
    assert log.read_bytes() == dumps_row({"event_id": "e1", "summary": "a"}) + dumps_row({"event_id": "e2", "summary": "b"})


def test_parse_lines_reads_the_bytes_it_is_given_not_the_file(tmp_path):
    one, two = dumps_row({"event_id": "e1"}), dumps_row({"event_id": "e2"})
    data = b"\n" + one + b"  \n" + two + b'{"event_id": "cut'
    lines, report = parse_lines(tmp_path / "absent.jsonl", data)
    assert lines == [(one, {"event_id": "e1"}), (two, {"event_id": "e2"}), (b'{"event_id": "cut', None)]
    assert report.path == str(tmp_path / "absent.jsonl") and report.end_offset == len(data)


def test_the_generation_of_a_log_the_counts_file_does_not_name_is_zero(tmp_path):
    log, other = tmp_path / "changelog.jsonl", tmp_path / "tool-use-log.jsonl"
    append_rows(other, [{"event_id": "t1", "summary": "x"}])
    rewrite_log(other, lambda rows: list(rows))
    assert generation(other) == 1 and generation(log) == 0
    generations_path(log).write_text("[1, 2]")  # not a mapping: no count, no exception
    assert generation(log) == 0


def test_an_intent_cut_by_a_crash_is_rolled_back(tmp_path):
    """A rewriter killed while writing its intent leaves a file that does not parse (nothing
    was swapped yet): the next reader rolls it back instead of leaving it pending forever."""
    log = _seed_secrets(tmp_path)
    with open(intent_path(log), "wb") as handle:
        handle.write(b'{"read_upto": 12')
    assert settle(log) == "rolled back"
    assert not os.path.exists(intent_path(log))
    assert settle(log) is None


def test_a_log_deleted_after_a_dead_rewriters_swap_is_restored_from_the_journal(tmp_path):
    log = _seed_secrets(tmp_path)
    _kill_at(log, "swapped")
    os.unlink(log)
    assert settle(log) == "restored"
    ids = [line.row["event_id"] for line in iter_lines(log, ReadReport(str(log)))]
    assert sorted(ids) == ["e0", "e1", "e2", "e3", "late"]  # the old inode: every row it held
    assert generation(log) == 1  # caches built on the rewritten bytes must rebuild
    assert not os.path.exists(intent_path(log)) and not os.path.exists(journal_path(log))
