"""Pure views over the warm corpus: the bursts the timeline draws."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from carto_core.lenses import views

T0 = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def test_a_burst_ends_at_a_gap_over_thirty_minutes():
    stamps = [T0, T0 + timedelta(minutes=30), T0 + timedelta(minutes=60, seconds=1)]
    assert views.bursts(stamps) == [(T0, T0 + timedelta(minutes=30), 2),
                                    (stamps[2], stamps[2], 1)]


def test_bursts_are_in_time_order_whatever_the_input_order():
    stamps = [T0 + timedelta(hours=5), T0, T0 + timedelta(minutes=1)]
    assert [b[2] for b in views.bursts(stamps)] == [2, 1]


def test_too_many_bursts_widen_the_gap_until_they_fit():
    stamps = [T0 + timedelta(hours=h) for h in range(views.BURSTS_MAX + 50)]
    runs = views.bursts(stamps)
    assert len(runs) <= views.BURSTS_MAX
    assert sum(n for _, _, n in runs) == len(stamps)


def test_the_sessions_route_gives_bursts_only_when_asked(client):
    plain = client.get("/api/sessions?days=400").json()["sessions"]
    with_bursts = client.get("/api/sessions?days=400&bursts=true").json()["sessions"]
    assert all("bursts" not in s for s in plain)
    for s in with_bursts:
        assert sum(n for _, _, n in s["bursts"]) == s["events"]
        assert s["bursts"][0][0] == s["started"] and s["bursts"][-1][1] == s["ended"]
