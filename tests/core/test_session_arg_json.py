"""A session prefix several sessions share (`carto wrapup --session`, `carto digest session`,
`carto standup --me`) lists them on stderr and exits 2; asked for --json, stdout holds the one
error document docs/cli.md promises (with the candidates), where it held nothing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home

CANDIDATES = ["5a1e0000-aaaa-4000-8000-00000000000a", "5a7e0000-aaaa-4000-8000-00000000001a"]
ARGV = [["wrapup", "--session", "5a"], ["digest", "session", "5a"], ["standup", "--me", "5a"]]


@pytest.mark.parametrize("argv", ARGV, ids=lambda argv: argv[0])
def test_an_ambiguous_session_prefix_is_one_json_document(tmp_path, argv):
    env = {"CARTO_HOME": str(build_sample_home(tmp_path / "h").root)}
    text = CliRunner().invoke(cli, argv, env=env)
    assert (text.exit_code, text.stdout) == (2, "")
    assert text.stderr.splitlines() == ["carto: 2 sessions start with '5a'; give more of the id:",
                                        *(f"  {c}" for c in CANDIDATES)]
    doc = CliRunner().invoke(cli, [*argv, "--json"], env=env)
    assert doc.exit_code == 2 and doc.stderr == text.stderr
    assert json.loads(doc.stdout) == {"error": "2 sessions start with '5a'; give more of the id",
                                      "exit_code": 2, "candidates": CANDIDATES}
