"""`carto search --json` and `carto index --json` that fail print one JSON document too.

A bad option value, a home that does not exist or is a file, a config file that cannot be read:
the command said so on stderr and printed nothing on stdout, so an agent parsing stdout got no
document at all (docs/cli.md: a data command with --json prints exactly one). It now prints
`{"error": <the stderr message>, "exit_code": <the exit code>}`; text output is unchanged.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from tests.clikit import broken_config


@pytest.fixture
def home(writer, monkeypatch, tmp_path):
    writer.tool("Ran: deploy the frobnicator service")
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return writer.home


def _fails(args, code):
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == code, done.output
    return done, json.loads(done.stdout)


@pytest.mark.parametrize("args, message", [
    (["search", "deploy", "--json", "--limit", "0"], "--limit must be a whole number of at least 1"),
    (["search", "deploy", "--format", "json", "--decay", "bogus"],
     "unknown decay policy 'bogus'; accepted: exp, gated-exp, gated-prior, none"),
    (["search", "--json"], "give a QUERY, or --project NAME to orient on a project, or one of "
                           "--get/--touch/--thread IDS (see carto search --help)"),
    (["index", "--json", "--step", "nope"], "unknown index step 'nope'; accepted: keyword, semantic"),
])
def test_a_refused_request_is_the_stderr_line_as_a_document(home, args, message):
    done, document = _fails(args, 2)
    assert document == {"error": message, "exit_code": 2}
    assert done.stderr == f"carto: {message}\n"


@pytest.mark.parametrize("args", [["search", "deploy", "--json", "--limit", "many"],
                                  ["search", "deploy", "--json", "--bogus"],
                                  ["index", "--jobs", "0", "--json"]])
def test_a_value_click_refuses_is_a_document_too(home, args):
    done, document = _fails(args, 2)
    assert set(document) == {"error", "exit_code"} and document["exit_code"] == 2
    assert document["error"] in done.stderr  # the same words as click's usage message


@pytest.mark.parametrize("command", [["search", "deploy"], ["index"]])
@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_home_that_is_no_home_is_a_document(tmp_path, monkeypatch, command, kind):
    root = tmp_path / "typo"
    if kind == "a file":
        root.write_text("not a home\n")
    monkeypatch.setenv("CARTO_HOME", str(root))
    # a file is not a missing home: what is there is said, exit 1 (tests/core/test_unusable_home.py)
    code, said = (1, f"the home {root} is a file, not a folder") if kind == "a file" else (3, f"no carto home at {root} ")
    done, document = _fails([*command, "--json"], code)
    assert document["exit_code"] == code
    assert document["error"].startswith(said)
    assert done.stderr == f"carto: {document['error']}\n"


def test_a_config_file_that_cannot_be_read_is_a_document(tmp_path, monkeypatch):
    """Without CARTO_HOME the broken file is why no home is found: it is what is said."""
    config = broken_config(tmp_path, monkeypatch)
    done, document = _fails(["search", "deploy", "--json"], 1)
    assert document["exit_code"] == 1
    assert document["error"].startswith(f"cannot read config file {config}: ")
    assert done.stderr == f"carto: {document['error']}\n"


def test_a_folder_where_the_config_file_goes_is_a_document_and_no_defaults(home, tmp_path,
                                                                          monkeypatch):
    """A folder at the config file's path (a mistyped CARTO_CONFIG) was "not present; defaults
    apply": every setting silently at its default, search answering as if nothing were wrong."""
    folder = tmp_path / "carto.toml"
    folder.mkdir()
    monkeypatch.setenv("CARTO_CONFIG", str(folder))
    said = f"cannot read config file {folder}: it is a folder, not a file"
    done, document = _fails(["search", "deploy", "--json"], 1)
    assert document == {"error": said, "exit_code": 1}
    done = CliRunner().invoke(cli, ["config"])
    assert done.exit_code == 1 and said in done.output

def test_text_output_fails_as_before(home):
    done = CliRunner().invoke(cli, ["search", "deploy", "--limit", "0"])
    assert done.exit_code == 2
    assert done.stdout == ""
    assert done.stderr == "carto: --limit must be a whole number of at least 1\n"


def test_a_query_typed_after_double_dash_is_no_json_request(home):
    done = CliRunner().invoke(cli, ["search", "--limit", "0", "--", "--json"])
    assert done.exit_code == 2 and done.stdout == ""


def test_a_document_printed_before_a_failure_is_the_only_one(home, monkeypatch):
    """`carto index` prints its steps' reports, then exits 1 when one failed: one document."""
    from carto_core.search.indexing import KeywordIndexStep

    def broken(self, engine, **kwargs):
        raise RuntimeError("the step broke")

    monkeypatch.setattr(KeywordIndexStep, "run", broken)
    done, document = _fails(["index", "--step", "keyword", "--json"], 1)
    assert document["steps"] == [{"step": "keyword", "outcome": "error",
                                  "error": "RuntimeError: the step broke"}]
