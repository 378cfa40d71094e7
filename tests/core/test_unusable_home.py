"""A home carto cannot use although something is there: a folder this user may not read, a file.

The tests run as root, who reads a chmod 000 folder: `os.access` answering "no" for the home
stands in for the kernel's refusal (the modes are what the code asks)."""

from __future__ import annotations

import json
import os
from pathlib import Path

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


@pytest.fixture
def file_home(tmp_path, monkeypatch):
    """CARTO_HOME naming a regular file (a typo, a leftover of a script)."""
    path = tmp_path / "homefile"
    path.write_bytes(b"")
    monkeypatch.setenv("CARTO_HOME", str(path))
    return path


def test_install_refuses_a_home_that_is_a_file_and_changes_nothing(file_home):
    """`carto install claude` printed 'made the home <the file>' and exited 0; the hooks' rows
    then went to the spill file."""
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    done = CliRunner().invoke(cli, ["install", "claude"])
    assert done.exit_code == 1, done.output
    assert done.stderr.startswith(f"carto: install claude: the home {file_home} is a file, not a folder")
    assert f"`mv {file_home} {file_home}.aside`" in done.stderr  # a path no shell splits
    assert "made the home" not in done.output and not settings.exists()
    assert file_home.is_file() and file_home.stat().st_size == 0


@pytest.mark.parametrize("args", [["ingest", "--all"], ["ingest", "claude"], ["sessions"],
                                  ["search", "cart"], ["digest", "day", "--no-git"]], ids=" ".join)
def test_every_command_says_the_home_is_a_file(file_home, args):
    """Readers said 'the folder does not exist ... `carto install claude` makes it' (exit 3),
    `ingest --all` printed '[Errno 20] Not a directory' per source."""
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 1, done.output
    assert f"the home {file_home} is a file, not a folder" in done.stderr
    assert "does not exist" not in done.stderr and "Errno" not in done.stderr


def test_doctor_says_the_home_is_a_file_with_a_fix_that_works(file_home, tmp_path):
    done = CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"])
    doc = json.loads(done.stdout)
    problem = next(p for p in doc["problems"] if p["problem"] == doc["home_refused"])
    assert problem["problem"].startswith(f"the home {file_home} is a file, not a folder")
    assert "check the disk" not in json.dumps(doc["problems"]) and done.exit_code == 1
    # the fix as printed: the file moved aside, install makes the home
    file_home.rename(f"{file_home}.aside")
    assert CliRunner().invoke(cli, ["install", "claude"]).exit_code == 0
    assert file_home.is_dir()
