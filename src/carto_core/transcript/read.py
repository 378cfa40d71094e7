"""What one read of a transcript gives, for both paths that write turns: the backfill wraps it
in a `ReadBatch` (`carto_core.model.sources.batch_of`), the Stop hook (`carto_core.capture.live`)
writes the rows itself. Stdlib only: the Stop hook imports it."""

from __future__ import annotations

from collections import Counter


class TurnRead:
    """Rows (`turns.jsonl` rows), the checkpoint to resume from, and what was counted."""

    __slots__ = ("rows", "checkpoint", "units", "skipped", "messages", "open_rows", "open_until",
                 "answer_unplaced")

    def __init__(self):
        self.rows: list[dict] = []
        self.checkpoint: dict | None = None
        self.units = 0
        self.skipped: Counter = Counter()
        self.messages: list[str] = []
        #: Rows of turns still open (`"open": true`), and when they become final if nothing
        #: more is written (epoch seconds).
        self.open_rows = 0
        self.open_until: float | None = None
        #: The read was given a Stop answer and the transcript holds no turn of its thread to
        #: keep it, neither read now nor before (empty, no prompt yet, only lines it cannot
        #: read): the hook keeps the answer as a row of its own (`live.answer_row`).
        self.answer_unplaced = False
