"""Where carto's Claude Code hooks come from and where they go.

The hooks are the plugin's own `claude_plugin/hooks/hooks.json` (one source of truth for the
plugin folder and for `carto install claude`). Merging them into a settings file without
clobbering anything, the backup, `--mcp` and the report are core's
(`carto_core.install.agent`, `carto_core.install.hooksfile`), shared with
`carto install codex`.
"""

from __future__ import annotations

from pathlib import Path

from carto_core.api import install_result, load_hooks

PLUGIN_DIR = Path(__file__).resolve().parent / "claude_plugin"
HOOKS_FILE = PLUGIN_DIR / "hooks" / "hooks.json"
#: `--recall`: the UserPromptSubmit handler that answers a prompt with what earlier sessions did
#: (`carto_core.recall`). Not in the plugin folder's hooks.json: prompt-time recall is opt-in,
#: and this handler's presence is the opt-in.
RECALL_HOOKS = {"UserPromptSubmit": [{"hooks": [
    {"type": "command", "command": "carto hook claude UserPromptSubmit", "timeout": 5}]}]}


def carto_hooks(recall: bool = False) -> dict:
    hooks = load_hooks(HOOKS_FILE)
    return {**hooks, **RECALL_HOOKS} if recall else hooks


def default_settings_path(project: bool = False, env: dict | None = None) -> Path:
    if project:
        return Path.cwd() / ".claude" / "settings.json"
    from carto_claude.transcripts import claude_dir

    return claude_dir(env) / "settings.json"


def install(path: Path, *, dry_run: bool = False, recall: bool = False) -> dict:
    """Merge carto's hooks (with `recall`, the prompt-recall handler too) into the settings file
    at `path` (in-process callers); returns what changed. Raises
    `carto_core.install.hooksfile.InstallError`."""
    return install_result(path, carto_hooks(recall), dry_run=dry_run,
                          extra={"plugin_dir": str(PLUGIN_DIR), "recall": recall})
