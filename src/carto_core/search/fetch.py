"""Fetching events by id and following their threads: the library behind `carto search --get`
and `--thread`, shared by the CLI and the MCP server (moved out of `cli/search_cmd.py` so that
both front doors run the same code)."""

from __future__ import annotations


#: The shortest prefix of an event id that `--get` resolves (`evt-` and four characters).
MIN_PREFIX = 8
#: The ids an ambiguous prefix lists at most (as an ambiguous session prefix lists its sessions).
LISTED = 20


def _by_prefix(engine, prefixes: list[str]) -> dict[str, list[str]]:
    """For each prefix, the live event ids starting with it (`LISTED` + 1 at most: a second makes
    it ambiguous, the list says which). One pass over the ids, only for ids not found whole."""
    import numpy as np

    alive = np.asarray(engine.index.cols["alive"])
    out: dict[str, list[str]] = {p: [] for p in prefixes}
    starts = tuple(prefixes)
    for doc, event_id in enumerate(engine.index.ids):
        if event_id.startswith(starts) and alive[doc]:
            for prefix in prefixes:
                if event_id.startswith(prefix) and len(out[prefix]) <= LISTED and event_id not in out[prefix]:
                    out[prefix].append(event_id)
    return out


def fetch_records(engine, ids: list[str], telemetry=None) -> dict:
    """`{"found": {id: row}, "missing": [ids]}` for `ids`, in the order asked, and when an id
    was given by its start, `"resolved": {prefix: id}`, `"ambiguous": [prefixes]` and
    `"candidates": {prefix: [ids]}` (at most `LISTED`, and more when there are more) (the CLI
    and the MCP `get` tool print this one document). An id not held whole that is the start of
    exactly one event's id (at least `MIN_PREFIX` characters: what a person copies from a
    cut column) is that event; found under its full id. A tool call of a turn (`ID#N`, what
    the lenses cite for a session read from its turns) is found as the turn that holds it.

    With `telemetry`, ids that its session was served are logged to the access ledger as
    `result_fetched` (never-served ids are not logged; upstream 3.7).
    """
    from carto_core.search.pipeline import has_logs
    from carto_core.search.telemetry import read_served

    found: dict[str, dict] = {}
    resolved: dict[str, str] = {}
    ambiguous: list[str] = []
    candidates: dict[str, list[str]] = {}
    if has_logs(engine):
        engine.refresh()
        for event_id in ids:
            index = engine.index_of(event_id)
            if index is not None:
                found[event_id] = engine.row(index)
        for event_id in ids:
            base, _, call = event_id.partition("#")
            if event_id not in found and call.isdigit():
                index = engine.index_of(base)
                if index is not None:
                    resolved[event_id] = base
                    found[base] = engine.row(index)
        short = [i for i in ids if i not in found and i not in resolved and len(i) >= MIN_PREFIX]
        for prefix, matches in (_by_prefix(engine, short) if short else {}).items():
            if len(matches) == 1:
                resolved[prefix] = matches[0]
                found[matches[0]] = engine.row(engine.index_of(matches[0]))
            elif matches:
                ambiguous.append(prefix)
                candidates[prefix] = sorted(matches)
    missing = [i for i in ids if i not in found and i not in resolved]
    if telemetry is not None and telemetry.session_id:
        served = set(read_served(engine.home, telemetry.session_id))
        fetched_served = [i for i in found if i in served]
        if fetched_served:
            telemetry.record_access(fetched_served, "result_fetched")
    document = {"found": found, "missing": missing}
    if resolved or ambiguous:
        document.update(resolved=resolved, ambiguous=ambiguous, candidates=candidates)
    return document


def thread_document(home, event_id: str) -> dict:
    """The work arc of a changelog event: its ancestors through `parent_event_id` (oldest
    first), the event, then its descendants breadth-first.
    `{"event_id", "found", "thread": [rows]}`; found is False when the id is not in the
    changelog, and `skipped_files` is there when the changelog cannot be read."""
    from carto_core.logio.reader import iter_lines, unreadable

    rows: dict[str, dict] = {}
    children: dict[str, list[str]] = {}
    path = home.log("changelog")
    why = unreadable(path)
    if why:
        return {"event_id": event_id, "thread": [], "found": False, "skipped_files": [
            {"path": str(path), "why": why, "left_out": "no work arc can be followed"}]}
    for line in iter_lines(path):
        eid = line.row.get("event_id")
        if not isinstance(eid, str) or eid in rows:
            continue
        rows[eid] = line.row
        parent = line.row.get("parent_event_id")
        if isinstance(parent, str) and parent:
            children.setdefault(parent, []).append(eid)
    if event_id not in rows:
        return {"event_id": event_id, "thread": [], "found": False}
    chain = []
    current, guard = event_id, set()
    while current in rows and current not in guard:
        guard.add(current)
        chain.append(current)
        parent = rows[current].get("parent_event_id")
        current = parent if isinstance(parent, str) else ""
    chain.reverse()
    queue = list(children.get(event_id, []))
    seen = set(chain)
    descendants = []
    while queue:
        child = queue.pop(0)
        if child in seen:
            continue
        seen.add(child)
        descendants.append(child)
        queue.extend(children.get(child, []))
    return {"event_id": event_id, "found": True, "thread": [rows[i] for i in chain + descendants]}
