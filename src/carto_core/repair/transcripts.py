"""`carto repair transcript-paths`: rows that point at a transcript that moved (a Codex rollout
archived, a Claude Code project folder renamed or its config dir moved) point at where it is now.

Codex moves a finished rollout from `sessions/YYYY/MM/DD/` to the flat `archived_sessions/`
(and back on unarchive: reference/formats.md 2.1), so the `transcript_path` hooks recorded goes
stale. The resolver (`carto_core.transcript.resolver`) already finds such files when a lens asks; this
writes the answer into the rows, so every reader (and every other tool reading the logs) sees
the path that exists. Strict: only a Codex path that no longer exists is changed, and only to

- the same file name in a Codex home's `archived_sessions/` (or back under `sessions/` from
  the date in the name): `moved`;
- otherwise the one rollout of the row's session found in the Codex homes, when its file name
  ends in the session's id: `moved`.

A Claude Code path that no longer exists is changed only to the transcript of the same file
name found by its session id in the Claude `projects/` folders the resolver searches
(`TranscriptRoots.claude`): `<sid>.jsonl` and `agent-<uuid>.jsonl` by the id in their name; a
subagent file named by a short agent id (`agent-<x>.jsonl`, beside its session's transcript or
under `<session>/subagents/`) at the same place next to its session's transcript, found by the
row's session id (or the `<session>/subagents/` folder it was recorded in): `moved`. Claude Code
names a project folder after the checkout's path, so moving a checkout or renaming the folder
leaves the recorded path behind while the session id still names the file.

A transcript found nowhere is `missing` and the row keeps its path, unless the row's session is
one the Claude desktop app ran (a `desktop_session` row of `carto ingest claude-desktop` names
it): the app keeps its sessions' transcripts only while it keeps the session (one deleted in the
app takes its transcript with it), so no folder holds it and nothing could repair the path. Such
rows are counted apart, `desktop` (and `desktop_deleted`, those of a session the app marks
deleted), never as `missing`, and keep their path too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from carto_core.model.events import is_resolved
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.repair.base import Line, Repair, Tally
from carto_core.repair.orphans import row_session
from carto_core.transcript.resolver import (
    HOW_ARCHIVE,
    HOW_HUNT,
    TranscriptRoots,
    find_session,
    guess_provider,
    resolve_transcript,
    session_id_from_path,
)


class TranscriptPaths(Repair):
    name = "transcript-paths"
    found_key = "stale"
    count_keys = ("moved", "missing", "desktop", "desktop_deleted")
    labels = tuple(SEARCHED_LOGS)

    def __init__(self, roots: TranscriptRoots | None = None):
        self.roots = roots
        self._exists: dict[str, bool] = {}
        self._found: dict[tuple[str, str | None, str], str | None] = {}
        self._home: Home | None = None
        self._desktop: dict[str, str] | None = None

    def prepare(self, home: Home) -> None:
        if self.roots is None:
            self.roots = TranscriptRoots.default()
        self._exists, self._found = {}, {}
        self._home, self._desktop = home, None

    def desktop_state(self, session: str | None) -> str | None:
        """`current` or `deleted` when the Claude desktop app ran `session`, else None."""
        if not session:
            return None
        if self._desktop is None:
            self._desktop = desktop_sessions(self._home) if self._home is not None else {}
        return self._desktop.get(session)

    def exists(self, path: str) -> bool:
        if path not in self._exists:
            self._exists[path] = os.path.isfile(path)
        return self._exists[path]

    def now_at(self, recorded: str, session: str | None, provider: str = "codex") -> str | None:
        key = (recorded, session, provider)
        if key not in self._found:
            self._found[key] = (_claude_found(recorded, session, self.roots) if provider == "claude"
                                else _codex_found(recorded, session, self.roots))
        return self._found[key]

    def fix(self, label: str, lines: list[Line], tally: Tally) -> list[bytes]:
        out = []
        for raw, row in lines:
            path = row.get("transcript_path") if row is not None else None
            provider = _provider(row, path) if isinstance(path, str) and path else None
            if provider is None or self.exists(path):
                out.append(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            tally.add("stale")
            session = row_session(label, row)
            found = self.now_at(path, session if is_resolved(session) else None, provider)
            app = self.desktop_state(session if is_resolved(session) else None) if provider == "claude" else None
            if found is None and app is not None:
                tally.add("desktop")
                if app == "deleted":
                    tally.add("desktop_deleted")
                tally.example(what="desktop", event_id=row.get("event_id"), recorded=path,
                              desktop_state=app)
                out.append(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            if found is None:
                tally.add("missing")
                tally.example(what="missing", event_id=row.get("event_id"), recorded=path)
                out.append(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            tally.add("moved")
            tally.add("fixed")
            tally.example(what="moved", event_id=row.get("event_id"), now=found)
            out.append(dumps_row({**row, "transcript_path": found}))
        return out


def desktop_sessions(home: Home) -> dict[str, str]:
    """Claude Code session id -> the desktop app's state of it (`current`, `deleted`), from the
    changelog's `desktop_session` rows. The newest row of an app session says its state; a
    tombstone's row may name no Claude Code session, the app session's other rows do."""
    sessions: dict[str, str] = {}
    states: dict[str, str] = {}
    try:
        handle = open(home.log("changelog"), "rb")
    except OSError:
        return {}
    with handle:
        for raw in handle:
            if b'"desktop_session"' not in raw:
                continue
            try:
                row = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(row, dict) or row.get("type") != "desktop_session":
                continue
            app = str(row.get("event_id") or "")
            session = row.get("session_id")
            if isinstance(session, str) and is_resolved(session):
                sessions[app] = session
            states[app] = "deleted" if row.get("desktop_state") == "deleted" else "current"
    return {session: states[app] for app, session in sessions.items()}


def desktop_note(document: dict) -> str | None:
    """The line that says which stale rows are the desktop app's (None when none are)."""
    rows = document.get("desktop", 0)
    if not rows:
        return None
    deleted = document.get("desktop_deleted", 0)
    which = ("deleted in the app" if deleted == rows else
             f"{deleted} of them deleted in the app" if deleted else "still listed in the app")
    noun = "row is" if rows == 1 else "rows are"
    return (f"{rows} {noun} of sessions the Claude desktop app ran ({which}): their transcript is "
            "gone and no folder holds it, so they are not repairable; the rows keep their text and "
            "recorded path (not counted missing)")


def _codex_found(recorded: str, session: str | None, roots: TranscriptRoots) -> str | None:
    resolved = resolve_transcript(recorded, session, provider="codex", roots=roots)
    if resolved.how == HOW_ARCHIVE:
        return str(resolved.path)
    if resolved.how == HOW_HUNT:
        wanted = (session or session_id_from_path(recorded) or "").lower()
        if wanted and session_id_from_path(resolved.path) == wanted:
            return str(resolved.path)
    return None


def _claude_found(recorded: str, session: str | None, roots: TranscriptRoots) -> str | None:
    found = claude_now_at(recorded, session, roots)
    return str(found) if found is not None else None


def _provider(row: dict, path: str) -> str | None:
    """`codex` or `claude` when the row's transcript is one this repair can find again."""
    guessed = guess_provider(path)
    if guessed == "codex" or row.get("provider") == "codex":
        return "codex"
    if guessed == "claude" or row.get("provider") == "claude":
        return "claude"
    return None


def claude_now_at(recorded: str, session: str | None, roots: TranscriptRoots) -> Path | None:
    """Where the Claude Code transcript recorded at `recorded` is now, by session id, or None.

    Only a file of the recorded name is taken: the session's transcript moved with its project
    folder, never another session's file or the parent's transcript in a subagent's place."""
    was = Path(recorded)
    name = was.name
    own = session_id_from_path(name)
    if own:
        found = find_session(own, provider="claude", roots=roots)
        if found is not None and found.name == name:
            return found
    # A subagent file named by a short agent id: the resolver cannot find it by its name, so
    # it is looked for where Claude Code keeps it, next to its session's transcript.
    nested = was.parent.name == "subagents"
    parent = (was.parent.parent.name if nested else session or "").lower()
    if not name.startswith("agent-") or not parent or session_id_from_path(parent) != parent:
        return None
    main = find_session(parent, provider="claude", roots=roots)
    if main is None or main.name != f"{parent}.jsonl":
        return None
    candidate = main.parent / parent / "subagents" / name if nested else main.parent / name
    return candidate if candidate.is_file() else None
