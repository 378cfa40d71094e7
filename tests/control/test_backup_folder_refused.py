"""`carto backup --dir D` where D cannot be made or written into ended in the system's errno
text ('backup: [Errno 2] No such file or directory: '/proc/nope''): a backup folder that
cannot be used is said in one line naming the folder and what is wrong, exit 1 as --help
lists it, and nothing is left behind."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home

FIX = "choose another with --dir, or set [backup] dir in the config file"


@pytest.fixture
def env(tmp_path) -> dict:
    home = build_sample_home(tmp_path / "h")
    return {"CARTO_HOME": str(home.root)}


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_a_folder_that_cannot_be_made_or_written_is_named_with_what_is_wrong(tmp_path, env):
    in_the_way = tmp_path / "afile"
    in_the_way.write_text("x")
    cases = [
        ("/proc/nope", "carto: backup: the backup folder /proc/nope could not be made "
                       f"(/proc does not let folders be made in it); {FIX}"),
        (str(in_the_way / "backups"), f"carto: backup: the backup folder {in_the_way}/backups could not be "
                                      f"made ({in_the_way} is a file, not a folder); {FIX}"),
        ("/proc", f"carto: backup: the backup folder /proc could not be written into "
                  f"(/proc does not let files be made in it); {FIX}"),
    ]
    for folder, message in cases:
        text = CliRunner().invoke(cli, ["backup", "--dir", folder], env=env)
        assert (text.exit_code, text.stdout, text.stderr) == (1, "", message + "\n"), folder
        document = CliRunner().invoke(cli, ["backup", "--dir", folder, "--json"], env=env)
        assert document.exit_code == 1
        assert json.loads(document.stdout) == {"error": message.removeprefix("carto: "), "exit_code": 1}
    assert in_the_way.read_text() == "x"
    assert not list(Path("/proc").glob(".carto-backup-*"))


def test_the_help_lists_exit_1_for_a_backup_folder_that_cannot_be_written():
    text = " ".join(CliRunner().invoke(cli, ["backup", "--help"]).stdout.split())
    assert "1 the home or the backup folder could not be read or written" in text
