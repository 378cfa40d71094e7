"""carto's hook handlers in an agent's hooks file: add them, repair them, find them, remove them,
without touching anything else.

Claude Code (`settings.json`) and Codex (`hooks.json`) share one shape:
`{"hooks": {Event: [{matcher, hooks: [{type, command, timeout}]}]}}` (reference/formats.md 1.8,
2.9). A handler is carto's when its command runs `<launcher> hook <provider> <Event>`, whatever the
launcher (`carto_core.install.launcher.carto_argv`: a bare `carto`, an absolute `.../carto`, or
`<python> -m carto_core`).

- install: for each shipped handler, a carto handler of the same event and matcher is brought up
  to date in place (a moved virtual environment: the new launcher replaces the old one); otherwise
  a new group holding the missing handlers is appended to the event's list (appending never moves
  another group: Codex keys its trust by position);
- uninstall: every handler of that provider goes, then each group it leaves empty and each event
  it leaves empty, and `hooks` itself when nothing is left in it: install then uninstall gives back
  the file's data unchanged.

Nothing else in the file changes. An existing file is copied to `<file>.carto-backup-<UTC time>`
before a write, and written through a temporary file renamed over it (`install.configedit`). A
file that is not a JSON object (or whose `hooks` is not an object) is refused. Provider-neutral;
stdlib only.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from carto_core.install.configedit import backup, write_atomic
from carto_core.install.launcher import carto_argv, command_line


class InstallError(RuntimeError):
    """A hooks file carto refuses to change (not JSON, not an object, odd `hooks`)."""


def hook_identity(command: object) -> tuple[str, str] | None:
    """(provider, event) when `command` runs carto's hook dispatcher, else None."""
    if not isinstance(command, str):
        return None
    args = carto_argv(command)
    if args and len(args) == 3 and args[0] == "hook":
        return args[1], args[2]
    return None


def render(hooks: dict, launcher: list[str]) -> dict:
    """The shipped `hooks` (commands written `carto hook ...`) with `launcher` in place of
    `carto`: the commands an agent can run from any environment."""
    out = copy.deepcopy(hooks)
    for groups in out.values():
        for group in groups:
            for handler in group["hooks"]:
                identity = hook_identity(handler["command"])
                if identity is None:
                    raise ValueError(f"shipped hook {handler['command']!r} does not run `carto hook`")
                handler["command"] = command_line([*launcher, "hook", *identity])
    return out


def _groups(settings: dict, event: str, create: bool) -> list:
    existing = settings.setdefault("hooks", {}) if create else settings.get("hooks", {})
    if not isinstance(existing, dict):
        raise InstallError("the settings file's `hooks` is not an object; refusing to change it")
    target = existing.setdefault(event, []) if create else existing.get(event, [])
    if not isinstance(target, list):
        raise InstallError(f"hooks.{event} is not a list; refusing to change it")
    return target


def _handlers(group: object) -> list:
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return []
    return group["hooks"]


def _find(groups: list, matcher: str | None, identity: tuple[str, str]) -> dict | None:
    for group in groups:
        if not isinstance(group, dict) or (group.get("matcher") or "") != (matcher or ""):
            continue
        for handler in _handlers(group):
            if isinstance(handler, dict) and hook_identity(handler.get("command")) == identity:
                return handler
    return None


def merge_hooks(settings: dict, hooks: dict) -> list[str]:
    """Add or repair carto's handlers in `settings` in place; one line per change."""
    changes: list[str] = []
    for event, groups in hooks.items():
        target = _groups(settings, event, create=True)
        for group in groups:
            matcher = group.get("matcher")
            where = f"  (matcher {matcher})" if matcher else ""
            missing = []
            for handler in group["hooks"]:
                found = _find(target, matcher, hook_identity(handler["command"]))
                if found is None:
                    missing.append(handler)
                elif found != handler:
                    changes.append(f"hooks.{event}: ~ {found.get('command')} -> {handler['command']}{where}")
                    found.clear()
                    found.update(handler)
            if missing:
                target.append({"matcher": matcher, "hooks": missing} if matcher else {"hooks": missing})
                changes += [f"hooks.{event}: + {h['command']}{where}" for h in missing]
    return changes


def carto_handlers(settings: dict, provider: str) -> list[dict]:
    """carto's handlers of `provider` in `settings`, with their positions:
    `{event, group, index, matcher, handler}` (group/index count every group and handler)."""
    found = []
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return found
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for group_index, group in enumerate(groups):
            for index, handler in enumerate(_handlers(group)):
                identity = hook_identity(handler.get("command")) if isinstance(handler, dict) else None
                if identity and identity[0] == provider:
                    found.append({"event": event, "group": group_index, "index": index,
                                  "matcher": group.get("matcher"), "handler": handler})
    return found


def remove_hooks(settings: dict, provider: str) -> list[str]:
    """Remove every carto handler of `provider` from `settings` in place (and the groups and
    events that leaves empty); one line per handler removed."""
    changes: list[str] = []
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return changes
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            handlers = _handlers(group)
            mine = [h for h in handlers if isinstance(h, dict)
                    and (hook_identity(h.get("command")) or ("",))[0] == provider]
            if not mine:
                kept_groups.append(group)
                continue
            where = f"  (matcher {group.get('matcher')})" if group.get("matcher") else ""
            changes += [f"hooks.{event}: - {h['command']}{where}" for h in mine]
            rest = [h for h in handlers if not any(h is m for m in mine)]
            if rest:
                group["hooks"] = rest
                kept_groups.append(group)
        if kept_groups:
            hooks[event] = kept_groups
        elif groups:
            del hooks[event]
    if changes and not hooks:
        del settings["hooks"]
    return changes


def load_settings(path: Path) -> dict:
    """The JSON object in `path` ({} when the file is missing or empty). Raises InstallError."""
    if not path.exists():
        return {}
    try:
        settings = json.loads(path.read_text("utf-8") or "{}")
    except ValueError as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it or name another file") from None
    except OSError as exc:
        raise InstallError(f"{path} cannot be read ({exc.strerror})") from None
    if not isinstance(settings, dict):
        raise InstallError(f"{path} does not hold a JSON object; refusing to change it")
    return settings


def _commit(path: Path, settings: dict, changes: list[str], dry_run: bool) -> dict:
    saved = None
    if changes and not dry_run:
        saved = backup(path)
        write_atomic(path, json.dumps(settings, indent=2, ensure_ascii=False) + "\n")
    return {"settings": str(path), "changes": changes, "written": bool(changes) and not dry_run,
            "backup": saved}


def install_hooks(path: Path, hooks: dict, *, dry_run: bool = False) -> dict:
    """Merge `hooks` (already rendered) into the JSON file at `path` (created when missing);
    returns `{settings, changes, written, backup}`."""
    settings = load_settings(path)
    return _commit(path, settings, merge_hooks(settings, hooks), dry_run)


def uninstall_hooks(path: Path, provider: str, *, dry_run: bool = False) -> dict:
    """Remove carto's `provider` handlers from the JSON file at `path`; returns
    `{settings, changes, written, backup, removed}` (`removed`: the handlers' positions before
    the change, as `carto_handlers` gives them). A missing file changes nothing."""
    settings = load_settings(path)
    removed = carto_handlers(settings, provider)
    result = _commit(path, settings, remove_hooks(settings, provider), dry_run)
    return {**result, "removed": removed}
