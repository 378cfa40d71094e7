"""A home with a log that cannot be read: `carto sessions`, `carto standup` and the explorer's
warm corpus answer from the rest.

A research log that was a folder (a symbolic link looping or to nothing, a FIFO: wait forever)
ended `carto sessions` and `carto standup` in `carto: sessions: Is a directory: ...`. Such a
log is left out as an absent one and named on stderr and in `skipped_files`, as `carto search`
does (docs/search.md#a-log-that-cannot-be-read).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses.livecorpus import LiveCorpus

DAMAGE = {
    "folder": (lambda path: path.mkdir(), "a folder, not a log file"),
    "symbolic link loop": (lambda path: path.symlink_to(path), "a symbolic link that loops"),
}


def _invoke(home, *args):
    return CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(home.root)},
                              catch_exceptions=False)


def _damage(home, label: str, damage: str = "folder") -> tuple[str, str]:
    path = home.log(label)
    if path.exists():
        path.unlink()
    make, why = DAMAGE[damage]
    make(path)
    return str(path), why


def _line(path: str, why: str) -> str:
    return (f"carto: skipped {path} ({why}): its events are left out; `carto doctor` says "
            "what to do")


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_sessions_lists_the_sessions_of_the_other_logs(tmp_path, damage):
    home = build_sample_home(tmp_path / "h")
    path, why = _damage(home, "research", damage)
    done = _invoke(home, "sessions", "--json")
    assert done.exit_code == 0, done.output
    document = json.loads(done.stdout)
    assert {r["session_id"] for r in document["sessions"]} == set(SESSIONS.values())
    assert document["skipped_files"] == [
        {"path": path, "why": why, "left_out": "its events are left out"}]
    assert done.stderr.splitlines() == [_line(path, why)]
    text = _invoke(home, "sessions")
    assert text.exit_code == 0 and SESSIONS["a"][:8] in text.stdout
    one = _invoke(home, "session", SESSIONS["a"][:8], "--json")
    assert one.exit_code == 0, one.output
    assert json.loads(one.stdout)["skipped_files"][0]["path"] == path
    assert one.stderr.splitlines() == [_line(path, why)]


def test_sessions_on_a_home_whose_every_log_cannot_be_read_exits_1(tmp_path):
    home = build_sample_home(tmp_path / "h")
    for path in home.searched_logs().values():
        if path.exists():
            path.unlink()
            path.mkdir()
    done = _invoke(home, "sessions")
    assert done.exit_code == 1
    assert done.stderr.startswith(f"carto: no searched log of {home.root} can be read: ")
    assert "changelog.jsonl is a folder, not a log file" in done.stderr


def test_standup_answers_and_names_only_the_logs_it_reads(tmp_path):
    """The research log is no part of a standup (its turns come through the facts columns,
    which read every log): left out in silence; the changelog is, and is named."""
    home = build_sample_home(tmp_path / "h")
    _damage(home, "research")
    done = _invoke(home, "standup", "--since", "100000d", "--json", "--no-git")
    assert done.exit_code == 0, done.output
    assert "skipped_files" not in json.loads(done.stdout) and done.stderr == ""
    path, why = _damage(home, "changelog")
    done = _invoke(home, "standup", "--since", "100000d", "--json", "--no-git")
    assert done.exit_code in (0, 3), done.output
    assert json.loads(done.stdout)["skipped_files"] == [
        {"path": path, "why": why, "left_out": "its events are left out"}]
    assert done.stderr.splitlines()[0] == _line(path, why)


def test_the_warm_corpus_follows_a_log_that_breaks_and_mends(tmp_path):
    """`carto serve` keeps a corpus current: a log turned into a folder is reloaded as absent
    (not a crash on the next request), and read again once it is a log again."""
    home = build_sample_home(tmp_path / "h")
    live = LiveCorpus(home)
    research = home.log("research")
    saved = research.read_bytes()
    ids = {e.event_id for e in live.corpus.events if e.source == "research"}
    assert ids
    research.unlink()
    research.mkdir()
    live.refresh()
    assert live.corpus.skipped == {"research": "a folder, not a log file"}
    assert not [e for e in live.corpus.events if e.source == "research"]  # (changelog copies stay)
    research.rmdir()
    research.write_bytes(saved)
    live.refresh()
    assert live.corpus.skipped == {}
    assert ids == {e.event_id for e in live.corpus.events if e.source == "research"}


def test_a_fifo_in_a_logs_place_is_skipped_not_waited_on(tmp_path):
    """(A subprocess, so that a wait fails the test instead of hanging the run.)"""
    home = build_sample_home(tmp_path / "h")
    path = home.log("turns")
    if path.exists():
        path.unlink()
    os.mkfifo(path)
    env = {**os.environ, "CARTO_HOME": str(home.root), "HOME": str(tmp_path)}
    for command in (["sessions"], ["standup", "--since", "100000d", "--no-git"]):
        try:
            done = subprocess.run([sys.executable, "-m", "carto_core", *command], env=env,
                                  capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"carto {command[0]} waited on the FIFO")
        assert done.returncode == 0, done.stderr
        assert f"carto: skipped {path} (a FIFO, socket or device, not a log file)" in done.stderr


@pytest.mark.parametrize("command", [["trustmap", "--json"], ["report", "intents", "--json"],
                                     ["report", "abandonment", "--json"]])
def test_the_reports_read_a_log_that_cannot_be_read_as_absent(tmp_path, command):
    """They read the logs' bytes themselves: a folder in a log's place ended them in 'Is a
    directory'."""
    home = build_sample_home(tmp_path / "h")
    # a search recorded (the abandonment report reads back the rows it served)
    CliRunner().invoke(cli, ["search", "cart"], env={"CARTO_HOME": str(home.root),
                                                     "CARTO_SESSION_ID": "s-damaged"})
    for label in ("research", "changelog", "turns"):
        _damage(home, label)
    done = _invoke(home, *command)
    assert done.exit_code in (0, 3), done.output
    assert "Is a directory" not in done.output
    json.loads(done.stdout)
