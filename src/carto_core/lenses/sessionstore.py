"""Session summaries kept between runs: `<home>/.carto/sessions/summaries.json`, so `carto
sessions` on a home it has seen reads a file instead of loading every event.

A summary is what `views.summarize_session` gives a session (`lenses.sessionfacts`, the rule
every lens shares). Which sessions exist, and which of their rows won the fold, come from the
facts columns (`carto_core.facts.store`: kept current by appends, patched after a rewrite):
each session's posting list names its rows by load key (log and byte offset of the winning
row) and length. A session's *signature* is the count, the sum of load keys and the sum of
lengths of its rows; a summary is kept while its session's signature is unchanged, so a hook
appending to one session re-summarises that session alone, reading only its rows back. A log
whose identity changed (another file, or rewritten: `logstate.identity`) drops every summary,
as does another version of this file's layout or of carto.

A session is summarised from its rows in load order (what a loaded corpus passes), and the
sessions are kept in the order of their first row in that order: a list sorted by end keeps
ties as `views.list_sessions` over a loaded corpus does.

Beside each summary is the session that spawned it when it is a Codex sub-agent thread (its
turn rows' `parent_session`, `collision.thread_parents`: the link `carto sessions` lists a
thread under its parent by), read from the same rows when the session is summarised, so no run
searches the turns log for it. The explorer's rows (`views.session_out`) do not carry it.

Failing to write the file (a read-only home) only costs the next run the same work. Derived
state: deleting it is safe.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from carto_core.logio.home import Home
from carto_core.util.privatefiles import make_dirs, open_private

#: 2: `prompts` counts a session's main-thread turns when it has no prompt row.
#: 3: each session's `parent` (the session that spawned a sub-agent thread) kept beside it.
#: 4: `events` leaves out carto's own rows about a session (its wrapups, decision updates).
VERSION = 4
#: Sessions to summarise from which a terminal is told (a hook's few new rows are not worth a line).
PROGRESS_FROM = 50
_STAMPS = ("started", "ended")


def cache_path(home: Home) -> Path:
    return home.state / "sessions" / "summaries.json"


def _identities(home: Home) -> dict:
    from carto_core.facts.store import LOAD_ORDER
    from carto_core.logio.logstate import identity

    return {label: identity(home.log(label)) for label in LOAD_ORDER}


def _carto_version() -> str:
    try:
        from carto_core import __version__

        return str(__version__)
    except ImportError:
        return "?"


def signatures(cols) -> dict[str, tuple[int, int, int, int]]:
    """session id -> (rows, sum of load keys, sum of lengths, first load key), in the order of
    each session's first row (load order)."""
    dim = cols.dims["session"]
    lkey, length = cols.lkey, cols.length
    out = {}
    for ident in range(1, len(dim.names)):
        plist = dim.postings[ident]
        if not plist:
            continue
        keys = list(map(lkey.__getitem__, plist))
        out[dim.names[ident]] = (len(plist), sum(keys), sum(map(length.__getitem__, plist)), min(keys))
    return dict(sorted(out.items(), key=lambda kv: kv[1][3]))


def _encode(summary: dict) -> dict:
    out = dict(summary)
    for key in _STAMPS:
        out[key] = out[key].isoformat() if out[key] else None
    out["bursts"] = [[a.isoformat(), b.isoformat(), n] for a, b, n in out["bursts"]]
    return out


def _decode(stored: dict) -> dict:
    out = dict(stored)
    for key in _STAMPS:
        out[key] = datetime.fromisoformat(out[key]) if out[key] else None
    out["bursts"] = [(datetime.fromisoformat(a), datetime.fromisoformat(b), n) for a, b, n in out["bursts"]]
    return out


def _load(home: Home, identities: dict) -> dict:
    try:
        with open(cache_path(home), encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError):
        return {}
    if (not isinstance(document, dict) or document.get("version") != VERSION
            or document.get("carto") != _carto_version() or document.get("logs") != identities
            or not isinstance(document.get("sessions"), dict)):
        return {}
    return document["sessions"]


def _save(home: Home, identities: dict, sessions: dict) -> None:
    path = cache_path(home)
    try:
        make_dirs(path.parent)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open_private(temporary, "w", encoding="utf-8") as handle:
            json.dump({"version": VERSION, "carto": _carto_version(), "logs": identities,
                       "sessions": sessions}, handle, separators=(",", ":"))
        os.replace(temporary, path)
    except OSError:
        pass


def cached_summaries(home: Home) -> dict[str, dict]:
    """session id -> its summary (`summaries_and_columns`)."""
    return _kept(home)[0]


def summaries_and_parents(home: Home) -> tuple[dict[str, dict], dict[str, str]]:
    """(`cached_summaries`, sub-agent thread -> the session that spawned it): every thread of
    the home, each read from the session's own turn rows when it was summarised
    (`collision.thread_parents`), so the turns log is not searched for them."""
    summaries, _, parents = _kept(home)
    return summaries, parents


def summaries_and_columns(home: Home, held=None):
    """(session id -> its summary, the facts columns they were checked against): the
    columns locate each session's rows for a reader of one session (`views.stored_session_detail`).
    `held`: (the columns, each log's identity when they read it) that the caller holds current
    (`LiveCorpus.current_columns`), else they are opened."""
    summaries, cols, _ = _kept(home, held)
    return summaries, cols


def _kept(home: Home, held=None):
    """(summaries, facts columns, thread -> parent). Summaries (`views.summarize_session`), in
    the order of each session's first row. Summaries of sessions whose rows did not change since
    the last run are read from the file; the others are summarised now, one session's rows in
    memory at a time (a terminal is told how far that got when it is more than a few)."""
    from carto_core.capture.collision import thread_parents
    from carto_core.facts.store import facts_columns
    from carto_core.lenses.views import summarize_session

    # Taken before the columns are read: a rewrite that lands meanwhile leaves a file whose
    # identities no longer match, and the next run summarises everything again.
    identities = _identities(home)
    # Columns held are used when they read these very files (else a rewrite came since).
    cols = held[0] if held is not None and held[1] == identities else facts_columns(home)
    sigs = signatures(cols)
    stored = _load(home, identities)
    kept: dict[str, dict] = {}
    stale = []
    for sid, sig in sigs.items():
        entry = stored.get(sid)
        if isinstance(entry, dict) and entry.get("sig") == list(sig):
            kept[sid] = entry
        else:
            stale.append(sid)
    if stale:
        from carto_core.util import progress

        dim = cols.dims["session"]
        lkey = cols.lkey
        bar = progress.start("summarising sessions (once: later runs reuse them)", "sessions") \
            if len(stale) >= PROGRESS_FROM else None
        try:
            for done, sid in enumerate(stale):
                if bar is not None:
                    bar.step(done, len(stale))
                positions = sorted(dim.postings[dim.ids[sid]], key=lkey.__getitem__)
                events = [cols.event_at(p) for p in positions]
                parent = thread_parents(e.row for e in events if e.source == "turns").get(sid)
                kept[sid] = {"sig": list(sigs[sid]), "summary": _encode(summarize_session(sid, events)),
                             "parent": parent}
        finally:
            if bar is not None:
                bar.close()
    if stale or len(kept) != len(stored):
        if home.root.is_dir():
            _save(home, identities, {sid: kept[sid] for sid in sigs})
    parents = {sid: kept[sid]["parent"] for sid in sigs if isinstance(kept[sid].get("parent"), str)}
    return {sid: _decode(kept[sid]["summary"]) for sid in sigs}, cols, parents


def session_ids(cols) -> list[str]:
    """Every session id the facts columns hold a row of."""
    dim = cols.dims["session"]
    return [name for ident, name in enumerate(dim.names) if ident and dim.postings[ident]]


def resolve_indexed(home: Home, prefix: str, cols=None) -> str:
    """The session a prefix names (`lenses.sessions.resolve_session`'s answers and errors),
    from the session ids the facts columns keep instead of a search of every log. `cols`: the
    columns a caller holds, or opened to read the session next (`sessiontree.tree_of`)."""
    from carto_core.facts.store import facts_columns
    from carto_core.lenses.sessions import SessionNotFound, resolve_among

    if not prefix.strip():
        raise SessionNotFound("no session id given")
    return resolve_among(session_ids(cols if cols is not None else facts_columns(home)), prefix, home)


def stored_summaries(live) -> dict[str, dict]:
    """`cached_summaries` of a `LiveCorpus`'s home, kept for its generation: the explorer's
    session list, where summarising every session of the loaded corpus after each new event
    cost seconds at a million events."""
    return _stored(live)[0]


def unloaded(live):
    """(`stored_summaries`, the facts columns they were checked against) of a `LiveCorpus`
    that has not loaded the corpus, for the views that then read a session's rows or count
    through the columns (`views.session_events`, `session_detail`, `list_projects`); None once
    it has."""
    return None if live.loaded else _stored(live)


def _stored(live):
    # The columns the server holds, while current: not a second copy of them.
    return live.cached("stored_summaries",
                       lambda: summaries_and_columns(live.home, live.current_columns()))
