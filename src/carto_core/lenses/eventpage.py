"""The explorer's events list (`/api/events`: newest first, paged, filtered) without loading the
corpus: the page a loaded corpus gives (`views.page_events`), from the facts columns and the
rows read since them (`LiveCorpus.unloaded_rows`).

The columns lay events out oldest first (`facts.columns`): dated by time ascending, ties in
reverse load order, after the undated in reverse load order. Read backwards that is
`LiveCorpus.newest_first` of a loaded corpus (dated newest first, ties in load order, then the
undated in load order), so a page is a slice of the positions a filter keeps, read backwards,
with the events read since the columns (after every column event in a loaded corpus's order)
merged in; only the page's rows are read back (`Columns.event_at`).

Filters work on the columns' interned values (project, session, type). What they cannot say is
a row's `milestone` field (`views.is_high_signal` hides a subagent's milestone whatever the
row's type): the rows that may carry one starting with `agent_` are found by a bytes search of
the logs (a JSON key or value differs from its literal bytes only by `\\u` escapes, which are
searched for too), read and asked, once per columns. Unresolved projects share the value 0 in the
columns while `views.project_matches` sees their spelling (`unknown`, `Unknown`): a filter
that matches such a spelling reads those rows' projects, once per columns.
"""

from __future__ import annotations

import os
import re
import weakref

from carto_core.lenses import views
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.model.events import Event

#: Where a row may name a subagent's milestone: the key and the start of its value as written,
#: or an escaped printable ASCII character (`\\u0061gent_`, `"\\u006dilestone"`). Two searches:
#: one pattern of both alternatives is searched for several times slower.
_MILESTONE = (re.compile(rb'"milestone"[ \t\r]*:[ \t\r]*"agent_'),
              re.compile(rb'\\u00[2-7][0-9a-fA-F]'))
#: A log holding fewer winning rows than one per this many bytes has those rows read back and
#: asked rather than the log searched (a changelog whose copies lost to their domain rows).
BYTES_PER_ROW_READ = 16384
#: Bytes of a log searched at a time.
CHUNK = 1 << 24

#: Columns -> what was found in them once (rows hiding by their milestone, unresolved projects).
_FOUND: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def page_events(live: LiveCorpus, *, limit: int, offset: int, project: str | None,
                session_id: str | None, type_prefix: str | None, all_events: bool) -> dict:
    """`views.page_events`; without reading every event while the corpus is not loaded."""
    unloaded = live.unloaded_rows()
    if unloaded is None:
        return views.page_events(live, limit=limit, offset=offset, project=project,
                                 session_id=session_id, type_prefix=type_prefix,
                                 all_events=all_events)
    import numpy as np

    cols, replaced, appended = unloaded
    keep = np.ones(cols.n, bool)
    if not all_events:
        keep &= ~_table(cols, "type", lambda name: not views.is_high_signal(_typed(name)))
        keep[_milestone_hidden(live, cols)] = False
    if project:
        matched = _table(cols, "project", lambda name: views.project_matches(project, name))
        if views.project_matches(project, "unknown"):
            for position, name in _unresolved_projects(cols):
                matched[position] = views.project_matches(project, name)
        keep &= matched
    if session_id:
        ident = cols.dims["session"].ids.get(session_id)
        keep &= np.frombuffer(cols.dims["session"].col, np.int32) == (ident or -1)
    if type_prefix:
        keep &= _table(cols, "type", lambda name: name.startswith(type_prefix))
    keep[np.asarray(replaced, np.int64)] = False
    chosen = np.flatnonzero(keep)[::-1]
    undated_from = int((chosen >= cols.n_undated).sum())
    dated, undated = chosen[:undated_from], chosen[undated_from:]

    extra = [e for e in appended
             if (all_events or views.is_high_signal(e))
             and views.project_matches(project, e.project)
             and (not session_id or e.session_id == session_id)
             and (not type_prefix or e.type.startswith(type_prefix))]
    extra_dated = sorted((e for e in extra if e.timestamp is not None),
                         key=lambda e: e.timestamp, reverse=True)
    extra = extra_dated + [e for e in extra if e.timestamp is None]
    # An event read since the columns comes after the column events of its time (load order).
    epochs = np.frombuffer(cols.epoch, np.float64)[dated[::-1] - cols.n_undated]
    before = len(dated) - np.searchsorted(epochs, [e.timestamp.timestamp() for e in extra_dated],
                                          side="left")
    order = np.concatenate([np.insert(dated, before, -1 - np.arange(len(extra_dated))), undated,
                            -1 - np.arange(len(extra_dated), len(extra))])
    page: list[Event] = [cols.event_at(int(p)) if p >= 0 else extra[-1 - int(p)]
                         for p in order[offset: offset + limit]]
    return {"events": [views.event_out(e, sources)
                       for e, sources in zip(page, live.sources_of_many(page))],
            "total": len(order), "offset": offset, "limit": limit,
            "index_generation": live.generation}


def _typed(name: str) -> Event:
    """An event of type `name` and no row: what `views.is_high_signal` asks of a type alone."""
    return Event(event_id="", timestamp=None, source="", type=name)


def _table(cols, dimension: str, wanted):
    """Per position of `cols`, whether its value of `dimension` is `wanted` (the unresolved
    value, 0, is the empty string here)."""
    import numpy as np

    dim = cols.dims[dimension]
    table = np.fromiter((bool(wanted(name if ident else "")) for ident, name in enumerate(dim.names)),
                        bool, len(dim.names))
    return table[np.frombuffer(dim.col, np.int32)]


def _found(cols) -> dict:
    return _FOUND.setdefault(cols, {})


def _unresolved_projects(cols) -> list[tuple[int, str]]:
    """(position, project) of the events whose project is an unresolved spelling other than the
    empty string, read back once per columns."""
    found = _found(cols)
    if "projects" not in found:
        import numpy as np

        zero = np.flatnonzero(np.frombuffer(cols.dims["project"].col, np.int32) == 0).tolist()
        found["projects"] = [(p, e.project) for p, e in ((p, cols.event_at(p)) for p in zero)
                             if e.project]
    return found["projects"]


def _milestone_hidden(live: LiveCorpus, cols):
    """The positions of `cols` whose row names a subagent's milestone (`views.is_high_signal`
    asks the row's `milestone`), found once per columns."""
    found = _found(cols)
    if "milestones" not in found:
        found["milestones"] = _search_milestones(live, cols)
    return found["milestones"]


def _search_milestones(live: LiveCorpus, cols):
    import numpy as np

    from carto_core.facts.store import LOAD_ORDER, lkey_of
    from carto_core.logio.reader import open_log, unreadable

    lkeys = np.frombuffer(cols.lkey, np.int64)
    by_key = np.argsort(lkeys, kind="stable")
    sorted_keys = lkeys[by_key]
    ends = sorted_keys + np.frombuffer(cols.length, np.int32)[by_key]
    sources = cols.dims["source"]
    candidates = []
    for label in LOAD_ORDER:
        path = live.home.log(label)
        ident = sources.ids.get(label)
        winners = sources.postings[ident] if ident else ()
        if not len(winners) or unreadable(path):
            continue
        try:
            handle = open_log(path)
        except OSError:
            continue
        with handle:
            if len(winners) * BYTES_PER_ROW_READ < os.fstat(handle.fileno()).st_size:
                candidates.extend(winners)
                continue
            hits = np.fromiter(_hits(handle, lkey_of(label, 0)), np.int64)
        # The row each hit lies in, when the columns hold that row (not one the fold dropped).
        at = np.searchsorted(sorted_keys, hits, side="right") - 1
        at = at[(at >= 0) & (ends[np.maximum(at, 0)] > hits)]
        candidates.extend(by_key[at].tolist())
    return np.asarray(sorted(position for position in set(candidates)
                             if not views.is_high_signal(cols.event_at(position))), np.int64)


def _hits(handle, base: int):
    """`base` plus the offset of each match of `_MILESTONE` in the log, read a chunk of whole
    lines at a time (no match crosses a line; a mapped file would count as the server's memory)."""
    done, rest = 0, b""
    while True:
        chunk = handle.read(CHUNK)
        data = rest + chunk
        cut = len(data) if not chunk else data.rfind(b"\n") + 1
        for pattern in _MILESTONE:
            for match in pattern.finditer(data, 0, cut):
                yield base + done + match.start()
        if not chunk:
            return
        done, rest = done + cut, data[cut:]
