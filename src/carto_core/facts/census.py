"""`census`: what is in this window, counted, every count carrying sample event_ids.

Contract v1 (reference section 4): `{events, windowed_out, undated_dropped, unattributed,
sessions, span, by_project, by_type, by_source, by_provider, commits}`. Buckets sort by count
descending then name ascending and are cut at `top`; unattributed values (null, "", "unknown")
are counted per dimension and never form a bucket; a project-scoped census leaves
unattributed-project rows out entirely; `undated_dropped` counts only when a window is active.
A project name recorded in several folders (`~/me/api`, `~/clientA/api`) is a bucket per folder,
each naming its `folder` (`project_buckets`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from itertools import compress

from carto_core.facts.columns import Columns
from carto_core.model.project import ProjectScope, folder_owners
from carto_core.util.timeparse import format_timestamp

COMMITS_MAX = 200
COMMIT_SUMMARY_MAX = 300
_GIT = re.compile(r"^git_")


def ranked(named: list[tuple[str, int]], top: int) -> list[tuple[str, int]]:
    """(name, count) pairs as buckets list them: count desc, name asc, cut at `top` (the team's
    census ranks its SQL counts with this too)."""
    return sorted(named, key=lambda pair: (-pair[1], pair[0]))[:top]


def buckets(dim, cols: Columns, counts: dict[int, int], top: int, sample: int,
            lo: int, hi: int, keep=None) -> list[dict]:
    """Named buckets of one dimension: count desc, name asc, cut at `top`, with samples."""
    named = [(dim.names[ident], count) for ident, count in counts.items() if ident and count]
    out = []
    for name, count in ranked(named, top):
        bucket: dict = {"name": name, "count": count}
        if sample > 0:
            positions = dim.newest_in(dim.ids[name], lo, hi, sample, keep)
            bucket["event_ids"] = [cols.event_id(p) for p in positions]
        out.append(bucket)
    return out


def project_buckets(cols: Columns, counts: dict, top: int, sample: int, lo: int, hi: int,
                    keep=None) -> list[dict]:
    """The project buckets: one a name, except a name whose rows were recorded in several
    folders (`~/me/api`, `~/clientA/api`: a project is a folder's last name), one a folder,
    grouped as `carto memory` groups them (`model.project.folders_of`), each with its `folder`;
    that name's rows that name no folder are a bucket of their own (`folder` None)."""
    place = cols.dims["place"]
    cwds: dict[str, list[tuple[str, int, int]]] = {}  # project -> (cwd, rows, place id)
    for ident, count in counts["place"].items():
        if ident and count:
            project, _, cwd = place.names[ident].partition("\x00")
            cwds.setdefault(project, []).append((cwd, count, ident))
    split: list[tuple[str, str | None, int, list[int]]] = []  # (project, folder, rows, place ids)
    for project, seen in cwds.items():
        owners = folder_owners(project, {cwd: rows for cwd, rows, _ in seen if cwd})
        if owners is None:
            continue
        members: dict[str | None, list[int]] = {folder: [] for folder in dict.fromkeys(owners.values())}
        for cwd, _, ident in seen:
            members.setdefault(owners.get(cwd) if cwd else None, []).append(ident)
        for folder, idents in members.items():
            rows = sum(counts["place"][ident] for ident in idents)
            if rows:
                split.append((project, folder, rows, idents))
    if not split:
        return buckets(cols.dims["project"], cols, counts["project"], top, sample, lo, hi, keep)
    project = cols.dims["project"]
    divided = {name for name, _, _, _ in split}
    named: list[tuple[tuple, dict, list[int] | None]] = []
    for ident, count in counts["project"].items():
        if ident and count and project.names[ident] not in divided:
            named.append(((-count, project.names[ident], ""), {"name": project.names[ident], "count": count},
                          None))
    for name, folder, rows, idents in split:
        named.append(((-rows, name, folder or "\uffff"), {"name": name, "folder": folder, "count": rows}, idents))
    out = []
    for _, bucket, idents in sorted(named, key=lambda entry: entry[0])[:top]:
        if sample > 0:
            if idents is None:
                positions = project.newest_in(project.ids[bucket["name"]], lo, hi, sample, keep)
            else:
                positions = sorted((p for ident in idents for p in place.newest_in(ident, lo, hi, sample, keep)),
                                   reverse=True)[:sample]
            bucket["event_ids"] = [cols.event_id(p) for p in positions]
        out.append(bucket)
    return out


def census(cols: Columns, corpus, request) -> dict:
    """`corpus` is unused: everything, commits included, comes from the columns (which may
    have been read from the persisted cache with no corpus loaded)."""
    if request.windowed:
        lo, hi = cols.window(request.since_at, request.before_at)
        windowed_out = cols.n_dated - (hi - lo)
        undated_dropped = cols.n_undated
    else:
        lo, hi = 0, cols.n
        windowed_out = undated_dropped = 0
    scope = ProjectScope.parse(request.project) if request.project else None
    dims = cols.dims
    keep = None
    if scope is None:
        counts = {name: {i: dim.count_in(i, lo, hi) for i in range(1, len(dim.names))}
                  for name, dim in dims.items()}
        unresolved = {name: dim.count_in(0, lo, hi) for name, dim in dims.items()}
        total = hi - lo
        selected = None
        id_missing = total - cols.has_id.count(1, lo, hi)
    else:
        project = dims["project"]
        mask = bytearray(len(project.names))
        for ident, name in enumerate(project.names):
            if ident and scope.matches(name):
                mask[ident] = 1
        pcol = project.col
        keep = lambda position: mask[pcol[position]]  # noqa: E731
        selected = list(compress(range(lo, hi), map(mask.__getitem__, pcol[lo:hi])))
        total = len(selected)
        counts, unresolved = {}, {}
        for name, dim in dims.items():
            tally = Counter(map(dim.col.__getitem__, selected))
            unresolved[name] = tally.pop(0, 0)
            counts[name] = tally
        id_missing = total - sum(map(cols.has_id.__getitem__, selected))
    # Span: positions are oldest first and undated ones come before every dated one.
    u = cols.n_undated
    if selected is None:
        first, last = max(lo, u), hi - 1
    else:
        cut = bisect_left(selected, u)  # selected is ascending
        first, last = (selected[cut], selected[-1]) if cut < len(selected) else (0, -1)
    span = {"oldest": None, "newest": None}
    if last >= first >= u:
        span = {"oldest": format_timestamp(cols.timestamp_at(first)),
                "newest": format_timestamp(cols.timestamp_at(last))}
    facts = {
        "events": total,
        "windowed_out": windowed_out,
        "undated_dropped": undated_dropped,
        "unattributed": {
            "project": unresolved["project"],
            "session": unresolved["session"],
            "provider": unresolved["provider"],
            "type": unresolved["type"],
            "event_id": id_missing,
        },
        "sessions": {"resolved": sum(1 for c in counts["session"].values() if c)},
        "span": span,
    }
    facts["by_project"] = project_buckets(cols, counts, request.top, request.sample, lo, hi, keep)
    for key, name in (("by_type", "type"), ("by_source", "source"), ("by_provider", "provider")):
        facts[key] = buckets(dims[name], cols, counts[name], request.top, request.sample, lo, hi, keep)
    facts["commits"] = _commits(cols, lo, hi, keep)
    return facts


def _commits(cols: Columns, lo: int, hi: int, keep) -> list[dict]:
    """Every event whose type starts with `git_`, newest first, at most 200."""
    etype = cols.dims["type"]
    positions: list[int] = []
    for ident, name in enumerate(etype.names):
        if ident and _GIT.match(name):
            plist = etype.postings[ident]
            window = plist[bisect_left(plist, lo):bisect_left(plist, hi)]
            positions.extend(window if keep is None else compress(window, map(keep, window)))
    positions.sort(reverse=True)
    out = []
    project = cols.dims["project"]
    for position in positions[:COMMITS_MAX]:
        event = cols.event_at(position)
        raw_ts = event.row.get("timestamp") if event.row else None
        summary = event.summary or ""
        out.append({
            "event_id": event.event_id if cols.has_id[position] else None,
            "project": project.names[project.col[position]],
            "type": event.type,
            "timestamp": raw_ts if isinstance(raw_ts, str) and raw_ts else (
                format_timestamp(event.timestamp) if event.timestamp else None),
            "summary": summary[:COMMIT_SUMMARY_MAX],
        })
    return out
