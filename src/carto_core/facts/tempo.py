"""`tempo`: the project x UTC-day series, and how unusual the last complete day was.

Contract v1 (reference section 4). The current UTC day is reported (`partial_day`,
`complete: false`) and never scored: a day two hours old always reads as a collapse. The scored
day is the last complete day; its baseline is every complete day before it (the scored day is
left out so an extreme day cannot drag its own baseline). A day without events is a zero, not a
missing observation. `z_status` is `insufficient_history` (fewer than 3 baseline days; z and
mean null), `zero_variance` (z null, mean given) or `ok` (z rounded to 2 places). Only dated,
project-attributed rows count; undated rows are dropped and reported.

The series runs from the window start (or the project's first day) to the window end (or today),
at most 366 days.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from functools import lru_cache
from datetime import datetime, timedelta, timezone

from carto_core.facts.columns import Columns
from carto_core.model.project import ProjectScope

MAX_DAYS = 366
MIN_BASELINE_DAYS = 3
_DAY = 86400


@lru_cache(maxsize=4096)
def _day_name(day: int) -> str:
    return (datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(days=day)).strftime("%Y-%m-%d")


def zscore(value: int, baseline: list[int]) -> dict:
    if len(baseline) < MIN_BASELINE_DAYS:
        return {"baseline_days": len(baseline), "baseline_mean": None, "z": None,
                "z_status": "insufficient_history"}
    mean = sum(baseline) / len(baseline)
    sd = math.sqrt(sum((n - mean) ** 2 for n in baseline) / len(baseline))
    if sd == 0:
        return {"baseline_days": len(baseline), "baseline_mean": round(mean, 2), "z": None,
                "z_status": "zero_variance"}
    return {"baseline_days": len(baseline), "baseline_mean": round(mean, 2),
            "z": round((value - mean) / sd, 2), "z_status": "ok"}


def _per_project_days(cols: Columns, lo: int, hi: int, scope) -> dict[int, dict[int, int]]:
    """project id -> {UTC day: events} over positions [lo, hi).

    Dated positions are in time order, so each day is one contiguous run of positions; its
    edges are found by bisection on the time column (by day). A project's count on a day is then two
    bisections of its postings, or, for a project with fewer events than there are days, one
    pass over its own positions: either way no Python loop over every event."""
    project = cols.dims["project"]
    u = cols.n_undated
    epoch = cols.epoch

    def day(t: float) -> int:
        return int(t // _DAY)  # what numpy's floor_divide gives, so any stored day column too

    edges: list[tuple[int, int]] = []  # (day, first position of the day's run)
    position = lo
    while position < hi:
        current = day(epoch[position - u])
        edges.append((current, position))
        position = u + bisect_left(epoch, current + 1, position - u, hi - u, key=day)
    bounds = [start for _, start in edges] + [hi]
    out: dict[int, dict[int, int]] = {}
    for ident in range(1, len(project.names)):
        if scope is not None and not scope.matches(project.names[ident]):
            continue
        plist = project.postings[ident]
        start, end = bisect_left(plist, lo), bisect_left(plist, hi)
        if start == end:
            continue
        if end - start < len(edges):
            observed = Counter(day(epoch[p - u]) for p in plist[start:end])
        else:
            observed = {}
            cursor = start
            for (current, _), upper in zip(edges, bounds[1:]):
                following = bisect_left(plist, upper, cursor, end)
                if following > cursor:
                    observed[current] = following - cursor
                cursor = following
        out[ident] = dict(observed)
    return out


def tempo(cols: Columns, corpus, request) -> dict:
    scope = ProjectScope.parse(request.project) if request.project else None
    lo, hi = cols.window(request.since_at, request.before_at)
    project = cols.dims["project"]
    per_project = {project.names[ident]: days
                   for ident, days in _per_project_days(cols, lo, hi, scope).items()}
    return {"undated_dropped": cols.n_undated, "projects": series(per_project, request)}


def series(per_project: dict[str, dict[int, int]], request) -> list[dict]:
    """Each project's day series and score from its events per UTC day (days since the epoch)
    in the window, largest total first, cut at `request.top`. The team's tempo counts its days
    in SQL and scores them here."""
    now: datetime = request.context.get("now") or datetime.now(timezone.utc)
    today = int(now.timestamp() // _DAY)
    start_bound = None if request.since_at is None else int(request.since_at.timestamp() // _DAY)
    end_day = today if request.before_at is None else min(today, int(request.before_at.timestamp() // _DAY))
    out = []
    for name, observed in per_project.items():
        if not observed:
            continue
        first = min(observed) if start_bound is None else max(start_bound, min(observed))
        last = max(end_day, max(observed)) if request.before_at is None else end_day
        first = max(first, last - MAX_DAYS + 1)
        ordered = [(day, observed.get(day, 0)) for day in range(first, last + 1)]
        complete = [(day, n) for day, n in ordered if day < today]
        partial = next(((day, n) for day, n in ordered if day >= today), None)
        scored = complete[-1] if complete else None
        baseline = [n for _, n in complete[:-1]]
        entry = {
            "project": name,
            "days": [{"day": _day_name(day), "count": n, "complete": day < today} for day, n in ordered],
            "total": sum(n for _, n in ordered),
            "partial_day": {"day": _day_name(partial[0]), "count": partial[1], "scored": False}
            if partial else None,
            "scored_day": _day_name(scored[0]) if scored else None,
            "scored_count": scored[1] if scored else 0,
        }
        entry.update(zscore(scored[1] if scored else 0, baseline))
        out.append(entry)
    out.sort(key=lambda item: (-item["total"], item["project"]))
    return out[: request.top]
