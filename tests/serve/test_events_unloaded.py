"""`/api/events` without loading the corpus: the same pages, totals, order and fields as a
loaded server's, from the facts columns and the rows appended since the start."""

from __future__ import annotations

import itertools
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from carto_core.evaluation.sample import SESSIONS
from carto_core.facts.store import open_columns
from carto_core.lenses import livecorpus, views
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.rewrite import rewrite_log
from carto_core.serve.app import create_app
from carto_core.util import timeparse

from .conftest import BASE, bearer
from .test_start_unloaded import COPIED, TURN, damage, row

STAMP = "2026-01-02T03:04:05Z"  # the time of several rows of several logs: ties


def write_raw(home, label: str, lines: list[str]) -> None:
    with open(home.log(label), "a", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in lines))


def noisy(home) -> None:
    """Rows the list hides or orders by a tie: subagent milestones (by type, by the row's
    milestone, by an escaped key or value), bridge pings, undated rows, rows of one time in
    several logs, unresolved projects, a row of an event written again."""
    damage(home)
    append_rows(home.log("milestones"), [
        {"event_id": "m-agent-1", "timestamp": STAMP, "milestone": "agent_start",
         "type": "milestone", "project": "webshop", "session_id": "s-live"},
        {"event_id": "m-agent-2", "timestamp": STAMP, "milestone": "agent_stop",
         "project": "webshop", "session_id": "s-live"},
        {"event_id": "m-done", "timestamp": STAMP, "milestone": "session_done",
         "project": "webshop", "session_id": "s-live"},
        {"event_id": "m-undated", "milestone": "session_note", "project": "api"}])
    write_raw(home, "tool-use", [
        '{"event_id":"esc-key","timestamp":"2026-01-02T03:04:06Z","type":"tool_bash",'
        '"\\u006dilestone":"agent_run","project":"webshop"}',
        '{"event_id":"esc-value","timestamp":"2026-01-02T03:04:06Z","type":"tool_bash",'
        '"milestone" : "\\u0061gent_run","project":"webshop"}',
        '{"event_id":"not-agent","timestamp":"2026-01-02T03:04:06Z","type":"tool_bash",'
        '"milestone":"agentless","summary":"\\"milestone\\":\\"agent_x\\"","project":"webshop"}'])
    append_rows(home.log("tool-use"), [
        row("t-spawn", type="milestone_agent_spawn"), row("t-agent", type="agent_spawn"),
        row("t-ping", type="codex_bridge_ping_sent"),
        row("t-unknown", project="Unknown"), row("t-unknown-2", project=" unknown "),
        row("t-none", project=""), row("t-undated", timestamp=None),
        row("t-again", "first row"), row("t-again", "second row")])
    append_rows(home.log("changelog"), [row("t-again", "copy"), row("c-own", "changelog only"),
                                        row("c-undated", timestamp=None)])
    append_rows(home.log("prompts"), [row("p-tie", "a prompt", type="user_prompt")])


def appended(home) -> None:
    """Rows written after the start: new, a newer row of an old event (same log), the
    changelog copy of an old event, a domain row after its changelog copy, undated rows,
    ties with the columns' rows, a hidden milestone."""
    append_rows(home.log("changelog"), [row("n-copy-first", "copy"), row(COPIED, "copy"),
                                        row("n-undated-cl", timestamp=None)])
    append_rows(home.log("tool-use"), [
        row("n-new", "new"), row("t-again", "third row"), row("n-copy-first", "domain"),
        row("n-undated", timestamp=None), row("n-agent", type="milestone_agent_x"),
        row("n-unknown", project="unknown")])
    append_rows(home.log("milestones"), [{"event_id": "n-m", "timestamp": STAMP,
                                          "milestone": "agent_end", "project": "webshop"}])
    append_rows(home.log("turns"), [{"event_id": TURN, "timestamp": STAMP, "type": "transcript",
                                     "summary": "the turn grew", "session_id": "s-live"}])


FILTERS = list(itertools.product(
    (None, "webshop", "WEB|api", "n", "unknown", "zzz"),
    (None, SESSIONS["a"], "s-live", "unknown"),
    (None, "tool", "milestone", "user_"),
    ("false", "true")))
PAGES = [(50, 0), (3, 2), (500, 0), (7, 19)]


def pages(client) -> list:
    out = []
    for (project, session_id, etype, everything), (limit, offset) in itertools.product(FILTERS, PAGES):
        params = {"limit": limit, "offset": offset, "all": everything}
        for key, value in (("project", project), ("session_id", session_id), ("type", etype)):
            if value is not None:
                params[key] = value
        answer = client.get("/api/events", params=params)
        assert answer.status_code == 200, (params, answer.text)
        out.append((params, answer.json()))
    return out


@pytest.fixture(params=["built", "appended", "patched"])
def servers(request, home, roots, monkeypatch):
    """Clients of two servers of the noisy home: one that loaded the corpus at start, one for
    which loading it is refused (and that must not have loaded it at the end). The second's
    facts columns are built at its start, or were saved before the noisy rows were written
    (folded in at its start), or before the milestones log was rewritten (patched in)."""
    if request.param == "appended":
        open_columns(home)
    noisy(home)
    if request.param == "patched":
        open_columns(home)
        rewrite_log(home.log("milestones"), lambda rows: list(rows))
    with monkeypatch.context() as scope:
        scope.setenv("CARTO_FACTS_CACHE", "0")  # loaded at once: the columns left as they are
        loaded = create_app(home, transcript_roots=roots)
    assert loaded.state.carto.live.corpus

    def refused(*args, **kwargs):
        raise AssertionError("the corpus was loaded")

    monkeypatch.setattr(livecorpus, "load_corpus", refused)
    assert open_columns(home, persist=False).state == request.param
    app = create_app(home, transcript_roots=roots)
    with TestClient(loaded, base_url=BASE, headers=bearer(loaded)) as by_load, \
            TestClient(app, base_url=BASE, headers=bearer(app)) as by_columns:
        yield by_load, by_columns
    assert app.state.carto.live.loaded is False


def test_events_pages_without_loading_the_corpus(home, servers):
    by_load, by_columns = servers
    expected = pages(by_load)
    first = expected[0][1]
    assert first["total"] == 34 and len(first["events"]) == 34
    hidden = {"m-agent-1", "m-agent-2", "esc-key", "esc-value", "t-spawn", "t-agent", "t-ping"}
    assert not hidden & {e["event_id"] for e in first["events"]}
    assert [e["event_id"] for e in first["events"]][-3:] == ["m-undated", "t-undated", "c-undated"]
    assert pages(by_columns) == expected
    appended(home)
    expected = pages(by_load)
    assert expected[0][1]["total"] == 39
    # appended rows follow the loaded ones in the order they were read
    assert [e["event_id"] for e in expected[0][1]["events"]][-5:] == [
        "m-undated", "t-undated", "c-undated", "n-undated-cl", "n-undated"]
    assert pages(by_columns) == expected


LABELS = ("tool-use", "prompts", "milestones", "turns", "changelog")
ROWS = st.fixed_dictionaries({
    "event_id": st.sampled_from(["a", "b", "c", "d", "e", "f", None]),
    "timestamp": st.sampled_from(["2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z",
                                  "2026-01-01T00:00:01+00:00", "2026-01-02T10:00:00.5Z", None,
                                  "not a time"]),
    "type": st.sampled_from(["tool_bash", "milestone_agent_x", "agent_y", "bridge_ping", "",
                             "user_prompt", None]),
    "milestone": st.sampled_from([None, "agent_start", "session_end", "\\u0061gent_z"]),
    "project": st.sampled_from(["web", "api", "Unknown", "", None, "web-api"]),
    "session_id": st.sampled_from(["s1", "s2", "unknown", None]),
})
LINES = st.one_of(st.tuples(st.sampled_from(LABELS), ROWS),
                  st.tuples(st.sampled_from(LABELS), st.sampled_from(["{broken", "[1]", ""])))


def _line(value) -> str:
    if isinstance(value, str):
        return value
    fields = {k: v for k, v in value.items() if v is not None}
    text = json.dumps({k: v for k, v in fields.items() if k != "milestone"})
    if "milestone" in fields:  # written as is: an escaped value stays escaped in the file
        text = text[:-1] + (", " if len(text) > 2 else "") + f'"milestone": "{fields["milestone"]}"}}'
    return text


def _write(root: Path, lines, torn: bool = False) -> None:
    home = Home(root)
    for label, value in lines:
        with open(home.log(label), "a", encoding="utf-8") as handle:
            handle.write(_line(value) + "\n")
    if torn:
        with open(home.log("tool-use"), "a", encoding="utf-8") as handle:
            handle.write('{"event_id": "torn", "summ')


QUERIES = st.tuples(st.sampled_from([None, "web", "API|web", "n", "unknown"]),
                    st.sampled_from([None, "s1", "s2", "unknown"]),
                    st.sampled_from([None, "tool", "milestone", "agent"]),
                    st.booleans(), st.integers(1, 6), st.integers(0, 12))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=30), st.lists(LINES, max_size=12), st.booleans(),
       st.lists(QUERIES, min_size=1, max_size=8), st.integers(0, 31))
def test_events_pages_match_a_loaded_corpus(start, later, torn, queries, saved):
    """`saved`: how many of the first rows were written when the facts columns were saved (the
    rest are folded into them when the lazy corpus opens them); none saved beyond their count."""
    from carto_core.lenses import eventpage

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "home"
        root.mkdir()
        home = Home(root)
        if saved <= len(start):
            _write(root, start[:saved])
            open_columns(home)
            start = start[saved:]
        _write(root, start, torn)
        counted, loaded = LiveCorpus(home, lazy=True), LiveCorpus(home)
        assert counted.loaded is False
        for step in (None, later):
            if step is not None:
                _write(root, step)
                counted.refresh()
                loaded.refresh()
            for project, session_id, etype, everything, limit, offset in queries + [
                    (None, None, None, True, 500, 0), (None, None, None, False, 500, 0)]:
                asked = dict(limit=limit, offset=offset, project=project, session_id=session_id,
                             type_prefix=etype, all_events=everything)
                answer = eventpage.page_events(counted, **asked)
                assert answer == views.page_events(loaded, **asked)
        assert counted.loaded is False


FACTS = [{"verb": "census", "top": 50}, {"verb": " census "}, {"verb": "census", "project": "webshop", "samples": 3},
         {"verb": "census", "since": "2026-01-01T00:00:00Z", "before": "2026-01-03T00:00:00Z"},
         {"verb": "tempo"}, {"verb": "tempo", "project": "webshop"}, {"verb": "pulse"}]


def facts_answers(client) -> list:
    out = []
    for body in FACTS:
        answer = client.post("/api/facts", json={"contract_version": 1, "call_id": "t", **body})
        assert answer.status_code == 200, (body, answer.text)
        document = answer.json()
        # the clock of each stage differs from run to run; which stages ran does not
        document["stages_ms"] = sorted(document["stages_ms"])
        out.append(document)
    return out + [client.get("/api/facts/health").json()]


def test_facts_census_and_tempo_without_loading_the_corpus(home, servers, monkeypatch):
    by_load, by_columns = servers
    # pulse's window ("24h") is resolved at each request: a second turning between the two
    # servers' answers would tell them apart
    frozen = timeparse.utcnow()
    monkeypatch.setattr(timeparse, "utcnow", lambda: frozen)
    expected = facts_answers(by_load)
    assert expected[0]["corpus_events"] == 41 and expected[0]["stages_ms"] == ["scan", "total"]
    assert expected[-1]["events"] == 41
    assert facts_answers(by_columns) == expected
    appended(home)
    expected = facts_answers(by_load)
    assert expected[0]["corpus_events"] == 48
    assert facts_answers(by_columns) == expected
    assert by_columns.post("/api/facts", json={"contract_version": 1, "call_id": "t",
                                               "verb": "nosuch"}).status_code == 400
