"""Where carto's Claude Code hooks come from and where they go.

The hooks are the plugin's own `claude_plugin/hooks/hooks.json` (one source of truth for the
plugin folder and for `carto install claude`). Merging them into a settings file without
clobbering anything, the backup, `--mcp` and the report are core's
(`carto_core.install.agent`, `carto_core.install.hooksfile`), shared with
`carto install codex`.
"""

from __future__ import annotations

from pathlib import Path

from carto_core.install.agent import install_result, load_hooks

PLUGIN_DIR = Path(__file__).resolve().parent / "claude_plugin"
HOOKS_FILE = PLUGIN_DIR / "hooks" / "hooks.json"


def carto_hooks() -> dict:
    return load_hooks(HOOKS_FILE)


def default_settings_path(project: bool = False, env: dict | None = None) -> Path:
    if project:
        return Path.cwd() / ".claude" / "settings.json"
    from carto_claude.transcripts import claude_dir

    return claude_dir(env) / "settings.json"


def install(path: Path, *, dry_run: bool = False) -> dict:
    """Merge carto's hooks into the settings file at `path` (in-process callers); returns what
    changed. Raises `carto_core.install.hooksfile.InstallError`."""
    return install_result(path, carto_hooks(), dry_run=dry_run, extra={"plugin_dir": str(PLUGIN_DIR)})
