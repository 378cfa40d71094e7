"""A columnar view of a corpus for the facts folds: built once per loaded corpus, or read back
from the persisted cache (`facts/store.py`) without loading the corpus at all.

A census must stay a small fraction of a cold command; a per-event Python loop alone costs more
(docs/performance.md, "Figures that were comments").
So events become columns of small integers (interned project, type, source, provider and session
ids, and the place: project and working folder; 0 always means "unresolved") laid out in one order, **oldest first**:

    positions [0, n_undated)      undated events, in reverse load order
    positions [n_undated, n)      dated events, by time ascending; ties in reverse load order

Read backwards, this is "newest first, ties in load order, undated last in load order", the
order samples and commits are reported in. Oldest first because the common change to a home
is a hook appending rows newer than everything: those extend every column at its end, and a
refresh rebuilds only the suffix from the first position that moved (`rebuild_suffix`).

A time window is one contiguous range found by bisection; each value's *postings* (its
positions, ascending) turn "how many of value v fall in the window" into two bisections.
Samples are the last positions of a value's postings inside the range that carry a real
event_id: the newest checkable ids.

Only the standard library (`array`, `bisect`): the cold CLI must not pay numpy's import, which
costs more than the whole fold. The folds themselves live in `census.py` and `tempo.py`.
"""

from __future__ import annotations

import gc
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from datetime import datetime, timezone

from carto_core.model.events import Event, is_resolved

#: Dimension name -> the Event attribute it interns (`place`: `place_of` the event).
DIMENSIONS = {"project": "project", "type": "type", "source": "source", "provider": "provider",
              "session": "session_id", "place": "place"}


def place_of(project: str, cwd: str) -> str:
    """A row's project and working folder as one value: a project is a folder's last name, so
    a census tells `~/me/api` from `~/clientA/api` by the folders its rows were recorded in
    (`census.project_buckets`). Unresolved ("") for a row of no project."""
    return f"{project}\x00{cwd}" if is_resolved(project) else ""


def names_subagent(row: dict) -> bool:
    """The row's own `milestone` names a subagent's (`agent_...`): what `views.is_high_signal`
    hides whatever the row's type, recorded per winning row (`Columns.subagent`)."""
    milestone = row.get("milestone")
    return isinstance(milestone, str) and milestone.startswith("agent_")


def real_id(event: Event) -> bool:
    """The event carries its row's own event_id (the corpus keys id-less rows by position, and
    such a key never fetches back, so it is counted but never sampled)."""
    return is_resolved(event.row.get("event_id") if event.row else event.event_id)


class Dimension:
    """One interned column: `names[i]` is the value of id i (`names[0]` is None, unresolved)."""

    def __init__(self, name: str, names: list | None = None):
        self.name = name
        self.names: list[str | None] = [None] + list(names or [])
        self.ids: dict[str, int] = {value: ident for ident, value in enumerate(self.names) if ident}
        self.col = array("i")
        self.postings: list[array] = [array("i") for _ in self.names]
        #: Per position, 1 when the event carries a real event_id (what a sample may show);
        #: the owning `Columns` shares its `has_id` here.
        self.has_id: bytearray = bytearray()

    def intern(self, value) -> int:
        """The id of a value (0 for an unresolved one), adding it on first sight."""
        ident = self.ids.get(value)
        if ident is not None:
            return ident
        if not is_resolved(value):
            return 0
        if ident is None:
            ident = self.ids[value] = len(self.names)
            self.names.append(value)
            self.postings.append(array("i"))
        return ident

    def count_in(self, ident: int, lo: int, hi: int) -> int:
        plist = self.postings[ident]
        return bisect_left(plist, hi) - bisect_left(plist, lo)

    def newest_in(self, ident: int, lo: int, hi: int, k: int,
                  keep: Callable[[int], int] | None = None) -> list[int]:
        """Up to k positions of value `ident` with a real event_id inside [lo, hi) (and for
        which `keep(position)` is true, when given), newest first."""
        if k <= 0:
            return []
        plist = self.postings[ident]
        has_id = self.has_id
        start = bisect_left(plist, lo)
        index = bisect_left(plist, hi) - 1
        out: list[int] = []
        while index >= start and len(out) < k:
            position = plist[index]
            if has_id[position] and (keep is None or keep(position)):
                out.append(position)
            index -= 1
        return out

    def compact(self) -> None:
        """Drop the values no position holds any more (the events that held them were
        rewritten away or forgotten), renumbering the rest in their order."""
        used = [ident for ident in range(1, len(self.names)) if self.postings[ident]]
        if len(used) == len(self.names) - 1:
            return
        renumber = [0] * len(self.names)
        for new, old in enumerate(used, 1):
            renumber[old] = new
        self.names = [None] + [self.names[ident] for ident in used]
        self.ids = {value: ident for ident, value in enumerate(self.names) if ident}
        self.postings = [self.postings[0]] + [self.postings[ident] for ident in used]
        self.col = array("i", [renumber[code] for code in self.col])

    def truncate(self, cut: int) -> None:
        """Forget every position >= cut."""
        del self.col[cut:]
        for plist in self.postings:
            if plist and plist[-1] >= cut:
                del plist[bisect_left(plist, cut):]


class Records:
    """Events waiting to be placed: parallel lists, values already interned."""

    __slots__ = ("ts", "lkey", "length", "has_id", "codes", "ids")

    def __init__(self):
        self.ts: list[float | None] = []
        #: Load-order key: smaller = earlier in `corpus.load_corpus` order (the fold's winner).
        self.lkey: list[int] = []
        #: Byte length of the row (0 when the event lives in memory).
        self.length: list[int] = []
        self.has_id: list[int] = []
        self.codes: dict[str, list[int]] = {name: [] for name in DIMENSIONS}
        #: The event ids of new events (re-placed ones carry ""): the id index learns them.
        self.ids: list[str] = []

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, ts, lkey: int, length: int, has_id: int, codes: dict[str, int], event_id: str) -> None:
        self.ts.append(ts)
        self.lkey.append(lkey)
        self.length.append(length)
        self.has_id.append(has_id)
        for name, column in self.codes.items():
            column.append(codes[name])
        self.ids.append(event_id)


class Columns:
    """The corpus as columns; positions index every column, `event_at(p)` gives the Event."""

    def __init__(self, names: dict[str, list] | None = None):
        names = names or {}
        self.n = 0
        self.n_undated = 0
        #: Dated positions only: `epoch[p - n_undated]`, ascending.
        self.epoch = array("d")
        self.lkey = array("q")
        self.length = array("i")
        self.dims = {name: Dimension(name, names.get(name)) for name in DIMENSIONS}
        self.has_id = bytearray()
        #: position -> event_id. Ids are not kept in the columns: the cache reads them back
        #: from the row (`lkey`, `length`); columns over a corpus ask the event.
        self.id_of: Callable[[int], str] | None = None
        #: load key -> event id of the events whose row has no usable event_id of its own
        #: (named by position, `<log>-<line>`: a read-back cannot tell the line number).
        self.fallback: dict[int, str] = {}
        #: Load keys, ascending, of the events whose row `names_subagent` (a row's field the
        #: columns hold no value of: the explorer's list asks it of every event).
        self.subagent = array("q")
        #: Rows that repeated an event_id already seen (folded away), and rows read in all.
        self.duplicates = 0
        self.rows = 0
        #: position -> Event (in memory: the corpus; from the cache: the row read back).
        self.resolver: Callable[[int], Event] | None = None
        self.share_has_id()

    @property
    def n_dated(self) -> int:
        return self.n - self.n_undated

    # -- building ---------------------------------------------------------------------------

    def intern_event(self, event: Event) -> dict[str, int]:
        return {name: self.dims[name].intern(place_of(event.project, event.cwd) if name == "place"
                                             else getattr(event, attribute))
                for name, attribute in DIMENSIONS.items()}

    def place(self, records: Records) -> None:
        """Lay records out after the current last position (the caller guarantees they all
        belong there: a full build, or a suffix rebuilt by `rebuild_suffix`)."""
        ts, lkey = records.ts, records.lkey
        indices = sorted(range(len(records)), key=lkey.__getitem__, reverse=True)
        undated = [i for i in indices if ts[i] is None]
        dated = [i for i in indices if ts[i] is not None]
        dated.sort(key=ts.__getitem__)  # stable: ties stay in reverse load order
        if undated and self.n_dated:
            raise ValueError("undated events can only be placed before every dated one")
        self._append(records, undated, dated=False)
        self._append(records, dated, dated=True)

    def _append(self, records: Records, order: list[int], *, dated: bool) -> None:
        if not order:
            return
        start = self.n
        positions = range(start, start + len(order))
        if dated:
            stamps = [records.ts[i] for i in order]
            self.epoch.extend(stamps)
        else:
            self.n_undated += len(order)
        self.lkey.extend([records.lkey[i] for i in order])
        self.length.extend([records.length[i] for i in order])
        self.has_id.extend(bytes(records.has_id[i] for i in order))
        for name, dim in self.dims.items():
            codes = records.codes[name]
            column = [codes[i] for i in order]
            dim.col.extend(column)
            postings = dim.postings
            for position, code in zip(positions, column):
                postings[code].append(position)
        self.n += len(order)

    def records_from(self, cut: int, skip: set[int] = frozenset()) -> Records:
        """The events at positions >= cut (except `skip`) as records, to be placed again."""
        out = Records()
        u = self.n_undated
        for position in range(cut, self.n):
            if position in skip:
                continue
            out.add(self.epoch[position - u] if position >= u else None, self.lkey[position],
                    self.length[position], self.has_id[position],
                    {name: dim.col[position] for name, dim in self.dims.items()}, "")
        return out

    def truncate(self, cut: int) -> None:
        """Forget every position >= cut."""
        u = self.n_undated
        if cut < u:
            self.n_undated = cut
        del self.epoch[max(0, cut - u):]
        del self.lkey[cut:]
        del self.length[cut:]
        del self.has_id[cut:]
        for dim in self.dims.values():
            dim.truncate(cut)
        self.n = cut

    def insertion_point(self, ts: float | None) -> int:
        """The first position a new event with time `ts` could take (ties included)."""
        if ts is None:
            return 0
        return self.n_undated + bisect_left(self.epoch, ts)

    def rebuild_suffix(self, new: Records, killed: set[int]) -> int:
        """Merge new events in and drop `killed` positions, re-laying out only the positions
        from the first one that changes. Returns that cut (n when nothing moved)."""
        cut = min([self.insertion_point(t) for t in new.ts] + list(killed) + [self.n])
        if cut < self.n_undated:
            # An undated event moves: undated positions come first, so everything is re-laid.
            cut = 0
        moved = self.records_from(cut, killed)
        for i in range(len(new)):
            moved.add(new.ts[i], new.lkey[i], new.length[i], new.has_id[i],
                      {name: new.codes[name][i] for name in DIMENSIONS}, new.ids[i])
        self.truncate(cut)
        self.place(moved)
        return cut

    # -- reading ----------------------------------------------------------------------------

    def window(self, since: datetime | None, before: datetime | None) -> tuple[int, int]:
        """The range [lo, hi) of dated positions with since <= time <= before."""
        u = self.n_undated
        lo = u if since is None else u + bisect_left(self.epoch, since.timestamp())
        hi = self.n if before is None else u + bisect_right(self.epoch, before.timestamp())
        return lo, max(lo, hi)

    def half_open(self, start: datetime, end: datetime) -> tuple[int, int]:
        """Dated positions with start <= time < end (a day)."""
        u = self.n_undated
        lo = u + bisect_left(self.epoch, start.timestamp())
        hi = u + bisect_left(self.epoch, end.timestamp())
        return lo, max(lo, hi)

    def timestamp_at(self, position: int) -> datetime | None:
        if position < self.n_undated:
            return None
        return datetime.fromtimestamp(self.epoch[position - self.n_undated], tz=timezone.utc)

    def event_id(self, position: int) -> str:
        return self.id_of(position)

    def share_has_id(self) -> None:
        """Point every dimension at `has_id` (after it is replaced, e.g. by a load)."""
        for dim in self.dims.values():
            dim.has_id = self.has_id

    def event_at(self, position: int) -> Event:
        return self.resolver(position)


def build_from_events(events: list[Event]) -> Columns:
    """Columns of events given in load order (what `corpus.load_corpus` returns)."""
    cols = Columns()
    records = Records()
    for index, event in enumerate(events):
        stamp = event.timestamp
        records.add(stamp.timestamp() if stamp is not None else None, index, 0,
                    1 if real_id(event) else 0, cols.intern_event(event), event.event_id)
    cols.place(records)
    cols.subagent = array("q", [index for index, event in enumerate(events) if names_subagent(event.row)])
    lkey = cols.lkey
    cols.resolver = lambda position: events[lkey[position]]
    cols.id_of = lambda position: events[lkey[position]].event_id
    return cols


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
        built = build_from_events(corpus.events)
    finally:
        if collecting:
            gc.enable()
    built.duplicates = corpus.duplicates
    built.rows = len(corpus.events) + corpus.duplicates
    try:
        corpus._facts_columns = (key, built)
    except AttributeError:  # a corpus type that refuses attributes: rebuild each time
        pass
    return built
