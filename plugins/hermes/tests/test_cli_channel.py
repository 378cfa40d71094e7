"""Hermes's terminal channel, `cli`, is read when the policy file sets no `sources` (it is
Hermes's main channel, reference formats.md section 3.3: a `cli` session was skipped), and a
session skipped for its channel is named with the channel and the policy key that reads it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli


def run(*args):
    return CliRunner().invoke(cli, ["ingest", "hermes", *args])


@pytest.fixture
def terminal_session(hermes_home, corpus_root):
    db = hermes_home.db()
    db.session("s2", source="cli", cwd=str(corpus_root / "carto"))
    db.conversation("s2", [("why does the kestrel test flake", "a timer race"), ("fix it", "fixed")])
    return hermes_home


def test_a_cli_session_is_read_when_the_policy_sets_no_sources(terminal_session, make_policy):
    policy = json.loads(make_policy().read_text("utf-8"))
    del policy["sources"]
    path = make_policy()
    path.write_text(json.dumps(policy), "utf-8")
    done = run("--config", str(path), "--json")
    assert done.exit_code == 0, done.output
    document = json.loads(done.stdout)
    assert document["skipped"] == {} and document["written"]["turns"] == 2


def test_a_session_skipped_for_its_channel_names_it_and_the_key(terminal_session, make_policy):
    path = make_policy(sources=["desktop"])
    done = run("--config", str(path))
    assert done.exit_code == 0, done.output
    assert (f"1 session(s) of source 'cli' skipped: the policy's `sources` is ['desktop']; "
            f"add 'cli' to `sources` in {path}") in done.stderr
    shown = run("--config", str(path), "--show", "s2")
    assert "source cli" in shown.stdout and "add 'cli' to `sources`" in shown.stdout
    document = json.loads(run("--config", str(path), "--show", "s2", "--json").stdout)
    assert document["source"] == "cli" and document["policy_sources"] == ["desktop"]
