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
import os
from datetime import datetime, timezone
from pathlib import Path

PLUGIN_DIR = Path(__file__).resolve().parent / "claude_plugin"
HOOKS_FILE = PLUGIN_DIR / "hooks" / "hooks.json"


class InstallError(RuntimeError):
    pass


def carto_hooks() -> dict:
    return json.loads(HOOKS_FILE.read_text("utf-8"))["hooks"]


def default_settings_path(project: bool = False, env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    if project:
        return Path.cwd() / ".claude" / "settings.json"
    base = env.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return Path(base) / "settings.json"


def _has_handler(groups: list, matcher: str | None, command: str) -> bool:
    for group in groups:
        if not isinstance(group, dict):
            continue
        if (group.get("matcher") or "") != (matcher or ""):
            continue
        for handler in group.get("hooks") or []:
            if isinstance(handler, dict) and handler.get("command") == command:
                return True
    return False


def merge_hooks(settings: dict, hooks: dict) -> list[str]:
    """Add missing carto handlers to `settings` in place; returns one line per addition."""
    changes: list[str] = []
    existing = settings.setdefault("hooks", {})
    if not isinstance(existing, dict):
        raise InstallError("the settings file's `hooks` is not an object; refusing to change it")
    for event, groups in hooks.items():
        target = existing.setdefault(event, [])
        if not isinstance(target, list):
            raise InstallError(f"hooks.{event} is not a list; refusing to change it")
        for group in groups:
            matcher = group.get("matcher")
            missing = [h for h in group["hooks"] if not _has_handler(target, matcher, h["command"])]
            if not missing:
                continue
            new_group = {"matcher": matcher, "hooks": missing} if matcher else {"hooks": missing}
            target.append(new_group)
            for handler in missing:
                changes.append(f"hooks.{event}: + {handler['command']}" + (f"  (matcher {matcher})" if matcher else ""))
    return changes


def install(path: Path, *, dry_run: bool = False) -> dict:
    """Merge carto's hooks into the settings file at `path`; returns what changed."""
    settings: dict = {}
    if path.exists():
        try:
            settings = json.loads(path.read_text("utf-8") or "{}")
        except ValueError as exc:
            raise InstallError(f"{path} is not valid JSON ({exc}); fix it or pass --settings") from None
        if not isinstance(settings, dict):
            raise InstallError(f"{path} does not hold a JSON object; refusing to change it")
    changes = merge_hooks(settings, carto_hooks())
    backup = None
    if changes and not dry_run:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
            backup = path.with_name(f"{path.name}.carto-backup-{stamp}")
            backup.write_bytes(path.read_bytes())
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, path)
    return {
        "settings": str(path),
        "changes": changes,
        "written": bool(changes) and not dry_run,
        "backup": str(backup) if backup else None,
        "plugin_dir": str(PLUGIN_DIR),
        "hooks": {"hooks": carto_hooks()} if dry_run else None,
    }
