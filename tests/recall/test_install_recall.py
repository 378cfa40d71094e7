"""`--recall` on `carto install claude` (the UserPromptSubmit handler) and `carto install codex`
(`[recall] prompt = true` in carto's config file)."""

from __future__ import annotations

import json
import os
import tomllib

from click.testing import CliRunner

from carto_core.cli import cli


def _handlers(settings: dict, event: str) -> list[str]:
    return [h["command"] for g in settings.get("hooks", {}).get(event, []) for h in g["hooks"]]


def test_claude_recall_adds_the_prompt_handler_once_and_the_removal_takes_it_away(tmp_path):
    settings = tmp_path / "settings.json"
    runner = CliRunner()
    plain = runner.invoke(cli, ["install", "claude", "--settings", str(settings), "--json"])
    assert plain.exit_code == 0, plain.output
    assert _handlers(json.loads(settings.read_text()), "UserPromptSubmit") == []  # opt-in only
    done = runner.invoke(cli, ["install", "claude", "--settings", str(settings), "--recall", "--json"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    assert [c for c in result["changes"] if "UserPromptSubmit" in c] == result["changes"]
    commands = _handlers(json.loads(settings.read_text()), "UserPromptSubmit")
    assert len(commands) == 1 and commands[0].endswith("hook claude UserPromptSubmit")
    again = runner.invoke(cli, ["install", "claude", "--settings", str(settings), "--recall", "--json"])
    assert json.loads(again.output)["changes"] == []
    from carto_core.install.hooksfile import uninstall_hooks  # `carto uninstall claude`'s removal

    uninstall_hooks(settings, "claude")
    assert _handlers(json.loads(settings.read_text()), "UserPromptSubmit") == []


def test_codex_recall_writes_the_config_switch_keeping_the_rest(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('# mine\nhome = "/somewhere"\n\n[search]\ndecay = "exp"\n')
    env = {"CARTO_CONFIG": str(config), "CODEX_HOME": str(tmp_path / "codex")}
    runner = CliRunner()
    printed = runner.invoke(cli, ["install", "codex", "--recall", "--print"], env=env)
    assert printed.exit_code == 0, printed.output
    assert "[recall] prompt = true" in printed.output
    assert "recall" not in config.read_text()  # --print writes nothing
    done = runner.invoke(cli, ["install", "codex", "--recall"], env=env)
    assert done.exit_code == 0, done.output
    text = config.read_text()
    assert text.startswith('# mine\nhome = "/somewhere"\n\n[search]\ndecay = "exp"\n')
    assert tomllib.loads(text) == {"home": "/somewhere", "search": {"decay": "exp"},
                                   "recall": {"prompt": True}}
    from carto_core.recall.settings import enabled

    assert enabled("codex", {**os.environ, **env})
    again = runner.invoke(cli, ["install", "codex", "--recall"], env=env)
    assert "already on" in again.output and config.read_text() == text
    config.write_text("[recall]\nprompt = false  # not yet\n")
    runner.invoke(cli, ["install", "codex", "--recall"], env=env)
    assert tomllib.loads(config.read_text()) == {"recall": {"prompt": True}}


def test_codex_recall_refuses_a_broken_config_before_touching_the_hooks(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[recall\nprompt = ")
    env = {"CARTO_CONFIG": str(config), "CODEX_HOME": str(tmp_path / "codex")}
    done = CliRunner().invoke(cli, ["install", "codex", "--recall"], env=env)
    assert done.exit_code == 4
    assert not (tmp_path / "codex" / "hooks.json").exists()
