"""delta: a reader over log byte positions that never gives a confident wrong diff."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from carto_core.logio.appendlog import append_rows
from carto_core.facts import run_facts
from carto_core.logio.home import Home


def delta(home, cursor="", **fields):
    request = {"contract_version": 1, "verb": "delta", "call_id": "t", "cursor": cursor, **fields}
    return run_facts(request, home)["facts"]


def drain(home, cursor, budget):
    """Page until nothing is pending; returns (events, cursor, stale reasons seen)."""
    events, stale = [], {}
    for _ in range(1000):
        facts = delta(home, cursor, budget=budget)
        events.extend(facts["events"])
        stale.update(facts["stale"])
        cursor = facts["cursor"]
        if not facts["pending"]:
            return events, cursor, stale
    raise AssertionError("delta never drained")


ops = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.sampled_from(["changelog", "tool-use", "prompts"]),
                  st.integers(min_value=1, max_value=7)),
        st.tuples(st.just("garbage"), st.sampled_from(["changelog", "tool-use"]), st.just(0)),
        st.tuples(st.just("torn"), st.sampled_from(["changelog"]), st.just(0)),
        st.tuples(st.just("truncate"), st.sampled_from(["changelog", "tool-use"]), st.just(0)),
        st.tuples(st.just("rewrite"), st.sampled_from(["changelog", "tool-use"]), st.just(0)),
    ),
    min_size=1, max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=ops, budget=st.integers(min_value=1, max_value=5))
def test_delta_reports_every_append_once_and_stale_logs_never_diff(tmp_path_factory, operations, budget):
    home = Home(tmp_path_factory.mktemp("delta"))
    counter = 0
    append_rows(home.log("changelog"), [{"event_id": "evt-old", "type": "x", "project": "p"}])
    cursor = delta(home)["cursor"]  # baseline: nothing new
    expected: list[str] = []
    torn: dict[str, str] = {}  # log -> id of its unfinished last line
    for op, label, count in operations:
        path = home.log(label)
        stale_expected = None
        if op == "append":
            rows = []
            for _ in range(count):
                counter += 1
                rows.append({"event_id": f"evt-{counter:04d}", "type": "t", "project": "p"})
            if label in torn:
                # Complete the torn line first: it becomes a whole (valid) row.
                torn.pop(label)
                with open(path, "ab") as handle:
                    handle.write(b"\n")
            append_rows(path, rows)
            expected.extend(r["event_id"] for r in rows)
        elif op == "garbage":
            if label in torn:
                continue
            with open(path, "ab") as handle:
                handle.write(b"{this is not json\n\n")
        elif op == "torn":
            if label in torn:
                continue
            counter += 1
            line = json.dumps({"event_id": f"evt-{counter:04d}", "type": "t"}).encode()
            with open(path, "ab") as handle:
                handle.write(line)  # no newline yet: a writer mid-row
            torn[label] = f"evt-{counter:04d}"
            expected.append(f"evt-{counter:04d}")
        elif op in ("truncate", "rewrite"):
            if not os.path.exists(path) or os.path.getsize(path) == 0 or label in torn:
                continue
            data = open(path, "rb").read()
            if op == "truncate":
                open(path, "wb").close()
            else:
                # Same length or longer, different bytes: an in-place history repair.
                open(path, "wb").write(data.replace(b'"p"', b'"q"').replace(b'"t"', b'"u"') + b"")
                if open(path, "rb").read() == data:
                    continue
            stale_expected = "truncated" if op == "truncate" else "rewritten"
        events, cursor, stale = drain(home, cursor, budget)
        got = [e["event_id"] for e in events]
        if stale_expected:
            assert stale.get(label) == stale_expected
            assert not any(e["source"] == label for e in events)
            # Rows appended before the repair and not yet read are lost to this cursor, but
            # they were reported already (we drain after every op), so nothing is owed.
            expected = [i for i in expected if i not in got]
        # Everything complete that was appended is reported exactly once, in order per log.
        complete = [i for i in expected if i not in torn.values()]
        assert sorted(got) == sorted(complete), (got, complete)
        expected = [i for i in expected if i not in got]


def test_round_robin_budget_and_pending_resume_losslessly(tmp_path):
    home = Home(tmp_path)
    cursor = delta(home)["cursor"]
    append_rows(home.log("changelog"), [{"event_id": f"c{i}", "project": "a"} for i in range(10)])
    append_rows(home.log("prompts"), [{"event_id": f"p{i}", "project": "b"} for i in range(2)])
    page = delta(home, cursor, budget=4)
    assert [e["event_id"] for e in page["events"]] == ["c0", "p0", "c1", "p1"]  # prompts not starved
    assert page["pending"] == {"changelog": 8} and page["read"] == 4
    rest = delta(home, page["cursor"], budget=200)
    assert [e["event_id"] for e in rest["events"]] == [f"c{i}" for i in range(2, 10)]
    assert rest["pending"] == {}


def test_project_scope_applies_after_reading_and_still_advances(tmp_path):
    home = Home(tmp_path)
    cursor = delta(home)["cursor"]
    append_rows(home.log("changelog"), [{"event_id": "a1", "project": "alpha"},
                                        {"event_id": "b1", "project": "beta"}])
    page = delta(home, cursor, project="alp")
    assert page["read"] == 2 and page["returned"] == 1
    assert [e["event_id"] for e in page["events"]] == ["a1"]
    assert delta(home, page["cursor"], project="alp")["read"] == 0


def test_raw_rows_are_not_folded_or_normalised(tmp_path):
    home = Home(tmp_path)
    cursor = delta(home)["cursor"]
    append_rows(home.log("changelog"), [{"event_id": "e1", "type": "tool_bash", "session_id": "s1"}])
    append_rows(home.log("tool-use"), [{"event_id": "e1", "type": "tool_bash", "session": "s1"}])
    append_rows(home.log("prompts"), [{"event_id": "e2", "sessionId": "s2", "summary": "hi"}])
    facts = delta(home, cursor)
    assert sorted(e["event_id"] for e in facts["events"]) == ["e1", "e1", "e2"]
    prompt = next(e for e in facts["events"] if e["event_id"] == "e2")
    assert prompt["session_id"] is None and prompt["type"] is None


def test_a_tampered_offset_is_reported_stale_not_diffed(tmp_path):
    import base64

    home = Home(tmp_path)
    append_rows(home.log("changelog"), [{"event_id": f"e{i}"} for i in range(5)])
    cursor = delta(home)["cursor"]
    document = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    document["pos"]["changelog"]["offset"] -= 10  # points mid-line now
    forged = base64.urlsafe_b64encode(json.dumps(document).encode()).decode().rstrip("=")
    facts = delta(home, forged)
    assert facts["stale"] == {"changelog": "rewritten"} and facts["events"] == []
