"""Register `carto mcp` in an agent's MCP configuration (called by `carto install claude|codex --mcp`).

Claude Code keeps stdio servers as `mcpServers.<name> = {type, command, args, env}` in
`~/.claude.json` (user scope: every project), under `projects[<dir>].mcpServers` of the same
file (local scope: one directory, private) or in `<project>/.mcp.json` (project scope, checked
in). Codex keeps them as a `[mcp_servers.<name>]` table (`command`, `args`, optional `env`) in
`$CODEX_HOME/config.toml` (default `~/.codex/config.toml`).

Rules, whatever the agent: only the entry named `carto` (or `name`) is ever added, updated or
removed; every other key of the file is left as it was (the TOML file is edited as text, so its
comments and layout survive); an existing file is copied to `<file>.carto-backup-<time>` before
it is rewritten; a file that does not parse is refused, never overwritten; the new file is
written beside the old one and renamed over it. Every function returns the changes as lines
for the caller to print (`dry_run=True` computes them without writing).
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from carto_core.install.configedit import backup, write_atomic
from carto_core.install.launcher import launcher
from carto_core.util.tomltext import append_block, table_span, toml_string

AGENTS = ("claude", "codex")
CLAUDE_SCOPES = ("user", "local", "project")
SERVER_NAME = "carto"


class InstallError(RuntimeError):
    """The configuration cannot be changed safely (unparsable file, unexpected layout)."""


def server_command() -> list[str]:
    """argv that starts this carto's MCP server from any environment (the agent's PATH may not
    hold the venv): `carto_core.install.launcher.launcher()` then `mcp`."""
    return [*launcher(), "mcp"]


def default_config_path(agent: str, scope: str = "user", project_dir: Path | None = None) -> Path:
    home = Path(os.path.expanduser("~"))
    if agent == "claude":
        if scope == "project":
            return Path(project_dir or Path.cwd()) / ".mcp.json"
        return home / ".claude.json"
    if agent == "codex":
        codex_home = os.environ.get("CODEX_HOME")
        return (Path(codex_home).expanduser() if codex_home else home / ".codex") / "config.toml"
    raise InstallError(f"unknown agent {agent!r}; expected one of {', '.join(AGENTS)}")



def _commit_change(changes: list[str], servers, name: str, path, dry_run: bool, text: str) -> list[str]:
    """The shared end of every edit: name the entries kept, back up, write (unless a dry run)."""
    others = sorted(k for k in servers if k != name) if isinstance(servers, dict) else []
    if others:
        changes.append(f"  kept {len(others)} other server(s): {', '.join(others)}")
    saved = backup(path, dry_run)
    if saved:
        changes.append(f"  backup: {saved}")
    if not dry_run:
        write_atomic(path, text)
    return changes

# --- Claude Code (JSON) -------------------------------------------------------------------------


def claude_entry(command: list[str], env: dict | None = None) -> dict:
    return {"type": "stdio", "command": command[0], "args": list(command[1:]), "env": dict(env or {})}


def _claude_servers(data: dict, scope: str, project_dir: Path | None, create: bool) -> dict | None:
    if scope == "local":
        projects = data.setdefault("projects", {}) if create else data.get("projects", {})
        key = str(Path(project_dir or Path.cwd()).resolve())
        if not isinstance(projects, dict):
            raise InstallError("`projects` in the Claude config is not an object")
        node = projects.setdefault(key, {}) if create else projects.get(key)
        if node is None:
            return None
        data = node
    servers = data.setdefault("mcpServers", {}) if create else data.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise InstallError("`mcpServers` in the Claude config is not an object")
    return servers


def _install_claude(path: Path, scope: str, project_dir: Path | None, name: str,
                    entry: dict | None, dry_run: bool) -> list[str]:
    if path.exists():
        raw = path.read_text(encoding="utf-8")
        try:
            data = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as exc:
            raise InstallError(f"{path} is not valid JSON ({exc}); fix it first, nothing written") from None
        if not isinstance(data, dict):
            raise InstallError(f"{path} does not hold a JSON object; nothing written")
    else:
        data = {}
    where = f"{path} ({scope} scope" + (f", project {Path(project_dir or Path.cwd()).resolve()}" if scope == "local" else "") + ")"
    try:
        servers = _claude_servers(data, scope, project_dir, create=entry is not None)
    except InstallError as exc:
        raise InstallError(f"{path}: {exc}; nothing written") from None
    current = servers.get(name) if servers else None
    if entry is None:
        if current is None:
            return [f"unchanged: no MCP server {name!r} in {where}"]
        del servers[name]
        changes = [f"remove mcpServers.{name} from {where}"]
    elif current == entry:
        return [f"unchanged: mcpServers.{name} in {where} already runs {' '.join([entry['command'], *entry['args']])}"]
    else:
        servers[name] = entry
        verb = "update" if current is not None else "add"
        changes = [f"{verb} mcpServers.{name} in {where}: {json.dumps(entry)}"]
        if current is not None:
            changes.append(f"  (was: {json.dumps(current)})")
    return _commit_change(changes, servers, name, path, dry_run,
                          json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# --- Codex (TOML, edited as text) ---------------------------------------------------------------

def codex_block(name: str, command: list[str], env: dict | None = None) -> str:
    lines = [f"[mcp_servers.{name}]",
             f"command = {toml_string(command[0])}",
             "args = [" + ", ".join(toml_string(a) for a in command[1:]) + "]"]
    if env:
        lines.append("")
        lines.append(f"[mcp_servers.{name}.env]")
        lines.extend(f"{toml_string(k)} = {toml_string(str(v))}" for k, v in env.items())
    return "\n".join(lines) + "\n"


def _install_codex(path: Path, name: str, command: list[str] | None, env: dict | None,
                   dry_run: bool) -> list[str]:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(f"{path} is not valid TOML ({exc}); fix it first, nothing written") from None
    servers = before.get("mcp_servers", {})
    current = servers.get(name) if isinstance(servers, dict) else None
    lines = text.splitlines(keepends=True)
    span = table_span(lines, ["mcp_servers", name])
    if current is not None and span is None:
        raise InstallError(f"{path} defines mcp_servers.{name} inline or with dotted keys; edit "
                           "that entry by hand (carto only rewrites a [mcp_servers." + name + "] table)")
    desired = None
    if command is not None:
        desired = {"command": command[0], "args": list(command[1:])}
        if env:
            desired["env"] = {k: str(v) for k, v in env.items()}
    if desired is None and current is None:
        return [f"unchanged: no [mcp_servers.{name}] in {path}"]
    if desired is not None and current == desired:
        return [f"unchanged: [mcp_servers.{name}] in {path} already runs {' '.join(command)}"]

    block = codex_block(name, command, env) if command is not None else ""
    if span is not None:
        start, stop = span
        new_lines = lines[:start] + ([block] if block else []) + lines[stop:]
        if block and stop < len(lines) and lines[stop].strip():
            new_lines.insert(start + 1, "\n")
        new_text = "".join(new_lines)
    else:
        new_text = append_block(text, block)
    try:
        after = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError as exc:  # pragma: no cover - a bug here must not write
        raise InstallError(f"internal error: the edited {path} would not parse ({exc}); nothing written") from None
    # Verify the edit touched our entry only.
    expect = json.loads(json.dumps(before))
    expect.setdefault("mcp_servers", {})
    if desired is None:
        expect["mcp_servers"].pop(name, None)
        if not expect["mcp_servers"] and "mcp_servers" not in after:
            expect.pop("mcp_servers")
    else:
        expect["mcp_servers"][name] = desired
    if json.loads(json.dumps(after)) != expect:
        raise InstallError(f"internal error: editing {path} would change more than "
                           f"mcp_servers.{name}; nothing written")

    if desired is None:
        changes = [f"remove [mcp_servers.{name}] from {path}"]
    else:
        verb = "update" if current is not None else "add"
        changes = [f"{verb} [mcp_servers.{name}] in {path}: command = {command[0]!r}, args = {command[1:]!r}"]
        if current is not None:
            changes.append(f"  (was: {json.dumps(current)})")
    return _commit_change(changes, servers, name, path, dry_run, new_text)


# --- the API for `carto install claude|codex --mcp` ---------------------------------------------


def install_mcp(agent: str, config_path: os.PathLike | str | None = None, dry_run: bool = False, *,
                scope: str = "user", project_dir: os.PathLike | str | None = None,
                name: str = SERVER_NAME, command: list[str] | None = None,
                env: dict | None = None) -> list[str]:
    """Add (or update) the `carto` MCP server in `agent`'s configuration; return the changes.

    agent: "claude" or "codex". scope (claude only): "user" (default, `~/.claude.json`),
    "local" (that file, under the project's directory) or "project" (`<project>/.mcp.json`).
    config_path overrides the file. command defaults to `server_command()`; env is passed to the
    server (for example {"CARTO_HOME": ...}). Raises InstallError when the file cannot be
    changed safely.
    """
    command = list(command or server_command())
    return _apply(agent, config_path, dry_run, scope, project_dir, name, command, env)


def uninstall_mcp(agent: str, config_path: os.PathLike | str | None = None, dry_run: bool = False,
                  *, scope: str = "user", project_dir: os.PathLike | str | None = None,
                  name: str = SERVER_NAME) -> list[str]:
    """Remove the `carto` MCP server entry (and nothing else); return the changes."""
    return _apply(agent, config_path, dry_run, scope, project_dir, name, None, None)


def _apply(agent, config_path, dry_run, scope, project_dir, name, command, env) -> list[str]:
    if agent not in AGENTS:
        raise InstallError(f"unknown agent {agent!r}; expected one of {', '.join(AGENTS)}")
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise InstallError(f"server name {name!r} must match [A-Za-z0-9_-]+")
    project = Path(project_dir) if project_dir else None
    if agent == "claude":
        if scope not in CLAUDE_SCOPES:
            raise InstallError(f"unknown scope {scope!r}; expected one of {', '.join(CLAUDE_SCOPES)}")
        path = Path(config_path) if config_path else default_config_path("claude", scope, project)
        entry = claude_entry(command, env) if command is not None else None
        return _install_claude(path, scope, project, name, entry, dry_run)
    path = Path(config_path) if config_path else default_config_path("codex")
    return _install_codex(path, name, command, env, dry_run)
