"""Opening a Hermes `state.db` read-only and learning which columns this install has.

Hermes keeps a live WAL database and writes it while it runs, so the adapter opens it with a
`mode=ro` URI (never `immutable=1`, which is unsafe under a live writer), a busy timeout and
`PRAGMA query_only`. Columns vary by Hermes version (schema 30 has dozens, early installs a
handful): they are probed with `PRAGMA table_info`, never assumed.
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from carto_core.api import ExitCode

from carto_hermes.policy import HermesError


class DatabaseBusy(HermesError):
    """A writer holds the database past the busy timeout: retry later, nothing was written."""

    exit_code = ExitCode.UNAVAILABLE


class DatabaseCorrupt(HermesError):
    """Not a SQLite database, or a damaged one."""


class UnknownSchema(HermesError):
    """A database without the tables or columns the adapter needs."""


REQUIRED = {
    "sessions": ("id", "source", "started_at"),
    "messages": ("id", "session_id", "role", "content", "timestamp"),
}
OPTIONAL = {
    "sessions": ("title", "ended_at", "cwd", "git_repo_root", "parent_session_id", "hidden",
                 "model_config", "profile_name"),
    "messages": ("tool_calls", "active", "compacted", "_compressed_summary", "display_kind"),
}


@dataclass(frozen=True)
class Schema:
    """Which optional columns exist, and the schema version when the database records one."""

    version: int | None
    sessions: frozenset[str]
    messages: frozenset[str]

    def session_columns(self) -> list[str]:
        return [*REQUIRED["sessions"], *(c for c in OPTIONAL["sessions"] if c in self.sessions)]

    def message_columns(self) -> list[str]:
        return [*REQUIRED["messages"], *(c for c in OPTIONAL["messages"] if c in self.messages)]


def translate(exc: sqlite3.Error, path: Path) -> HermesError:
    """An sqlite3 error as the adapter's error with a message a person can act on."""
    text = str(exc)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return DatabaseBusy(
            f"Hermes database {path} is busy (a writer held it past the busy timeout): {text}. "
            "Nothing was written and no checkpoint saved; run again later."
        )
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return DatabaseCorrupt(f"Hermes database {path} is not a readable SQLite database: {text}")
    return DatabaseCorrupt(f"cannot read Hermes database {path}: {text}")


def open_readonly(path: Path, busy_timeout_ms: int) -> sqlite3.Connection:
    """A read-only connection (`mode=ro`, busy timeout, query_only)."""
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout_ms / 1000.0,
                               isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        conn.execute("PRAGMA query_only=1")
    except sqlite3.Error as exc:
        raise translate(exc, path) from None
    return conn


def probe(conn: sqlite3.Connection, path: Path) -> Schema:
    """Check the tables and columns the adapter reads; raise UnknownSchema naming what lacks."""
    try:
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        columns: dict[str, frozenset[str]] = {}
        for table in REQUIRED:
            if table in tables:
                columns[table] = frozenset(row[1] for row in conn.execute(
                    f"PRAGMA table_info({table})"))
        version = None
        if "schema_version" in tables:
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            version = int(row[0]) if row and isinstance(row[0], int) else None
    except sqlite3.Error as exc:
        raise translate(exc, path) from None
    missing = []
    for table, needed in REQUIRED.items():
        if table not in columns:
            missing.append(f"table {table!r}")
            continue
        lacking = [c for c in needed if c not in columns[table]]
        if lacking:
            missing.append(", ".join(f"{table}.{column}" for column in lacking))
    if missing:
        found = ", ".join(sorted(tables)) or "no tables"
        raise UnknownSchema(
            f"Hermes database {path} has an unknown schema: missing {'; '.join(missing)} "
            f"(found: {found}). Supported: Hermes state.db from the earliest installs "
            "(sessions: id, source, started_at; messages: id, session_id, role, content, "
            "timestamp) up to schema 30."
        )
    return Schema(version, columns["sessions"], columns["messages"])
