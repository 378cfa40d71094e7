"""`carto doctor --fix` answered click's "No such option '--fix'" with no pointer: doctor only
reports; the fixes are other commands. The flag is refused (exit 2, as any unknown flag) with
one line saying where the fixes are, and --help does not offer it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli

POINTER = ("doctor does not fix: each problem it reports names its fix, most a `carto repair` command "
           "(`carto repair --help`; each a dry run unless --write), others `carto install`, "
           "`carto ingest --all` or `carto forget --resume`; "
           "`carto doctor --json | jq '.problems[].fix'` lists them")


def test_doctor_fix_points_at_the_commands_that_fix(tmp_path):
    env = {"CARTO_HOME": str(tmp_path / "home")}
    for args in (["doctor", "--fix"], ["doctor", "--no-probe", "--fix"]):
        result = CliRunner().invoke(cli, args, env=env)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"carto: {POINTER}\n"), args
    document = CliRunner().invoke(cli, ["doctor", "--fix", "--json"], env=env)
    assert document.exit_code == 2
    assert json.loads(document.stdout) == {"error": POINTER, "exit_code": 2}
    assert not (tmp_path / "home").exists()  # refused before anything ran
    assert "--fix" not in CliRunner().invoke(cli, ["doctor", "--help"]).stdout
