"""`carto doctor` reports a home other users can read; `carto repair permissions --write` makes
it private (dry run by default, like every repair)."""

from __future__ import annotations

import json
import os
import socket
import stat

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home
from carto_core.logio.home import current_home
from carto_core.repair import permissions


def modes(root) -> dict[str, str]:
    out = {}
    for folder, dirs, files in os.walk(root):
        for path in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
            info = os.lstat(path)
            if not stat.S_ISDIR(info.st_mode) or path == folder:
                out[os.path.relpath(path, root)] = f"{stat.S_IMODE(info.st_mode):04o}"
    return out


@pytest.fixture
def shared_home(tmp_path):
    """A home as an older carto left it under umask 022: folders 0755, files 0644, plus an
    executable file, a world-writable one, a socket and a symlink to a file outside the home."""
    old = os.umask(0o022)
    try:
        home = build_sample_home(current_home().root)
        for log in home.root.glob("*.jsonl"):
            os.chmod(log, 0o644)
        (home.state / "search").mkdir(parents=True)
        (home.state / "search" / "CURRENT").write_text("gen-1")
        (home.state / "tool.sh").write_text("#!/bin/sh\n")
        os.chmod(home.state / "tool.sh", 0o755)
        (home.state / "open.json").write_text("{}")
        os.chmod(home.state / "open.json", 0o666)
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(home.state / "warm.sock"))
        os.chmod(home.state / "warm.sock", 0o755)
        outside = tmp_path / "outside.txt"
        outside.write_text("not the home's")
        os.chmod(outside, 0o644)
        os.symlink(outside, home.root / "link.txt")
        for path in (home.root, home.state, home.state / "search"):
            os.chmod(path, 0o755)
    finally:
        os.umask(old)
    yield home
    listener.close()


def test_doctor_reports_what_others_can_read(shared_home):
    result = CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"])
    document = json.loads(result.output)
    shared = document["permissions"]
    assert shared["kinds"] == {"file": 9, "folder": 3, "socket": 1}, shared
    assert shared["open"] == 13 and {"path": ".", "kind": "folder", "mode": "0755",
                                      "private": "0700"} in shared["examples"]
    problem = next(p for p in document["problems"] if "other users can read" in p["problem"])
    assert problem["fix"].startswith("`carto repair permissions --write`")
    assert result.exit_code == 1


def test_the_dry_run_changes_nothing_and_write_makes_the_home_private(shared_home, tmp_path):
    root = shared_home.root
    before = modes(root)
    dry = CliRunner().invoke(cli, ["repair", "permissions", "--json"])
    assert dry.exit_code == 0
    assert json.loads(dry.output)["would_fix"] == 13 and modes(root) == before

    done = CliRunner().invoke(cli, ["repair", "permissions", "--write", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["fixed"] == 13
    after = modes(root)
    assert after["."] == "0700" and after[".carto"] == "0700" and after[".carto/search"] == "0700"
    assert after[".carto/tool.sh"] == "0700"  # owner bits kept: executable stays executable
    assert after[".carto/open.json"] == "0600" and after[".carto/warm.sock"] == "0700"
    assert after["changelog.jsonl"] == "0600"
    assert all(mode in ("0600", "0700") for path, mode in after.items() if path != "link.txt"), after
    # The symlink is not followed: the file it names, outside the home, keeps its mode.
    assert stat.S_IMODE(os.stat(tmp_path / "outside.txt").st_mode) == 0o644

    again = CliRunner().invoke(cli, ["repair", "permissions"])
    assert again.exit_code == 3 and "0 files and folders others can read" in again.output
    doctor = json.loads(CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"]).output)
    assert doctor["permissions"]["open"] == 0
    assert not any("other users can read" in p["problem"] for p in doctor["problems"])


def test_scan_lists_the_bits_of_the_group_and_of_others_alone(tmp_path):
    root = tmp_path / "home"
    root.mkdir(mode=0o700)
    for name, mode in (("a", 0o600), ("b", 0o640), ("c", 0o604), ("d", 0o602), ("e", 0o610),
                       ("f", 0o400), ("g", 0o700)):
        (root / name).write_text("x")
        os.chmod(root / name, mode)
    os.chmod(root, 0o700)
    assert sorted(e["path"] for e in permissions.scan(root)) == ["b", "c", "d", "e"]
    os.chmod(root, 0o701)
    assert [e["path"] for e in permissions.scan(root)][0] == "."


def test_tighten_never_follows_a_symlink_swapped_in(tmp_path):
    root = tmp_path / "home"
    root.mkdir(mode=0o700)
    target = tmp_path / "elsewhere"
    target.write_text("x")
    os.chmod(target, 0o644)
    (root / "log").write_text("x")
    os.chmod(root / "log", 0o644)
    entries = permissions.scan(root)
    os.unlink(root / "log")
    os.symlink(target, root / "log")  # swapped between the scan and the change
    changed, failed = permissions.tighten(root, entries)
    assert (changed, failed) == (0, [])
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644


def test_a_second_user_reads_an_old_home_until_it_is_repaired(second_user):
    base = second_user.folder()
    old = os.umask(0o022)
    try:
        home = build_sample_home(base / "home")
    finally:
        os.umask(old)
    for path in (home.root, *home.root.iterdir()):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    log = str(home.log("changelog"))
    assert second_user.run(["cat", log]).returncode == 0  # the gap: anyone reads the turns
    result = CliRunner().invoke(cli, ["repair", "permissions", "--write"],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0, result.output
    os.chmod(home.root, 0o755)  # even with the home's own folder opened again by hand
    refused = second_user.run(["cat", log])
    assert refused.returncode != 0 and b"Permission denied" in refused.stderr


def test_doctor_names_an_open_home_by_its_path_in_a_sentence_that_agrees(tmp_path, monkeypatch):
    """A fresh home folder made 0755 read 'other users can read the home: 1 folder grant the
    group or others access (e.g. . is 0755)': the verb against its count, and '.' for the home."""
    root = tmp_path / "home"
    root.mkdir()
    os.chmod(root, 0o755)
    monkeypatch.setenv("CARTO_HOME", str(root))
    document = json.loads(CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"]).stdout)
    problem = next(p for p in document["problems"] if "other users can read" in p["problem"])
    assert problem["problem"] == (f"other users can read the home: 1 folder grants the group or "
                                  f"others access (e.g. {root}, the home itself, is 0755)")
