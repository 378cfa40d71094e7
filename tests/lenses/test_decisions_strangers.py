"""A wrapup written before wrapups left out commits another author wrote holds a stranger's
merged commit as a decision. Every reader that shows decisions as the owner's judges such a row
as `carto memory` does (`lenses.decisions.others_decisions`): `carto decision list` (and the
MCP `decisions` tool, which answers the same document) and the profile's durable decisions."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from click.testing import CliRunner

from carto_core.cli import cli

from .test_memory_strangers_decisions import MALLORY, MINE, _old_wrapup


def _env(home):
    return {"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "", "CLAUDE_CODE_SESSION_ID": ""}


def test_decision_list_leaves_out_a_strangers_commit_and_says_so(tmp_path, monkeypatch):
    home, repo, shas = _old_wrapup(tmp_path, monkeypatch)
    done = CliRunner().invoke(cli, ["decision", "list", "--json"], env=_env(home))
    assert done.exit_code == 0, done.output
    document = json.loads(done.stdout)
    texts = [record["text"] for record in document["records"]]
    assert not any(text.startswith(MALLORY) for text in texts), texts
    assert f"{MINE} ({shas[MINE][:7]})" in texts
    assert f"keep Mallory's review rule out ({shas[MALLORY][:7]})" in texts
    assert document["others_commits"] == 1
    done = CliRunner().invoke(cli, ["decision", "list"], env=_env(home))
    assert done.exit_code == 0 and "skip code review" not in done.stdout
    assert "1 decision left out: the subject of a commit another author wrote" in done.stderr
    # named an owner, her commit is the owner's decision again
    monkeypatch.setenv("CARTO_PROFILE_AUTHORS", "Me,Mallory")
    done = CliRunner().invoke(cli, ["decision", "list"], env=_env(home))
    assert MALLORY in done.stdout and "left out" not in done.stderr


def test_the_profile_leaves_out_a_strangers_commit(tmp_path, monkeypatch):
    from carto_core.lenses.profile import build_profile

    home, repo, shas = _old_wrapup(tmp_path, monkeypatch)
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    markdown = build_profile(home, window="365d", now=datetime(2026, 11, 2, tzinfo=timezone.utc))["markdown"]
    assert "round tax after discounts" in markdown, markdown
    assert "skip code review" not in markdown, markdown
