"""`carto serve` starts without loading the corpus: health, the desk and the stream answer from
the facts columns and the rows appended since, with the JSON a loaded corpus gives."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from carto_core.lenses import livecorpus, views
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.logio.appendlog import append_rows
from carto_core.model.corpus import load_corpus
from carto_core.serve.app import create_app

from .conftest import BASE, bearer

TURN = "turn-5a1e0000-aaaa-4000-8000-00000000000a-1"
COPIED = "evt-6f972c32d00f"  # a tool-use row with its changelog copy


def row(event_id: str | None, summary: str = "fresh row", **extra) -> dict:
    out = {"timestamp": "2026-01-02T03:04:05Z", "type": "tool_bash", "summary": summary,
           "project": "webshop", "session_id": "s-live", **extra}
    if event_id is not None:
        out["event_id"] = event_id
    return out


def damage(home) -> None:
    """Lines each reader counts as a problem, a row without an id and a torn last line."""
    with open(home.log("tool-use"), "ab") as handle:
        handle.write(b"{not json}\n[1, 2]\n")
    append_rows(home.log("tool-use"), [row(None, "no id")])
    with open(home.log("prompts"), "ab") as handle:
        handle.write(b'{"event_id": "evt-torn", "summa')


def loaded_health(home) -> dict:
    """What /api/health said of a home when the server loaded every row at start."""
    corpus = load_corpus(home)
    return {"events": len(corpus), "duplicates": corpus.duplicates, "logs": {
        label: {"exists": path.exists(), "bytes_read": corpus.reports[label].end_offset,
                "rows": corpus.reports[label].rows,
                "problems": dict(corpus.reports[label].problems),
                "torn_tail": "torn_line" in corpus.reports[label].problems}
        for label, path in home.searched_logs().items()}}


@pytest.fixture
def no_load(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("the corpus was loaded")

    monkeypatch.setattr(livecorpus, "load_corpus", refused)


VIEWS = [("/api/desk", {"days": 3650}), ("/api/desk", {"days": 3650, "evidence": "commits"}),
         ("/api/sessions", {"days": 3650, "bursts": "true"}),
         ("/api/sessions/5a1e0000-aaaa-4000-8000-00000000000a", {}), ("/api/sessions/5a1e0000", {}),
         ("/api/sessions/s-live", {}), (f"/api/events/{COPIED}", {}), (f"/api/events/{TURN}", {}),
         ("/api/events/evt-nowhere", {}), ("/api/telemetry", {"days": 3650}), ("/api/projects", {}),
         ("/api/recall/health", {})]


def answers(app) -> list:
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        return [client.get(path, params=params).json() for path, params in VIEWS]


def test_health_desk_and_sessions_without_loading_the_corpus(home, roots, monkeypatch):
    damage(home)
    expected = loaded_health(home)
    assert expected["logs"]["tool-use"]["problems"] == {"malformed_json": 1, "not_an_object": 1,
                                                        "missing_event_id": 1}
    assert expected["logs"]["prompts"]["problems"] == {"torn_line": 1}
    assert expected["duplicates"] == 18 and expected["events"] == 23
    loaded = create_app(home, transcript_roots=roots)
    assert loaded.state.carto.live.corpus  # what the server held from its start before
    views_loaded = answers(loaded)
    assert [len(v["sessions"]) for v in views_loaded[:3]] == [9, 4, 9]

    def refused(*args, **kwargs):
        raise AssertionError("the corpus was loaded")

    monkeypatch.setattr(livecorpus, "load_corpus", refused)
    app = create_app(home, transcript_roots=roots)
    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        health = client.get("/api/health").json()
        assert {key: health[key] for key in expected} == expected
        assert health["files"] == {label: path.exists()
                                   for label, path in home.searched_logs().items()}
    assert answers(app) == views_loaded
    assert app.state.carto.live.loaded is False


def changes(live: LiveCorpus) -> list:
    change = live.refresh()
    return [(kind, views.event_dict(event, live)) for kind, events in
            (("added", change.added), ("updated", change.updated)) for event in events]


def test_appended_rows_fold_as_a_loaded_corpus_folds_them(home):
    counted, loaded = LiveCorpus(home, lazy=True), LiveCorpus(home)
    assert loaded.loaded and counted.loaded is False
    rounds = [
        # a new event, then its changelog copy (folded), then a row of an older event's
        # changelog copy (folded: the domain row keeps it)
        [("tool-use", [row("evt-n1")]), ("changelog", [row("evt-n1"), row(COPIED)])],
        # an older turn written again as it grew: the event now, sent as an update
        [("turns", [{"event_id": TURN, "timestamp": "2026-01-01T00:00:09Z", "type": "transcript",
                     "summary": "the turn grew", "session_id": "s-live"}])],
        # a changelog copy first, its domain row later: an update naming both logs
        [("changelog", [row("evt-n2", "copy")])],
        [("tool-use", [row("evt-n2", "domain")]), ("tool-use", [row(None, "no id")])],
    ]
    for appended in rounds:
        for label, rows in appended:
            append_rows(home.log(label), rows)
        assert changes(counted) == changes(loaded)
    assert changes(counted) == []
    assert counted.events == len(loaded.corpus) == len(load_corpus(home))
    assert counted.duplicates == loaded.corpus.duplicates == load_corpus(home).duplicates
    assert counted.log_status() == loaded.log_status()
    for event_id in ("evt-n1", "evt-n2", COPIED, TURN):
        assert (views.event_dict(counted.get(event_id), counted, row=True)
                == views.event_dict(loaded.corpus.get(event_id), loaded, row=True))
    assert counted.get("evt-nowhere") is None
    assert counted.loaded is False


def test_stream_sends_the_fold_without_a_load(home, roots, no_load):
    app = create_app(home, transcript_roots=roots, poll_seconds=0.05, stream_lifetime=1.0,
                     heartbeat_seconds=0.2)
    import threading
    import time

    hub = app.state.carto.hub

    def append_later():
        deadline = time.monotonic() + 10
        while not hub.queues and time.monotonic() < deadline:
            time.sleep(0.01)
        append_rows(home.log("tool-use"), [row("evt-sse-1", "streamed row")])
        append_rows(home.log("turns"), [{"event_id": TURN, "timestamp": "2026-01-01T00:00:09Z",
                                         "type": "transcript", "summary": "grew",
                                         "session_id": "s-live"}])

    with TestClient(app, base_url=BASE, headers=bearer(app)) as client:
        thread = threading.Thread(target=append_later)
        thread.start()
        response = client.get("/api/stream")
        thread.join()
    events = [(line.split("\n")[1] if line.count("\n") > 1 else "",
               json.loads(line.rsplit("data: ", 1)[1]))
              for line in response.text.split("\n\n") if "data: {" in line]
    assert [(kind, e["event_id"], e["summary"], e["sources"]) for kind, e in events] == [
        ("", "evt-sse-1", "streamed row", ["tool-use"]),
        ("event: update", TURN, "grew", ["turns"])]
    assert app.state.carto.live.loaded is False
