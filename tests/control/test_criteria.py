"""What `carto forget` (and `carto export`) criteria match: AND across kinds, OR within one;
projects whole and in any case; times as instants; text in any string of a row."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from hypothesis import given, strategies as st

from carto_core.control.criteria import Criteria

T = datetime(2026, 5, 10, 12, 0, tzinfo=timezone.utc)
ROW = {"event_id": "e1", "timestamp": "2026-05-10T11:00:00Z", "project": "Acme",
       "session": "s1", "summary": "Ran: deploy", "tools": [{"input": "HUNTER2 here"}]}


def test_each_kind():
    assert Criteria(projects=["acme"]).row(ROW) and not Criteria(projects=["acm"]).row(ROW)
    assert Criteria(sessions=["s1"]).row(ROW) and not Criteria(sessions=["s2"]).row(ROW)
    assert Criteria(before=T).row(ROW) and not Criteria(since=T).row(ROW)
    assert Criteria(match=["hunter2"]).row(ROW) and not Criteria(match=["hunter3"]).row(ROW)
    assert Criteria(events=["e1"]).row(ROW) and not Criteria(events=["e2"]).row(ROW)


def test_and_across_kinds_or_within_one():
    assert Criteria(projects=["acme"], sessions=["s2", "s1"]).row(ROW)
    assert not Criteria(projects=["acme"], sessions=["s2"]).row(ROW)
    assert not Criteria(projects=["other"], match=["deploy"]).row(ROW)


def test_a_row_without_a_time_never_matches_a_time_bound():
    row = {k: v for k, v in ROW.items() if k != "timestamp"}
    assert not Criteria(before=T).row(row) and not Criteria(since=T).row(row)
    assert Criteria(projects=["acme"]).row(row)


def test_a_project_less_row_counts_as_its_session_when_told():
    row = {"event_id": "e2", "session_id": "s1", "summary": "compacted"}
    assert not Criteria(projects=["acme"]).row(row)
    assert Criteria(projects=["acme"]).row(row, project_by_session=True)


def test_the_intent_round_trip_keeps_every_kind():
    criteria = Criteria(["a"], ["s"], T, ["x"], ["e"], since=T.replace(year=2025))
    again = Criteria.from_dict(json.loads(json.dumps(criteria.to_dict())))
    assert again.to_dict() == criteria.to_dict()


@given(text=st.text(min_size=1, max_size=30), project=st.text(min_size=1, max_size=20))
def test_a_torn_line_is_judged_as_the_row_would_be(text, project):
    """An unparsed line matches --project and --match by the bytes a writer puts down for the
    row, so a torn copy of a forgotten row goes with it."""
    from carto_core.logio.jsonl import dumps_row

    row = {"event_id": "e9", "project": project, "summary": f"before {text} after"}
    torn = dumps_row(row)[:-3]
    if project.strip():
        assert Criteria(projects=[project]).line(torn) == Criteria(projects=[project]).row(row)
    assert Criteria(match=[text]).line(torn) or text.lower() not in f"before {text} after".lower()
