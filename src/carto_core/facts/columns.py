"""A columnar view of a corpus for the facts folds, built once per loaded corpus.

A census over 200k events must cost well under 50 ms in-process; a per-event Python loop alone
costs more than that. So the corpus is turned, once, into columns of small integers (interned
project, type, source, provider and session ids; 0 always means "unresolved") laid out in one
order: dated events newest first, then undated events. In that order a time window is one
contiguous range found by bisection, and each value's *postings* (its positions, ascending) turn
"how many of value v fall in the window" into two bisections. Samples are the first positions of
a value's postings inside the range that carry a real event_id: the newest checkable ids.

The folds themselves live in `census.py` and `tempo.py`; nothing here knows the contract.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from datetime import datetime, timezone
from itertools import compress, islice

from carto_core.events import Event, is_resolved

DIMENSIONS = ("project", "type", "source", "provider", "session")
_DAY = 86400


class Dimension:
    """One interned column: `names[i]` is the value of id i (`names[0]` is None, unresolved)."""

    def __init__(self, name: str, n: int):
        self.name = name
        self.names: list[str | None] = [None]
        self.ids: dict[str, int] = {}
        self.col = array("i", bytes(4 * n))
        self.postings: list[array] = [array("i")]
        #: Postings restricted to events with a real event_id (what a sample may show).
        self.id_postings: list[array] = [array("i")]

    def intern(self, value: str | None) -> int:
        if value is None:
            return 0
        ident = self.ids.get(value)
        if ident is None:
            ident = self.ids[value] = len(self.names)
            self.names.append(value)
            self.postings.append(array("i"))
            self.id_postings.append(array("i"))
        return ident

    def count_in(self, ident: int, lo: int, hi: int) -> int:
        plist = self.postings[ident]
        return bisect_left(plist, hi) - bisect_left(plist, lo)

    def sample_in(self, ident: int, lo: int, hi: int, k: int,
                  keep: Callable[[int], int] | None = None) -> list[int]:
        """Up to k positions of value `ident` with a real event_id inside [lo, hi) (and for
        which `keep(position)` is true, when given), first (newest) first."""
        if k <= 0:
            return []
        plist = self.id_postings[ident]
        start = bisect_left(plist, lo)
        end = bisect_left(plist, hi)
        window = plist[start:end]
        if keep is None:
            return list(window[:k])
        return list(islice(compress(window, map(keep, window)), k))


class Columns:
    """The corpus as columns; positions index every list here, `order[p]` the corpus event."""

    def __init__(self, events: list[Event]):
        n = len(events)
        dated = [(e.timestamp.timestamp(), i) for i, e in enumerate(events) if e.timestamp is not None]
        # Newest first; ties keep load order (a stable sort on the negated time).
        dated.sort(key=lambda pair: -pair[0])
        dated_set = len(dated)
        undated = [i for i, e in enumerate(events) if e.timestamp is None]
        self.n = n
        self.n_dated = dated_set
        self.order = array("i", [i for _, i in dated] + undated)
        self.epoch = array("d", [t for t, _ in dated])
        #: Negated times, ascending: bisect finds window edges.
        self._neg = array("d", [-t for t, _ in dated])
        self.day = array("i", [int(t // _DAY) for t, _ in dated])
        self.event_ids: list[str] = []
        self.has_id = bytearray(n)
        self.dims = {name: Dimension(name, n) for name in DIMENSIONS}
        project, etype, source = self.dims["project"], self.dims["type"], self.dims["source"]
        provider, session = self.dims["provider"], self.dims["session"]
        ids = self.event_ids
        for position, index in enumerate(self.order):
            event = events[index]
            ids.append(event.event_id)
            real_id = is_resolved(event.row.get("event_id")) if event.row else is_resolved(event.event_id)
            self.has_id[position] = real_id
            for dim, value in (
                (project, event.project), (etype, event.type), (source, event.source),
                (provider, event.provider), (session, event.session_id),
            ):
                ident = dim.intern(value if is_resolved(value) else None)
                dim.col[position] = ident
                dim.postings[ident].append(position)
                if real_id:
                    dim.id_postings[ident].append(position)

    # -- windows ------------------------------------------------------------------------------

    def window(self, since: datetime | None, before: datetime | None) -> tuple[int, int]:
        """The range [lo, hi) of dated positions with since <= time <= before."""
        lo = 0 if before is None else bisect_left(self._neg, -before.timestamp())
        hi = self.n_dated if since is None else bisect_right(self._neg, -since.timestamp())
        return lo, max(lo, hi)

    def timestamp_at(self, position: int) -> datetime | None:
        if position >= self.n_dated:
            return None
        return datetime.fromtimestamp(self.epoch[position], tz=timezone.utc)


def columns_for(corpus) -> Columns:
    """The columns of a loaded corpus, built on first use and kept with it."""
    key = (id(corpus.events), len(corpus.events))
    cached = getattr(corpus, "_facts_columns", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    built = Columns(corpus.events)
    try:
        corpus._facts_columns = (key, built)
    except AttributeError:  # a corpus type that refuses attributes: rebuild each time
        pass
    return built
