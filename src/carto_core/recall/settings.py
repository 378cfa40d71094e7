"""Whether prompt-time recall runs, and its budget.

On for a UserPromptSubmit when, first that is set:

1. `CARTO_PROMPT_RECALL` (1/true/yes/on, or 0/false/no/off);
2. `prompt = true|false` in the `[recall]` table of carto's config file;
3. the provider's default: on for Claude Code (its UserPromptSubmit reaches carto only when
   `carto install claude --recall` added that handler, so the handler is the opt-in), off for
   Codex (its UserPromptSubmit handler is always installed: it captures the prompt).

Stdlib only (the hook path).
"""

from __future__ import annotations

import os

#: At most this many snippets, this many characters in all (the header line included).
MAX_SNIPPETS = 3
MAX_CHARS = 1200
#: The prompt is analysed up to this many characters (a pasted file must not cost the budget).
MAX_PROMPT_CHARS = 4000

_ON = frozenset({"1", "true", "yes", "on"})
_OFF = frozenset({"0", "false", "no", "off"})
DEFAULT_ON = {"claude": True}


def config_setting(env: dict | None = None) -> bool | None:
    """`[recall] prompt` of the config file (None when unset or unreadable)."""
    from carto_core.logio.home import config_file

    path = config_file(env)
    try:
        text = path.read_text("utf-8")
    except OSError:
        return None
    if "recall" not in text:
        return None  # no [recall] table: not worth parsing TOML on every prompt
    import tomllib

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    value = data.get("recall", {}).get("prompt") if isinstance(data.get("recall"), dict) else None
    return value if isinstance(value, bool) else None


def enabled(provider: str, env: dict | None = None) -> bool:
    env = os.environ if env is None else env
    raw = env.get("CARTO_PROMPT_RECALL", "").strip().lower()
    if raw in _ON:
        return True
    if raw in _OFF:
        return False
    configured = config_setting(env)
    if configured is not None:
        return configured
    return DEFAULT_ON.get(provider, False)
