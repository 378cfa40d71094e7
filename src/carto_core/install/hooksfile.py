"""Merging carto's hook handlers into an agent's hooks file without clobbering anything.

Claude Code (`settings.json`) and Codex (`hooks.json`) share one shape:
`{"hooks": {Event: [{matcher, hooks: [{type, command, timeout}]}]}}` (reference/formats.md 1.8,
2.9). A carto handler is added to an event only when no handler of that event already runs the
same command with the same matcher. Nothing else in the file changes; an existing file is copied
to `<file>.carto-backup-<UTC time>` first, and the new file is written beside it and renamed
over it. A file that is not a JSON object (or whose `hooks` is not an object) is refused.

Provider-neutral: `carto install claude` and `carto install codex` both use it.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path


class InstallError(RuntimeError):
    """A hooks file carto refuses to change (not JSON, not an object, odd `hooks`)."""


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


def install_hooks(path: Path, hooks: dict, *, dry_run: bool = False) -> dict:
    """Merge `hooks` into the JSON file at `path` (created when missing); returns
    `{settings, changes, written, backup}`."""
    settings: dict = {}
    if path.exists():
        try:
            settings = json.loads(path.read_text("utf-8") or "{}")
        except ValueError as exc:
            raise InstallError(f"{path} is not valid JSON ({exc}); fix it or name another file") from None
        if not isinstance(settings, dict):
            raise InstallError(f"{path} does not hold a JSON object; refusing to change it")
    changes = merge_hooks(settings, hooks)
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
    }
