"""Shared by the repair tests: a row appended by another process while a repair writes."""

from __future__ import annotations

import multiprocessing

import pytest

from carto_core.logio.appendlog import append_rows

CTX = multiprocessing.get_context("fork")


def append_from_another_process(path, row) -> None:
    child = CTX.Process(target=append_rows, args=(str(path), [row]))
    child.start()
    child.join(30)
    assert child.exitcode == 0


@pytest.fixture
def during_write(monkeypatch):
    """`during_write(repair, label, path, row)`: while `repair` rewrites `label` (its second
    pass over that log, the one under the rewriters' lock), another process appends `row`."""

    def arm(repair, label, path, row):
        real_fix = repair.fix
        passes = []

        def fix(this_label, lines, tally):
            passes.append(this_label)
            if this_label == label and passes.count(label) == 2:
                append_from_another_process(path, row)
            return real_fix(this_label, lines, tally)

        monkeypatch.setattr(repair, "fix", fix)
        return passes

    return arm
