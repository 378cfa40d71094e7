"""The explorer's events list (`/api/events`: newest first, paged, filtered) without loading the
corpus: the page a loaded corpus gives (`views.page_events`), from the facts columns and the
rows read since them (`LiveCorpus.unloaded_rows`).

The columns lay events out oldest first (`facts.columns`): dated by time ascending, ties in
reverse load order, after the undated in reverse load order. Read backwards that is
`LiveCorpus.newest_first` of a loaded corpus (dated newest first, ties in load order, then the
undated in load order), so a page is a slice of the positions a filter keeps, read backwards,
with the events read since the columns (after every column event in a loaded corpus's order)
merged in; only the page's rows are read back (`Columns.event_at`).

Filters work on the columns' interned values (project, session, type) and on the rows whose
own `milestone` names a subagent's (`views.is_high_signal` hides those whatever the row's
type), which the columns record by load key when they read a row (`Columns.subagent`).
Unresolved projects share the value 0 in the columns while `views.project_matches` sees their
spelling (`unknown`, `Unknown`): a filter that matches such a spelling reads those rows'
projects, once per columns.
"""

from __future__ import annotations

import weakref

from carto_core.lenses import views
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.model.events import Event

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
        keep[_milestone_hidden(cols)] = False
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
             if views.selects(e, project=project, session_id=session_id, type_prefix=type_prefix,
                              all_events=all_events)]
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


def _milestone_hidden(cols):
    """The positions of `cols` whose row names a subagent's milestone (`views.is_high_signal`
    asks the row's `milestone`): the columns' `subagent` load keys, placed once per columns."""
    found = _found(cols)
    if "milestones" not in found:
        import numpy as np

        if not len(cols.subagent) or not cols.n:
            found["milestones"] = np.zeros(0, np.int64)
        else:
            keys, lkeys = np.frombuffer(cols.subagent, np.int64), np.frombuffer(cols.lkey, np.int64)
            at = np.minimum(np.searchsorted(keys, lkeys), len(keys) - 1)
            found["milestones"] = np.flatnonzero(keys[at] == lkeys)
    return found["milestones"]
