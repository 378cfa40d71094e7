"""`carto facts pulse`: census, commits, tempo and the delta feed in one document (upstream's
`cartographer-pulse.sh`), for "what happened since I last looked".

Counted first, listed second, each section labelled: the census of the window (default the
last 24 hours) with its commits pulled up, the same window's count outside the project scope
(the blind spot of a scoped pulse, never named beyond the project names and counts), tempo over
a baseline window of its own (`TEMPO_DAYS`: a 24-hour window would leave every project at
insufficient_history), then the rows appended since the cursor (`delta`; without one the call
records a baseline). With `--cursor-file` the next pulse lists only what arrived since this one.
A fold like every verb: it writes nothing but the cursor file the CLI keeps.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

#: Days of tempo baseline (upstream's pulse: 21d).
TEMPO_DAYS = 21
#: The census window when the request names none.
DEFAULT_HOURS = 24


def pulse(columns, corpus, request) -> dict:
    from carto_core.facts.census import census
    from carto_core.facts.delta import delta
    from carto_core.facts.tempo import tempo

    from carto_core.util import timeparse

    # the one clock the request's own window was resolved by (`parse_when`)
    now = request.context.get("now") or timeparse.utcnow()
    window = request if request.windowed else replace(
        request, since_at=now - timedelta(hours=DEFAULT_HOURS), since=f"{DEFAULT_HOURS}h")
    counted = census(columns, corpus, window)
    outside = None
    if request.project:
        everything = census(columns, corpus, replace(window, project=""))
        # census's buckets: a name recorded in several folders is a bucket per folder, and
        # each is a project of its own here too (named with its folder)
        scoped = {_place(b) for b in counted["by_project"]}
        outside = {"events": everything["events"] - counted["events"],
                   "projects": [{"name": b["name"], **({"folder": b["folder"]} if "folder" in b else {}),
                                 "count": b["count"]}
                                for b in everything["by_project"] if _place(b) not in scoped]}
    tempo_request = replace(request, since_at=now - timedelta(days=TEMPO_DAYS),
                            since=f"{TEMPO_DAYS}d", before_at=request.before_at)
    paced = tempo(columns, corpus, tempo_request)
    feed = delta(request.context["home"], request.context["corpus_root"],
                 replace(request, since="", before="", since_at=None, before_at=None))
    return {
        "window": {"since": window.since or None, "before": window.before or None,
                   "since_at": _iso(window.since_at), "before_at": _iso(window.before_at)},
        "census": counted,
        "commits": counted.get("commits", []),
        "outside_scope": outside,
        "tempo": {"since": f"{TEMPO_DAYS}d", **paced},
        "delta": feed,
        "cursor": feed.get("cursor"),
        "composition": ("census, commits and tempo are counted: exhaustive within the window "
                        "and scope; delta lists the rows appended since the cursor (a first "
                        "call records a baseline)"),
    }


def _place(bucket: dict) -> tuple[str, str | None]:
    return bucket["name"], bucket.get("folder")


def _iso(moment: datetime | None) -> str | None:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment is not None else None
