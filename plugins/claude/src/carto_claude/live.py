"""The Claude Code transcript read by the Stop hook (`carto_core.capture.live`): the same
reader, options and rows as the backfill (`carto_claude.transcripts.ClaudeSource`), so that the
two paths write identical rows for identical transcript states. Stdlib only."""

from __future__ import annotations

from pathlib import Path

from carto_claude.turns import (
    DEFAULT_BODY_MAX,
    DEFAULT_SETTLE_SECONDS,
    TranscriptReader,
    subagent_identity,
)

SOURCE = "claude"
READER = "carto_claude.live:read"


def stream_key(path: str) -> str:
    """The backfill's stream key of a transcript (`ClaudeSource.discover`)."""
    return f"transcript:{path}"


def read(path: str, handle, checkpoint, *, answer: str = "", now: float | None = None):
    from carto_core.api import source_options

    options = source_options(SOURCE)
    agent_id, parent_session = subagent_identity(Path(path))
    settle = options.get("settle_seconds")
    reader = TranscriptReader(
        Path(path), body_max=int(options.get("body_max", DEFAULT_BODY_MAX)),
        settle_seconds=float(settle) if settle is not None else DEFAULT_SETTLE_SECONDS,
        agent_id=agent_id, parent_session=parent_session, last_answer=answer, now=now)
    return reader.read(checkpoint, handle)
