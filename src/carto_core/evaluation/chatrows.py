"""Rows of a conversation as the measured sets write them into a home: one transcript turn a
row (as a Claude Code transcript's reader stores it), and a log's rows appended in time order
(a home's logs are read in that order)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS, order_row
from carto_core.util.privatefiles import open_private
from carto_core.util.timeparse import format_timestamp


def turn_row(event_id: str, moment: datetime, summary: str, session: str, index: int,
             project: str = "notes") -> dict:
    """One turn of `session` (its `index`, from 1) said at `moment`."""
    return order_row("turns", {
        "event_id": event_id, "timestamp": format_timestamp(moment), "project": project,
        "type": "transcript", "provider": "claude", "summary": summary,
        "transcript_path": f"/home/dev/.claude/projects/-home-dev-{project}/{session}.jsonl",
        "session": session, "turn_idx": index})


def append_in_time_order(root: Path, label: str, rows: list[dict]) -> None:
    """`rows` appended to the home's log `label`, oldest first."""
    rows.sort(key=lambda r: r["timestamp"])
    with open_private(Path(root) / SEARCHED_LOGS[label], "ab") as handle:
        for row in rows:
            handle.write(dumps_row(row))
