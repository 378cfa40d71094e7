"""What a new user trips over first: help that answers, errors that say what to do."""

import io

import click
from click.testing import CliRunner

from carto_core.capture import hookpath
from carto_core.cli import cli
from carto_core.util.exitcodes import ExitCode


class _NoRead(io.StringIO):
    """A stdin that fails the test if the hook waits for a payload."""

    buffer = None

    def __init__(self, tty: bool):
        super().__init__()
        self._tty = tty

    def isatty(self):
        return self._tty

    def read(self, *args):  # pragma: no cover - reached only when the bug is back
        raise AssertionError("carto hook read stdin")


def test_hook_help_answers_without_reading_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", _NoRead(tty=False))
    for args in (["--help"], ["-h"], ["claude", "--help"]):
        assert hookpath.main(args) == 0
        out = capsys.readouterr().out
        assert out.startswith("Usage: carto hook PROVIDER EVENT") and "Examples:" in out


def test_bare_hook_at_a_terminal_says_usage_on_stderr(monkeypatch, capsys):
    stdin = _NoRead(tty=True)
    stdin.buffer = stdin  # a read through .buffer would hit _NoRead.read and fail
    monkeypatch.setattr("sys.stdin", stdin)
    assert hookpath.main([]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "carto hook PROVIDER EVENT" in captured.err


def test_hook_is_listed_in_top_level_help_and_reaches_the_dispatcher():
    listing = CliRunner().invoke(cli, ["--help"])
    assert listing.exit_code == 0
    assert any(line.split()[:1] == ["hook"] for line in listing.output.splitlines())
    result = CliRunner().invoke(cli, ["hook", "--help"])
    assert result.exit_code == 0 and result.output == hookpath.HELP


def test_ingest_that_finds_nothing_says_so_on_stderr(tmp_path):
    result = CliRunner().invoke(cli, ["ingest", "claude", "--root", str(tmp_path / "nowhere"),
                                      "--history", "none", "--json"])
    assert result.exit_code == ExitCode.NOT_FOUND
    assert "found nothing to read" in result.stderr and "--root" in result.stderr
    assert result.stdout.lstrip().startswith("{")  # stdout stays one JSON document


def test_facts_bad_window_names_the_accepted_grammar(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(tmp_path))  # a home that exists (a missing one exits 3 first)
    for flag in ("--since", "--before"):
        result = CliRunner().invoke(cli, ["facts", "census", flag, "the dawn of time"])
        assert result.exit_code == ExitCode.USAGE
        assert "cannot parse" in result.stderr and "accepted: today, yesterday" in result.stderr


def _commands(group, words=()):
    """(words, is a group) of a click group and of every command under it, every level down."""
    yield words, True
    for name in sorted(group.list_commands(None)):
        command = group.get_command(None, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*words, name))
        else:
            yield (*words, name), False


def test_every_core_command_help_shows_examples_after_its_options():
    """Examples follow the options, in every command's help and every subcommand's (`carto
    eval`, `index`, `search` and `serve`, then `digest day|session`, `repair *`, `report *`
    and the groups `ingest`, `repair`, `report`, `team` and `team admin` put them first,
    between the description and the options; `decision list|retire|reject|supersede` had none
    of their own). A group need not have examples: its help lists its subcommands."""
    from carto_core.cli import CORE_COMMANDS

    missing, before = [], []
    for name in sorted(CORE_COMMANDS):
        command = cli.get_command(None, name)
        commands = _commands(command, (name,)) if isinstance(command, click.Group) else [((name,), False)]
        for words, group in commands:
            result = CliRunner().invoke(cli, [*words, "--help"])
            if result.exit_code != 0 or ("Examples:" not in result.output and not group):
                missing.append(" ".join(words))
            elif -1 < result.output.find("Examples:") < result.output.find("\nOptions:"):
                before.append(" ".join(words))  # `carto hook` (stdlib, no click) has no options section
    assert (missing, before) == ([], [])


def test_generic_ingest_help_shows_examples_for_its_source():
    result = CliRunner().invoke(cli, ["ingest", "notes", "--help"])
    assert result.exit_code == 0
    assert "Examples:" in result.output and "carto ingest notes --root PATH --dry-run" in result.output


def test_cli_doc_lists_every_command_with_a_link_to_its_page():
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    text = (docs / "cli.md").read_text()
    listing = CliRunner().invoke(cli, ["--help"]).output
    names = [line.split()[0] for line in listing.split("Commands:", 1)[1].splitlines() if line.strip()]
    assert "search" in names and "hook" in names
    for name in names:
        rows = [line for line in text.splitlines() if line.startswith(f"| `carto {name}")]
        assert rows, f"docs/cli.md has no row for carto {name}"
        links = re.findall(r"\]\(([^)#]+)", rows[0])
        assert links, f"docs/cli.md: carto {name} links to no page"
        for link in links:
            assert (docs / link).exists(), f"docs/cli.md: carto {name} links to missing {link}"
