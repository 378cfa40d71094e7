"""Merging carto's hooks into a Claude Code settings file without clobbering anything.

The hooks are the plugin's own `claude_plugin/hooks/hooks.json` (one source of truth for the
plugin folder and for `carto install claude`). A settings file's `hooks` is
`{Event: [{matcher, hooks: [{type, command, timeout}]}]}`; a carto handler is added to an event
only when no handler of that event already runs the same command with the same matcher.
Nothing else in the file changes; an existing file is copied to
`<file>.carto-backup-<UTC time>` first, and the new file is written beside it and renamed over
it. A file that is not a JSON object is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

# The merge itself is provider-neutral (carto install codex uses it too).
from carto_core.capture.hooksfile import InstallError, install_hooks, merge_hooks  # noqa: F401

PLUGIN_DIR = Path(__file__).resolve().parent / "claude_plugin"
HOOKS_FILE = PLUGIN_DIR / "hooks" / "hooks.json"


def carto_hooks() -> dict:
    return json.loads(HOOKS_FILE.read_text("utf-8"))["hooks"]


def default_settings_path(project: bool = False, env: dict | None = None) -> Path:
    if project:
        return Path.cwd() / ".claude" / "settings.json"
    from carto_claude.transcripts import claude_dir

    return claude_dir(env) / "settings.json"


def install(path: Path, *, dry_run: bool = False) -> dict:
    """Merge carto's hooks into the settings file at `path`; returns what changed."""
    result = install_hooks(path, carto_hooks(), dry_run=dry_run)
    return {
        **result,
        "plugin_dir": str(PLUGIN_DIR),
        "hooks": {"hooks": carto_hooks()} if dry_run else None,
    }
