import json

from click.testing import CliRunner

from carto_core import __version__
from carto_core.cli import cli
from carto_core.entry import main
from carto_core.util.exitcodes import ExitCode


def test_version():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_exit_codes_are_the_documented_enum():
    assert [int(c) for c in ExitCode] == [0, 1, 2, 3, 4, 75]
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    for code in ExitCode:
        assert f"| {int(code)} " in doc and code.name in doc


def test_unknown_command_and_bad_flag_are_usage_errors():
    assert CliRunner().invoke(cli, ["no-such-command"]).exit_code == ExitCode.USAGE
    assert CliRunner().invoke(cli, ["doctor", "--no-such-flag"]).exit_code == ExitCode.USAGE


def test_config_json_shows_home_and_selections(tmp_path, monkeypatch):
    config = tmp_path / "cfg" / "carto"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('home = "%s"\n[search]\ndecay = "exp"\n' % (tmp_path / "h"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.delenv("CARTO_HOME")
    monkeypatch.setenv("CARTO_RANKERS", "bm25,other")
    monkeypatch.delenv("CARTO_EMBEDDER")  # the suite's own choice (conftest): the default here
    doc = json.loads(CliRunner().invoke(cli, ["config", "--json"]).output)
    assert doc["home"] == str(tmp_path / "h") and doc["home_origin"] == "config file"
    assert doc["config_file_exists"] is True
    assert doc["settings"]["search.decay"] == {"value": "exp", "origin": "config file"}
    assert doc["settings"]["search.rankers"] == {"value": ["bm25", "other"], "origin": "CARTO_RANKERS"}
    assert doc["settings"]["semantic.embedder"] == {"value": "minilm", "origin": "default"}


def test_broken_config_file_is_a_clear_error(tmp_path, monkeypatch):
    config = tmp_path / "cfg" / "carto"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("this is = = not toml")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    result = CliRunner().invoke(cli, ["config"])
    assert result.exit_code == ExitCode.ERROR
    assert "cannot read config file" in result.output


def test_help_lists_core_and_plugin_commands():
    result = CliRunner().invoke(cli, ["--help"])
    for name in ("doctor", "plugins", "config", "demo", "ingest", "install"):
        assert name in result.output


def test_ingest_lists_every_backfill_source():
    result = CliRunner().invoke(cli, ["ingest", "--help"])
    assert result.exit_code == 0 and "notes" in result.output


def test_entry_point_routes_hook_without_click(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys, "stdin", open("/dev/null"))
    assert main(["hook"]) == 0
    assert capsys.readouterr().out == ""
