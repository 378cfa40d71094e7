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

import gc
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
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
        ordered = [events[i] for i in self.order]
        self.event_ids: list[str] = [e.event_id for e in ordered]
        # A real id: the row's own event_id (the corpus keys id-less rows by position).
        self.has_id = bytearray(
            1 if is_resolved(e.row.get("event_id") if e.row else e.event_id) else 0 for e in ordered
        )
        self.dims = {}
        for name, attribute in (("project", "project"), ("type", "type"), ("source", "source"),
                                ("provider", "provider"), ("session", "session_id")):
            self.dims[name] = self._column(name, [getattr(e, attribute) for e in ordered])

    def _column(self, name: str, values: list) -> Dimension:
        """Intern one column with C-speed passes: map each distinct value once, then group
        positions by id with one stable sort (positions stay ascending within an id)."""
        dim = Dimension(name, 0)
        idmap = {value: (dim.intern(value) if is_resolved(value) else 0) for value in dict.fromkeys(values)}
        col = list(map(idmap.__getitem__, values))
        dim.col = array("i", col)
        by_id = sorted(range(len(col)), key=col.__getitem__)
        counts = Counter(col)
        has_id = self.has_id
        offset = 0
        for ident in range(len(dim.names)):
            size = counts.get(ident, 0)
            chunk = by_id[offset:offset + size]
            offset += size
            dim.postings[ident] = array("i", chunk)
            dim.id_postings[ident] = array("i", compress(chunk, map(has_id.__getitem__, chunk)))
        return dim

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
    # Building allocates a few hundred thousand small objects next to a corpus of millions:
    # with the collector on, its full passes over the corpus cost more than the build itself.
    collecting = gc.isenabled()
    gc.disable()
    try:
        built = Columns(corpus.events)
    finally:
        if collecting:
            gc.enable()
    try:
        corpus._facts_columns = (key, built)
    except AttributeError:  # a corpus type that refuses attributes: rebuild each time
        pass
    return built
