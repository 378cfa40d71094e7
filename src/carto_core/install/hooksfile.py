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
file that is not a JSON object, or whose `hooks` is not the shape above (`check_shape`: an event
that is not a list, a group or handler that is not an object, a group's `hooks` that is not a list,
a `matcher` or `command` that is not a string), is refused by install and uninstall alike, the
part named. Provider-neutral; stdlib only.
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


def check_shape(settings: dict) -> None:
    """Raise InstallError naming the first part of `hooks` that is not the agent's shape.

    The agent would reject such a file (and with it every handler carto adds), and the merge
    and removal could not tell what is whose; so nothing is changed rather than half of it."""
    if "hooks" not in settings:
        return
    hooks = settings["hooks"]
    if not isinstance(hooks, dict):
        raise InstallError("the settings file's `hooks` is not an object; refusing to change it")
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise InstallError(f"hooks.{event} is not a list; refusing to change it")
        for g, group in enumerate(groups):
            where = f"hooks.{event}[{g}]"
            if not isinstance(group, dict):
                raise InstallError(f"{where} is not an object; refusing to change it")
            if group.get("matcher") is not None and not isinstance(group["matcher"], str):
                raise InstallError(f"{where}.matcher is not a string; refusing to change it")
            if not isinstance(group.get("hooks"), list):
                raise InstallError(f"{where}.hooks is not a list; refusing to change it")
            for h, handler in enumerate(group["hooks"]):
                if not isinstance(handler, dict):
                    raise InstallError(f"{where}.hooks[{h}] is not an object; refusing to change it")
                if "command" in handler and not isinstance(handler["command"], str):
                    raise InstallError(f"{where}.hooks[{h}].command is not a string; refusing to change it")


def _groups(settings: dict, event: str) -> list:
    return settings.setdefault("hooks", {}).setdefault(event, [])


def _handlers(group: object) -> list:
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return []
    return group["hooks"]


def _find(groups: list, identity: tuple[str, str], claimed: set, matcher: object = ...) -> tuple:
    """(group, handler) of the first unclaimed carto handler with `identity`: in a group with
    `matcher` when one is given, else in a group that holds nothing but carto's handlers."""
    for group in groups:
        handlers = _handlers(group)
        if matcher is not ...:
            if (group.get("matcher") or "") != (matcher or ""):
                continue
        elif not handlers or not all(isinstance(h, dict) and hook_identity(h.get("command")) for h in handlers):
            continue
        for handler in handlers:
            if isinstance(handler, dict) and id(handler) not in claimed \
                    and hook_identity(handler.get("command")) == identity:
                return group, handler
    return None, None


def _set_matcher(group: dict, matcher: str | None) -> None:
    hooks = group.pop("hooks")
    group.pop("matcher", None)
    if matcher:
        group["matcher"] = matcher
    group["hooks"] = hooks


def merge_hooks(settings: dict, hooks: dict) -> list[str]:
    """Add or repair carto's handlers in `settings` in place; one line per change. Raises
    InstallError (`check_shape`).

    Each shipped handler takes over one carto handler of the same provider and event: first one
    in a group with the same matcher, else one in a group of carto's own handlers (an older
    carto's matcher: the group is rewritten in place, never duplicated); only then is a new group
    appended. Carto handlers nothing took over (a user's own group running carto) keep their
    place and get the new launcher.
    """
    check_shape(settings)
    changes: list[str] = []
    claimed: set[int] = set()
    launchers: dict[tuple[str, str], str] = {}
    for event, groups in hooks.items():
        target = _groups(settings, event)
        for group in groups:
            matcher = group.get("matcher")
            where = f"  (matcher {matcher})" if matcher else ""
            missing = []
            for handler in group["hooks"]:
                identity = hook_identity(handler["command"])
                launchers[identity] = handler["command"]
                home, found = _find(target, identity, claimed, matcher)
                if found is None:
                    home, found = _find(target, identity, claimed)
                if found is None:
                    missing.append(handler)
                    continue
                claimed.add(id(found))
                if (home.get("matcher") or None) != (matcher or None):
                    changes.append(f"hooks.{event}: ~ matcher {home.get('matcher')!r} -> {matcher!r} "
                                   f"for {handler['command']}")
                    _set_matcher(home, matcher)
                if found != handler:
                    changes.append(f"hooks.{event}: ~ {found.get('command')} -> {handler['command']}{where}")
                    found.clear()
                    found.update(handler)
            if missing:
                target.append({"matcher": matcher, "hooks": missing} if matcher else {"hooks": missing})
                claimed.update(id(h) for h in missing)
                changes += [f"hooks.{event}: + {h['command']}{where}" for h in missing]
    providers = {provider for provider, _ in launchers}
    for provider in providers:
        for item in carto_handlers(settings, provider):
            handler = item["handler"]
            new = launchers.get(hook_identity(handler["command"]))
            if id(handler) not in claimed and new and handler["command"] != new:
                changes.append(f"hooks.{item['event']}: ~ {handler['command']} -> {new}  (a group of yours)")
                handler["command"] = new
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
    events that leaves empty); one line per handler removed. Raises InstallError (`check_shape`)."""
    check_shape(settings)
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


def _positions(settings: dict) -> dict[int, tuple[str, int, int]]:
    """id(handler) -> (event, group index, handler index) for every handler object."""
    out = {}
    hooks = settings.get("hooks")
    for event, groups in (hooks.items() if isinstance(hooks, dict) else ()):
        for group_index, group in enumerate(groups if isinstance(groups, list) else ()):
            for index, handler in enumerate(_handlers(group)):
                out[id(handler)] = (event, group_index, index)
    return out


def uninstall_hooks(path: Path, provider: str, *, dry_run: bool = False) -> dict:
    """Remove carto's `provider` handlers from the JSON file at `path`; returns
    `{settings, changes, written, backup, removed, moved}`: `removed` the handlers' positions
    before the change (as `carto_handlers` gives them), `moved` the other handlers whose
    position changed (`{event, from: (group, index), to: (group, index)}`; Codex keys its trust by
    position). A missing file changes nothing."""
    settings = load_settings(path)
    removed = carto_handlers(settings, provider)
    before = _positions(settings)
    result = _commit(path, settings, remove_hooks(settings, provider), dry_run)
    moved = [{"event": event, "from": before[ident][1:], "to": (group, index)}
             for ident, (event, group, index) in _positions(settings).items()
             if ident in before and before[ident][1:] != (group, index)]
    return {**result, "removed": removed, "moved": moved}
