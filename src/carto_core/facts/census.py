"""`census`: what is in this window, counted, every count carrying sample event_ids.

Contract v1 (reference section 4): `{events, windowed_out, undated_dropped, unattributed,
sessions, span, by_project, by_type, by_source, by_provider, commits}`. Buckets sort by count
descending then name ascending and are cut at `top`; unattributed values (null, "", "unknown")
are counted per dimension and never form a bucket; a project-scoped census leaves
unattributed-project rows out entirely; `undated_dropped` counts only when a window is active.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from itertools import compress

from carto_core.facts.columns import Columns
from carto_core.project import ProjectScope
from carto_core.timeparse import format_timestamp

COMMITS_MAX = 200
COMMIT_SUMMARY_MAX = 300
_GIT = re.compile(r"^git_")


def buckets(dim, event_ids: list[str], counts: dict[int, int], top: int, sample: int,
            lo: int, hi: int, keep=None) -> list[dict]:
    """Named buckets of one dimension: count desc, name asc, cut at `top`, with samples."""
    named = [(dim.names[ident], count) for ident, count in counts.items() if ident and count]
    named.sort(key=lambda pair: (-pair[1], pair[0]))
    out = []
    for name, count in named[:top]:
        bucket: dict = {"name": name, "count": count}
        if sample > 0:
            positions = dim.sample_in(dim.ids[name], lo, hi, sample, keep)
            bucket["event_ids"] = [event_ids[p] for p in positions]
        out.append(bucket)
    return out


def census(cols: Columns, corpus, request) -> dict:
    windowed = request.windowed
    if windowed:
        lo, hi = cols.window(request.since_at, request.before_at)
        windowed_out = cols.n_dated - (hi - lo)
        undated_dropped = cols.n - cols.n_dated
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
        id_missing = total - sum(cols.has_id[lo:hi])
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
    # Span: positions are newest first, so the first and last selected dated positions.
    if selected is None:
        first, last = lo, min(hi, cols.n_dated) - 1
    else:
        cut = bisect_left(selected, cols.n_dated)  # selected is ascending
        first, last = (selected[0], selected[cut - 1]) if cut else (0, -1)
    span = {"oldest": None, "newest": None}
    if last >= first and first < cols.n_dated:
        span = {"oldest": format_timestamp(cols.timestamp_at(last)),
                "newest": format_timestamp(cols.timestamp_at(first))}
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
    for key, name in (("by_project", "project"), ("by_type", "type"), ("by_source", "source"),
                      ("by_provider", "provider")):
        facts[key] = buckets(dims[name], cols.event_ids, counts[name], request.top, request.sample, lo, hi, keep)
    facts["commits"] = _commits(cols, corpus, lo, hi, keep)
    return facts


def _commits(cols: Columns, corpus, lo: int, hi: int, keep) -> list[dict]:
    """Every event whose type starts with `git_`, newest first, at most 200."""
    etype = cols.dims["type"]
    positions: list[int] = []
    for ident, name in enumerate(etype.names):
        if ident and _GIT.match(name):
            plist = etype.postings[ident]
            window = plist[bisect_left(plist, lo):bisect_left(plist, hi)]
            positions.extend(window if keep is None else compress(window, map(keep, window)))
    positions.sort()
    out = []
    for position in positions[:COMMITS_MAX]:
        event = corpus.events[cols.order[position]]
        project = cols.dims["project"].names[cols.dims["project"].col[position]]
        raw_ts = event.row.get("timestamp") if event.row else None
        summary = event.summary or ""
        out.append({
            "event_id": event.event_id if cols.has_id[position] else None,
            "project": project,
            "type": event.type,
            "timestamp": raw_ts if isinstance(raw_ts, str) and raw_ts else (
                format_timestamp(event.timestamp) if event.timestamp else None),
            "summary": summary[:COMMIT_SUMMARY_MAX],
        })
    return out
