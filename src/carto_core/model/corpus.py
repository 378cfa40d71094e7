"""Loading a home's searched logs into events, folded by event_id.

The changelog holds a copy of most domain rows under the same event_id, and a live turn is
written again as it grows; folding keeps one event per id by the rule of `carto_core.logio.fold`
(within a log the newest row wins, across logs the domain row wins over the changelog copy;
the event sits where its winning row was read). The other logs are listed in `sources`. Reports
of every log travel with the corpus so that no bad line goes unmentioned.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from dataclasses import dataclass, field

from carto_core.model.events import Event
from carto_core.logio.fold import LOAD_ORDER, takes_over
from carto_core.logio.home import Home
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.logio.jsonl import fast_loads_line
from carto_core.logio.reader import ReadReport, iter_lines, unreadable


@dataclass
class Corpus:
    """Every event of a home, one per event_id (`carto_core.logio.fold`), in the order their winning
    rows were read."""

    events: list[Event]
    #: event_id -> labels of every log the id occurs in (first = the event's own source).
    sources: dict[str, list[str]]
    reports: dict[str, ReadReport]
    #: Rows that repeated an event_id already seen (folded away).
    duplicates: int = 0
    by_id: dict[str, Event] = field(default_factory=dict)
    #: label -> why, for each log left out because it cannot be read (`reader.unreadable`).
    skipped: dict[str, str] = field(default_factory=dict)

    def get(self, event_id: str) -> Event | None:
        return self.by_id.get(event_id)

    def __len__(self) -> int:
        return len(self.events)


def unreadable_logs(home: Home, labels: Iterable[str]) -> dict[str, str]:
    """label -> why, for each of `labels` whose log cannot be read (a folder in its place, a
    FIFO, a symbolic link looping or to nothing, permission denied: `reader.unreadable`).
    Readers leave such a log out as if it were absent and answer from the rest."""
    return {label: why for label in labels if (why := unreadable(home.log(label)))}


def skipped_files(home: Home, skipped: dict[str, str], left_out: str) -> list[dict]:
    """The `skipped_files` entries (`{path, why, left_out}`, as `carto search --json` lists
    them) of the logs `skipped` names; `left_out` says what the answer lacks for it."""
    return [{"path": str(home.log(label)), "why": why, "left_out": left_out}
            for label, why in skipped.items()]


def none_readable(home: Home, labels: Iterable[str]) -> str | None:
    """What to say when no log of `labels` can be read though some are there (such a home is
    damaged, not empty); None when one can be read, or when none is there."""
    unread = []
    for label in labels:
        path = home.log(label)
        why = unreadable(path)
        if why:
            unread.append(f"{path.name} is {why}")
        elif path.is_file() and path.stat().st_size > 0:
            return None
    if not unread:
        return None
    return (f"no searched log of {home.root} can be read: {'; '.join(unread)} "
            "(`carto doctor` says what to do)")


def read_log_events(home: Home, label: str, report: ReadReport | None = None) -> Iterable[Event]:
    path = home.log(label)
    report = report if report is not None else ReadReport(str(path))
    for line in iter_lines(path, report, loads=fast_loads_line):
        yield Event.from_row(line.row, label, fallback_id=f"{label}-{line.lineno}")


def load_corpus(home: Home, labels: Iterable[str] | None = None) -> Corpus:
    """Read the searched logs (all of them by default) and fold by event_id."""
    labels = list(labels) if labels is not None else list(SEARCHED_LOGS)
    # Domain logs before the changelog: a domain row is then read before its changelog copy
    # (upstream: domain log wins `_source`), and the event keeps the domain row's place.
    ordered = [label for label in LOAD_ORDER if label in labels]
    ordered += [label for label in labels if label not in ordered]
    reports: dict[str, ReadReport] = {}
    by_id: dict[str, Event] = {}
    sources: dict[str, list[str]] = {}
    duplicates = 0
    skipped = unreadable_logs(home, ordered)
    collecting = gc.isenabled()
    gc.disable()  # a bulk load of small objects: the collector only costs time here
    try:
        for label in ordered:
            report = reports[label] = ReadReport(str(home.log(label)))
            if label in skipped:
                continue  # read as absent: the rest is the answer (`skipped` names it)
            for event in read_log_events(home, label, report):
                seen = sources.get(event.event_id)
                if seen is None:
                    sources[event.event_id] = [label]
                    by_id[event.event_id] = event
                else:
                    duplicates += 1
                    if takes_over(seen[0], label):
                        # A newer row of the same log (a turn that grew): it is the event now,
                        # in its own place.
                        del by_id[event.event_id]
                        by_id[event.event_id] = event
                        if label != seen[0]:
                            if label in seen:
                                seen.remove(label)
                            seen.insert(0, label)
                    elif label not in seen:
                        seen.append(label)
    finally:
        if collecting:
            gc.enable()
    events = list(by_id.values())
    return Corpus(events=events, sources=sources, reports=reports, duplicates=duplicates,
                  by_id=by_id, skipped=skipped)
