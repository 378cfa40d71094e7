"""A home carto cannot use although something is there: a folder this user may not read.

The tests run as root, who reads a chmod 000 folder: `os.access` answering "no" for the home
stands in for the kernel's refusal (the modes are what the code asks)."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home
from carto_core.logio.homefaults import fault_message

UNREADABLE = (["doctor", "--no-probe"], ["search", "cart"], ["digest", "day", "--no-git"],
              ["wrapup", "--pending"], ["sessions"])


def _refuse(monkeypatch, refused: dict[str, int]) -> None:
    """os.access answers False for the paths in `refused` asked for any of their bits."""
    real = os.access

    def access(path, mode, *args, **kwargs):
        bits = refused.get(os.path.abspath(os.fspath(path)))
        if bits is not None and mode & bits:
            return False
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)


@pytest.fixture
def home(tmp_path):
    return build_sample_home(tmp_path / "carto").root


def test_a_read_refused_by_the_homes_folder_is_said_as_a_read_of_the_home(home, monkeypatch):
    """Every EACCES was 'permission denied writing <the log it opened>', for a read of a log
    that does not even exist in a home nobody may list."""
    _refuse(monkeypatch, {str(home): os.R_OK | os.X_OK})
    missing = home / "no-such.jsonl"
    line = fault_message(PermissionError(13, "Permission denied", str(missing)), home, "doctor")
    assert line.startswith(f"doctor: cannot read the home {home}: it is not readable by this user")
    assert f"`chmod 700 {home}`" in line
    assert "writing" not in line and "no-such" not in line


@pytest.mark.parametrize("bits, said", [(os.R_OK | os.W_OK, "cannot read {log}: it is not readable by this user"),
                                         (os.W_OK, "permission denied writing {log}: the home {home} is not writable")])
def test_a_file_refused_is_named_as_a_read_or_a_write_as_its_modes_say(home, monkeypatch, bits, said):
    log = home / "changelog.jsonl"
    _refuse(monkeypatch, {str(log): bits})
    line = fault_message(PermissionError(13, "Permission denied", str(log)), home)
    assert line.startswith(said.format(log=log, home=home))


@pytest.mark.parametrize("args", UNREADABLE, ids=" ".join)
def test_a_home_this_user_cannot_read_ends_every_reader_with_exit_1_and_the_fix(home, monkeypatch, args):
    """`wrapup --pending` answered 'no ended session is waiting' (exit 3) having read nothing;
    search and digest said 'permission denied writing'; doctor printed that line and no report."""
    _refuse(monkeypatch, {str(home): os.R_OK | os.X_OK})
    done = CliRunner().invoke(cli, args, env={"CARTO_HOME": str(home)})
    assert done.exit_code == 1, done.output
    if args[0] == "doctor":
        assert done.stdout.startswith(f"home: {home}")
        assert f"  - cannot read the home {home}: it is not readable by this user" in done.stdout
        assert f"    fix: `chmod 700 {home}` gives it back to its owner" in done.stdout
        assert "hooks:" in done.stdout  # the rest of the report is there
    else:
        assert done.stderr.startswith(f"carto: cannot read the home {home}: it is not readable by this user")
        assert f"`chmod 700 {home}`" in done.stderr
    assert "writing" not in done.output and "waiting" not in done.output


def test_doctor_json_lists_the_unreadable_home_and_reads_no_log_of_it(home, monkeypatch):
    _refuse(monkeypatch, {str(home): os.R_OK | os.X_OK})
    done = CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"], env={"CARTO_HOME": str(home)})
    doc = json.loads(done.stdout)
    assert doc["home_refused"].startswith(f"cannot read the home {home}")
    assert doc["logs"] == [] and not doc["ok"] and done.exit_code == 1
    assert {"problem": doc["home_refused"],
            "fix": f"`chmod 700 {home}` gives it back to its owner (carto keeps its home private)"} in doc["problems"]


def test_another_users_home_names_its_owner_instead_of_a_chmod_that_would_fail(home, monkeypatch):
    _refuse(monkeypatch, {str(home): os.R_OK | os.X_OK})
    monkeypatch.setattr(os, "geteuid", lambda: 4242)
    line = fault_message(PermissionError(13, "Permission denied", str(home / "x")), home)
    assert "chmod" not in line
    assert "run carto as root, or point CARTO_HOME at a home of your own" in line
