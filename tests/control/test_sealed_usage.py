"""`carto restore` and `carto import` of a sealed backup refuse a wrong request with exit 2 (both
--passphrase-file and --key-file; no passphrase, key or terminal to ask one), and their --help
lists that code beside the others, as `carto backup --help` lists its own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home


def _listed(command: str) -> dict[int, str]:
    """The exit codes `carto COMMAND --help` lists: code -> what it says of it."""
    text = " ".join(CliRunner().invoke(cli, [command, "--help"]).stdout.split())
    found = re.search(r"Exit codes: (.*?)(?:\. [A-Z]|\.?$)", text)
    parts = re.split(r",? (?=(?:0|1|2|3|4|75) )", found.group(1))
    return {int(p.split(" ", 1)[0]): p.split(" ", 1)[1] for p in parts if p[:1].isdigit()}


@pytest.fixture
def sealed(tmp_path) -> dict[str, Path]:
    """A backup sealed with a key file and one sealed with a passphrase, and their secrets."""
    home = build_sample_home(tmp_path / "h")
    env = {"CARTO_HOME": str(home.root)}
    key, words = tmp_path / "key", tmp_path / "pw"
    words.write_text("correct horse battery staple\n")
    assert CliRunner().invoke(cli, ["backup", "--new-key-file", str(key)], env=env).exit_code == 0
    out = {"key": key, "pw": words}
    for kind, flags in (("by-key", ["--key-file", str(key)]), ("by-pw", ["--passphrase-file", str(words)])):
        done = CliRunner().invoke(cli, ["backup", *flags, "--dir", str(tmp_path / kind), "--json"], env=env)
        out[kind] = Path(json.loads(done.stdout)["backup"])
    return out


@pytest.mark.parametrize("command", ["restore", "import"])
def test_a_wrong_request_for_a_sealed_backup_exits_2_as_help_lists(tmp_path, sealed, command):
    env = {"CARTO_HOME": str(tmp_path / "target"), "CARTO_BACKUP_PASSPHRASE": None}

    def run(kind, *flags):
        result = CliRunner().invoke(cli, [command, str(sealed[kind]), *map(str, flags), "--json"], env=env)
        return result.exit_code, json.loads(result.stdout)["error"]

    assert run("by-key", "--key-file", sealed["key"], "--passphrase-file", sealed["pw"]) == (
        2, "--passphrase-file or --key-file, not both")
    # stdin is no terminal: nothing can ask the passphrase
    assert run("by-pw") == (2, "a passphrase is needed: --passphrase-file, --key-file or CARTO_BACKUP_PASSPHRASE")
    # a passphrase cannot open a file sealed with a key file: the key is asked for, not a passphrase
    assert run("by-key") == (2, f"{sealed['by-key']} is sealed with a key file: --key-file PATH opens "
                                "it (or key_file in the config file's [backup])")
    assert not (tmp_path / "target").exists()
    assert _listed(command)[2] == ("bad flags (both --passphrase-file and --key-file, or a sealed "
                                   "file and no key or passphrase to open it)")
    assert _listed("backup")[2] == "bad flags"


def test_a_file_sealed_with_a_key_file_opens_with_the_configured_key(tmp_path, sealed):
    config = tmp_path / "config.toml"
    config.write_text(f'[backup]\nkey_file = "{sealed["key"]}"\n')
    env = {"CARTO_HOME": str(tmp_path / "target"), "CARTO_CONFIG": str(config)}
    done = CliRunner().invoke(cli, ["restore", str(sealed["by-key"]), "--json"], env=env)
    assert done.exit_code == 0 and json.loads(done.stdout)["rows"] > 0


def test_backup_refuses_a_passphrase_and_a_key_at_once_and_lists_every_code(tmp_path, sealed):
    """`--encrypt --key-file K` sealed with the key and dropped --encrypt without a word; an
    existing --new-key-file exits 4, which --help did not list."""
    env = {"CARTO_HOME": str(tmp_path / "h")}
    both = CliRunner().invoke(cli, ["backup", "--encrypt", "--key-file", str(sealed["key"]),
                                    "--dir", str(tmp_path / "both"), "--json"], env=env)
    assert (both.exit_code, json.loads(both.stdout)["error"]) == (
        2, "--encrypt (a passphrase) or --key-file, not both")
    assert not (tmp_path / "both").exists()
    again = CliRunner().invoke(cli, ["backup", "--new-key-file", str(sealed["key"]), "--json"], env=env)
    assert again.exit_code == 4
    assert _listed("backup") == {0: "written", 1: "the home or the backup folder could not be read or written",
                                 2: "bad flags", 4: "--new-key-file names a file that exists (never overwritten)"}
