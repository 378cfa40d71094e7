"""The warm corpus follows its logs: appends are picked up by byte offset, a torn tail waits for
its newline, a rewritten log is reloaded, and new events reach the event stream."""

from __future__ import annotations

import json
import os
import threading
import time

from carto_core.logio.appendlog import append_rows
from carto_core.model.corpus import load_corpus
from carto_core.lenses.livecorpus import LiveCorpus


def row(event_id: str, summary: str = "fresh row", **extra) -> dict:
    return {"event_id": event_id, "timestamp": "2026-01-02T03:04:05Z", "type": "tool_bash",
            "summary": summary, "project": "webshop", "session": "s-live", **extra}


def test_appends_are_picked_up(home):
    live = LiveCorpus(home)
    before, generation = len(live.corpus), live.generation
    assert not live.refresh()
    append_rows(home.log("tool-use"), [row("evt-new-1"), row("evt-new-2")])
    change = live.refresh()
    assert [e.event_id for e in change.added] == ["evt-new-1", "evt-new-2"]
    assert len(live.corpus) == before + 2 and live.generation > generation
    # The warm corpus equals a fresh load of the same bytes.
    fresh = load_corpus(home)
    assert {e.event_id for e in live.corpus.events} == {e.event_id for e in fresh.events}
    assert live.corpus.sources == fresh.sources


def test_changelog_copy_then_domain_row_folds_like_a_load(home):
    live = LiveCorpus(home)
    append_rows(home.log("changelog"), [row("evt-both", summary="copy", session_id="s-live")])
    live.refresh()
    append_rows(home.log("tool-use"), [row("evt-both", summary="domain")])
    change = live.refresh()
    assert change.added == []  # not new: folded
    fresh = load_corpus(home)
    assert live.corpus.get("evt-both").source == fresh.get("evt-both").source == "tool-use"
    assert live.corpus.sources["evt-both"] == fresh.sources["evt-both"]
    assert len(live.corpus) == len(fresh)


def test_torn_tail_waits_for_its_newline(home):
    live = LiveCorpus(home)
    path = home.log("tool-use")
    line = json.dumps(row("evt-torn")).encode()
    with open(path, "ab") as handle:
        handle.write(line[:20])
    assert live.refresh().added == []
    assert live.log_status()["tool-use"]["torn_tail"] is True
    with open(path, "ab") as handle:
        handle.write(line[20:] + b"\n")
    assert [e.event_id for e in live.refresh().added] == ["evt-torn"]
    assert live.log_status()["tool-use"]["torn_tail"] is False


def test_rewritten_log_is_reloaded(home):
    live = LiveCorpus(home)
    path = home.log("prompts")
    lines = path.read_text().splitlines(keepends=True)
    dropped = json.loads(lines[0])["event_id"]
    assert live.corpus.get(dropped) is not None
    # Same size, different bytes: only the boundary hash can tell.
    same_size = lines[0].replace(dropped, dropped[::-1][: len(dropped)])
    path.write_text(same_size + "".join(lines[1:]))
    change = live.refresh()
    assert change.reloaded == ["prompts"] and live.corpus.get(dropped) is None
    # A rewrite through rename (new inode) with fewer rows.
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(lines[1:]))
    os.replace(tmp, path)
    assert live.refresh().reloaded == ["prompts"]
    assert len(live.corpus) == len(load_corpus(home))
    assert live.reloads == 2


def test_api_sees_appends_without_restart(client, home):
    total = client.get("/api/events", params={"all": "1"}).json()["total"]
    append_rows(home.log("tool-use"), [row("evt-api-1")])
    body = client.get("/api/events", params={"all": "1"}).json()
    assert body["total"] == total + 1 and body["events"][-1]["event_id"] != ""
    assert client.get("/api/events/evt-api-1").json()["summary"] == "fresh row"
    # Recall's warm engine sees it too.
    hits = client.post("/api/recall", json={"query": "zanzibar"}).json()["results"]
    assert hits == []
    append_rows(home.log("tool-use"), [row("evt-api-2", summary="Ran: zanzibar deploy")])
    hits = client.post("/api/recall", json={"query": "zanzibar"}).json()["results"]
    assert [h["event_id"] for h in hits] == ["evt-api-2"]


def _wait_for_subscriber(hub, timeout=10.0):
    """Change the logs only once the stream has subscribed: on a loaded machine the request can
    start later than any fixed delay, and a change that lands before it is (rightly) missed."""
    deadline = time.monotonic() + timeout
    while not hub.queues and time.monotonic() < deadline:
        time.sleep(0.01)


def test_stream_sends_new_events(client, home):
    """The follower (not a request) picks the append up and the stream delivers it."""

    hub = client.app.state.carto.hub

    def append_later():
        _wait_for_subscriber(hub)
        append_rows(home.log("tool-use"), [row("evt-sse-1", summary="streamed row"),
                                           row("evt-sse-agent", type="milestone_agent_stop")])

    thread = threading.Thread(target=append_later)
    thread.start()
    response = client.get("/api/stream")  # closes after the app's stream_lifetime (1 s)
    thread.join()
    assert response.headers["content-type"].startswith("text/event-stream")
    data = [json.loads(line[len("data: "):]) for line in response.text.splitlines()
            if line.startswith("data: ")]
    assert [d["event_id"] for d in data] == ["evt-sse-1"]  # low-signal agent row filtered
    assert data[0]["summary"] == "streamed row"


def test_stream_says_reload_after_a_rewrite(client, home):
    path = home.log("prompts")
    hub = client.app.state.carto.hub

    def rewrite_later():
        _wait_for_subscriber(hub)
        lines = path.read_text().splitlines(keepends=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text("".join(lines[1:]))
        os.replace(tmp, path)

    thread = threading.Thread(target=rewrite_later)
    thread.start()
    response = client.get("/api/stream")
    thread.join()
    assert "event: reload" in response.text
    reload_data = response.text.split("event: reload\ndata: ", 1)[1].split("\n", 1)[0]
    assert json.loads(reload_data)["logs"] == ["prompts"]


def test_frozen_corpus_still_follows_and_frees(home):
    import gc
    import weakref

    live = LiveCorpus(home, freeze=True)
    try:
        old = live.corpus
        probe = weakref.ref(old)
        append_rows(home.log("tool-use"), [row("evt-frozen")])
        assert [e.event_id for e in live.refresh().added] == ["evt-frozen"]
        path = home.log("prompts")
        path.write_text("".join(path.read_text().splitlines(keepends=True)[1:]))
        os.utime(path, ns=(1, 1))
        assert live.refresh().reloaded == ["prompts"]
        del old
        # The replaced corpus is freed by reference counting although it was frozen.
        assert probe() is None
    finally:
        gc.unfreeze()
