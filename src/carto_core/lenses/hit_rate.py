"""`carto report hit-rate`: of the results `carto search` served, how many were used.

Served rows joined with the access ledger by (call_id, event_id) (`carto_core.lenses.
recall_join`): the share used overall, by rank (each rank and upstream's buckets 1-3, 4-7,
8-15, 16+), by source log, by project and by purpose; MRR over calls (1 / the best rank used,
0 for a call nothing of was used) and where each call's first use sat; results served three
times or more and never used; queries served twice or more with no use. Read-only.
"""

from __future__ import annotations

from collections import defaultdict

from carto_core.lenses.recall_join import build_join, mrr, rank_bucket

BUCKETS = ("1-3", "4-7", "8-15", "16+", "unknown")


def _rate(used: int, served: int) -> float | None:
    return round(used / served, 4) if served else None


def _table(groups: dict) -> dict:
    return {key: {"served": v[0], "used": v[1], "fetched": v[2], "hit_rate": _rate(v[1], v[0])}
            for key, v in sorted(groups.items(), key=lambda kv: (-kv[1][0], str(kv[0])))}


def hit_rate_report(home, *, since=None, before=None, purpose: str | None = None,
                    top: int = 15) -> dict:
    join = build_join(home, since=since, before=before, purpose=purpose)
    groups = {name: defaultdict(lambda: [0, 0, 0]) for name in
              ("rank", "bucket", "source", "project", "purpose")}
    by_event: dict[str, list] = defaultdict(lambda: [0, 0, ""])
    by_query: dict[str, list] = defaultdict(lambda: [0, 0])
    served = used = fetched = 0
    for item in join.served:
        hit, seen = bool(item.used), bool(item.fetched)
        served += 1
        used += hit
        fetched += seen
        for name, key in (("rank", item.rank if item.rank is not None else "unknown"),
                          ("bucket", rank_bucket(item.rank)), ("source", item.source),
                          ("project", item.project or "(none)"), ("purpose", item.purpose)):
            counts = groups[name][key]
            counts[0] += 1
            counts[1] += hit
            counts[2] += seen
        event = by_event[item.event_id]
        event[0] += 1
        event[1] += hit
        event[2] = item.query
        query = by_query[item.query or "(empty)"]
        query[0] += 1
        query[1] += hit
    calls = list(join.calls.values())
    first = {bucket: 0 for bucket in (*BUCKETS, "none")}
    for call in calls:
        ranks = call.used_ranks
        first[rank_bucket(ranks[0]) if ranks else "none"] += 1
    by_rank = _table(groups["rank"])
    return {
        "report": "hit-rate", "home": str(home.root), "since": since, "before": before,
        "purpose": purpose,
        "overall": {"served": served, "used": used, "fetched": fetched, "hit_rate": _rate(used, served),
                    "calls": len(calls), "calls_with_use": sum(1 for c in calls if c.used_ranks)},
        "mrr": {"value": mrr([c.used_ranks for c in calls]), "calls": len(calls),
                "first_use_rank": {k: v for k, v in first.items() if v}},
        "by_rank": dict(sorted(by_rank.items(), key=lambda kv: (isinstance(kv[0], str), kv[0]))),
        "by_rank_bucket": {k: v for k, v in ((b, _table(groups["bucket"]).get(b)) for b in BUCKETS) if v},
        "by_source": _table(groups["source"]),
        "by_project": _table(groups["project"]),
        "by_purpose": _table(groups["purpose"]),
        "dead_weight": [{"event_id": e, "served": v[0], "last_query": v[2]} for e, v in
                        sorted(by_event.items(), key=lambda kv: -kv[1][0]) if v[0] >= 3 and not v[1]][:top],
        "zero_hit_queries": [{"query": q, "served": v[0]} for q, v in
                             sorted(by_query.items(), key=lambda kv: -kv[1][0]) if v[0] >= 2 and not v[1]][:top],
        "legacy_served_rows": join.legacy,
        "unplaced_marks": len(join.unplaced),
    }
