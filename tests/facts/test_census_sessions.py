"""census counts the sessions that have events in the window (and scope), not every session
the home knows. Mutation testing found `if c` could go from the session count with the suite
passing: in the seeded homes every session has events in every window."""

from __future__ import annotations

from datetime import timedelta

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.facts import run_facts
from carto_core.logio.home import Home
from tests.facts.conftest import NOW


def stamp(days_ago: float) -> str:
    return (NOW - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("fields, sessions, events", [
    ({}, 3, 5),
    ({"since": "7d"}, 1, 2),              # s-old and s-mid have no event in the last week
    ({"since": "20d", "before": "7d"}, 1, 2),
    ({"since": "7d", "project": "shop"}, 1, 2),
    ({"since": "7d", "project": "docs"}, 0, 0),
    ({"project": "docs"}, 1, 1),
])
def test_sessions_without_events_in_the_window_are_not_counted(tmp_path, fields, sessions, events):
    home = Home(tmp_path)
    append_rows(home.log("changelog"), [
        {"event_id": "e1", "timestamp": stamp(40), "session_id": "s-old", "project": "shop"},
        {"event_id": "e2", "timestamp": stamp(10), "session_id": "s-mid", "project": "shop"},
        {"event_id": "e3", "timestamp": stamp(9), "session_id": "s-mid", "project": "shop"},
        {"event_id": "e4", "timestamp": stamp(1), "session_id": "s-new", "project": "shop"},
        {"event_id": "e5", "timestamp": stamp(0.5), "session_id": "s-new", "project": "shop"},
    ])
    append_rows(home.log("milestones"), [{"event_id": "e1", "timestamp": stamp(40), "session_id": "s-old",
                                           "project": "docs", "milestone": "session_end_exit"}])
    request = {"contract_version": 1, "verb": "census", "call_id": "t", **fields}
    facts = run_facts(request, home, now=NOW)["facts"]
    assert facts["events"] == events
    assert facts["sessions"]["resolved"] == sessions
