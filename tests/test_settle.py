"""When a transcript is finished: its file quiet, or its own newest timestamp old (a copy made
now of an old transcript is finished all the same)."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest
from carto_core.transcript.settle import final_at, is_finished, stamp_epoch

NOW = 1_800_000_000.0


def test_quiet_file_or_old_timestamps_finish_a_transcript():
    assert is_finished(NOW - 600, None, 600, NOW)              # quiet file, no timestamp known
    assert is_finished(NOW - 5, NOW - 600, 600, NOW)           # fresh copy, old transcript
    assert not is_finished(NOW - 599, NOW - 5, 600, NOW)       # live: both fresh
    assert not is_finished(NOW - 599, None, 600, NOW)
    assert not is_finished(NOW - 5, NOW + 3600, 600, NOW)      # a clock ahead: the mtime decides


@given(st.floats(0, 1e5), st.one_of(st.none(), st.floats(0, 1e5)), st.floats(0, 5e4))
def test_final_at_is_the_first_moment_is_finished_holds(mtime_ago, stamp_ago, settle):
    mtime = NOW - mtime_ago
    stamp = None if stamp_ago is None else NOW - stamp_ago
    moment = final_at(mtime, stamp, settle)
    assert is_finished(mtime, stamp, settle, max(moment, NOW) + 1e-3)
    if moment > NOW + 1:
        assert not is_finished(mtime, stamp, settle, moment - 1)


def test_stamps_of_every_spelling_are_read():
    assert stamp_epoch("2026-01-02T03:04:05Z") == stamp_epoch("2026-01-02T03:04:05.000+00:00")
    assert stamp_epoch(1767323045) == stamp_epoch("2026-01-02T03:04:05Z")
    assert stamp_epoch("not a time") is None and stamp_epoch(True) is None and stamp_epoch(None) is None


# --- the shared fixtures, copied just now, ingest into exactly what a settled copy gives ------


def _copy(src, dst, *, settled: bool):
    shutil.copytree(src, dst)
    stamp = time.time() - (86_400 if settled else 0)
    for folder, _, names in os.walk(dst):
        for name in names:
            os.utime(os.path.join(folder, name), (stamp, stamp))


def _turns(home: Home) -> list[dict]:
    path = home.log("turns")
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()] if path.exists() else []
    for row in rows:  # the copies live in different folders
        row["transcript_path"] = os.path.relpath(row["transcript_path"], home.root.parent)
        row["transcript_path"] = row["transcript_path"].split(os.sep, 1)[1]
    return rows


@pytest.mark.parametrize("provider", ["claude", "codex"])
def test_fixtures_copied_now_ingest_into_the_turns_of_a_settled_copy(provider, shared_fixtures, tmp_path):
    from carto_claude.transcripts import ClaudeSource
    from carto_codex.source import CodexRolloutSource

    make = {"claude": lambda root: ClaudeSource({"roots": [str(root)], "history": False}),
            "codex": lambda root: CodexRolloutSource({"roots": [str(root / "claude-code-log")]})}[provider]
    results = {}
    for kind, settled in (("fresh", False), ("settled", True)):
        _copy(shared_fixtures / provider, tmp_path / kind / "src", settled=settled)
        home = Home(tmp_path / kind / "home")
        summary = run_ingest(make(tmp_path / kind / "src"), home)  # the default settle: 600 s
        results[kind] = (summary, _turns(home))
    fresh, settled = results["fresh"], results["settled"]
    assert fresh[1] == settled[1]
    assert len(fresh[1]) >= (12 if provider == "claude" else 4)
    assert fresh[0].open_rows == settled[0].open_rows == 0
    assert not any(row.get("open") for row in fresh[1])
