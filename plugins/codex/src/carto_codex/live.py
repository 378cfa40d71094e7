"""The Codex rollout read by the Stop hook (`carto_core.capture.live`): the same reader,
options and rows as the backfill (`carto_codex.source.CodexRolloutSource`). Stdlib only."""

from __future__ import annotations

from pathlib import Path

from carto_codex.rollout import SETTLE_SECONDS, TURN_BODY_MAX, parent_rollout_lines, read_rollout

SOURCE = "codex"
READER = "carto_codex.live:read"


def stream_key(path: str) -> str:
    """The backfill's stream key of a rollout (`CodexRolloutSource.discover`: the file name,
    so that a rollout moved to archived_sessions keeps its checkpoint)."""
    return f"rollout:{Path(path).name}"


def read(path: str, handle, checkpoint, *, answer: str = "", now: float | None = None):
    from carto_core.api import source_options

    options = source_options(SOURCE)
    settle = options.get("settle_seconds")
    return read_rollout(
        Path(path), checkpoint, settle_seconds=float(settle) if settle is not None else SETTLE_SECONDS,
        body_max=int(options.get("body_max", TURN_BODY_MAX)), now=now, handle=handle,
        parent_lines=parent_rollout_lines, answer=answer)
