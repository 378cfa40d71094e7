"""A rewriter killed at any point loses no row, and the next writer or reader cleans up after it.

Each test forks a rewriter, lets "another process" append rows while it works (the transform
runs after the read, so a row appended there lies beyond `read_upto`: only the tail copy would
carry it), kills the rewriter with SIGKILL semantics (`os._exit` in the child) at one point of
the sequence, then checks what the next writer, reader or rewriter makes of it.
"""

from __future__ import annotations

import json
import multiprocessing
import os

import pytest

from carto_core.logio import rewrite
from carto_core.logio.appendlog import append_rows
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.reader import ReadReport, iter_lines
from carto_core.logio.rewrite import generation, rewrite_log

CTX = multiprocessing.get_context("fork")
PHASES = ("read", "spooled", "intent", "journal", "swapped", "tail", "generation")


def _raw_append(path, row):
    """What an appender whose post-write check ran before the swap leaves: a row in the old
    inode only (it will never write it again)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, dumps_row(row))
    finally:
        os.close(fd)


def _ids(path):
    report = ReadReport(str(path))
    return [line.row["event_id"] for line in iter_lines(path, report)], report


def _journal():
    from carto_core.logio import rewrite_journal  # imported late: the old code, which these tests
    return rewrite_journal                  # were first run against, has no journal


def _leftovers(folder):
    return sorted(name for name in os.listdir(folder) if ".rewrite-" in name)


def _seed(tmp_path, n=5):
    path = tmp_path / "changelog.jsonl"
    append_rows(path, [{"event_id": f"e{i}", "summary": f"row {i}"} for i in range(n)])
    return path


def _run_child(target, *args):
    child = CTX.Process(target=target, args=args)
    child.start()
    child.join(60)
    return child.exitcode


def _die_after_swap(path):
    """Append a row after the read, then die right after the rename (the old code's window)."""
    real_replace = os.replace

    def replace_then_die(src, dst):
        real_replace(src, dst)
        if os.fspath(dst) == os.fspath(path):
            os._exit(9)

    os.replace = replace_then_die

    def transform(rows):
        _raw_append(path, {"event_id": "late", "summary": "appended during the rewrite"})
        return [dict(r, rewritten=True) for r in rows]

    rewrite_log(path, transform)


def test_kill_between_swap_and_tail_copy_loses_no_row(tmp_path):
    path = _seed(tmp_path)
    assert _run_child(_die_after_swap, path) == 9
    ids, report = _ids(path)  # the next reader finishes the dead rewrite
    assert sorted(ids) == ["e0", "e1", "e2", "e3", "e4", "late"]
    assert not report.problems
    assert _leftovers(tmp_path) == []
    assert generation(path) == 1  # caches built on the old bytes must rebuild


def _die_while_spooling(path):
    def transform(rows):
        for i, row in enumerate(rows):
            if i == 2:
                os._exit(9)
            yield row

    rewrite_log(path, transform)


def test_temporary_copy_of_a_killed_rewriter_is_removed_by_the_next_run(tmp_path):
    path = _seed(tmp_path)
    assert _run_child(_die_while_spooling, path) == 9
    assert any(name.startswith(".changelog.jsonl.rewrite-") for name in os.listdir(tmp_path))
    rewrite_log(path, lambda rows: list(rows))
    assert _leftovers(tmp_path) == []
    assert sorted(_ids(path)[0]) == [f"e{i}" for i in range(5)]


def _die_at(path, phase):
    def reach(name):
        if name == phase:
            os._exit(9)

    rewrite._reach = reach

    def transform(rows):
        _raw_append(path, {"event_id": "late", "summary": "appended during the rewrite"})
        return [dict(r, rewritten=True) for r in rows]

    rewrite_log(path, transform)


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("next_run", ["reader", "appender", "rewriter"])
def test_kill_at_every_phase_then_next_run_settles(tmp_path, phase, next_run):
    rewrite_journal = _journal()
    path = _seed(tmp_path)
    assert _run_child(_die_at, path, phase) == 9
    if next_run == "reader":
        ids, report = _ids(path)
    elif next_run == "appender":
        append_rows(path, [{"event_id": "next"}])
        ids, report = _ids(path)
        assert "next" in ids
        ids.remove("next")
    else:
        rewrite_log(path, lambda rows: list(rows))
        ids, report = _ids(path)
    late = [] if phase == "read" else ["late"]  # killed before the transform appended it
    assert sorted(set(ids)) == ["e0", "e1", "e2", "e3", "e4", *late]
    assert not report.problems
    assert _leftovers(tmp_path) == [] or next_run != "rewriter"
    assert not os.path.exists(rewrite_journal.intent_path(path))
    assert not os.path.exists(rewrite_journal.journal_path(path))
    rewritten = [json.loads(line).get("rewritten") for line in path.read_bytes().splitlines()]
    if PHASES.index(phase) >= PHASES.index("swapped"):
        assert rewritten.count(True) == 5  # the swap happened: the rewrite stands
    else:
        assert True not in rewritten  # rolled back: the log is the old one


def test_settle_leaves_a_live_rewriter_alone(tmp_path):
    rewrite_journal = _journal()
    path = _seed(tmp_path)
    rewrite_journal.write_intent(path, {"read_upto": 0, "temporary": ".changelog.jsonl.rewrite-1"})
    held = rewrite_journal.open_lock(path, blocking=True)
    try:
        assert rewrite_journal.settle(path) == "busy"
        assert os.path.exists(rewrite_journal.intent_path(path))
    finally:
        os.close(held)
    assert rewrite_journal.settle(path) == "rolled back"
    assert not os.path.exists(rewrite_journal.intent_path(path))


def test_recovery_copies_each_journal_row_once(tmp_path):
    """A rewriter killed after part of its tail copy: the next run appends only what is missing."""
    rewrite_journal = _journal()
    path = _seed(tmp_path, 2)
    journal = rewrite_journal.journal_path(path)
    os.link(path, journal)
    read_upto = path.stat().st_size
    _raw_append(path, {"event_id": "t1"})
    _raw_append(path, {"event_id": "t2"})
    new = tmp_path / "new.jsonl"
    new.write_bytes(path.read_bytes()[:read_upto] + dumps_row({"event_id": "t1"}))
    rewrite_journal.write_intent(path, {"read_upto": read_upto, "temporary": "x"})
    os.replace(new, path)
    assert rewrite_journal.settle(path) == "finished"
    assert _ids(path)[0] == ["e0", "e1", "t1", "t2"]


def test_rewrite_lines_sees_and_fixes_bad_lines(tmp_path):
    path = tmp_path / "changelog.jsonl"
    path.write_bytes(b'{"event_id":"a"}\nnot json\n{"event_id":"b"}\n{"event_id":"c","x":')
    seen = []

    def transform(lines):
        seen.extend((raw, row is not None) for raw, row in lines)
        return [raw for raw, row in lines if row is not None]

    result = rewrite.rewrite_lines(path, transform)
    assert seen == [(b'{"event_id":"a"}\n', True), (b"not json\n", False), (b'{"event_id":"b"}\n', True),
                    (b'{"event_id":"c","x":', False)]
    assert path.read_bytes() == b'{"event_id":"a"}\n{"event_id":"b"}\n'
    assert result.read_upto == len(b'{"event_id":"a"}\nnot json\n{"event_id":"b"}\n{"event_id":"c","x":')


# A read can end inside a row: one os.write of a line is atomic against other appends but not
# against a reader (Linux makes a buffered write visible page by page, so a row crossing a page
# boundary is seen half written). The soak once left the cut-off end of such a row as a line of
# its own (malformed_json). These tests stop the write half way, as the reader saw it.

_MIDWAY = {"event_id": "mid", "summary": "a row being written while the rewrite reads"}


def _half_written(path):
    """The first half of a row an appender is writing (visible to a reader) and the rest."""
    line = dumps_row(_MIDWAY)
    cut = len(line) // 2
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, line[:cut])
    finally:
        os.close(fd)
    return line[cut:]


def _whole_rows_only(lines):
    return [raw for raw, row in lines if row is not None]


def test_a_row_the_read_caught_half_written_is_copied_whole(tmp_path, monkeypatch):
    path = _seed(tmp_path, 3)
    rest = _half_written(path)

    def reach(name):
        if name == "read":  # the write completes; its appender checked before the swap
            _raw_append_bytes(path, rest)

    monkeypatch.setattr(rewrite, "_reach", reach)
    result = rewrite.rewrite_lines(path, _whole_rows_only)  # it sees the half row: no row
    ids, report = _ids(path)
    assert ids == ["e0", "e1", "e2", "mid"]
    assert dict(report.problems) == {}  # before: the row's second half was a line (malformed_json)
    assert result.tail_lines == 1


def _complete_then_die(path, phase):
    rest = _half_written(path)

    def reach(name):
        if name == "intent":
            _raw_append_bytes(path, rest)
        if name == phase:
            os._exit(9)

    rewrite._reach = reach
    rewrite.rewrite_lines(path, _whole_rows_only)


@pytest.mark.parametrize("next_run", ["reader", "appender", "rewriter"])
def test_a_dead_rewrite_finished_later_copies_a_half_read_row_whole(tmp_path, next_run):
    path = _seed(tmp_path, 3)
    assert _run_child(_complete_then_die, path, "swapped") == 9
    if next_run == "appender":
        append_rows(path, [{"event_id": "next"}])
    elif next_run == "rewriter":
        rewrite_log(path, lambda rows: list(rows))
    ids, report = _ids(path)
    assert [i for i in ids if i != "next"] == ["e0", "e1", "e2", "mid"]
    assert dict(report.problems) == {}
    assert _leftovers(tmp_path) == [] or next_run != "rewriter"


def test_a_torn_piece_sealed_after_the_read_is_not_copied_back(tmp_path, monkeypatch):
    """A piece its writer left (it died): the next appender seals it with a newline first, so
    the bytes after the read start a line; the rewrite dropped the piece and it stays dropped."""
    path = _seed(tmp_path, 2)
    _half_written(path)  # and its writer died

    def reach(name):
        if name == "read":
            append_rows(path, [{"event_id": "after"}])

    monkeypatch.setattr(rewrite, "_reach", reach)
    rewrite.rewrite_lines(path, _whole_rows_only)
    ids, report = _ids(path)
    assert ids == ["e0", "e1", "after"]
    assert dict(report.problems) == {}
    assert path.read_bytes().count(b'"mid"') == 0


def _raw_append_bytes(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
