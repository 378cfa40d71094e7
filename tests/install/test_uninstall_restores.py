"""`carto uninstall` leaves the agents' files exactly as they were before `carto install`: a file
carto created is gone (no `{}` left), a file it changed has its original bytes back, and none
of the backups carto made is left over (carto_core.install.ledger)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.install.ledger import ledger_path


#: What the agents own under HOME (carto's own cache and config are not theirs).
AGENT_FILES = (".claude", ".claude.json", ".codex")


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the agents under `root` (relative path -> bytes)."""
    out = {}
    for dirpath, _, files in os.walk(root):
        if not str(Path(dirpath).relative_to(root)).startswith(AGENT_FILES):
            continue
        for name in files:
            path = Path(dirpath) / name
            out[str(path.relative_to(root))] = path.read_bytes()
    return out


def folders(root: Path) -> set[str]:
    return {str(Path(d).relative_to(root)) for d, _, _ in os.walk(root)
            if str(Path(d).relative_to(root)).startswith(AGENT_FILES)}


def run(*args):
    done = CliRunner().invoke(cli, list(args))
    assert done.exit_code == 0, done.output
    return done.output


def test_claude_on_a_machine_without_settings_leaves_nothing_behind():
    home = Path(os.environ["HOME"])
    before, before_folders = snapshot(home), folders(home)
    run("install", "claude", "--recall", "--mcp")
    assert (home / ".claude" / "settings.json").exists() and (home / ".claude.json").exists()
    out = run("uninstall", "claude", "--mcp")
    assert snapshot(home) == before
    assert folders(home) == before_folders
    assert not ledger_path().exists()
    assert "removed (carto had created it)" in out


def test_a_folder_install_makes_is_private_and_one_that_was_there_keeps_its_mode():
    """"every file private": on a machine Claude Code has not run on, `~/.claude` is carto's
    to make, and it holds settings that may carry tokens."""
    home = Path(os.environ["HOME"])
    run("install", "claude")
    assert (home / ".claude").stat().st_mode & 0o777 == 0o700
    assert (home / ".claude" / "settings.json").stat().st_mode & 0o777 == 0o600
    run("uninstall", "claude")
    (home / ".claude").mkdir(mode=0o755)
    (home / ".claude").chmod(0o755)
    run("install", "claude")
    assert (home / ".claude").stat().st_mode & 0o777 == 0o755


def test_claude_settings_get_their_own_bytes_back():
    home = Path(os.environ["HOME"])
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"model": "opus", "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "my-linter"}]}]}}
    settings.write_text(json.dumps(mine, indent=4) + "\n\n")  # a layout carto would not write
    settings.chmod(0o644)
    before = snapshot(home)
    run("install", "claude")
    run("install", "claude", "--recall")  # a second write, a second backup
    assert len(list(settings.parent.glob("settings.json.carto-backup-*"))) == 2
    out = run("uninstall", "claude")
    assert snapshot(home) == before and settings.stat().st_mode & 0o777 == 0o644
    assert "restored as it was before carto was installed" in out


def test_codex_hooks_and_trust_come_out_byte_for_byte(monkeypatch):
    home = Path(os.environ["HOME"])
    codex = home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('model = "gpt-5.5"\n# keep me\n\n[tui]\ntheme = "dark"\n')
    monkeypatch.setenv("CODEX_HOME", str(codex))
    before = snapshot(home)
    run("install", "codex", "--trust")
    assert (codex / "hooks.json").exists()
    run("uninstall", "codex")
    assert snapshot(home) == before


def test_a_file_changed_meanwhile_keeps_the_change_and_its_backups():
    home = Path(os.environ["HOME"])
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    run("install", "claude")
    data = json.loads(settings.read_text())
    data["theme"] = "dark"  # the person's own change after the install
    settings.write_text(json.dumps(data))
    run("uninstall", "claude")
    assert json.loads(settings.read_text()) == {"model": "opus", "theme": "dark"}
    assert list(settings.parent.glob("settings.json.carto-backup-*"))  # kept: not the original
    assert str(settings) in json.loads(ledger_path().read_text())


def test_uninstalling_one_agent_leaves_the_others_files():
    home = Path(os.environ["HOME"])
    run("install", "claude")
    run("install", "codex")
    run("uninstall", "codex")
    assert "carto hook claude" in (home / ".claude" / "settings.json").read_text()
    assert not (home / ".codex" / "hooks.json").exists()
    out = run("uninstall", "claude")
    assert not (home / ".claude").exists() and not ledger_path().exists(), (out, snapshot(home).keys())


def test_codex_uninstall_says_last_that_the_config_it_made_is_gone(monkeypatch):
    """On a machine with no config.toml, `install codex --trust` makes one; uninstall first
    forgets the trust entries in it, then removes the file. The output says it in that order:
    it said the file was removed, then that it was updated with ten changes."""
    home = Path(os.environ["HOME"])
    codex = home / ".codex"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    run("install", "codex", "--trust")
    assert (codex / "config.toml").exists()
    lines = run("uninstall", "codex").splitlines()
    assert not (codex / "config.toml").exists()
    config = str(codex / "config.toml")
    updated = next(n for n, line in enumerate(lines) if line.startswith(f"trust: {config} updated"))
    removed = lines.index(f"{config}: removed (carto had created it)")
    assert updated < removed
    assert not any(line.startswith(("trust:", "  forget trust")) for line in lines[removed:])


def test_uninstall_names_no_backup_it_then_took_away(monkeypatch):
    """A file the uninstall put back (or removed, carto having made it) loses carto's backups
    of it; the report named them all the same ("backup: ~/.claude/settings.json.carto-backup-..."),
    and a person looking for one found nothing. A backup named is one on disk."""
    home = Path(os.environ["HOME"])
    codex = home / ".codex"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    run("install", "claude", "--mcp")
    run("install", "codex", "--trust")
    out = run("uninstall", "claude", "--mcp") + run("uninstall", "codex")
    named = [line.split("backup: ", 1)[1] for line in out.splitlines() if "backup: " in line]
    assert [path for path in named if not Path(path).exists()] == [], out
    run("install", "claude")
    document = json.loads(run("uninstall", "claude", "--json"))
    assert document["backup"] is None or Path(document["backup"]).exists(), document
