"""Where carto's Codex hooks come from and where they go (`carto install codex`).

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

from carto_core.install.agent import install_result, load_hooks

HOOKS_FILE = Path(__file__).resolve().parent / "codex-hooks.json"
#: Events Codex does not fire, left out of codex-hooks.json (reference/formats.md 2.9 lists no
#: SessionEnd, yet Codex 0.169.0 fires it, reason "other": it is installed).
NOT_FIRED_BY_CODEX = ("PostToolUseFailure", "PostToolBatch")
#: Events only Codex's hooks file has: the prompt, which Claude's history.jsonl brings instead.
CODEX_ONLY = ("UserPromptSubmit",)

TRUST_NOTE = ("Codex runs a command hook only once you trust it: start Codex and review the new "
              "hooks with /hooks. Releases before hooks were on by default also need "
              "`[features] codex_hooks = true` in config.toml.")


def carto_hooks() -> dict:
    return load_hooks(HOOKS_FILE)


def default_hooks_path(project: bool = False, env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    if project:
        return Path.cwd() / ".codex" / "hooks.json"
    base = env.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    return Path(base) / "hooks.json"


def install(path: Path, *, dry_run: bool = False) -> dict:
    """Merge carto's Codex hooks into the hooks file at `path` (in-process callers); returns what
    changed. Raises `carto_core.install.hooksfile.InstallError`."""
    return install_result(path, carto_hooks(), dry_run=dry_run, extra={"note": TRUST_NOTE})
