"""A build that dies leaves its temporary generation folder (`gen-*.tmp`); the next build, an
incremental `carto index` or `--rebuild`, removes it at once, because no process holds its
writer lock any more. A folder whose build is alive (its lock held: another process, or
another thread of this one) is kept however old it is; a folder without a lock (written by an
older carto) keeps the age rule."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.search.index import KeywordIndex
from carto_core.search.index_write import WRITER_LOCK, build_is_dead, new_generation, publish

from .conftest import padding

KILLED = """
import os, signal, sys
from pathlib import Path
from carto_core.search.index_write import new_generation
name, folder = new_generation(Path(sys.argv[1]))
(folder / "postings.npy").write_bytes(b"half written")
print(folder, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _killed_build(base) -> str:
    done = subprocess.run([sys.executable, "-c", KILLED, str(base)], capture_output=True, text=True)
    assert done.returncode == -9
    return done.stdout.strip()


def _tmp(base) -> set[str]:
    return {p.name for p in base.iterdir() if p.name.endswith(".tmp")}


def _index(home, *args) -> None:
    result = CliRunner().invoke(cli, ["index", "--step", "keyword", *args],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0, result.output


def test_the_next_build_removes_a_killed_builds_folder(writer):
    padding(writer, 3)
    _index(writer.home)
    base = KeywordIndex.folder(writer.home)
    left = _killed_build(base)
    assert os.path.isdir(left) and build_is_dead(Path(left)) is True
    writer.tool("Ran: one more row")
    _index(writer.home)  # an incremental build: it saves a new generation
    assert _tmp(base) == set()
    _killed_build(base)
    _index(writer.home, "--rebuild")
    assert _tmp(base) == set()


def test_a_live_builds_folder_is_kept_however_old(writer):
    padding(writer, 3)
    _index(writer.home)
    base = KeywordIndex.folder(writer.home)
    name, folder = new_generation(base)  # this process is writing it: its lock is held
    hour_ago = time.time() - 3600
    os.utime(folder, (hour_ago, hour_ago))
    assert build_is_dead(folder) is False
    writer.tool("Ran: one more row")
    _index(writer.home)
    _index(writer.home, "--rebuild")
    assert folder.name in _tmp(base)
    # its own publish releases the lock: the generation goes into place without the lock file
    publish(base, name, folder, {"version": 0})
    assert not (base / name / WRITER_LOCK).exists() and _tmp(base) == set()


def test_a_folder_without_a_lock_keeps_the_age_rule(writer):
    padding(writer, 3)
    _index(writer.home)
    base = KeywordIndex.folder(writer.home)
    young, old = base / "gen-20260101T000000-young000.tmp", base / "gen-20260101T000000-old00000.tmp"
    for folder in (young, old):
        folder.mkdir()
    hour_ago = time.time() - 3600
    os.utime(old, (hour_ago, hour_ago))
    assert build_is_dead(young) is None
    writer.tool("Ran: one more row")
    _index(writer.home)
    assert _tmp(base) == {young.name}
