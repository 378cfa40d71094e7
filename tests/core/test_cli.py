import json
import os
from pathlib import Path

import pytest
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


def test_config_shows_a_switch_as_the_config_file_spells_it(tmp_path, monkeypatch):
    """`carto config` printed the relevance floor as Python's `True`; the config file takes
    `floor = true` (TOML), and `floor = True` copied from that line does not parse."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "h"))
    monkeypatch.delenv("CARTO_SEARCH_FLOOR", raising=False)
    result = CliRunner().invoke(cli, ["config"])
    assert "search.floor       true  (default)\n" in result.output, result.output
    config = tmp_path / "cfg" / "carto"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[search]\nfloor = false\n")
    result = CliRunner().invoke(cli, ["config"])
    assert result.exit_code == 0 and "search.floor       false  (config file)\n" in result.output, result.output


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


def test_config_names_each_setting_it_would_refuse_and_exits_1(tmp_path, monkeypatch):
    """`carto config` showed decay 'bogus', floor 'maybe' and embedder 'nope' as settled values,
    exit 0; `rankers = "bm25"` (a string, not a list) made every search fail with "unknown
    ranker 'b'". Each is now named with what is accepted, in `carto config` and `carto doctor`."""
    config = tmp_path / "cfg" / "carto"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[search]\ndecay = "bogus"\nrankers = "bm25"\nfloor = "maybe"\n'
                                        '[semantic]\nembedder = "nope"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "h"))
    monkeypatch.delenv("CARTO_EMBEDDER", raising=False)
    result = CliRunner().invoke(cli, ["config"])
    assert result.exit_code == ExitCode.ERROR
    text = result.output
    assert ("search.decay       bogus  (config file)  <- not accepted: one of exp, gated-exp, "
            "gated-prior, none") in text
    assert 'search.rankers     bm25  (config file)  <- not accepted: a list: rankers = ["bm25"]' in text
    assert "search.floor       maybe  (config file)  <- not accepted: true or false" in text
    assert "semantic.embedder  nope  (config file)  <- not accepted: one of " in text
    assert "search.fusion      rrf-prior  (default)\n" in text
    doc = json.loads(CliRunner().invoke(cli, ["config", "--json"]).output)
    assert [p["key"] for p in doc["problems"]] == ["search.rankers", "search.decay", "search.floor",
                                                    "semantic.embedder"]
    doctor = CliRunner().invoke(cli, ["doctor", "--no-probe"]).output
    assert f"search.decay = 'bogus' in {config / 'config.toml'} is not accepted" in doctor
    monkeypatch.setenv("CARTO_DECAY", "sometimes")
    doc = json.loads(CliRunner().invoke(cli, ["config", "--json"]).output)
    assert {"key": "search.decay", "value": "sometimes", "origin": "CARTO_DECAY",
            "accepted": "one of exp, gated-exp, gated-prior, none"} in doc["problems"]


def _one_row_home_with_a_config(tmp_path, monkeypatch, text: str):
    """A home of one changelog row as CARTO_HOME, and `text` as the config file carto reads
    (XDG_CONFIG_HOME): the config file's path."""
    config = tmp_path / "cfg" / "carto" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(text)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    home = tmp_path / "h"
    home.mkdir()
    (home / "changelog.jsonl").write_text('{"event_id": "evt-000000000001", "summary": "rounding fix", '
                                          '"timestamp": "2026-01-01T00:00:00Z"}\n')
    monkeypatch.setenv("CARTO_HOME", str(home))
    return config


def test_a_search_stopped_by_a_setting_says_where_the_setting_comes_from(tmp_path, monkeypatch):
    """decay = "bogus" in the config file made `carto search x` say "unknown decay policy
    'bogus'" to a person who gave no --decay: nothing said it came from the config file."""
    config = _one_row_home_with_a_config(tmp_path, monkeypatch, '[search]\ndecay = "bogus"\n')
    result = CliRunner().invoke(cli, ["search", "rounding", "--no-semantic"])
    assert result.exit_code == ExitCode.USAGE
    assert (f"(search.decay = 'bogus' comes from {config}; `carto config` shows "
            "every setting)") in result.output


@pytest.mark.parametrize("where", ["config file", "CARTO_SEARCH_FLOOR"])
def test_a_relevance_floor_switch_that_is_neither_on_nor_off_stops_the_search(tmp_path, monkeypatch,
                                                                              where):
    """`floor = "maybe"` was read as on: a person who meant to switch the floor off got
    searches judged by it, exit 0, while `carto config` called the value not accepted."""
    if where == "config file":
        config = _one_row_home_with_a_config(tmp_path, monkeypatch, '[search]\nfloor = "maybe"\n')
    else:
        config = _one_row_home_with_a_config(tmp_path, monkeypatch, "")
        monkeypatch.setenv("CARTO_SEARCH_FLOOR", "maybe")
    result = CliRunner().invoke(cli, ["search", "rounding", "--no-semantic"])
    assert result.exit_code == ExitCode.USAGE, result.output
    origin = config if where == "config file" else where
    assert result.stderr == ("carto: unknown relevance floor switch 'maybe'; accepted: true, false "
                             "(on/off, yes/no, 1/0) (search.floor = 'maybe' comes from "
                             f"{origin}; `carto config` shows every setting)\n")
    for switch, found in (("off", 0), ("false", 0), ("on", 0)):
        monkeypatch.setenv("CARTO_SEARCH_FLOOR", switch)
        assert CliRunner().invoke(cli, ["search", "rounding", "--no-semantic"]).exit_code == found


BROKEN_CONFIG_COMMANDS = (["doctor", "--no-probe"], ["doctor", "--no-probe", "--json"], ["index"],
                          ["index", "--json"], ["doctor", "--secrets"], ["search", "cart"],
                          ["config"], ["sessions"], ["standup"], ["memory"], ["digest", "day"],
                          ["wrapup", "--pending"], ["trustmap"], ["facts"])


@pytest.mark.parametrize("args", BROKEN_CONFIG_COMMANDS, ids=" ".join)
def test_a_broken_config_file_is_named_never_a_traceback(tmp_path, monkeypatch, args):
    """`carto doctor` and `carto index` ended in a ConfigError traceback on a config file that
    is not TOML: doctor, the command that exists to say what is wrong, among them."""
    config = tmp_path / "cfg" / "carto"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[search\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    Path(os.environ["CARTO_HOME"]).mkdir(parents=True, exist_ok=True)
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    if args[0] in ("doctor", "index"):
        assert result.exit_code == ExitCode.ERROR, result.output
        assert "cannot read config file" in result.output
    if args[-1] == "--json":
        document = json.loads(result.stdout)
        text = json.dumps(document)
        assert "cannot read config file" in text
