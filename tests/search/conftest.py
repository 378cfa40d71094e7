"""Helpers for search tests: small homes written row by row in upstream's shapes."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row
from carto_core.util.timeparse import format_timestamp

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=timezone.utc)
_counter = itertools.count()


class HomeWriter:
    """Writes events into a home: `bash(...)`, `prompt(...)`, each returns the event_id."""

    def __init__(self, root):
        self.home = Home(root)
        self.home.root.mkdir(parents=True, exist_ok=True)

    def _ts(self, age_hours: float | None) -> str | None:
        return None if age_hours is None else format_timestamp(NOW - timedelta(hours=age_hours))

    def tool(self, summary: str, *, age_hours: float | None = 1.0, project: str = "proj",
             session: str = "s1", salience: float = 0.4, event_id: str | None = None,
             changelog_copy: bool = True, etype: str = "tool_bash") -> str:
        eid = event_id or f"evt-t{next(_counter):011d}"
        common = {"event_id": eid, "timestamp": self._ts(age_hours), "provider": "claude",
                  "project": project, "cwd": f"/work/{project}", "transcript_path": f"/t/{session}.jsonl"}
        append_rows(self.home.log("tool-use"), [order_row("tool-use", {
            **common, "type": etype, "tool": "Bash", "summary": summary, "session": session,
            "diff_shape": None, "salience": salience}, keep_none=frozenset({"diff_shape"}))])
        if changelog_copy:
            append_rows(self.home.log("changelog"), [order_row("changelog", {
                **common, "type": etype, "session_id": session, "summary": summary,
                "diff_shape": None, "related_ids": [], "salience": salience},
                keep_none=frozenset({"diff_shape"}))])
        return eid

    def prompt(self, text: str, *, age_hours: float | None = 1.0, project: str = "proj",
               session: str = "s1", event_id: str | None = None) -> str:
        eid = event_id or f"evt-p{next(_counter):011d}"
        append_rows(self.home.log("prompts"), [order_row("prompts", {
            "event_id": eid, "timestamp": self._ts(age_hours), "type": "prompt",
            "provider": "claude", "summary": text, "project": project,
            "cwd": f"/work/{project}", "session_id": session, "transcript_path": f"/t/{session}.jsonl",
            "salience": 0.6})])
        return eid

    def changelog_only(self, summary: str, *, age_hours: float = 1.0, project: str = "proj",
                       event_id: str | None = None) -> str:
        eid = event_id or f"evt-c{next(_counter):011d}"
        append_rows(self.home.log("changelog"), [order_row("changelog", {
            "event_id": eid, "timestamp": self._ts(age_hours), "type": "note", "provider": "claude",
            "session_id": "s1", "project": project, "cwd": f"/work/{project}",
            "summary": summary, "related_ids": [], "salience": 0.5})])
        return eid


@pytest.fixture
def writer(tmp_path):
    return HomeWriter(tmp_path / "home")


def padding(writer: HomeWriter, n: int, *, age_hours: float = 2.0) -> None:
    """Documents that match no test query: keep idf of test terms above the clamp."""
    for i in range(n):
        writer.tool(f"Ran: unrelated chore number{i} zzfiller", age_hours=age_hours,
                    changelog_copy=False)
