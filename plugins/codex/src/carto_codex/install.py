"""Where carto's Codex hooks come from and where they go (`carto install codex`, `carto uninstall
codex`), and the hook trust Codex asks for (`--trust`, `carto_codex.trust`).

The handlers are `codex-hooks.json` beside this module: the Claude plugin's `hooks.json` minus
the events Codex never fires (PostToolUseFailure, PostToolBatch), plus the Codex-only
UserPromptSubmit, each running
`carto hook codex <Event>` (a test fails if the two drift). The merge, backup, atomic write,
`--mcp` and the report are core's (`carto_core.install.agent`), shared with
`carto install claude`.
"""

from __future__ import annotations

import os
from pathlib import Path

from carto_core.api import (
    install_result, launcher, load_hooks, load_settings, merge_hooks, render, uninstall_result,
)

HOOKS_FILE = Path(__file__).resolve().parent / "codex-hooks.json"
#: Events Codex does not fire, left out of codex-hooks.json (reference/formats.md 2.9 lists no
#: SessionEnd, yet Codex 0.169.0 fires it, reason "other": it is installed).
NOT_FIRED_BY_CODEX = ("PostToolUseFailure", "PostToolBatch")
#: Events only Codex's hooks file has: the prompt, which Claude's history.jsonl brings instead.
CODEX_ONLY = ("UserPromptSubmit",)

TRUST_NOTE = (
    "Codex runs a hook only after you trust it, and `codex exec` (headless) skips untrusted hooks "
    "without a word, so nothing is recorded until you do. Trust carto's hooks once: run `codex` in "
    "a terminal and approve them under /hooks, or run `carto install codex --trust`, which records "
    "the same trust in config.toml for carto's own handlers only (it prints each one first). Any "
    "change to hooks.json, a reinstall after the environment moved included, resets that trust; "
    "`carto doctor` says when a handler is untrusted or stale. Hooks are on by default: "
    "`[features] hooks = false` (or its deprecated alias `codex_hooks`) in config.toml turns them off."
)

TRUSTED_NOTE = (
    "Codex runs carto's hooks now that they are trusted, `codex exec` included. Any change to "
    "hooks.json, a reinstall after the environment moved included, resets that trust (run "
    "`carto install codex --trust` again); `carto doctor` says when a handler is untrusted or "
    "stale. Hooks are on by default: `[features] hooks = false` (or its deprecated alias "
    "`codex_hooks`) in config.toml turns them off."
)


def carto_hooks() -> dict:
    return load_hooks(HOOKS_FILE)


def default_hooks_path(project: bool = False, env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    if project:
        return Path.cwd() / ".codex" / "hooks.json"
    base = env.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    return Path(base) / "hooks.json"


def install(path: Path, *, dry_run: bool = False, trust: bool = False) -> dict:
    """Merge carto's Codex hooks into the hooks file at `path` and, with `trust`, record Codex's
    trust for carto's handlers in config.toml (`result["trust"]`: `{config, changes, backup}` or
    `{error}`). Raises `carto_core.install.hooksfile.InstallError`."""
    result = install_result(path, carto_hooks(), dry_run=dry_run, extra={"note": TRUST_NOTE})
    if trust:
        result["trust"] = trust_handlers(path, dry_run=dry_run)
        if not dry_run and "error" not in result["trust"]:
            result["note"] = TRUSTED_NOTE  # TRUST_NOTE would ask for the trust just recorded
    return result


def trust_handlers(path: Path, *, dry_run: bool = False, env: dict | None = None) -> dict:
    """Trust carto's handlers of the hooks file at `path` (after a dry run's merge, the handlers
    it would write), never anything else."""
    from carto_codex import trust

    settings = load_settings(path)
    if dry_run:
        merge_hooks(settings, render(carto_hooks(), launcher()))
    try:
        _, config = trust.load_config(trust.config_path(env))
        entries = trust.review(path, settings, config)
        return trust.trust(trust.config_path(env), entries, dry_run=dry_run)
    except trust.TrustError as exc:
        return {"config": str(trust.config_path(env)), "error": str(exc)}


def uninstall(path: Path, *, dry_run: bool = False, env: dict | None = None) -> dict:
    """Remove carto's handlers from the hooks file at `path`, then their trust entries from
    config.toml, moving the trust of the user's handlers that shifted to their new keys
    (`result["trust"]`). Raises `carto_core.install.hooksfile.InstallError`."""
    from carto_codex import trust

    result = uninstall_result(path, "codex", dry_run=dry_run)
    try:
        done = trust.forget(trust.config_path(env), path, result["removed"], result["moved"], dry_run=dry_run)
    except trust.TrustError as exc:
        done = {"config": str(trust.config_path(env)), "error": str(exc)}
    result["trust"] = done
    return result
