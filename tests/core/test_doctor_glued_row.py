"""A row glued onto a torn one is read (a kept problem), and `carto repair torn-rows --write`
splits it onto its own line: doctor's fix names that repair, where it said "no action needed"."""

import json

from click.testing import CliRunner

from carto_core.cli import cli

ROW = ('{"event_id":"evt-glued0000001","timestamp":"2026-09-08T14:03:05Z","type":"tool_bash",'
       '"provider":"claude","session_id":"s1","project":"p","summary":"Ran: ls"}')
TORN = '{"event_id":"evt-torn00000001","timestamp":"2026-09-08T14:02:05Z","type":"tool_bash","summ'


def _doctor(home) -> dict:
    result = CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"], env={"CARTO_HOME": str(home)})
    return json.loads(result.stdout)


def _changelog_problems(doc) -> list[dict]:
    return [p for p in doc["problems"] if p["problem"].startswith("changelog.jsonl")]


def test_a_glued_row_names_the_repair_that_splits_it(tmp_path):
    home = tmp_path / "h"
    home.mkdir(mode=0o700)
    (home / "changelog.jsonl").write_text(TORN + ROW + "\n")
    (home / "changelog.jsonl").chmod(0o600)
    assert _changelog_problems(_doctor(home)) == [{
        "problem": "changelog.jsonl: rows kept with problems (glued_row 1)",
        "fix": "`carto repair torn-rows --write` splits a row glued onto a torn piece onto its "
               "own line (without --write it says what it would do)",
    }]
    repair = CliRunner().invoke(cli, ["repair", "torn-rows", "--write", "--json"], env={"CARTO_HOME": str(home)})
    assert json.loads(repair.stdout)["glued"] == 1
    assert (home / "changelog.jsonl").read_text().splitlines() == [TORN, ROW]
    # what is left is the torn piece, and the fix says what to do with it
    assert [p["problem"] for p in _changelog_problems(_doctor(home))] == [
        "changelog.jsonl: 1 unreadable line (torn_row 1)"]


def test_a_glued_row_beside_a_row_without_an_id_names_both_fixes(tmp_path):
    home = tmp_path / "h"
    home.mkdir(mode=0o700)
    (home / "changelog.jsonl").write_text(TORN + ROW + "\n" + '{"summary":"no id"}\n')
    (home / "changelog.jsonl").chmod(0o600)
    assert _changelog_problems(_doctor(home)) == [{
        "problem": "changelog.jsonl: rows kept with problems (glued_row 1, missing_event_id 1)",
        "fix": "`carto repair torn-rows --write` splits a row glued onto a torn piece onto its "
               "own line (without --write it says what it would do); no action needed to search "
               "the other rows; a writer that omits event_id or writes non-UTF-8 bytes should be fixed",
    }]
