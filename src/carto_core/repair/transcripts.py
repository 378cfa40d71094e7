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

A transcript found nowhere is `missing` and the row keeps its path.
"""

from __future__ import annotations

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
    count_keys = ("moved", "missing")
    labels = tuple(SEARCHED_LOGS)

    def __init__(self, roots: TranscriptRoots | None = None):
        self.roots = roots
        self._exists: dict[str, bool] = {}
        self._found: dict[tuple[str, str | None, str], str | None] = {}

    def prepare(self, home: Home) -> None:
        if self.roots is None:
            self.roots = TranscriptRoots.default()
        self._exists, self._found = {}, {}

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
