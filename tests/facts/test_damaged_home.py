"""A home with a log that cannot be read: `carto facts` counts the rest and names it.

One searched log that was a folder, a symbolic link looping or pointing at nothing, or a FIFO
ended every census, tempo and pulse in `carto: facts: Is a directory: ...` (a FIFO: wait
forever), and a delta with a cursor the same way. Such a log is left out as an absent one, the
others counted, and the answer names it on stderr and in the envelope's `skipped_files`, as
`carto search` does (docs/search.md#a-log-that-cannot-be-read).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.util.timeparse import format_timestamp

NOW = datetime.now(timezone.utc) - timedelta(hours=1)

DAMAGE = {
    "folder": (lambda path: path.mkdir(), "a folder, not a log file"),
    "symbolic link loop": (lambda path: path.symlink_to(path), "a symbolic link that loops"),
    "link to nothing": (lambda path: path.symlink_to(path.parent / "unmounted" / path.name),
                        "a symbolic link to {target}, which does not exist"),
}


def _row(event_id: str, kind: str, **fields) -> dict:
    return {"event_id": event_id, "timestamp": format_timestamp(NOW), "type": kind,
            "provider": "claude", "project": "webshop", "cwd": "/work/webshop",
            "session_id": "s1", "summary": f"{kind} {event_id}", **fields}


def _home(root) -> Home:
    """Two tool rows and one prompt (the prompts log is the one damaged)."""
    home = Home(root)
    home.root.mkdir(parents=True)
    append_rows(home.log("tool-use"), [_row("evt-t1", "tool_bash"), _row("evt-t2", "tool_bash")])
    append_rows(home.log("prompts"), [_row("evt-p1", "prompt")])
    return home


def _damage(home: Home, damage: str) -> tuple[str, str]:
    """The prompts log damaged: (its path, why it cannot be read)."""
    path = home.log("prompts")
    path.unlink()
    make, why = DAMAGE[damage]
    make(path)
    return str(path), why.format(target=path.parent / "unmounted" / path.name)


def _facts(*args, env=None):
    return CliRunner(env=env).invoke(cli, ["facts", *args], catch_exceptions=False)


def _line(path: str, why: str) -> str:
    return (f"carto: skipped {path} ({why}): its events are not counted; `carto doctor` says "
            "what to do")


@pytest.mark.parametrize("cache", ["cached before", "no cache yet", "cache off"])
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_census_tempo_and_pulse_count_the_other_logs(tmp_path, monkeypatch, damage, cache):
    home = _home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    env = {"CARTO_FACTS_CACHE": "0"} if cache == "cache off" else None
    if cache == "cached before":  # the columns held the prompt: the damage comes after
        assert json.loads(_facts("census", "--json").stdout)["corpus_events"] == 3
    path, why = _damage(home, damage)
    skipped = [{"path": path, "why": why, "left_out": "its events are not counted"}]
    for verb in ("census", "tempo", "pulse"):
        done = _facts(verb, "--json", env=env)
        assert done.exit_code == 0, done.output
        envelope = json.loads(done.stdout)
        assert envelope["corpus_events"] == 2, verb
        assert envelope["skipped_files"] == skipped
        assert _line(path, why) in done.stderr.splitlines()
    text = _facts("census", env=env)
    assert text.exit_code == 0 and "evt-p1" not in text.stdout


def test_delta_past_a_cursor_skips_the_log_and_keeps_its_place(tmp_path, monkeypatch):
    """The delta read the tail of every log: a folder in a log's place ended it."""
    home = _home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    cursor = tmp_path / "cursor"
    assert _facts("delta", "--cursor-file", str(cursor)).exit_code == 0
    append_rows(home.log("tool-use"), [_row("evt-t3", "tool_bash")])
    path, why = _damage(home, "folder")
    done = _facts("delta", "--cursor-file", str(cursor), "--json")
    assert done.exit_code == 0, done.output
    envelope = json.loads(done.stdout)
    assert [e["event_id"] for e in envelope["facts"]["events"]] == ["evt-t3"]
    assert envelope["skipped_files"][0]["path"] == path
    assert _line(path, why) in done.stderr.splitlines()


def test_a_home_whose_only_log_cannot_be_read_says_so(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    home.root.mkdir()
    home.log("prompts").mkdir()
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    done = _facts("census", "--json")
    message = (f"no searched log of {home.root} can be read: prompt-history.jsonl is a folder, "
               "not a log file (`carto doctor` says what to do)")
    assert done.exit_code == 1
    assert done.stderr == f"carto: {message}\n"


def test_a_fifo_in_a_logs_place_is_skipped_not_waited_on(tmp_path):
    """Opening a FIFO for reading waits for a writer. (A subprocess, so that a wait fails
    the test instead of hanging the run.)"""
    home = _home(tmp_path / "home")
    path = home.log("prompts")
    path.unlink()
    os.mkfifo(path)
    env = {**os.environ, "CARTO_HOME": str(home.root), "HOME": str(tmp_path)}
    for verb in ("census", "tokens"):
        try:
            done = subprocess.run([sys.executable, "-m", "carto_core", "facts", verb, "--json"],
                                  env=env, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"carto facts {verb} waited on the FIFO")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["skipped_files"][0]["path"] == str(path)
        assert f"carto: skipped {path} (a FIFO, socket or device, not a log file)" in done.stderr


def test_a_log_this_user_may_not_read_is_skipped_too(tmp_path, monkeypatch):
    """Root reads a chmod 000 file: the refusal is the system's answer to open()."""
    home = _home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    path = str(home.log("prompts"))
    real_open = open

    def refusing(file, *args, **kwargs):
        if str(file) == path:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing)
    done = _facts("census", "--json")
    assert done.exit_code == 0, done.output
    envelope = json.loads(done.stdout)
    assert envelope["corpus_events"] == 2
    assert envelope["skipped_files"] == [
        {"path": path, "why": "permission denied", "left_out": "its events are not counted"}]
