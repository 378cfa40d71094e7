"""A home whose milestones log is a folder (as root, chmod 000 blocks no read: a folder stands
in for a log that cannot be read).

Commands that only read the logs answer from the rest as `carto search` does, naming the log
on stderr (and in `skipped_files` where their JSON has room); those that write or must see
every row (backup, export, forget, decision changes) exit 1 naming the file and why, never
skipping it (docs/cli.md#faults).
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS, build_sample_home

WHY = "a folder, not a log file"

READERS = {
    "memory": (["memory", "--project", "webshop"], "its events are not remembered"),
    "wrapup --dry-run": (["wrapup", "--session", SESSIONS["h"], "--dry-run"],
                         "its events are left out"),
    "handoff": (["handoff", "--project", "webshop"], "its events are left out"),
    "profile": (["profile", "--no-write"], "its events are not counted"),
    "search --project": (["search", "--project", "webshop"], "its events are not searched"),
    "doctor --secrets": (["doctor", "--secrets"], "its rows are not scanned for credentials"),
    "digest day": (["digest", "day", "--no-git"], "its events are left out"),
    "wrapup --pending": (["wrapup", "--pending"], "its sessions are left out"),
}


def _invoke(root, *args):
    # catch_exceptions=False: a traceback fails the test instead of passing as exit 1.
    return CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(root)},
                              catch_exceptions=False)


@pytest.fixture(scope="module")
def homes(tmp_path_factory):
    """(healthy root, damaged root, the damaged log's path)."""
    base = tmp_path_factory.mktemp("homes")
    healthy = build_sample_home(base / "healthy")
    damaged = base / "damaged"
    shutil.copytree(healthy.root, damaged)
    path = damaged / healthy.log("milestones").name
    path.unlink()
    path.mkdir()
    return healthy.root, damaged, path


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_reader_answers_from_the_other_logs_and_names_the_folder(homes, name):
    healthy, damaged, path = homes
    args, left_out = READERS[name]
    expected = _invoke(healthy, *args).exit_code
    done = _invoke(damaged, *args)
    assert done.exit_code == expected, done.output
    line = f"carto: skipped {path} ({WHY}): {left_out}; `carto doctor` says what to do"
    assert line in done.stderr.splitlines()
    assert "Traceback" not in done.output and "Is a directory" not in done.output


@pytest.mark.parametrize("name", ["handoff", "profile", "doctor --secrets", "wrapup --dry-run",
                                  "digest day", "wrapup --pending"])
def test_a_readers_json_lists_the_folder_in_skipped_files(homes, name):
    _, damaged, path = homes
    args, left_out = READERS[name]
    done = _invoke(damaged, *args, "--json")
    assert json.loads(done.stdout)["skipped_files"] == [
        {"path": str(path), "why": WHY, "left_out": left_out}]


def test_decision_list_whose_one_log_is_unread_exits_1_naming_it(homes):
    _, damaged, path = homes
    done = _invoke(damaged, "decision", "list")
    assert done.exit_code == 1
    assert f"{path.name} is {WHY}" in done.stderr


@pytest.mark.parametrize("args", [
    ["backup"],
    ["export", "{out}", "--force"],
    ["forget", "--project", "webshop"],
    ["forget", "--project", "webshop", "--write"],
    ["repair", "torn-rows"],
    ["decision", "retire", "dec-0123456789"],
    ["wrapup", "--session", SESSIONS["h"]],
], ids=" ".join)
def test_a_command_that_must_read_every_row_fails_naming_the_file(homes, tmp_path, args):
    _, damaged, path = homes
    args = [a.replace("{out}", str(tmp_path / "out.tar.gz")) for a in args]
    done = _invoke(damaged, *args)
    assert done.exit_code == 1, done.output
    if args[0] in ("backup", "export"):  # refused before anything is read, with its fix
        from carto_core.logio.notafile import log_refusal

        by = "a backup" if args[0] == "backup" else "an export"
        assert f"carto: {args[0]}: {log_refusal(path, by)}" in done.stderr.splitlines()
    else:
        assert f": cannot read {path} ({WHY})" in done.stderr
    assert path.is_dir()  # nothing was skipped and nothing rewritten in its place
