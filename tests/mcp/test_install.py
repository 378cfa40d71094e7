"""`install_mcp`: adds carto's entry, keeps every other entry byte-for-byte in meaning, backs up."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from carto_core.install.mcp import InstallError, install_mcp, server_command, uninstall_mcp

CMD = ["/opt/carto/bin/carto", "mcp"]


def test_claude_user_scope_adds_entry_and_keeps_others(tmp_path):
    path = Path.home() / ".claude.json"
    original = {"numStartups": 7, "mcpServers": {"github": {"type": "stdio", "command": "gh-mcp", "args": []}},
                "projects": {"/x": {"allowedTools": ["Bash"]}}}
    path.write_text(json.dumps(original))
    changes = install_mcp("claude", command=CMD)
    assert changes[0].startswith("add mcpServers.carto in " + str(path))
    assert any("kept 1 other server(s): github" in line for line in changes)
    data = json.loads(path.read_text())
    assert data["mcpServers"]["carto"] == {"type": "stdio", "command": CMD[0], "args": ["mcp"], "env": {}}
    assert data["mcpServers"]["github"] == original["mcpServers"]["github"]
    assert data["numStartups"] == 7 and data["projects"] == original["projects"]
    backups = list(path.parent.glob(".claude.json.carto-backup-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text()) == original
    # A second run changes nothing and writes no second backup.
    again = install_mcp("claude", command=CMD)
    assert again[0].startswith("unchanged:")
    assert len(list(path.parent.glob(".claude.json.carto-backup-*"))) == 1


def test_claude_project_and_local_scopes(tmp_path):
    project = tmp_path / "repo"
    project.mkdir()
    install_mcp("claude", scope="project", project_dir=project, command=CMD)
    assert json.loads((project / ".mcp.json").read_text())["mcpServers"]["carto"]["command"] == CMD[0]
    install_mcp("claude", scope="local", project_dir=project, command=CMD, env={"CARTO_HOME": "/h"})
    data = json.loads((Path.home() / ".claude.json").read_text())
    entry = data["projects"][str(project.resolve())]["mcpServers"]["carto"]
    assert entry["env"] == {"CARTO_HOME": "/h"}
    assert "mcpServers" not in data  # local scope does not leak into user scope


def test_claude_dry_run_writes_nothing_and_bad_json_is_refused(tmp_path):
    path = tmp_path / "c.json"
    changes = install_mcp("claude", config_path=path, dry_run=True, command=CMD)
    assert changes[0].startswith("add mcpServers.carto") and not path.exists()
    path.write_text("{not json")
    with pytest.raises(InstallError, match="not valid JSON"):
        install_mcp("claude", config_path=path, command=CMD)
    assert path.read_text() == "{not json"


def test_claude_update_and_uninstall(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"mcpServers": {"carto": {"command": "old"}, "x": {"command": "y"}}}))
    changes = install_mcp("claude", config_path=path, command=CMD)
    assert changes[0].startswith("update mcpServers.carto") and '"old"' in changes[1]
    changes = uninstall_mcp("claude", config_path=path)
    assert changes[0].startswith("remove mcpServers.carto")
    assert json.loads(path.read_text()) == {"mcpServers": {"x": {"command": "y"}}}


CODEX_CONFIG = '''# my codex settings
model = "gpt-5"  # keep this comment

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]

[mcp_servers.docs.env]
TOKEN = "abc"

# profiles below
[profiles.fast]
model = "gpt-5-mini"
'''


def test_codex_adds_table_keeping_comments_and_other_servers():
    path = Path.home() / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(CODEX_CONFIG)
    changes = install_mcp("codex", command=CMD)
    assert changes[0].startswith(f"add [mcp_servers.carto] in {path}")
    text = path.read_text()
    assert text.startswith(CODEX_CONFIG)  # appended, nothing before it touched
    data = tomllib.loads(text)
    assert data["mcp_servers"]["carto"] == {"command": CMD[0], "args": ["mcp"]}
    assert data["mcp_servers"]["docs"] == {"command": "docs-mcp", "args": ["--port", "0"], "env": {"TOKEN": "abc"}}
    assert data["profiles"] == {"fast": {"model": "gpt-5-mini"}}
    assert install_mcp("codex", command=CMD)[0].startswith("unchanged:")


def test_codex_update_in_place_and_remove(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[mcp_servers.carto]\ncommand = "old"\nargs = []\n\n[mcp_servers.carto.env]\nA = "1"\n\n# next\n[tui]\nx = 1\n')
    install_mcp("codex", config_path=path, command=CMD, env={"CARTO_HOME": "/h"})
    data = tomllib.loads(path.read_text())
    assert data["mcp_servers"]["carto"] == {"command": CMD[0], "args": ["mcp"], "env": {"CARTO_HOME": "/h"}}
    assert data["tui"] == {"x": 1} and "# next" in path.read_text()
    uninstall_mcp("codex", config_path=path)
    data = tomllib.loads(path.read_text())
    assert data == {"tui": {"x": 1}}
    assert len(list(tmp_path.glob("config.toml.carto-backup-*"))) == 2


def test_codex_refuses_bad_toml_and_inline_entries(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("model = \n")
    with pytest.raises(InstallError, match="not valid TOML"):
        install_mcp("codex", config_path=path, command=CMD)
    path.write_text('mcp_servers = { carto = { command = "x" } }\n')
    with pytest.raises(InstallError, match="inline"):
        install_mcp("codex", config_path=path, command=CMD)
    assert path.read_text() == 'mcp_servers = { carto = { command = "x" } }\n'


def test_codex_home_env_and_unknown_agent(monkeypatch, tmp_path):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    install_mcp("codex", command=CMD)
    assert (tmp_path / "ch" / "config.toml").exists()
    with pytest.raises(InstallError, match="unknown agent"):
        install_mcp("cursor", command=CMD)


def test_server_command_points_at_an_mcp_entry():
    cmd = server_command()
    assert cmd[-1] == "mcp" and Path(cmd[0]).exists()


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_install_mcp_without_the_sdk_registers_nothing_and_says_what_to_install(agent, monkeypatch):
    """The user install has no MCP SDK: `carto install claude --mcp` registered a server that
    the agent would start and that exits at once (`carto mcp`: the SDK is not installed),
    without a word. It now registers nothing, names the extra and exits 75; the hooks are
    installed as asked."""
    import sys

    from click.testing import CliRunner

    from carto_core.cli import cli

    monkeypatch.setitem(sys.modules, "mcp", None)  # find_spec("mcp") -> None, import -> ImportError
    monkeypatch.setenv("CODEX_HOME", str(Path.home() / ".codex"))
    done = CliRunner().invoke(cli, ["install", agent, "--mcp"])
    assert done.exit_code == 75, done.output
    assert "mcp: the MCP extra is not installed: pip install 'carto-core[mcp]'; nothing was registered" \
        in done.output
    claude = Path.home() / ".claude.json"
    codex = Path.home() / ".codex" / "config.toml"
    assert not claude.exists() or "carto" not in json.loads(claude.read_text()).get("mcpServers", {})
    assert not codex.exists() or "mcp_servers.carto" not in codex.read_text()
    hooks = Path.home() / (".claude/settings.json" if agent == "claude" else ".codex/hooks.json")
    assert "carto hook" in hooks.read_text()



REFUSING = [
    ("install", "claude", ".claude.json", "garbage\n", "is not valid JSON"),
    ("install", "claude", ".claude.json", "[]\n", "does not hold a JSON object"),
    ("install", "claude", ".claude.json", '{"mcpServers": []}\n', "`mcpServers` in the Claude config is not an object"),
    ("uninstall", "claude", ".claude.json", "garbage\n", "is not valid JSON"),
    ("install", "codex", ".codex/config.toml", "model = \n", "is not valid TOML"),
    ("uninstall", "codex", ".codex/config.toml", "model = \n", "is not valid TOML"),
]


@pytest.mark.parametrize("verb, agent, name, text, why", REFUSING)
def test_an_mcp_config_file_that_refuses_the_change_exits_4_and_changes_nothing(verb, agent, name, text, why,
                                                                                  monkeypatch):
    """A broken file is the file refusing the change, as a broken hooks file is (exit 4), not
    the MCP support being unavailable (75, "retry later"); and it is found before anything is
    written: `uninstall codex --mcp` removed the hooks.json carto had created, then refused."""
    from click.testing import CliRunner

    from carto_core.cli import cli

    monkeypatch.setenv("CODEX_HOME", str(Path.home() / ".codex"))
    hooks = Path.home() / (".claude/settings.json" if agent == "claude" else ".codex/hooks.json")
    if verb == "uninstall":
        assert CliRunner().invoke(cli, ["install", agent]).exit_code == 0
    before = hooks.read_text() if hooks.exists() else None
    config = Path.home() / name
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)
    done = CliRunner().invoke(cli, [verb, agent, "--mcp"])
    assert done.exit_code == 4, done.output
    [line] = done.output.strip().splitlines()
    assert line.startswith("carto: mcp: ") and why in line and "nothing written" in line
    assert config.read_text() == text
    assert (hooks.read_text() if hooks.exists() else None) == before
