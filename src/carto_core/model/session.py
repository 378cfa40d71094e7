"""Which agent session this process runs in, and which provider runs it. Stdlib only.

Delta serving, telemetry attribution and the access ledger all key on the current session. The
id comes from the first variable that is set and resolved along the chain

    CARTO_SESSION_ID -> CARTOGRAPHER_SESSION_ID -> CLAUDE_SESSION_ID
        -> CLAUDE_CODE_SESSION_ID -> CODEX_SESSION_ID

(`CLAUDE_CODE_SESSION_ID` is the one Claude Code actually sets; the `CARTO_`/`CARTOGRAPHER_`
names let a caller, a test or an MCP client name a session explicitly). The provider is
`CARTO_PROVIDER`/`CARTOGRAPHER_PROVIDER` when set, else `claude` when a Claude variable named
the session, `codex` when a Codex variable is present, else `unknown` (upstream's rule).

`row_session(row)` is the session a log row names, for readers of raw rows (the hook path's
among them) that build no `Event`.
"""

from __future__ import annotations

import os
import re

SESSION_CHAIN: tuple[str, ...] = (
    "CARTO_SESSION_ID",
    "CARTOGRAPHER_SESSION_ID",
    "CLAUDE_SESSION_ID",
    "CLAUDE_CODE_SESSION_ID",
    "CODEX_SESSION_ID",
)
CLAUDE_VARS = ("CLAUDE_SESSION_ID", "CLAUDE_CODE_SESSION_ID")
CODEX_VARS = ("CODEX_SESSION_ID", "CODEX_THREAD_ID", "CODEX_HOME")
PROVIDER_VARS = ("CARTO_PROVIDER", "CARTOGRAPHER_PROVIDER")

# Session ids become file names (the served list): keep them to a safe alphabet.
_SAFE = re.compile(r"^[A-Za-z0-9._:-]{1,200}$")


def _resolved(value: str | None) -> bool:
    return bool(value) and value.strip().lower() not in ("", "unknown")


def session_source(env: dict | None = None) -> tuple[str, str]:
    """(session id, the variable it came from); ("", "") when no variable names one."""
    env = os.environ if env is None else env
    for var in SESSION_CHAIN:
        value = env.get(var)
        if _resolved(value):
            return value.strip(), var
    return "", ""


def current_session_id(env: dict | None = None) -> str:
    """The current session id, "" when none resolves."""
    return session_source(env)[0]


def detect_provider(env: dict | None = None) -> str:
    """`claude`, `codex`, an explicit override, or `unknown`."""
    env = os.environ if env is None else env
    for var in PROVIDER_VARS:
        if _resolved(env.get(var)):
            return env[var].strip().lower()
    _, var = session_source(env)
    if var in CLAUDE_VARS:
        return "claude"
    if var == "CODEX_SESSION_ID" or any(env.get(v) for v in CODEX_VARS):
        return "codex"
    if any(_resolved(env.get(v)) for v in CLAUDE_VARS):
        return "claude"
    return "unknown"


def safe_session_id(session_id: str) -> bool:
    """True when the id can name a file (no slashes, no dot-dot, bounded length)."""
    return bool(_SAFE.match(session_id)) and session_id not in (".", "..")


def row_session(row: dict):
    """The session a raw log row names: its `session_id`, else `session` (the key some logs
    write), as written: None, "" or "unknown" are the caller's to refuse (`Event.from_row`
    applies the whole fallback chain and refuses them itself)."""
    return row.get("session_id") or row.get("session")
