"""tempo: the current UTC day is never scored, the baseline leaves the scored day out, quiet
days are zeros, and z_status says why z is null."""

from __future__ import annotations

import statistics
from datetime import datetime, timedelta, timezone

from carto_core.logio.appendlog import append_rows
from carto_core.facts import run_facts
from carto_core.logio.home import Home

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


def test_day_counts_equal_an_independent_scan(tmp_path):
    """Both counting paths (bisection per day for busy projects, one pass for sparse ones)
    against a plain per-event tally of the loaded corpus."""
    from collections import Counter

    from carto_core.model.corpus import load_corpus
    from carto_core.model.events import is_resolved
    from tests.facts.conftest import NOW as MESSY_NOW, build_messy_home

    home = build_messy_home(tmp_path / "h", n=900)
    append_rows(home.log("changelog"), rows("sparse", {3: 1, 9: 2}))  # fewer events than days
    events = load_corpus(home).events
    for since in ("30d", "5d"):
        start = MESSY_NOW - timedelta(days=int(since[:-1]))
        expected = Counter((e.project, e.timestamp.strftime("%Y-%m-%d")) for e in events
                           if e.timestamp and is_resolved(e.project) and start <= e.timestamp <= MESSY_NOW)
        facts = run_facts({"contract_version": 1, "verb": "tempo", "call_id": "t", "since": since},
                          home, now=MESSY_NOW)["facts"]
        got = Counter({(p["project"], d["day"]): d["count"] for p in facts["projects"]
                       for d in p["days"] if d["count"]})
        assert got == expected, since
        assert {p["project"] for p in facts["projects"]} >= {"webshop", "carto"}


def test_the_text_says_plainly_when_there_is_no_history_yet(tmp_path):
    """A project recorded only today read "scored - = 0 vs mean - over 0 days", and one with
    too few days before the scored one "vs mean - over 1 day": placeholders where the reader
    needs to hear that nothing can be scored yet, and why."""
    from carto_core.cli.facts_cmd import render_text

    home = Home(tmp_path)
    append_rows(home.log("changelog"), rows("today", {0: 3}) + rows("two", {0: 1, 1: 4, 2: 2})
                + rows("zero", {1: 2}) + rows("flat", {1: 5, 2: 5, 3: 5, 4: 5}))
    envelope = run_facts({"contract_version": 1, "verb": "tempo", "call_id": "t", "since": "10d"},
                         home, now=NOW)
    lines = render_text(envelope).splitlines()
    assert lines[1:] == [
        "undated dropped 0",
        "  flat                         total     20 · scored 2026-09-07 = 5 vs mean 5.0 over 3 days · zero variance · today so far 0",
        "  two                          total      7 · scored 2026-09-07 = 4 · only 1 day of history "
        "before it (a score needs 3 days) · today so far 1",
        "  today                        total      3 · no history yet: no complete UTC day to score "
        "(the current one never is) · today so far 3",
        "  zero                         total      2 · scored 2026-09-07 = 2 · no history before it "
        "yet (a score needs 3 days) · today so far 0",
    ]
    # the JSON keeps its fields: a null mean and z, insufficient_history
    by = {p["project"]: p for p in envelope["facts"]["projects"]}
    assert [(by[p]["scored_day"], by[p]["scored_count"], by[p]["baseline_days"], by[p]["baseline_mean"],
             by[p]["z"], by[p]["z_status"]) for p in ("today", "two", "zero")] == [
        (None, 0, 0, None, None, "insufficient_history"),
        ("2026-09-07", 4, 1, None, None, "insufficient_history"),
        ("2026-09-07", 2, 0, None, None, "insufficient_history")]
