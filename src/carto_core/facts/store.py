"""The persisted facts columns: `<home>/.carto/facts/columns.bin`, so a one-shot
`carto facts census` reads a file instead of loading every event.

What is stored is exactly the in-memory `Columns` (facts/columns.py): the oldest-first layout,
per-position load key (log and byte offset of the row that won the fold) and row length, the
interned columns with their postings and the string tables (event ids are read back from the
rows; those of id-less rows, `<log>-<line>`, are in the header), the load keys of the rows
naming a subagent's milestone (`Columns.subagent`), plus the state of every log it
was built from (`carto_core.logio.logstate`: inode, device, rewrite generation, the offset after the
last complete line consumed, the line count there, and SHA-1 fingerprints of up to 4096 bytes at
the start of the log and before that offset).

A build streams the logs chunk by chunk (`carto_core.model.logstream.Fold`) and keeps only a few
numbers per new event; the layout is one numpy sort at the end (numpy is imported by builds
only: the cold fresh path stays stdlib).

On open each log is compared with its state (`log_status`):

- unchanged: nothing to read;
- grown (same inode and generation, not shorter, same fingerprints): the rows after the last
  consumed offset are folded in (`reader.iter_lines(start=...)`) by the same rule as
  `corpus.load_corpus` (`carto_core.logio.fold`: within a log the newest row wins its event_id, a
  domain row wins over its changelog copy; the event takes its winning row's load key), and
  only the layout suffix from the first position that moves is re-laid
  (`Columns.rebuild_suffix`): a hook's rows are newer than everything and extend the columns at
  their end;
- rewritten, truncated or replaced: that log alone is read again and patched in (`patch`);
  vanished, an event such a log owned that it no longer holds, or a cache of another version or
  byte order: everything is rebuilt from the logs.

After a build, and once appended rows add up (`SAVE_AFTER_ROWS`, `SAVE_AFTER_RELAID`), the file
is rewritten (a temporary file renamed over it, so a reader sees the old file or the new one,
whole); smaller appends are folded in again by each call, which is cheaper than the rewrite. Failing to write (a read-only home) only costs the
next call the same work. The cache is state, derived and deletable; building it never writes
to a log or a telemetry file.

Only the standard library on the read path: arrays are `array.array` bytes, read straight
into their arrays.
Why not reuse the search index's persisted columns (`<home>/.carto/search/`)? They lack the
provider column and the real-id flag, keep a non-string project in another form than `Event`
does, and building them tokenizes every row (several times the cost of this fold); keeping the
facts on their own file also leaves the search index's format free to change.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
import zlib
from array import array
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass, field
from pathlib import Path

from carto_core.util import heap, progress
from carto_core.model.events import Event, fold_fields, is_resolved
from carto_core.facts.columns import DIMENSIONS, Columns, Records, names_subagent, place_of, real_id
from carto_core.logio.fold import takes_over
from carto_core.logio.home import Home
from carto_core.logio.jsonl import fast_loads_line, loads_line
from carto_core.logio.logs import FOLD_ORDER
from carto_core.logio.logstate import identity, log_state, log_status
from carto_core.logio.reader import ReadReport, iter_lines, open_log, unreadable
from carto_core.util.privatefiles import make_dirs, open_private
from carto_core.util.timeparse import epoch_seconds

#: 4: no day column (a position's UTC day is `epoch // 86400`, what the column held: 4 bytes
#: an event, 5 % of the cache, for one lens that bisects on it); 5: the place column (project and
#: working folder: a census tells two folders of one name apart); 6: each log's state holds the
#: problems its reads counted (`problems`: what `carto serve`'s health shows without a load);
#: 7: the load keys of the rows naming a subagent's milestone (`Columns.subagent`: what the
#: explorer's list hides, a field of the row no column holds)
VERSION = 7
MAGIC = b"CARTOFACTS\n"
#: The fold order of `corpus.load_corpus`: domain logs first, the changelog last.
LOAD_ORDER: tuple[str, ...] = FOLD_ORDER
RANK = {label: rank for rank, label in enumerate(LOAD_ORDER)}
_SHIFT = 40  # lkey = rank << 40 | byte offset: logs up to 1 TiB
ENV_SWITCH = "CARTO_FACTS_CACHE"
#: An append is saved once this many rows were read since the file was written, or this many
#: positions had to be re-laid (a backfill of old rows): below that, redoing it is cheaper.
SAVE_AFTER_ROWS = 256
SAVE_AFTER_RELAID = 20000


def cache_enabled(env=None) -> bool:
    """`CARTO_FACTS_CACHE=0` (or off/no/false) turns the persisted columns off: every call
    loads the corpus, as before the cache existed."""
    value = (env if env is not None else os.environ).get(ENV_SWITCH, "")
    return value.strip().lower() not in ("0", "off", "no", "false")


def cache_path(home: Home) -> Path:
    return home.state / "facts" / "columns.bin"


def lkey_of(label: str, offset: int) -> int:
    return RANK[label] << _SHIFT | offset


def split_lkey(lkey: int) -> tuple[str, int]:
    return LOAD_ORDER[lkey >> _SHIFT], lkey & ((1 << _SHIFT) - 1)


@dataclass
class Opened:
    """What `open_columns` did: `state` is built, rebuilt, appended, fresh or memory (not
    persisted: the cache could not be written); `ms` the time it took; `rows` read from logs."""

    columns: Columns
    state: str
    ms: float
    rows_read: int = 0
    reasons: dict = field(default_factory=dict)
    saved: bool = False
    #: label -> why, for each log left out because it cannot be read (`reader.unreadable`).
    skipped: dict = field(default_factory=dict)
    #: label -> the log's state the columns were brought up to (`logstate.log_state`, with
    #: `rows` and `problems`), and the id index of the winning rows.
    states: dict = field(default_factory=dict)
    index: "IdIndex | None" = None


# --------------------------------------------------------------------------- the id index


def _crc(event_id: str) -> int:
    return zlib.crc32(event_id.encode("utf-8", "surrogatepass"))


class IdIndex:
    """event_id -> position for the fold of appended rows, persisted with the columns.

    Sorted CRC-32s of every id with, in parallel, the event's load key: a load key names the
    row that won the fold, so it does not change when positions are re-laid (only a replaced
    event's does). A lookup is a bisection; a hit is confirmed against the stored id."""

    #: Beyond this many hits in one append, load key -> position is a dict, not a scan.
    SCANS = 16

    def __init__(self, hashes: array, lkeys: array):
        self.hashes, self.lkeys = hashes, lkeys
        self._position: dict[int, int] | None = None
        self._scans = 0

    @classmethod
    def build(cls, ids: list[str], lkeys: list[int]) -> "IdIndex":
        pairs = sorted(zip(map(_crc, ids), lkeys))
        return cls(array("I", [h for h, _ in pairs]), array("q", [k for _, k in pairs]))

    def position(self, cols: Columns, event_id: str) -> int | None:
        h = _crc(event_id)
        i = bisect_left(self.hashes, h)
        while i < len(self.hashes) and self.hashes[i] == h:
            position = self._position_of(cols, self.lkeys[i])
            if position is not None and cols.event_id(position) == event_id:
                return position
            i += 1
        return None

    def _position_of(self, cols: Columns, lkey: int) -> int | None:
        if self._position is None:
            self._scans += 1
            if self._scans <= self.SCANS:
                try:
                    return cols.lkey.index(lkey)  # one C-speed scan
                except ValueError:
                    return None
            self._position = dict(zip(cols.lkey, range(cols.n)))
        return self._position.get(lkey)

    def update(self, added: list[tuple[str, int]], removed: set[int]) -> None:
        """Add (id, load key) pairs and drop the entries of removed load keys."""
        if removed:
            keep = [(h, k) for h, k in zip(self.hashes, self.lkeys) if k not in removed]
            self.hashes = array("I", [h for h, _ in keep])
            self.lkeys = array("q", [k for _, k in keep])
        if len(added) > 1000:
            # Many rows (a backfill): one vectorised merge beats thousands of array inserts.
            import numpy as np

            hashes = np.concatenate([np.frombuffer(self.hashes, np.uint32),
                                     np.fromiter((_crc(i) for i, _ in added), np.uint32, len(added))])
            lkeys = np.concatenate([np.frombuffer(self.lkeys, np.int64),
                                    np.fromiter((k for _, k in added), np.int64, len(added))])
            order = np.lexsort((lkeys, hashes))
            self.hashes = _typed("I", hashes[order].tobytes())
            self.lkeys = _typed("q", lkeys[order].tobytes())
        else:
            for event_id, lkey in added:
                h = _crc(event_id)
                i = bisect_right(self.hashes, h)
                self.hashes.insert(i, h)
                self.lkeys.insert(i, lkey)
        self._position = None
        self._scans = 0


# --------------------------------------------------------------------------- folding rows


def _read(home: Home, label: str, start: int, start_lineno: int):
    """(report, lines) of one log from byte `start` (complete lines only)."""
    path = home.log(label)
    report = ReadReport(str(path))
    return report, iter_lines(path, report, start=start, start_lineno=start_lineno,
                              loads=fast_loads_line)


def lost_rows(report: ReadReport) -> dict:
    """A read's problems but a torn tail: that is the state of the file's end when it was read
    (its line is read again once whole), not a row lost; `problems` of a log's state sums these."""
    return {kind: count for kind, count in report.problems.items() if kind != "torn_line"}


def _own_id(row: dict) -> bool:
    """The row names its event with its own event_id (else the fold keys it by position)."""
    event_id = row.get("event_id")
    return event_id.__class__ is str and is_resolved(event_id)


def _size(path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def build(home: Home) -> tuple[Columns, dict, IdIndex]:
    """Columns, log states and id index from scratch (the fold of `corpus.load_corpus`),
    streamed: the logs are read chunk by chunk (`logstream.Fold`), each new event keeps a few
    numbers in compact arrays, and the layout is one numpy sort at the end (memory: about 45
    bytes an event, not the corpus)."""
    return _build(home, Columns(), LOAD_ORDER)


def _build(home: Home, cols: Columns, labels, kept=None) -> tuple[Columns, dict, IdIndex]:
    """Fold the logs `labels` (in load order) into `cols` and lay everything out. `kept`
    (a patch) brings events of logs not read again: (arrays, lookup, rows, states)."""
    import numpy as np

    from carto_core.model.logstream import Fold

    nan = float("nan")
    # Each column is kept as the exact-size numpy arrays of the chunks read, joined once at
    # the end: arrays grown row by row (what this did) were reallocated amid each chunk's
    # freed rows and left heap holes that grew with the corpus (docs/performance.md).
    names = ("ts", "lkey", "length", "has_id", "crc") + tuple(DIMENSIONS)
    dtypes = {"ts": np.float64, "lkey": np.int64, "length": np.int32, "has_id": np.uint8,
              "crc": np.uint32, **{name: np.int32 for name in DIMENSIONS}}
    parts: dict[str, list] = {name: [] for name in names}
    ranks = bytearray()  # the log (its rank) of every event number: what `newer_row` asks
    if kept is not None:
        arrays, lookup, rows, states = kept
        for name in names:
            parts[name].append(np.asarray(arrays[name], dtypes[name]))
        ranks.extend((np.asarray(arrays["lkey"], np.int64) >> _SHIFT).astype(np.uint8).tobytes())
    else:
        lookup, rows, states = None, 0, {}
    fields = ("type", "provider", "session", "project", "place")  # `fold_fields`, then the place
    interns = [cols.dims[name].intern for name in fields]
    fallback: dict[int, str] = dict(cols.fallback)
    subagent = list(cols.subagent)

    def newer_row(held: int, label: str, line) -> bool:
        # `held` numbers an event read before, or a row of the chunk being numbered (not
        # recorded yet: the same log, a newer row).
        held_label = label if held >= len(ranks) else LOAD_ORDER[ranks[held]]
        return takes_over(held_label, label)

    fold = Fold(len(ranks), takes_over=newer_row, lookup=lookup)
    retired: list[int] = []
    # A first build of a large home takes a while: say so on a terminal (`util.progress`).
    sizes = [_size(home.log(label)) for label in labels]
    bar = progress.start("reading the logs into the facts columns (once: later runs reuse them)", "bytes")
    for number, label in enumerate(labels):
        read = sum(sizes[:number])
        path = home.log(label)
        if unreadable(path):
            # Folded as an absent log (the state says so): once it can be read, its rows are
            # read as those of a log that appeared.
            states[label] = {**log_state(path, 0, 0, {"exists": False}), "rows": 0, "problems": {}}
            continue
        before = identity(path)
        report = ReadReport(str(path))
        rank = RANK[label] << _SHIFT
        source = cols.dims["source"].intern(label)
        for chunk in fold.chunks(path, label, report=report):
            rows += len(chunk)
            bar.step(read + chunk.lines[-1].end, sum(sizes))
            retired.extend(chunk.retired)
            lines, ids = chunk.lines, chunk.ids
            ts, lkeys, lengths, has_id = array("d"), array("q"), array("i"), bytearray()
            crcs = array("I")
            columns = [array("i") for _ in fields]
            for i in np.flatnonzero(chunk.new).tolist():
                line = lines[i]
                row, event_id = line.row, ids[i]
                # Event.from_row's normalisation of what the facts keep, without the Event.
                stamp = epoch_seconds(row.get("timestamp"))
                ts.append(nan if stamp is None else stamp)
                lkey = rank | line.offset
                lkeys.append(lkey)
                lengths.append(line.end - line.offset)
                own = _own_id(row)
                has_id.append(1 if (is_resolved(row.get("event_id")) if row else True) else 0)
                folded = fold_fields(row, event_id)
                cwd = row.get("cwd")
                for intern, column, value in zip(interns, columns, (*folded, place_of(
                        folded[3], "" if cwd is None else cwd if cwd.__class__ is str else str(cwd)))):
                    column.append(intern(value))
                crcs.append(_crc(event_id))
                if not own:
                    fallback[lkey] = event_id
                if row and names_subagent(row):
                    subagent.append(lkey)
            count = len(lkeys)
            ranks.extend(bytes((RANK[label],)) * count)
            for name, values in zip(("ts", "lkey", "length", "has_id", "crc") + fields,
                                    [ts, lkeys, lengths, has_id, crcs] + columns):
                parts[name].append(np.frombuffer(values, dtypes[name]).copy())
            parts["source"].append(np.full(count, source, np.int32))
        states[label] = {**log_state(path, report.end_offset, report.lines, before),
                         "rows": report.rows, "problems": lost_rows(report)}
    bar.close()
    # The fold's id table (20 bytes an event, more while its runs merge) is not needed by the
    # layout: gone before it, not held through its peak.
    del fold, newer_row, ranks
    keep = None
    if retired:
        # Events a newer row took over (a live turn that grew): their entries go.
        keep = np.ones(sum(map(len, parts["lkey"])), np.bool_)
        keep[np.asarray(retired, np.int64)] = False
    del retired
    data: dict[str, np.ndarray] = {}
    for name in names:  # one column at a time: its chunks go as it is joined
        chunks = parts.pop(name)
        if keep is not None:
            if name == "lkey":
                joined = np.concatenate(chunks)
                gone = set(joined[~keep].tolist())
                for lkey in gone:  # a retired row's own name goes with it
                    fallback.pop(lkey, None)
                subagent = [lkey for lkey in subagent if lkey not in gone]
                del joined, gone
            at = 0
            for i, values in enumerate(chunks):  # the kept rows of each chunk, in place
                chunks[i] = values[keep[at:at + len(values)]]
                at += len(values)
        data[name] = np.concatenate(chunks) if chunks else np.zeros(0, dtypes[name])
        del chunks
        heap.release()  # the chunks just freed: not under the next column
    del keep
    n = len(data["lkey"])
    stamps, keys = data.pop("ts"), data.pop("lkey")
    # Oldest first: undated in reverse load order, then dated by time, ties in reverse load
    # order (the layout `Columns.place` makes; numbers grow with the load key). Memory: the
    # arrays above and `order`; each output column is gathered from its input into its own
    # array and the input dropped before the next (`_gather`), so the layout's peak is a few
    # bytes an event over what it keeps, not a copy of everything. A build reads the logs in
    # load order, so the load keys grow with the position: reverse load order is reverse
    # position, and one stable sort of the times read backwards (NaN, the undated, sorted
    # last) is the whole layout, at a third of the lexsort's scratch memory. A patch brings
    # kept events first, not in that order: the lexsort.
    ascending = bool((keys[1:] > keys[:-1]).all()) if n > 1 else True
    order = np.empty(n, np.int32 if n < 2 ** 31 else np.int64)
    if ascending:
        backwards = np.argsort(stamps[::-1], kind="stable")
        np.subtract(n - 1, backwards, out=backwards)  # -> positions
        undated = int(np.count_nonzero(np.isnan(stamps)))
        order[:undated] = backwards[n - undated:]
        order[undated:] = backwards[:n - undated]
        del backwards
    else:
        dated = ~np.isnan(stamps)
        before = np.flatnonzero(~dated)
        when = np.flatnonzero(dated)
        del dated
        before = before[np.argsort(-keys[before], kind="stable")]
        when = when[np.lexsort((-keys[when], stamps[when]))]
        undated = len(before)
        order[:undated] = before
        order[undated:] = when
        del before, when
    cols.n, cols.n_undated = n, undated
    cols.epoch = _gather("d", stamps, order[undated:])
    del stamps
    cols.length = _gather("i", data.pop("length"), order)
    cols.has_id = bytearray(_gather("B", data.pop("has_id"), order))
    cols.share_has_id()
    for name, dim in cols.dims.items():
        dim.col = _gather("i", data.pop(name), order)
        column = np.frombuffer(dim.col, np.int32) if n else np.zeros(0, np.int32)
        positions = np.argsort(column, kind="stable")
        counts = np.bincount(column, minlength=len(dim.names)).tolist()
        del column
        dim.postings = []
        at = 0
        for count in counts:  # (int32 a list at a time: no int32 copy of all of them)
            dim.postings.append(_gather("i", positions[at:at + count], None))
            at += count
        del positions
    hashes = data.pop("crc")
    # By hash, ties by load key: with keys in position order, a stable sort of the hashes.
    by_hash = (np.argsort(hashes, kind="stable") if ascending else np.lexsort((keys, hashes)))
    index = IdIndex(_gather("I", hashes, by_hash), _gather("q", keys, by_hash))
    del hashes, by_hash
    cols.lkey = _gather("q", keys, order)
    del keys, order
    cols.fallback = fallback
    cols.subagent = array("q", sorted(subagent))
    cols.rows = rows
    cols.duplicates = rows - n
    return cols, states, index


def patch(home: Home, cols: Columns, states: dict, index: IdIndex,
          stale: list[str], forgotten=None) -> tuple[Columns, dict, IdIndex] | None:
    """The columns after the `stale` logs were rewritten or truncated, reading only those logs
    again: the events they owned are dropped, they are folded in again (an id another log's
    event holds is a duplicate or takes it over, by the rule of `carto_core.logio.fold`) and all is
    laid out again from the columns. None (build instead) when only a full read can tell: a
    cache without per-log row counts, a log gone or that cannot be read, or an event a stale
    log owned that it no longer holds (a copy of it in a later log would be the event now),
    unless `forgotten` (event ids whose rows left every log: `carto forget`) names it. Values
    no event holds any more (a forgotten project's name) leave the string tables."""
    import numpy as np

    # A log that cannot be read is one gone (as its rows are read back to confirm an id).
    if any(not home.log(label).exists() or unreadable(home.log(label))
           or "rows" not in (states.get(label) or {}) for label in stale):
        return None
    n = cols.n
    lkey = np.frombuffer(cols.lkey, np.int64) if n else np.zeros(0, np.int64)
    stale_ranks = {RANK[label] for label in stale}
    drop = np.isin(lkey >> _SHIFT, sorted(stale_ranks))
    pair_lkeys = np.frombuffer(index.lkeys, np.int64) if n else np.zeros(0, np.int64)
    pair_crcs = np.frombuffer(index.hashes, np.uint32) if n else np.zeros(0, np.uint32)
    by_lkey = np.argsort(pair_lkeys)
    crc = pair_crcs[by_lkey][np.searchsorted(pair_lkeys[by_lkey], lkey)] if n else pair_crcs
    owned_before = crc[drop]
    keep = np.flatnonzero(~drop)
    stamps = np.full(n, np.nan)
    stamps[cols.n_undated:] = np.frombuffer(cols.epoch, np.float64) if cols.n_dated else []
    arrays = {"ts": stamps[keep], "lkey": lkey[keep], "crc": crc[keep].astype(np.uint32),
              "length": np.frombuffer(cols.length, np.int32)[keep] if n else np.zeros(0, np.int32),
              "has_id": np.frombuffer(bytes(cols.has_id), np.uint8)[keep]}
    for name, dim in cols.dims.items():
        arrays[name] = np.frombuffer(dim.col, np.int32)[keep] if n else np.zeros(0, np.int32)

    def lookup(ids: list[str]) -> np.ndarray:
        """The kept event holding each id (its number in `arrays`), -1 for none."""
        out = np.full(len(ids), -1, np.int64)
        for i, event_id in enumerate(ids):
            position = index.position(cols, event_id)
            if position is not None and (cols.lkey[position] >> _SHIFT) not in stale_ranks:
                out[i] = int(np.searchsorted(keep, position))
        return out

    fresh = Columns({name: dim.names[1:] for name, dim in cols.dims.items()})
    fresh.fallback = {k: v for k, v in cols.fallback.items() if (k >> _SHIFT) not in stale_ranks}
    fresh.subagent = array("q", [k for k in cols.subagent if (k >> _SHIFT) not in stale_ranks])
    rows = cols.rows - sum(int(states[label]["rows"]) for label in stale)
    kept_states = {label: state for label, state in states.items() if label not in stale}
    new_cols, new_states, new_index = _build(
        home, fresh, [label for label in LOAD_ORDER if label in stale],
        kept=(arrays, lookup, rows, kept_states))
    after_lkeys = np.frombuffer(new_index.lkeys, np.int64) if new_cols.n else np.zeros(0, np.int64)
    owned_after = np.frombuffer(new_index.hashes, np.uint32)[
        np.isin(after_lkeys >> _SHIFT, sorted(stale_ranks))] if new_cols.n else owned_before[:0]
    if forgotten:
        gone = np.fromiter((_crc(event_id) for event_id in forgotten), np.uint32)
        owned_before = owned_before[~np.isin(owned_before, gone)]
    if not _covers(owned_after, owned_before):
        return None  # an event a rewritten log owned is gone from it
    for dim in new_cols.dims.values():
        dim.compact()
    return new_cols, new_states, new_index


def _covers(after, before) -> bool:
    """Every value of `before` occurs in `after` at least as often (multisets of CRCs: an id
    back in its log comes back with its CRC)."""
    import numpy as np

    if not len(before):
        return True
    values, wanted = np.unique(before, return_counts=True)
    have, counts = np.unique(after, return_counts=True)
    slot = np.minimum(np.searchsorted(have, values), max(len(have) - 1, 0))
    if not len(have):
        return False
    return bool(((have[slot] == values) & (counts[slot] >= wanted)).all())


def _without(records: Records, dead: set[int]) -> Records:
    """`records` minus the entries at the indices in `dead` (rows a newer row replaced)."""
    out = Records()
    for i in range(len(records)):
        if i not in dead:
            out.add(records.ts[i], records.lkey[i], records.length[i], records.has_id[i],
                    {name: column[i] for name, column in records.codes.items()}, records.ids[i])
    return out


def _remove(keys: array, key: int) -> None:
    """Take `key` out of the ascending `keys`, if there."""
    at = bisect_left(keys, key)
    if at < len(keys) and keys[at] == key:
        del keys[at]


def append(home: Home, cols: Columns, states: dict, grown: list[str], index: IdIndex) -> tuple[int, int]:
    """Fold the rows appended to the `grown` logs into `cols` (in place); returns (rows read,
    positions re-laid)."""
    new = Records()
    own: dict[str, tuple[int, str]] = {}  # event_id -> (index in `new`, log of that row)
    dead: set[int] = set()  # indices in `new` that a newer row replaced
    killed: set[int] = set()
    subagent: dict[int, int] = {}  # index in `new` -> load key, of the rows naming a subagent
    rows = 0
    for label in LOAD_ORDER:
        if label not in grown:
            continue
        state = states.get(label) or {}
        start, start_lines = state.get("end", 0), state.get("lines", 0)
        before = identity(home.log(label))
        report, lines = _read(home, label, start, start_lines)
        for line in lines:
            rows += 1
            event = Event.from_row(line.row, label, fallback_id=f"{label}-{line.lineno}")
            event_id = event.event_id
            lkey = lkey_of(label, line.offset)
            mine = own.get(event_id)
            if mine is not None:
                if not takes_over(mine[1], label):
                    continue  # the row read earlier in this append keeps the id
                dead.add(mine[0])
            else:
                position = index.position(cols, event_id)
                if position is not None and position not in killed:
                    if not takes_over(split_lkey(cols.lkey[position])[0], label):
                        continue  # the stored row keeps the id
                    # A newer row of the same log, or a domain row after its changelog copy.
                    killed.add(position)
            own[event_id] = (len(new), label)
            if not _own_id(line.row):
                cols.fallback[lkey] = event_id
            if names_subagent(line.row):
                subagent[len(new)] = lkey
            stamp = event.timestamp
            new.add(stamp.timestamp() if stamp is not None else None, lkey,
                    line.end - line.offset, 1 if real_id(event) else 0, cols.intern_event(event),
                    event_id)
        rows_before = int(state.get("rows", 0)) if "rows" in state else None
        states[label] = log_state(home.log(label), report.end_offset, start_lines + report.lines,
                                  before)
        if rows_before is not None:
            states[label]["rows"] = rows_before + report.rows
        if "problems" in state:
            problems = dict(state["problems"])
            for kind, count in lost_rows(report).items():
                problems[kind] = problems.get(kind, 0) + count
            states[label]["problems"] = problems
    if dead:  # (an id-less row is keyed by its line: never replaced, never in `fallback` here)
        new = _without(new, dead)
    relaid = 0
    if len(new) or killed:
        gone = {cols.lkey[p] for p in killed}
        for lkey in gone:
            cols.fallback.pop(lkey, None)
            _remove(cols.subagent, lkey)
        for at, lkey in subagent.items():
            if at not in dead:
                insort(cols.subagent, lkey)
        index.update(list(zip(new.ids, new.lkey)), gone)
        relaid = cols.n + len(new) - len(killed) - cols.rebuild_suffix(new, killed)
    cols.rows += rows
    cols.duplicates = cols.rows - cols.n
    return rows, relaid


# --------------------------------------------------------------------------- the file


def _arrays(cols: Columns, index: IdIndex) -> list[tuple[str, list]]:
    """(name, parts) of every array in file order: a file array is its parts one after the
    other (a dimension's postings are its lists of positions), written as they are."""
    out: list[tuple[str, list]] = [(name, [value]) for name, value in (
        ("id_hash", index.hashes), ("id_hash_lkey", index.lkeys), ("epoch", cols.epoch),
        ("lkey", cols.lkey), ("length", cols.length), ("has_id", cols.has_id),
        ("subagent", cols.subagent))]
    for name, dim in cols.dims.items():
        out.append((f"{name}.col", [dim.col]))
        offsets = array("q", [0])
        total = 0
        for plist in dim.postings:
            total += len(plist)
            offsets.append(total)
        out.append((f"{name}.postings.off", [offsets]))
        out.append((f"{name}.postings", list(dim.postings)))
    return out


def _nbytes(part) -> int:
    return len(part) * getattr(part, "itemsize", 1)


def save(home: Home, cols: Columns, states: dict, index: IdIndex, build_ms: float) -> Path:
    """Write the cache file (a temporary renamed over it). Every array goes to the file from
    its own buffer: a `tobytes` copy of each (what this did) held a second copy of the whole
    cache at once, the peak of a first build at 3M events."""
    path = cache_path(home)
    make_dirs(path.parent)
    arrays = _arrays(cols, index)
    header = {
        "version": VERSION, "byteorder": sys.byteorder, "n": cols.n, "n_undated": cols.n_undated,
        "rows": cols.rows, "duplicates": cols.duplicates, "logs": states,
        "names": {name: dim.names[1:] for name, dim in cols.dims.items()},
        "fallback": sorted(cols.fallback.items()),
        "arrays": [[name, sum(map(_nbytes, parts))] for name, parts in arrays],
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "build_ms": round(build_ms, 1),
    }
    encoded = json.dumps(header, separators=(",", ":")).encode("utf-8")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open_private(temporary, "wb") as handle:
        handle.write(MAGIC + len(encoded).to_bytes(8, "little") + encoded)
        for _, parts in arrays:
            for part in parts:
                handle.write(part)
    try:
        os.replace(temporary, path)
    except OSError:  # a folder in its place: the cache written for it does not stay beside it
        temporary.unlink(missing_ok=True)
        raise
    return path


def _typed(code: str, data) -> array:
    out = array(code)
    out.frombytes(data)
    return out


def _gather(code: str, values, order) -> array:
    """`values[order]` (all of `values` when `order` is None) as an `array` of `code`, taken
    straight into the array's own buffer: no numpy copy of it first. Builds only: numpy is
    not imported on the read path."""
    import numpy as np

    count = len(values) if order is None else len(order)
    out = array(code, [0]) * count
    if count:
        view = np.frombuffer(out, np.dtype(code))
        if order is None:
            view[:] = values
        else:
            np.take(values, order, out=view, mode="clip")  # "raise" would buffer `out`
    return out


_CODES = {"id_hash": "I", "id_hash_lkey": "q", "epoch": "d", "lkey": "q", "subagent": "q",
          "length": "i", "col": "i", "postings.off": "q", "postings": "i"}


def load(home: Home) -> tuple[Columns, dict, IdIndex] | None:
    """The cached columns, the log states they were built from and the id index; None when
    there is no usable cache (missing, damaged, another version or byte order). Each array is
    read straight into its `array` (no second copy of the file in memory)."""
    from carto_core.util.safeio import open_regular

    try:  # a FIFO in its place is no cache (rebuilt over it), never waited on
        with open_regular(cache_path(home)) as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            size = int.from_bytes(handle.read(8), "little")
            header = json.loads(handle.read(size))
            if header.get("version") != VERSION or header.get("byteorder") != sys.byteorder:
                return None
            parts: dict[str, object] = {}
            for name, length in header["arrays"]:
                if name == "has_id":
                    parts[name] = bytearray(handle.read(length))
                    if len(parts[name]) != length:
                        return None
                    continue
                out = array(_CODES[name.split(".", 1)[1] if "." in name else name])
                if length % out.itemsize:
                    return None
                out.fromfile(handle, length // out.itemsize)  # EOFError when short
                parts[name] = out
            if handle.read(1):
                return None
        cols = Columns(header["names"])
        cols.n, cols.n_undated = header["n"], header["n_undated"]
        cols.rows, cols.duplicates = header["rows"], header["duplicates"]
        cols.epoch = parts["epoch"]
        cols.lkey, cols.length = parts["lkey"], parts["length"]
        cols.has_id = parts["has_id"]
        cols.share_has_id()
        cols.fallback = {int(lkey): event_id for lkey, event_id in header.get("fallback", [])}
        cols.subagent = parts["subagent"]
        for name, dim in cols.dims.items():
            dim.col = parts[f"{name}.col"]
            offsets, flat = parts[f"{name}.postings.off"], parts[f"{name}.postings"]
            dim.postings = [flat[offsets[i]:offsets[i + 1]] for i in range(len(offsets) - 1)]
            del parts[f"{name}.postings"], flat
        index = IdIndex(parts["id_hash"], parts["id_hash_lkey"])
        if (len(cols.lkey) != cols.n or len(index.hashes) != cols.n or len(index.lkeys) != cols.n
                or len(cols.epoch) != cols.n - cols.n_undated or len(cols.has_id) != cols.n
                or any(len(dim.col) != cols.n or len(dim.postings) != len(dim.names)
                       for dim in cols.dims.values())):
            return None
        return cols, header["logs"], index
    except (OSError, EOFError, ValueError, KeyError, TypeError):
        return None


# --------------------------------------------------------------------------- rows back


def row_reader(home: Home, cols: Columns):
    """Point `cols` at the logs: `cols.resolver` (position -> Event) and `cols.id_of`
    (position -> event_id) read the row back by (offset, length); returns the resolver."""
    handles: dict[str, object] = {}

    def row(position: int) -> tuple[str, dict]:
        label, offset = split_lkey(cols.lkey[position])
        handle = handles.get(label)
        if handle is None:
            handle = handles[label] = open_log(home.log(label))
        handle.seek(offset)
        raw = handle.read(cols.length[position]).rstrip(b"\n")
        value, problem = fast_loads_line(raw)
        if problem == "malformed_json" or not isinstance(value, dict):
            value, _ = loads_line(raw)
        return label, value if isinstance(value, dict) else {}

    def resolve(position: int) -> Event:
        label, value = row(position)
        return Event.from_row(value, label, fallback_id=cols.fallback.get(cols.lkey[position], ""))

    def id_of(position: int) -> str:
        named = cols.fallback.get(cols.lkey[position])
        if named is not None:
            return named
        value = row(position)[1].get("event_id")
        return value if value.__class__ is str else ""

    cols.resolver, cols.id_of = resolve, id_of
    return resolve


def open_columns(home: Home, *, persist: bool = True, forgotten=None) -> Opened:
    """The facts columns of `home`, from the cache when it is current, else built (or brought
    up to date) and saved. Never writes anything but `<home>/.carto/facts/columns.bin`.
    `forgotten`: event ids `carto forget` took out of every log (see `patch`)."""
    started = time.perf_counter()
    collecting = gc.isenabled()
    gc.disable()  # bulk arrays and small objects, none cyclic
    try:
        loaded = load(home)
        reasons: dict[str, str] = {}
        rows = 0
        worth_saving = True
        if loaded is None:
            state = "built" if not cache_path(home).exists() else "rebuilt"
            if state == "rebuilt":
                reasons["cache"] = "unreadable or another version"
            cols, states, index = build(home)
            rows = cols.rows
        else:
            cols, states, index = loaded
            row_reader(home, cols)  # the id index confirms a hit against the row's own id
            status = {label: log_status(home.log(label), states.get(label)) for label in LOAD_ORDER}
            stale = [label for label, value in status.items() if value == "stale"]
            grown = [label for label, value in status.items() if value == "grown"]
            if stale:
                reasons = {label: "rewritten or truncated" for label in stale}
                patched = patch(home, cols, states, index, stale, forgotten)
                if patched is not None:
                    state = "patched"
                    cols, states, index = patched
                    rows = sum(int(states[label]["rows"]) for label in stale)
                    if grown:  # appended to a log that was not rewritten: fold those in too
                        row_reader(home, cols)
                        rows += append(home, cols, states, grown, index)[0]
                else:
                    state = "rebuilt"
                    cols, states, index = build(home)
                    rows = cols.rows
            elif grown:
                state = "appended"
                rows, relaid = append(home, cols, states, grown, index)
                # Rewriting the file costs more than folding a few hook rows in again, so small
                # appends stay unsaved until they add up (docs/performance.md).
                worth_saving = rows >= SAVE_AFTER_ROWS or relaid >= SAVE_AFTER_RELAID
            else:
                state = "fresh"
    finally:
        if collecting:
            gc.enable()
    row_reader(home, cols)
    ms = (time.perf_counter() - started) * 1000
    from carto_core.model.corpus import unreadable_logs

    opened = Opened(cols, state, ms, rows, reasons, skipped=unreadable_logs(home, LOAD_ORDER),
                    states=states, index=index)
    # A home that does not exist is not created by a reader (a moved or unmounted home would
    # otherwise come back as an empty folder).
    if state != "fresh" and persist and worth_saving and home.root.is_dir():
        try:
            save(home, cols, states, index, ms)
            opened.saved = True
        except OSError:
            opened.state = state + " (not saved: the home's state folder is not writable)"
    return opened


def facts_columns(home: Home) -> Columns:
    """The facts columns of a home for any reader (lenses too): the persisted cache, or, with
    `CARTO_FACTS_CACHE=0`, columns built over a corpus loaded now."""
    if cache_enabled():
        return open_columns(home).columns
    from carto_core.model.corpus import load_corpus
    from carto_core.facts.columns import columns_for

    return columns_for(load_corpus(home))
