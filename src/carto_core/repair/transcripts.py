"""`carto repair transcript-paths`: rows that point at a Codex rollout that moved on archive
point at where it is now.

Codex moves a finished rollout from `sessions/YYYY/MM/DD/` to the flat `archived_sessions/`
(and back on unarchive: reference/formats.md 2.1), so the `transcript_path` hooks recorded goes
stale. The resolver (`carto_core.transcript.resolver`) already finds such files when a lens asks; this
writes the answer into the rows, so every reader (and every other tool reading the logs) sees
the path that exists. Strict: only a Codex path that no longer exists is changed, and only to

- the same file name in a Codex home's `archived_sessions/` (or back under `sessions/` from
  the date in the name): `moved`;
- otherwise the one rollout of the row's session found in the Codex homes, when its file name
  ends in the session's id: `moved`.

A rollout found nowhere is `missing` and the row keeps its path.
"""

from __future__ import annotations

import os

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
        self._found: dict[tuple[str, str | None], str | None] = {}

    def prepare(self, home: Home) -> None:
        if self.roots is None:
            self.roots = TranscriptRoots.default()
        self._exists, self._found = {}, {}

    def exists(self, path: str) -> bool:
        if path not in self._exists:
            self._exists[path] = os.path.isfile(path)
        return self._exists[path]

    def now_at(self, recorded: str, session: str | None) -> str | None:
        key = (recorded, session)
        if key not in self._found:
            resolved = resolve_transcript(recorded, session, provider="codex", roots=self.roots)
            found = None
            if resolved.how == HOW_ARCHIVE:
                found = str(resolved.path)
            elif resolved.how == HOW_HUNT:
                wanted = (session or session_id_from_path(recorded) or "").lower()
                if wanted and session_id_from_path(resolved.path) == wanted:
                    found = str(resolved.path)
            self._found[key] = found
        return self._found[key]

    def fix(self, label: str, lines: list[Line], tally: Tally) -> list[bytes]:
        out = []
        for raw, row in lines:
            path = row.get("transcript_path") if row is not None else None
            codex = isinstance(path, str) and bool(path) and (
                guess_provider(path) == "codex" or row.get("provider") == "codex")
            if not codex or self.exists(path):
                out.append(raw if raw.endswith(b"\n") else raw + b"\n")
                continue
            tally.add("stale")
            session = row_session(label, row)
            found = self.now_at(path, session if is_resolved(session) else None)
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
