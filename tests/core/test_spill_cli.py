"""`carto doctor` lists the rows waiting in the hook's spill file; `carto repair spill` appends them."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from click.testing import CliRunner

from carto_core.logio import spill
from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.util.exitcodes import ExitCode
from carto_core.logio.jsonl import dumps_row


def _spilled_home(rows: int = 2) -> Path:
    """A home with one row in it and two the home refused (a full disk), waiting in the spill."""
    home = Path(os.environ["CARTO_HOME"])
    log = home / "changelog.jsonl"
    append_rows(log, [{"event_id": "kept", "timestamp": "2026-11-30T10:00:00Z", "summary": "x"}])
    real_write = os.write

    def full(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(home) + os.sep):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    os.write = full
    try:
        result = spill.land(home, log, [dumps_row({"event_id": f"s{i}", "summary": "y"})
                                        for i in range(1, rows + 1)])
    finally:
        os.write = real_write
    assert result["spilled"] == rows
    return home


def test_doctor_names_the_rows_waiting_in_the_spill_file():
    home = _spilled_home()
    result = CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"])
    doc = json.loads(result.stdout)
    assert [(item["path"], item["entries"], item["claimed_by"]) for item in doc["spill"]] == [
        (spill.spill_path(home), 2, None)]
    problem = [p for p in doc["problems"] if "spill" in p["problem"]]
    assert len(problem) == 1 and problem[0]["problem"].startswith("2 rows the home refused")
    assert "carto repair spill --write" in problem[0]["fix"]
    assert result.exit_code == ExitCode.ERROR
    text = CliRunner().invoke(cli, ["doctor", "--no-probe"]).stdout
    assert f"2 rows waiting  {spill.spill_path(home)}" in text


def test_repair_spill_counts_then_appends_them():
    home = _spilled_home()
    dry = CliRunner().invoke(cli, ["repair", "spill", "--json"])
    assert dry.exit_code == ExitCode.OK
    doc = json.loads(dry.stdout)
    assert (doc["spilled"], doc["would_fix"], doc["fixed"], doc["dry_run"]) == (2, 2, 0, True)
    assert os.path.exists(spill.spill_path(home))
    done = json.loads(CliRunner().invoke(cli, ["repair", "spill", "--write", "--json"]).stdout)
    assert (done["spilled"], done["fixed"], done["left"]) == (2, 2, 0)
    rows = [json.loads(line)["event_id"] for line in (home / "changelog.jsonl").read_text().splitlines()]
    assert rows == ["kept", "s1", "s2"]
    again = CliRunner().invoke(cli, ["repair", "spill"])
    assert again.exit_code == ExitCode.NOT_FOUND and "0 spilled rows found" in again.stdout
    doctor = json.loads(CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"]).stdout)
    assert doctor["spill"] == [] and not [p for p in doctor["problems"] if "spill" in p["problem"]]


def test_doctor_says_one_spilled_row_in_the_singular():
    """'1 rows the home refused (...) wait in 1 spill file(s)'."""
    home = _spilled_home(rows=1)
    doc = json.loads(CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"]).stdout)
    problem = next(p["problem"] for p in doc["problems"] if "spill" in p["problem"])
    assert problem == ("1 row the home refused (a full disk, a quota, a read-only or unwritable "
                       f"folder) waits in 1 spill file: {spill.spill_path(home)}")
