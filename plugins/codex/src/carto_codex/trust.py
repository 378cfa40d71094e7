"""Codex's hook trust, read and written the way the client itself does.

Codex runs a command hook only when the user trusted it; `codex exec` skips an untrusted hook
without a word (the TUI shows "Hooks need review"). Trust lives in the user's config.toml
(`$CODEX_HOME/config.toml`), one table per handler::

    [hooks.state."/home/me/.codex/hooks.json:post_tool_use:2:0"]
    trusted_hash = "sha256:..."

The key is the hooks file's absolute path, the event's snake_case label, the group's index in
the event's list and the handler's index in the group (positions, so removing a group before
another changes the other's key). The hash is SHA-256 over a normalized identity of the
handler, serialized as canonical JSON (keys sorted, no spaces)::

    {"event_name": "post_tool_use", "matcher": "Bash|...",
     "hooks": [{"type": "command", "command": "...", "timeout": 10, "async": false}]}

(`matcher` except for UserPromptSubmit and Stop, which ignore it; a missing timeout is 600 s,
SessionEnd's is clamped to 3 s; `statusMessage` when set). A trusted hash that no longer matches means the handler changed since it was reviewed
("modified": Codex skips it again). The realclient tier checks every hash here against the
client's own `hooks/list`.

config.toml is edited as text (`carto_core.util.tomltext`): comments and layout survive, every edit is
checked by parsing the result and comparing it with the intended change before anything is
written, and the file is backed up first.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from pathlib import Path

from carto_core.api import (
    append_block, backup, carto_handlers, header_parts, toml_string, write_atomic,
)

PROVIDER = "codex"
#: Events whose groups' matcher Codex 0.169 ignores, and so does the hash (every other event
#: keeps it; checked against the client's hooks/list).
MATCHERLESS_EVENTS = frozenset({"UserPromptSubmit", "Stop"})
DEFAULT_TIMEOUT = 600
#: Timeouts Codex clamps before hashing (SessionEnd: "clamping SessionEnd hook timeout to 3s").
TIMEOUT_CAPS = {"SessionEnd": 3}


class TrustError(RuntimeError):
    """config.toml cannot be changed safely (unparsable, or the entry is written in a form carto
    does not rewrite)."""


def codex_home(env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    return Path(env.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")).expanduser()


def config_path(env: dict | None = None) -> Path:
    """The user config where Codex keeps hook trust (for user and project hooks alike)."""
    return codex_home(env) / "config.toml"


def event_label(event: str) -> str:
    """`PostToolUse` -> `post_tool_use` (the label in trust keys and hashes)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_key(hooks_path: os.PathLike | str, event: str, group: int, index: int) -> str:
    return f"{os.path.abspath(hooks_path)}:{event_label(event)}:{group}:{index}"


def handler_hash(event: str, matcher: str | None, handler: dict) -> str:
    """The hash Codex computes for a command handler of `event` in a group with `matcher`."""
    timeout = handler.get("timeout", handler.get("timeoutSec"))
    seconds = max(1, int(timeout)) if isinstance(timeout, (int, float)) else DEFAULT_TIMEOUT
    normalized = {"type": "command", "command": handler.get("command", ""),
                  "timeout": min(seconds, TIMEOUT_CAPS.get(event, seconds)),
                  "async": bool(handler.get("async", False))}
    if isinstance(handler.get("statusMessage"), str):
        normalized["statusMessage"] = handler["statusMessage"]
    identity = {"event_name": event_label(event), "hooks": [normalized]}
    if event not in MATCHERLESS_EVENTS and matcher is not None:
        identity["matcher"] = matcher
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def load_config(path: Path) -> tuple[str, dict]:
    """(text, parsed) of config.toml ("" and {} when missing). Raises TrustError."""
    try:
        text = path.read_text("utf-8") if path.exists() else ""
    except OSError as exc:
        raise TrustError(f"{path} cannot be read ({exc.strerror})") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TrustError(f"{path} is not valid TOML ({exc}); fix it first, nothing written") from None


def trust_states(config: dict) -> dict:
    hooks = config.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return state if isinstance(state, dict) else {}


def feature_problem(config: dict) -> str | None:
    """A config that turns hooks off (`[features] hooks = false`, or its deprecated alias
    `codex_hooks`), else None."""
    features = config.get("features")
    if not isinstance(features, dict):
        return None
    for key in ("hooks", "codex_hooks"):
        if features.get(key) is False:
            return f"[features] {key} = false turns every hook off"
    return None


def review(hooks_path: Path, settings: dict, config: dict) -> list[dict]:
    """carto's handlers in the hooks file and their trust: one entry each, `{key, event,
    matcher, command, hash, trusted_hash, status}` with status `trusted`, `untrusted`,
    `modified` (trusted before the handler changed) or `disabled`."""
    states = trust_states(config)
    out = []
    for found in carto_handlers(settings, PROVIDER):
        key = hook_key(hooks_path, found["event"], found["group"], found["index"])
        current = handler_hash(found["event"], found["matcher"], found["handler"])
        state = states.get(key) if isinstance(states.get(key), dict) else {}
        trusted = state.get("trusted_hash")
        if state.get("enabled") is False:
            status = "disabled"
        elif trusted == current:
            status = "trusted"
        elif trusted:
            status = "modified"
        else:
            status = "untrusted"
        out.append({"key": key, "event": found["event"], "matcher": found["matcher"],
                    "command": found["handler"].get("command"), "hash": current,
                    "trusted_hash": trusted, "status": status})
    return out


# --- editing config.toml -------------------------------------------------------------------------


def _state_table(lines: list[str], key: str) -> tuple[int, int] | None:
    """[start, end) of the `[hooks.state."<key>"]` table: its header up to the next header."""
    for index, line in enumerate(lines):
        if header_parts(line) == ["hooks", "state", key]:
            end = index + 1
            while end < len(lines) and header_parts(lines[end]) is None:
                end += 1
            return index, end
    return None


def _set_hash(text: str, key: str, value: str, defined: bool) -> str:
    lines = text.splitlines(keepends=True)
    span = _state_table(lines, key)
    line = f"trusted_hash = {toml_string(value)}\n"
    if span is None:
        if defined:
            raise TrustError(f"hooks.state.{key!r} is written inline or with dotted keys; trust it in "
                             "Codex (/hooks) or edit it by hand (carto only rewrites its own tables)")
        return append_block(text, f"[hooks.state.{toml_string(key)}]\n{line}")
    start, end = span
    for index in range(start + 1, end):
        if re.match(r"\s*trusted_hash\s*=", lines[index]):
            lines[index] = line
            return "".join(lines)
    lines.insert(start + 1, line)
    return "".join(lines)


def _drop(text: str, key: str) -> str:
    lines = text.splitlines(keepends=True)
    span = _state_table(lines, key)
    if span is None:
        return text
    start, end = span
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    # One blank line goes with the table (the one `_set_hash` put before it, when there).
    if start > 0 and not lines[start - 1].strip():
        start -= 1
    elif end < len(lines) and not lines[end].strip():
        end += 1
    return "".join(lines[:start] + lines[end:])


def _rename(text: str, old: str, new: str) -> str:
    lines = text.splitlines(keepends=True)
    span = _state_table(lines, old)
    if span is None:
        return text
    lines[span[0]] = f"[hooks.state.{toml_string(new)}]\n"
    return "".join(lines)


def _write_checked(path: Path, before: dict, text: str, expected_states: dict, dry_run: bool) -> str | None:
    try:
        after = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # a bug here must not write
        raise TrustError(f"internal error: the edited {path} would not parse ({exc}); nothing written") from None
    expected = json.loads(json.dumps(before))
    hooks = expected.setdefault("hooks", {})
    hooks["state"] = expected_states
    # An emptied table vanishes from the text unless a header of its own still declares it.
    if not expected_states and "state" not in (after.get("hooks") or {}):
        hooks.pop("state")
    if not hooks and "hooks" not in after:
        expected.pop("hooks")
    if json.loads(json.dumps(after)) != expected:
        raise TrustError(f"internal error: editing {path} would change more than carto's hook trust; "
                         "nothing written")
    saved = backup(path, dry_run)
    if not dry_run:
        write_atomic(path, text)
    return saved


def trust(path: Path, entries: list[dict], *, dry_run: bool = False) -> dict:
    """Record each entry's current hash as trusted in config.toml at `path` (what Codex's
    /hooks review writes); entries already trusted are left alone. Returns `{config, changes,
    backup, written}`. Raises TrustError."""
    text, before = load_config(path)
    states = json.loads(json.dumps(trust_states(before)))
    changes = []
    for entry in entries:
        if entry["status"] == "trusted":
            continue
        if entry["status"] == "disabled":
            changes.append(f"  left disabled: {entry['key']} (enable it in Codex's /hooks first)")
            continue
        text = _set_hash(text, entry["key"], entry["hash"], entry["key"] in states)
        states.setdefault(entry["key"], {})["trusted_hash"] = entry["hash"]
        changes.append(f"trust {entry['key']}: {entry['command']}  ({entry['hash']})")
    writes = any(c.startswith("trust ") for c in changes)
    saved = _write_checked(path, before, text, states, dry_run) if writes else None
    return {"config": str(path), "changes": changes, "backup": saved, "written": writes and not dry_run}


def forget(path: Path, hooks_path: Path, removed: list[dict], moved: list[dict], *,
           dry_run: bool = False) -> dict:
    """After carto's handlers left `hooks_path`: drop their trust tables, and move the trust of
    the user's handlers that shifted to a lower position onto their new keys (so uninstall does
    not leave the user's own hooks untrusted). Returns `{config, changes, backup, written}`."""
    text, before = load_config(path)
    states = json.loads(json.dumps(trust_states(before)))
    changes = []
    for item in removed:
        key = hook_key(hooks_path, item["event"], item["group"], item["index"])
        if key in states:
            if _state_table(text.splitlines(keepends=True), key) is None:
                raise TrustError(f"hooks.state.{key!r} is not a table carto can remove; edit it by hand")
            text = _drop(text, key)
            del states[key]
            changes.append(f"forget trust {key}")
    for item in sorted(moved, key=lambda m: (m["event"], m["from"])):
        old = hook_key(hooks_path, item["event"], *item["from"])
        new = hook_key(hooks_path, item["event"], *item["to"])
        if old in states:
            if _state_table(text.splitlines(keepends=True), old) is None:
                raise TrustError(f"hooks.state.{old!r} is not a table carto can move; edit it by hand")
            text = _rename(text, old, new)
            states[new] = states.pop(old)
            changes.append(f"move trust {old} -> {new}")
    saved = _write_checked(path, before, text, states, dry_run) if changes else None
    return {"config": str(path), "changes": changes, "backup": saved, "written": bool(changes) and not dry_run}
