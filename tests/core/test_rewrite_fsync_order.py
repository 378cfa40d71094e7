"""The crash-safe rewrite makes its rename durable before it goes on: the new copy is fsynced
before it replaces the log, and the log's folder is fsynced after the rename and before the
next phase (the tail copy, then the journal's removal), so a crash never finds the journal gone
while the rename is not yet on disk. The order is recorded from the system calls themselves. Mutants checked by hand: the folder
fsync moved before the rename, and removed, each fail the test."""

from __future__ import annotations

import json
import os

import pytest

from carto_core.logio import rewrite, rewrite_journal
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home


@pytest.fixture
def calls(monkeypatch):
    """Every os.open/fsync/replace/unlink the rewrite makes, in order, with paths."""
    events: list[tuple] = []
    names: dict[int, str] = {}
    real_open, real_fsync, real_replace, real_unlink = os.open, os.fsync, os.replace, os.unlink

    def opened(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        names[fd] = os.path.realpath(os.fspath(path))
        return fd

    def fsync(fd):
        events.append(("fsync", names.get(fd, f"fd:{fd}")))
        return real_fsync(fd)

    def replace(src, dst, *args, **kwargs):
        events.append(("replace", os.path.realpath(os.fspath(src)), os.path.realpath(os.fspath(dst))))
        return real_replace(src, dst, *args, **kwargs)

    def unlink(path, *args, **kwargs):
        events.append(("unlink", os.path.realpath(os.fspath(path))))
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", opened)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "unlink", unlink)
    monkeypatch.setattr(rewrite, "_reach", lambda phase: events.append(("phase", phase)))
    # An open file's descriptor (the spooled copy) is named through its `name`.
    real_open_private = rewrite.open_private

    def open_private(path, mode="w", **kwargs):
        handle = real_open_private(path, mode, **kwargs)
        names[handle.fileno()] = os.path.realpath(os.fspath(path))
        return handle

    monkeypatch.setattr(rewrite, "open_private", open_private)
    return events


def test_the_folder_is_fsynced_after_the_rename_and_before_the_next_phase(tmp_path, calls):
    home = Home(tmp_path / "home")
    log = home.log("changelog")
    append_rows(log, [{"event_id": f"evt-{i}", "summary": f"row {i}"} for i in range(5)])
    calls.clear()
    rewrite.rewrite_log(log, lambda rows: (r for r in rows if r["event_id"] != "evt-2"))
    folder = os.path.realpath(log.parent)
    real_log = os.path.realpath(log)
    swap = next(i for i, e in enumerate(calls) if e[0] == "replace" and e[2] == real_log)
    spooled = calls[swap][1]
    # the copy was fsynced before it took the log's name
    assert ("fsync", spooled) in calls[:swap]
    # the folder is fsynced after the rename, before the rewrite reports the swap done and
    # before the tail, the generation and the journal's removal
    swapped = calls.index(("phase", "swapped"))
    assert ("fsync", folder) in calls[swap + 1:swapped], calls
    journal = os.path.realpath(rewrite_journal.journal_path(log))
    # (the journal's name is unlinked once before it is linked, in case a dead rewriter left it)
    removed = max(i for i, event in enumerate(calls) if event == ("unlink", journal))
    assert swapped < removed
    assert ("fsync", folder) in calls[removed + 1:]  # the journal's removal made durable too
    assert [json.loads(line)["event_id"] for line in log.read_text().splitlines()] == [
        "evt-0", "evt-1", "evt-3", "evt-4"]
