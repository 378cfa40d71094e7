"""The warm corpus of `carto serve`: kept current as the logs change, and loaded only when a
view asks for every event.

Until then it holds no row: its counts (events, duplicates, each log's rows and problems) come
from the facts columns (`carto_core.facts.store`, opened at start and after a rewrite), and an
appended row is folded against their id index (the log of the row that won each id), so the
stream tells a new event from a grown one without the corpus. A load at a million events holds
2 GB; the columns about 80 bytes an event.

Every searched log is watched by its inode, size, mtime and the offset read up to. A log that
grew is read from that offset (only complete lines: a torn tail waits for its newline); a log
that shrank, was replaced (new inode, the rewrite path's rename) or whose bytes before the
offset changed (`reader.boundary_hash`) is reloaded from scratch, so no stale row survives a
rewrite. Checking is a few `stat` calls, cheap enough to run before every request as well as on
the follower's timer; the server is single-threaded (asyncio), so no lock is needed.
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from carto_core.model.corpus import Corpus, load_corpus
from carto_core.model.events import Event
from carto_core.logio.fold import takes_over
from carto_core.logio.home import Home
from carto_core.logio.logs import FOLD_ORDER, SEARCHED_LOGS
from carto_core.logio.reader import ReadReport, boundary_hash, iter_lines, open_log, unreadable


@dataclass
class LogState:
    """Where reading one log stopped, and how to tell whether the bytes before it changed."""

    path: str
    inode: int | None = None
    size: int = 0
    mtime_ns: int = 0
    offset: int = 0
    lines: int = 0
    boundary: str = ""
    torn_tail: bool = False

    @property
    def exists(self) -> bool:
        return self.inode is not None


@dataclass
class Change:
    """What one refresh found."""

    added: list[Event] = field(default_factory=list)
    #: Events a newer row replaced (a live turn that grew), with that row's content.
    updated: list[Event] = field(default_factory=list)
    reloaded: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.added or self.updated or self.reloaded)


def _identity(state: dict | None) -> dict:
    """The identity a log had when its facts columns state was taken (`logstate.identity`)."""
    if not state or not state.get("exists"):
        return {"exists": False}
    return {key: state.get(key) for key in ("exists", "inode", "dev", "generation")}


def _stat(path: str) -> os.stat_result | None:
    """The log's stat; None when it is absent, or cannot be read (`reader.unreadable`: such a
    log is followed as an absent one, and read once it can be)."""
    if unreadable(path):
        return None
    try:
        return os.stat(path)
    except OSError:
        return None


def _folded(seen: list[str], label: str) -> bool:
    """Note a row of log `label` for an id the logs `seen` hold (the winning one first): True
    when that row is the event now (`fold.takes_over`), its log then first."""
    if not takes_over(seen[0], label):
        if label not in seen:
            seen.append(label)
        return False
    if label != seen[0]:
        if label in seen:
            seen.remove(label)
        seen.insert(0, label)
    return True


class LiveCorpus:
    """A `Corpus` that follows its logs. `generation` grows with every change."""

    def __init__(self, home: Home, labels: list[str] | None = None, *, freeze: bool = False,
                 lazy: bool = False):
        """`freeze`: after each (re)load, move every live object out of the cyclic garbage
        collector's reach (`gc.freeze`). A full collection over a large corpus is slow
        (docs/performance.md), paid by whichever request triggers it; the corpus holds no cycles,
        so reference counting still frees it after a reload. For a long-running server only.
        `lazy`: load the corpus on its first use only, counting from the facts columns until
        then (a reader that wants every event anyway loads it at once: opening the columns
        first would only add their cost)."""
        self.freeze = freeze
        self.home = home
        self.labels = list(labels) if labels is not None else list(SEARCHED_LOGS)
        self.generation = 0
        self.reloads = 0
        self.listeners: list[Callable[[Change], None]] = []
        self._cache: dict[str, tuple[int, object]] = {}
        self._corpus: Corpus | None = None
        #: True while the start reads what was appended after the columns (not sent)
        self._pending = False
        from carto_core.facts.store import cache_enabled

        # The columns count every log of the fold: a subset of them is loaded, as is a home
        # whose columns are turned off (`CARTO_FACTS_CACHE=0`).
        if lazy and set(self.labels) == set(FOLD_ORDER) and cache_enabled():
            self._baseline()
        else:
            self._load()
        self.generation += 1

    # -- loading ---------------------------------------------------------------------------

    @property
    def corpus(self) -> Corpus:
        """Every event, loaded on first use (the views that read every event)."""
        if self._corpus is None:
            self.refresh()  # what is new goes out on the stream before the load takes it in
            read_to = {label: state.offset for label, state in self.states.items()}
            self._load()
            if any(state.offset != read_to[label] for label, state in self.states.items()):
                # Rows landed between the refresh and the load: views kept for this
                # generation lack them.
                self.generation += 1
                self._cache.clear()
        return self._corpus  # type: ignore[return-value]

    @property
    def loaded(self) -> bool:
        return self._corpus is not None

    def _load(self) -> None:
        # Stat before reading: if the file changes while it is read, the next check sees a
        # difference and catches up (appends) or reloads (rewrite) rather than missing it.
        stats = {label: _stat(str(self.home.log(label))) for label in self.labels}
        self._corpus = load_corpus(self.home, self.labels)
        self._columns = self._ids = None
        self._seen: dict[str, list[str]] = {}
        self._newest: dict[str, Event] = {}
        self._held: dict[str, int] = {}
        self._later: dict[str, list[str]] = {}
        self.reports = self._corpus.reports
        self.index: dict[str, int] = {e.event_id: i for i, e in enumerate(self._corpus.events)}
        self.states: dict[str, LogState] = {}
        for label in self.labels:
            path = str(self.home.log(label))
            report = self.reports[label]
            self.states[label] = self._state_after(path, stats[label], report.end_offset,
                                                   report.lines, "torn_line" in report.problems)
        if self.freeze:
            gc.freeze()

    def _baseline(self) -> None:
        """Counts and log states from the facts columns (brought up to the logs' ends), then
        what was appended since they were read, folded as a refresh folds it but not sent."""
        from carto_core.facts.store import open_columns

        opened = open_columns(self.home)
        self._columns, self._ids = opened.columns, opened.index
        self._events, self._duplicates = opened.columns.n, opened.columns.duplicates
        #: event id -> the logs holding it, for the ids of rows read since the columns
        self._seen = {}
        #: id -> its position in the columns, for those a row read into the columns held too
        #: (their other logs are not known)
        self._held: dict[str, int] = {}
        #: id -> the logs of its rows read since, in order, for those `_held`
        self._later: dict[str, list[str]] = {}
        #: label -> where the columns' read of the log ended
        self._column_ends: dict[str, int] = {}
        #: label -> the log's identity when the columns read it (`logstate.identity`)
        self._column_identities = {label: _identity(opened.states.get(label)) for label in FOLD_ORDER}
        #: event id -> the event, for the ids whose winning row was read since the columns, in
        #: the order a loaded corpus holds them (a row that takes over moves its event last)
        self._newest: dict[str, Event] = {}
        self.reports: dict[str, ReadReport] = {}
        self.states = {}
        for label in self.labels:
            path = str(self.home.log(label))
            kept = opened.states.get(label) or {}
            st = _stat(path)
            end = int(kept.get("end", 0)) if kept.get("exists") and st is not None else 0
            self._column_ends[label] = end
            self.reports[label] = ReadReport(path, rows=int(kept.get("rows", 0)),
                                             lines=int(kept.get("lines", 0)),
                                             problems=Counter(kept.get("problems") or {}),
                                             end_offset=end)
            state = self.states[label] = self._state_after(path, st, end, int(kept.get("lines", 0)), False)
            if st is not None:
                state.size = state.mtime_ns = -1  # read from `end` now: a torn tail, late rows
        self._pending = True
        self.refresh()
        self._pending = False
        for label, state in self.states.items():
            if state.torn_tail:  # as a load's report counts the last line it could not read
                self.reports[label].problems["torn_line"] += 1
        if self.freeze:
            gc.freeze()

    @staticmethod
    def _state_after(path: str, st: os.stat_result | None, offset: int, lines: int,
                     torn: bool) -> LogState:
        if st is None:
            return LogState(path)
        boundary = boundary_hash(path, offset) if offset else ""
        return LogState(path, st.st_ino, st.st_size, st.st_mtime_ns, offset, lines, boundary, torn)

    # -- following -------------------------------------------------------------------------

    def refresh(self) -> Change:
        """Pick up appended rows; reload everything when a log was rewritten."""
        change = Change()
        rewritten = []
        for label in self.labels:
            state = self.states[label]
            st = _stat(state.path)
            if st is None:
                if state.exists:
                    rewritten.append(label)  # deleted: its rows must go
                continue
            if not state.exists:
                if self._corpus is not None:
                    self._corpus.skipped.pop(label, None)  # there, and readable: no longer left out
                state.inode, state.size, state.mtime_ns = st.st_ino, 0, 0
                if st.st_size == 0:
                    state.size, state.mtime_ns = st.st_size, st.st_mtime_ns
                    continue
            elif st.st_ino != state.inode or st.st_size < state.offset:
                rewritten.append(label)
                continue
            if st.st_size == state.size and st.st_mtime_ns == state.mtime_ns:
                continue
            if state.offset and boundary_hash(state.path, state.offset) != state.boundary:
                rewritten.append(label)
                continue
            self._read_appended(label, state, st, change)
        if self._pending:
            return change  # the baseline's own catch-up: part of the start, not news
        if rewritten:
            if self._corpus is not None:
                self._load()
            else:
                self._baseline()
            self.generation += 1
            self._cache.clear()
            self.reloads += 1
            change.reloaded = rewritten
            change.added, change.updated = [], []
        elif change.added or change.updated:
            self.generation += 1
            self._cache.clear()
        if change:
            for listener in list(self.listeners):
                listener(change)
        return change

    def _read_appended(self, label: str, state: LogState, st: os.stat_result,
                       change: Change) -> None:
        scratch = ReadReport(state.path)
        with open_log(state.path) as handle:
            handle.seek(state.offset)
            data = handle.read()
        for line in iter_lines(state.path, scratch, start=state.offset,
                               start_lineno=state.lines, data=data):
            event = Event.from_row(line.row, label, fallback_id=f"{label}-{line.lineno}")
            outcome = self._fold(event, label)
            if outcome == "new":
                change.added.append(event)
            elif outcome == "replace":
                # Once per event and refresh, with its newest row; new in this refresh: new.
                fresh = [e for e in change.added if e.event_id != event.event_id]
                if len(fresh) < len(change.added):
                    change.added = fresh + [event]
                else:
                    change.updated = [e for e in change.updated if e.event_id != event.event_id]
                    change.updated.append(event)
        report = self.reports[label]
        report.rows += scratch.rows
        report.lines += scratch.lines
        for kind, count in scratch.problems.items():
            if kind == "torn_line":
                continue  # a torn tail is a state of the file now, not a row lost
            report.problems[kind] += count
            report.examples.setdefault(kind, []).extend(scratch.examples.get(kind, []))
            report.examples[kind] = report.examples[kind][:5]
        report.end_offset = scratch.end_offset
        state.torn_tail = "torn_line" in scratch.problems
        state.lines += scratch.lines
        if scratch.end_offset != state.offset:
            state.offset = scratch.end_offset
            state.boundary = boundary_hash(state.path, state.offset)
        # Remember the size actually read, not st_size: a write that landed after the stat
        # is seen next time.
        state.size = st.st_size
        state.mtime_ns = st.st_mtime_ns

    def _fold(self, event: Event, label: str) -> str:
        """Add one appended event under the corpus's fold rule (`carto_core.logio.fold`): "new",
        "replace" (a newer row is the event now) or "duplicate" (nothing changed)."""
        corpus = self._corpus
        if corpus is None:
            return self._fold_counted(event, label)
        seen = corpus.sources.get(event.event_id)
        if seen is None:
            corpus.sources[event.event_id] = [label]
            corpus.by_id[event.event_id] = event
            self.index[event.event_id] = len(corpus.events)
            corpus.events.append(event)
            return "new"
        corpus.duplicates += 1
        if not _folded(seen, label):
            return "duplicate"
        # The newer row is the event now, in its own place (as `load_corpus` folds): the end.
        position = self.index.pop(event.event_id)
        del corpus.by_id[event.event_id]
        corpus.by_id[event.event_id] = event
        # A new list object: caches keyed on the list (the facts columns) rebuild.
        events = list(corpus.events)
        del events[position]
        events.append(event)
        corpus.events = events
        for index in range(position, len(events)):
            self.index[events[index].event_id] = index
        return "replace"

    def _fold_counted(self, event: Event, label: str) -> str:
        """`_fold` without the corpus: the same outcome, from the logs holding the ids read
        since the columns and, for an older id, the log of the row that won it there."""
        event_id = event.event_id
        seen = self._seen.get(event_id)
        if seen is None:
            position = self._ids.position(self._columns, event_id) if self._columns.n else None
            if position is None:
                self._seen[event_id] = [label]
                self._newest[event_id] = event
                self._events += 1
                return "new"
            from carto_core.facts.store import split_lkey

            seen = self._seen[event_id] = [split_lkey(self._columns.lkey[position])[0]]
            self._held[event_id] = position
        if event_id in self._held:
            self._later.setdefault(event_id, []).append(label)
        self._duplicates += 1
        if not _folded(seen, label):
            return "duplicate"
        self._newest.pop(event_id, None)
        self._newest[event_id] = event
        return "replace"

    def get(self, event_id: str) -> Event | None:
        """The event of an id (`Corpus.get`); without the corpus, its winning row read back."""
        if self._corpus is not None:
            return self._corpus.get(event_id)
        event = self._newest.get(event_id)
        if event is not None or not self._columns.n:
            return event
        position = self._ids.position(self._columns, event_id)
        return None if position is None else self._columns.event_at(position)

    @property
    def events(self) -> int:
        """How many events there are: the corpus's, or counted without it."""
        return len(self._corpus) if self._corpus is not None else self._events

    @property
    def duplicates(self) -> int:
        """Rows that repeated an event id already read (folded away)."""
        return self._corpus.duplicates if self._corpus is not None else self._duplicates

    def sources_of(self, event: Event) -> list[str]:
        """The logs the event occurs in, its own first (`Corpus.sources`)."""
        return self.sources_of_many([event])[0]

    def sources_of_many(self, events: list[Event]) -> list[list[str]]:
        """`sources_of` each event; without the corpus, one look-up by id for them all."""
        from carto_core.facts.store import split_lkey

        if self._corpus is not None:
            return [self._corpus.sources.get(e.event_id, [e.source]) for e in events]
        out: list[list[str]] = []
        asked: dict[int, str] = {}  # index in `events` -> the id to look up
        for index, event in enumerate(events):
            event_id = event.event_id
            seen = self._seen.get(event_id)
            if seen is not None and event_id not in self._held:
                out.append(list(seen))
                continue
            position = self._held.get(event_id)
            out.append([event.source if position is None
                        else split_lkey(self._columns.lkey[position])[0]])
            asked[index] = event_id
        if asked:
            # Events a row read into the columns holds: their other logs there (a changelog
            # copy) are read back by id (`lenses.eventlogs`), in load order as a load reads
            # them; then the rows read since fold in as they did.
            from carto_core.lenses.eventlogs import open_event_logs

            holding = open_event_logs(self.home).logs_holding(asked.values(), self._column_ends)
            for index, event_id in asked.items():
                seen = out[index]
                seen += [label for label in holding[event_id] if label not in seen]
                for label in self._later.get(event_id, ()):
                    _folded(seen, label)
        return out

    def current_columns(self):
        """(the facts columns, each log's identity when they read it) while they hold every row
        this corpus read (not loaded, nothing read since they were opened): what opening them
        again would give, for a reader that wants them current (`sessionstore`); else None."""
        if self._corpus is not None or any(
                state.offset != self._column_ends[label] for label, state in self.states.items()):
            return None
        return self._columns, dict(self._column_identities)

    def unloaded_rows(self):
        """(the facts columns, the positions in them whose event a row read since took over,
        the events whose winning row was read since the columns, in corpus order) while the
        corpus is not loaded; None once it is. A loaded corpus holds the columns' events in
        load order, then those read since (`_fold`)."""
        if self._corpus is not None:
            return None
        replaced = [position for event_id, position in self._held.items()
                    if event_id in self._newest]
        return self._columns, replaced, list(self._newest.values())

    # -- derived views, cached per generation ----------------------------------------------

    def cached(self, key: str, build: Callable[[], object]) -> object:
        hit = self._cache.get(key)
        if hit is not None and hit[0] == self.generation:
            return hit[1]
        value = build()
        self._cache[key] = (self.generation, value)
        return value

    def newest_first(self) -> list[Event]:
        """Events sorted newest first; undated events last (stable by log order)."""

        def build():
            dated = [e for e in self.corpus.events if e.timestamp is not None]
            undated = [e for e in self.corpus.events if e.timestamp is None]
            dated.sort(key=lambda e: e.timestamp, reverse=True)
            return dated + undated

        return self.cached("newest_first", build)  # type: ignore[return-value]

    def log_status(self) -> dict:
        out = {}
        for label in self.labels:
            state = self.states[label]
            report = self.reports.get(label)
            out[label] = {
                "exists": state.exists,
                "bytes_read": state.offset,
                "rows": report.rows if report else 0,
                "problems": dict(report.problems) if report else {},
                "torn_tail": state.torn_tail,
            }
        return out


