"""Hermes `state.db` files built in code from the documented columns (formats.md section 3).

Used by this plugin's tests and the contract suite; shipped so that anyone testing against
Hermes-shaped data can build a database without a Hermes install.

Two schemas: `current` (the v30 columns the adapter reads, plus a few it ignores) and `old`
(only the minimal columns of early installs). No Hermes DDL is vendored: these tables are
written from the column lists.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

CURRENT = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (30);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT,
    system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL,
    end_reason TEXT, message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cwd TEXT, git_branch TEXT,
    git_repo_root TEXT, title TEXT, title_source TEXT, profile_name TEXT,
    archived INTEGER DEFAULT 0, pinned INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_calls TEXT, tool_call_id TEXT, tool_name TEXT,
    effect_disposition TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT,
    reasoning TEXT, _compressed_summary INTEGER DEFAULT 0, active INTEGER DEFAULT 1,
    compacted INTEGER DEFAULT 0, display_kind TEXT
);
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
"""

OLD = """
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, title TEXT, parent_session_id TEXT,
    started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, message_count INTEGER,
    tool_call_count INTEGER, input_tokens INTEGER, output_tokens INTEGER
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL
);
"""

T0 = 1_790_000_000.0  # 2026-09-21: every session starts after this


def call(name: str, **arguments) -> dict:
    return {"id": f"call_{name}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}


class HermesDB:
    """One state.db; every write opens, commits and closes (the file is left quiet)."""

    def __init__(self, path: Path, schema: str = "current", wal: bool = True):
        self.path = path
        self.schema = schema
        path.parent.mkdir(parents=True, exist_ok=True)
        # Closed explicitly: `with connect()` only commits, and a sqlite3 connection sits in a
        # reference cycle, so it is closed by the garbage collector at a random later moment -
        # checkpointing the WAL into state.db then, which once changed the file under a test that
        # checks a read-only run leaves it byte-identical.
        conn = self._connect()
        try:
            if wal:
                conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(CURRENT if schema == "current" else OLD)
            conn.commit()
        finally:
            conn.close()
        self.columns = {
            table: {row[1] for row in self._query(f"PRAGMA table_info({table})")}
            for table in ("sessions", "messages")
        }

    def _connect(self):
        return sqlite3.connect(self.path)

    def _query(self, sql, params=()):
        conn = self._connect()
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def _insert(self, table: str, fields: dict) -> int:
        fields = {k: v for k, v in fields.items() if k in self.columns[table]}
        conn = self._connect()
        try:
            cursor = conn.execute(
                f"INSERT INTO {table} ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                list(fields.values()))
            conn.commit()
            return cursor.lastrowid
        finally:
            conn.close()

    def session(self, sid: str, *, source: str = "desktop", started: float = T0,
                ended: float | None = T0 + 600, **fields) -> str:
        self._insert("sessions", {"id": sid, "source": source, "started_at": started,
                                  "ended_at": ended, **fields})
        return sid

    def message(self, sid: str, role: str, content, ts: float, *, tool_calls=None, **fields) -> int:
        if isinstance(tool_calls, list):
            tool_calls = json.dumps(tool_calls)
        return self._insert("messages", {"session_id": sid, "role": role, "content": content,
                                         "timestamp": ts, "tool_calls": tool_calls, **fields})

    def conversation(self, sid: str, exchanges: list[tuple[str, str]], *, start: float = T0,
                     tools: dict[int, list] | None = None) -> list[int]:
        """(user, assistant) pairs; `tools[i]` adds tool calls (and tool rows) to reply i."""
        ids = []
        ts = start
        for index, (prompt, reply) in enumerate(exchanges):
            ids.append(self.message(sid, "user", prompt, ts := ts + 5))
            calls = (tools or {}).get(index)
            self.message(sid, "assistant", reply, ts := ts + 5, tool_calls=calls)
            for tool in calls or []:
                self.message(sid, "tool", '{"output": "TOOL-RESULT-TEXT", "exit_code": 0}',
                             ts := ts + 1, tool_call_id=tool["id"],
                             tool_name=tool["function"]["name"])
        return ids


class HermesHome:
    def __init__(self, root: Path, schema: str = "current"):
        self.root = root
        self.schema = schema
        root.mkdir(parents=True, exist_ok=True)
        self._dbs: dict[str, HermesDB] = {}

    def db(self, profile: str = "default", *, wal: bool = True) -> HermesDB:
        if profile not in self._dbs:
            path = self.root / "state.db" if profile == "default" else \
                self.root / "profiles" / profile / "state.db"
            self._dbs[profile] = HermesDB(path, self.schema, wal=wal)
        return self._dbs[profile]
