"""`carto doctor` names the copies carto made of the home (the home `carto restore --force`
kept beside it, the backups `carto backup` wrote) with their age and size and the command that
removes them; one that may hold what a later forget took out is a problem, and the command its
fix prints works as printed."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from carto_core.logio.home import current_home
from tests.control.conftest import MARK, QMARK, files_holding, invoke, light_home


@pytest.fixture
def home():
    return light_home(current_home().root)


def _doctor(*args) -> tuple[dict, str]:
    document = json.loads(invoke("doctor", "--no-probe", "--json", *args, ok=(0, 1)).stdout)
    text = invoke("doctor", "--no-probe", *args, ok=(0, 1)).stdout
    return document, text


def _command(fix: str) -> str:
    """The command a fix quotes between backticks, first one first."""
    return fix.split("`")[1]


def test_doctor_lists_the_replaced_home_and_the_backups_with_how_to_remove_them(home):
    backup = Path(json.loads(invoke("backup", "--json").stdout)["backup"])
    kept = Path(json.loads(invoke("restore", backup, "--force", "--json").stdout)["replaced_home_kept_at"])
    document, text = _doctor()
    homes, backups = document["copies"]["replaced_homes"], document["copies"]["backups"]
    assert [entry["path"] for entry in homes] == [str(kept)]
    assert [entry["path"] for entry in backups] == [str(backup)]
    assert homes[0]["bytes"] > 0 and 0 <= homes[0]["age_s"] < 600
    assert backups[0]["bytes"] == backup.stat().st_size and 0 <= backups[0]["age_s"] < 600
    # nothing was forgotten since: neither is a problem
    assert homes[0]["unburied"] == 0 and not backups[0]["before_last_forget"]
    assert not any(str(kept) in p["problem"] for p in document["problems"])
    lines = text.splitlines()
    assert any(line.startswith(f"  replaced home {kept}  kept just now, ") for line in lines), text
    assert any(line.startswith(f"  backup {backup}  taken just now, ") for line in lines), text
    assert f"      remove: rm -r {shlex.quote(str(kept))}" in lines
    subprocess.run(homes[0]["remove"], shell=True, check=True)
    assert not kept.exists()
    assert json.loads(invoke("doctor", "--no-probe", "--json", ok=(0, 1)).stdout)["copies"]["replaced_homes"] == []


def test_a_forget_after_the_restore_makes_the_kept_home_and_older_backups_problems(home):
    import os

    backup = Path(json.loads(invoke("backup", "--json").stdout)["backup"])
    kept = Path(json.loads(invoke("restore", backup, "--force", "--json").stdout)["replaced_home_kept_at"])
    # the backup was taken a minute before the forget (one second of a stamp would be close)
    stamp = backup.name.split("-")[2].split(".")[0]
    older = backup.with_name(backup.name.replace(stamp, "20200101T000000Z"))
    os.rename(backup, older)
    invoke("forget", "--match", MARK, "--write")
    assert files_holding(kept, [MARK])
    document, text = _doctor()
    held = document["copies"]["replaced_homes"][0]
    assert held["unburied"] > 0
    problem = next(p for p in document["problems"] if str(kept) in p["problem"])
    assert "this home forgot since" in problem["problem"]
    assert _command(problem["fix"]) == "carto forget --in-replaced --write"
    taken = next(p for p in document["problems"] if str(older) in p["problem"])
    assert "taken before the last forget" in taken["problem"]
    assert _command(taken["fix"]) == f"rm {shlex.quote(str(older))}"

    # the printed fix, run as printed (through the CLI's own entry point)
    done = invoke(*shlex.split(_command(problem["fix"]))[1:])
    assert f"replaced home {kept}: forgot " in done.stdout
    # what named no event: found by the text alone, which the tombstones do not keep
    assert files_holding(kept, [MARK]) == [".carto/hook.log", ".carto/search-calls.jsonl"]
    assert "found by that text alone" in done.stdout
    assert files_holding(kept, [QMARK])  # the rest of the kept home stays
    after, _ = _doctor()
    assert after["copies"]["replaced_homes"][0]["unburied"] == 0
    assert not any(str(kept) in p["problem"] for p in after["problems"])
    # run again, nothing is left to forget there; the text, by the forget's own criteria
    invoke("forget", "--in-replaced", "--write", ok=(3,))
    invoke("forget", "--match", MARK, "--in-replaced", "--write", ok=(0, 3))
    assert files_holding(kept, [MARK]) == []

    subprocess.run(_command(taken["fix"]), shell=True, check=True)
    assert not older.exists()


def test_the_dry_run_counts_what_it_would_forget_in_the_kept_home(home):
    backup = Path(json.loads(invoke("backup", "--json").stdout)["backup"])
    kept = Path(json.loads(invoke("restore", backup, "--force", "--json").stdout)["replaced_home_kept_at"])
    invoke("forget", "--match", MARK, "--write")
    dry = json.loads(invoke("forget", "--in-replaced", "--json").stdout)
    assert dry["dry_run"] and dry["replaced_homes"][0]["path"] == str(kept)
    assert dry["replaced_homes"][0]["events"] > 0 and dry["replaced_homes"][0]["rows"] > 0
    assert files_holding(kept, [MARK])  # a dry run writes nothing


def test_a_home_without_copies_says_nothing_of_them(home):
    document, text = _doctor()
    assert document["copies"]["replaced_homes"] == [] and document["copies"]["backups"] == []
    assert "copies carto made" not in text


def test_a_backup_taken_after_the_last_forget_and_before_a_restore_holds_nothing_it_forgot(home):
    """A restore writes the tombstones it carries into the new home (unpacked, and the replaced
    home's added): they are no later forget, so the backup taken just before it is no problem."""
    import time

    invoke("forget", "--match", MARK, "--write")
    time.sleep(1.1)  # a backup's name holds its second
    backup = Path(json.loads(invoke("backup", "--json").stdout)["backup"])
    time.sleep(1.1)
    invoke("restore", backup, "--force")
    document, text = _doctor()
    entry = next(b for b in document["copies"]["backups"] if b["path"] == str(backup))
    assert not entry["before_last_forget"], entry
    assert not any(str(backup) in p["problem"] for p in document["problems"]), document["problems"]
    assert "taken before the last forget" not in text
    # a forget after the restore makes it one
    time.sleep(1.1)
    invoke("forget", "--match", QMARK, "--write")
    document, _ = _doctor()
    assert next(b for b in document["copies"]["backups"] if b["path"] == str(backup))["before_last_forget"]


def test_a_restore_into_a_new_folder_dates_its_tombstones_by_the_backup(home, tmp_path):
    import time

    invoke("forget", "--match", MARK, "--write")
    time.sleep(1.1)
    backup = Path(json.loads(invoke("backup", "--json").stdout)["backup"])
    time.sleep(1.1)
    from carto_core.logio.home import Home
    from carto_core.logio.tombstone import path_of

    elsewhere = tmp_path / "restored"
    invoke("restore", backup, env={"CARTO_HOME": str(elsewhere)})
    import os

    assert os.stat(path_of(Home(elsewhere))).st_mtime <= backup.stat().st_mtime
