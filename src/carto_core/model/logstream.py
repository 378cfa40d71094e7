"""The searched logs as a stream of bounded chunks, every row told which event it belongs to.

This is the fold of `corpus.load_corpus` without holding the corpus: logs are read in
`FOLD_ORDER` (domain logs first, the changelog last) through the block reader, in chunks of
`CHUNK_ROWS` rows, and an `EventIds` table numbers the events as they first appear. A row
whose event_id was seen before (a changelog copy of a domain row, a row written twice) is not
new: it carries the number of the event it repeats. Builders keep what they need of each new
row and drop the chunk, so a build's memory is one chunk plus what the builder keeps.

A caller bringing rows in on top of a persisted cache passes `lookup` (event ids -> the
cache's numbers, -1 for unknown) and `takes_over` (whether a row replaces the event's current
row, e.g. a domain row that arrives after its changelog copy).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from carto_core.logio.eventids import EventIds, fingerprints
from carto_core.model.events import is_resolved
from carto_core.logio.jsonl import fast_loads_line
from carto_core.logio.logs import FOLD_ORDER
from carto_core.logio.reader import Line, ReadReport, iter_lines

__all__ = ["CHUNK_ROWS", "FOLD_ORDER", "Chunk", "Fold", "event_key"]
CHUNK_ROWS = 16384


def event_key(row: dict, label: str, lineno: int) -> str:
    """The id a row is folded under: its event_id, else `<log>-<line number>` (as
    `Event.from_row(row, label, fallback_id=...)` names it)."""
    event_id = row.get("event_id")
    if event_id.__class__ is str and is_resolved(event_id):
        return event_id
    return f"{label}-{lineno}"


@dataclass
class Chunk:
    """Consecutive rows of one log. `numbers[i]` is the event row i belongs to; `new[i]` says
    row i was given a new number (an id seen for the first time, or a row that took its event
    over); `retired` lists the numbers whose rows were taken over (by a later row, possibly of
    this same chunk): builders drop those events."""

    label: str
    lines: list[Line]
    ids: list[str]
    numbers: np.ndarray
    new: np.ndarray
    retired: list[int] = field(default_factory=list)
    #: `new` rows that took over an existing event: new number -> the number it retired.
    replaced: dict[int, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.lines)


class Fold:
    """Numbers events across the logs one chunk at a time (see the module docstring)."""

    def __init__(self, next_number: int = 0, *, table: EventIds | None = None,
                 lookup: Callable[[list[str]], np.ndarray] | None = None,
                 takes_over: Callable[[int, str, Line], bool] | None = None):
        self.table = table if table is not None else EventIds()
        self.next_number = next_number
        self.lookup = lookup
        self.takes_over = takes_over

    def chunks(self, path: Path, label: str, *, start: int = 0, start_lineno: int = 0,
               report: ReadReport | None = None, rows: int = CHUNK_ROWS) -> Iterator[Chunk]:
        """The log at `path` (labelled `label`) from byte `start`, folded chunk by chunk."""
        report = report if report is not None else ReadReport(str(path))
        batch: list[Line] = []
        for line in iter_lines(path, report, start=start, start_lineno=start_lineno,
                               loads=fast_loads_line):
            batch.append(line)
            if len(batch) >= rows:
                yield self.fold(label, batch)
                batch = []
        if batch:
            yield self.fold(label, batch)

    def fold(self, label: str, lines: list[Line]) -> Chunk:
        """Number the rows of `lines` (consecutive rows of the log `label`)."""
        ids = [event_key(line.row, label, line.lineno) for line in lines]
        keys, checks = fingerprints(ids)
        found = self.table.find(keys, checks)
        in_table = found >= 0
        if self.lookup is not None:
            missing = np.flatnonzero(~in_table)
            if len(missing):
                found[missing] = self.lookup([ids[i] for i in missing])
        # Plain lists in the loop: item access on numpy arrays costs ~10x a list's.
        held_by = found.tolist()
        numbers: list[int] = [0] * len(lines)
        new = [False] * len(lines)
        retired: list[int] = []
        replaced: dict[int, int] = {}
        holders: dict[str, int] = {}  # id -> the row of this chunk that holds its event now
        takes_over = self.takes_over
        number = self.next_number
        for i, event_id in enumerate(ids):
            holder = holders.get(event_id)
            held = numbers[holder] if holder is not None else held_by[i]
            if held >= 0:
                if takes_over is None or not takes_over(held, label, lines[i]):
                    numbers[i] = held
                    continue
                retired.append(held)
                replaced[number] = held
            numbers[i] = number
            new[i] = True
            holders[event_id] = i
            number += 1
        self.next_number = number
        chunk = Chunk(label, lines, ids, np.array(numbers, np.int64), np.array(new, np.bool_),
                      retired, replaced)
        rows = np.fromiter(holders.values(), np.int64, len(holders))
        known = in_table[rows]
        if known.any():
            moved = rows[known]
            self.table.repoint(keys[moved], checks[moved], chunk.numbers[moved])
        rows = rows[~known]
        self.table.add(keys[rows], checks[rows], chunk.numbers[rows])
        return chunk
