"""`carto demo` is half of the README's first command: CI runs it, so it must exit 0 on a clean
machine (no hooks installed anywhere) and show every step of the tour."""

import os
import subprocess
import sys

from carto_core.cli.demo_cmd import TOUR


def test_demo_exits_zero_and_runs_every_step(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARTO_", "CLAUDE", "CODEX"))}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "cfg"), CARTO_TELEMETRY_DIR=str(tmp_path / "t"))
    result = subprocess.run([sys.executable, "-m", "carto_core.entry", "demo"], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    for title, argv, _answers in TOUR:
        assert f"# {title}" in result.stdout
    # doctor found the problem it must find on a home without hooks, and the tour went on
    assert "no hooks installed" in result.stdout
    # ... and no problem of the demo's own making (its folders are made private)
    assert "other users can read the home" not in result.stdout
    assert "STANDUP" in result.stdout and "=== facts census ===" in result.stdout
    assert "failed: exit" not in result.stderr


def test_demo_sets_the_users_carto_settings_aside_and_puts_them_back(tmp_path, monkeypatch):
    """A user's own config (here broken: every command refuses it, exit 2) or CARTO_* settings
    (an embedder service that is not running) must not fail the tour; they are back afterwards."""
    from click.testing import CliRunner

    from carto_core.cli import cli

    config = tmp_path / "config.toml"
    config.write_text("home = [\n")
    monkeypatch.setenv("CARTO_CONFIG", str(config))
    monkeypatch.setenv("CARTO_EMBEDDER", "http")
    monkeypatch.setenv("CARTO_QDRANT_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "live-session")
    monkeypatch.chdir(tmp_path)
    before = dict(os.environ)
    result = CliRunner().invoke(cli, ["demo"])
    assert result.exit_code == 0, result.output[-3000:]
    assert "failed: exit" not in result.output and "cannot read config file" not in result.output
    assert "discount" in result.output.lower()
    assert dict(os.environ) == before
