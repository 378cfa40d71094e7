"""`carto facts --json` that fails prints one JSON document too, as `carto search` does.

A home that does not exist, a config file that cannot be read, a home whose every log cannot be
read, a refused request: facts said so on stderr and printed nothing on stdout, so an agent
parsing stdout had no document (docs/cli.md: a data command with --json prints exactly one). It
prints `{"error": <the stderr message>, "exit_code": <the exit code>}`
(`util.output.JsonErrorCommand`); text output is unchanged.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from tests.clikit import broken_config


@pytest.fixture
def home(tmp_path, monkeypatch) -> Home:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    append_rows(home.log("tool-use"), [{"event_id": "evt-t1", "type": "tool_bash",
                                        "timestamp": "2026-01-02T03:04:05Z", "project": "webshop",
                                        "summary": "Ran: make"}])
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return home


def _fails(args, code):
    done = CliRunner().invoke(cli, ["facts", *args])
    assert done.exit_code == code, done.output
    document = json.loads(done.stdout)
    assert set(document) == {"error", "exit_code"} and document["exit_code"] == code
    # carto's refusals are its stderr line; click's are the last line of its usage message
    assert done.stderr.endswith((f"carto: {document['error']}\n", f"Error: {document['error']}\n"))
    return done, document


@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_home_that_is_no_home_is_a_document(tmp_path, monkeypatch, kind):
    root = tmp_path / "typo"
    if kind == "a file":
        root.write_text("not a home\n")
    monkeypatch.setenv("CARTO_HOME", str(root))
    # a file is not a missing home: what is there is said, exit 1 (tests/core/test_unusable_home.py)
    code, said = (1, f"the home {root} is a file, not a folder") if kind == "a file" else (3, f"no carto home at {root} ")
    _, document = _fails(["census", "--json"], code)
    assert document["error"].startswith(said)


def test_a_config_file_that_cannot_be_read_is_a_document(tmp_path, monkeypatch):
    """Without CARTO_HOME the broken file is why no home is found: it is said (exit 1), not an
    empty census of a default home that does not exist (exit 0)."""
    config = broken_config(tmp_path, monkeypatch)
    _, document = _fails(["census", "--json"], 1)
    assert document["error"].startswith(f"cannot read config file {config}: ")
    assert not (tmp_path / "data").exists()


def test_a_config_file_is_not_read_when_carto_home_names_the_home(home, tmp_path):
    config = tmp_path / "config" / "carto" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("home = [\n")
    done = CliRunner().invoke(cli, ["facts", "census", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["corpus_events"] == 1


@pytest.mark.parametrize("verb", ["census", "tempo", "delta", "pulse"])
def test_a_home_whose_every_log_cannot_be_read_is_a_document(home, verb):
    path = home.log("tool-use")
    path.unlink()
    path.mkdir()
    _, document = _fails([verb, "--json"], 1)
    assert document["error"] == (
        f"no searched log of {home.root} can be read: tool-use-log.jsonl is a folder, not a log "
        "file (`carto doctor` says what to do)")


@pytest.mark.parametrize("args, code", [
    (["census", "--json", "--top", "0"], 2),
    (["nonesuch", "--json"], 2),
    (["census", "--json", "--corpus-root", "/elsewhere"], 4),
    (["census", "--json", "--top", "many"], 2),  # click's own refusal
    (["delta", "--json", "--team"], 2),
    (["census", "--json", "--bogus"], 2),
])
def test_a_refused_request_is_a_document(home, args, code):
    _fails(args, code)


def test_text_output_fails_as_before(home):
    done = CliRunner().invoke(cli, ["facts", "census", "--top", "0"])
    assert done.exit_code == 2
    assert done.stdout == "" and done.stderr.startswith("carto: ")


def test_a_document_printed_before_a_failure_is_the_only_one(home, tmp_path):
    """The cursor file is written after the answer is printed: failing then prints no second
    document."""
    done = CliRunner().invoke(cli, ["facts", "delta", "--json", "--cursor-file",
                                    str(tmp_path / "no-such-folder" / "cursor")])
    assert done.exit_code == 1, done.output
    assert json.loads(done.stdout)["verb"] == "delta"
    assert "no-such-folder" in done.stderr


def test_facts_without_a_verb_names_the_verbs(home):
    """`carto facts` alone ended on click's "Error: Missing argument 'VERB'." (and `--json` on
    that line), naming no verb; a wrong verb already listed them. Both now do."""
    done = CliRunner().invoke(cli, ["facts"])
    assert done.exit_code == 2
    assert "no verb given; supported verbs: census, delta, pulse, tempo, tokens" in done.stderr, done.output
    document = json.loads(CliRunner().invoke(cli, ["facts", "--json"]).stdout)
    assert document == {"error": "no verb given; supported verbs: census, delta, pulse, tempo, tokens",
                        "exit_code": 2}
