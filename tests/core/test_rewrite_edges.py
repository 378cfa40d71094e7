"""Edges of `rewrite_lines` that mutation testing showed no test held (docs/testing.md): a
rewriter waits for the one holding the lock, and a log that does not exist yet can be rewritten."""

from __future__ import annotations

import os
import threading

from carto_core.appendlog import append_rows
from carto_core.jsonl import dumps_row
from carto_core.rewrite import rewrite_lines
from carto_core.rewrite_journal import open_lock


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
