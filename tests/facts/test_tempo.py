"""tempo: the current UTC day is never scored, the baseline leaves the scored day out, quiet
days are zeros, and z_status says why z is null."""

from __future__ import annotations

import statistics
from datetime import datetime, timedelta, timezone

from carto_core.appendlog import append_rows
from carto_core.facts import run_facts
from carto_core.home import Home

NOW = datetime(2026, 9, 8, 2, 0, tzinfo=timezone.utc)  # two hours into the UTC day


def rows(project, day_counts):
    out, n = [], 0
    for days_ago, count in day_counts.items():
        for i in range(count):
            n += 1
            moment = (NOW - timedelta(days=days_ago)).replace(hour=1, minute=i % 60)
            out.append({"event_id": f"{project}-{n}", "timestamp": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        "type": "t", "project": project})
    return out


def tempo(home, **fields):
    return run_facts({"contract_version": 1, "verb": "tempo", "call_id": "t", **fields}, home, now=NOW)["facts"]


def test_scoring_z_and_statuses(tmp_path):
    home = Home(tmp_path)
    busy = {0: 50, 1: 40, 2: 10, 3: 12, 5: 8, 6: 14}  # day 4 is quiet: a zero
    append_rows(home.log("changelog"), rows("busy", busy) + rows("flat", {1: 5, 2: 5, 3: 5, 4: 5})
                + rows("new", {0: 3, 1: 2}) + [{"event_id": "undated", "project": "busy"}])
    facts = tempo(home, since="10d")
    by = {p["project"]: p for p in facts["projects"]}
    assert facts["undated_dropped"] == 1
    b = by["busy"]
    assert b["partial_day"] == {"day": "2026-09-08", "count": 50, "scored": False}
    assert b["scored_day"] == "2026-09-07" and b["scored_count"] == 40
    days = {d["day"]: d["count"] for d in b["days"]}
    assert days["2026-09-04"] == 0  # a quiet day is a zero
    baseline = [c for d, c in sorted(days.items()) if d < "2026-09-07"]
    assert b["baseline_days"] == len(baseline)
    assert b["baseline_mean"] == round(statistics.fmean(baseline), 2)
    assert b["z"] == round((40 - statistics.fmean(baseline)) / statistics.pstdev(baseline), 2)
    assert b["z_status"] == "ok" and b["total"] == sum(busy.values())
    assert by["flat"]["z_status"] == "zero_variance" and by["flat"]["z"] is None
    assert by["flat"]["baseline_mean"] == 5.0
    assert by["new"]["z_status"] == "insufficient_history"
    assert by["new"]["z"] is None and by["new"]["baseline_mean"] is None
    assert [p["project"] for p in facts["projects"]] == ["busy", "flat", "new"]  # total desc
    assert [p["project"] for p in tempo(home, since="10d", top=1)["projects"]] == ["busy"]
    assert [p["project"] for p in tempo(home, since="10d", project="fla")["projects"]] == ["flat"]
