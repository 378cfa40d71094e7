"""The desk lists the sessions of a window from the summaries kept between runs
(`lenses.sessionstore`), as the session list does: after a new event only that event's
session is summarised again, where summarising every session of the corpus cost the desk
seconds at a million events. The document is the one the corpus's own summaries give."""

from __future__ import annotations

from carto_core.evaluation.sample import SESSIONS
from carto_core.lenses import views
from carto_core.logio.appendlog import append_rows


def test_the_desk_summarises_only_the_session_that_changed(home, client, monkeypatch):
    first = client.get("/api/desk?days=3650")
    assert first.status_code == 200, first.text
    whole = SESSIONS["b"]
    append_rows(home.log("tool-use"), [{"event_id": "evt-desk-new", "timestamp": "2026-11-20T11:50:00Z",
                                        "session_id": whole, "tool": "Bash", "command": "ls"}])
    summarised: list[str] = []
    real = views.summarize_session
    monkeypatch.setattr(views, "summarize_session", lambda sid, events: summarised.append(sid) or real(sid, events))
    after = client.get("/api/desk?days=3650")
    assert after.status_code == 200, after.text
    assert summarised == [whole]
    listed = {s["session_id"]: s for s in after.json()["sessions"]}
    assert listed[whole]["events"] == {s["session_id"]: s for s in first.json()["sessions"]}[whole]["events"] + 1
    # the same sessions and summaries the loaded corpus's own summaries give
    live = client.app.state.carto.live
    own = views.list_sessions(live, days=3650, project=None, provider=None, limit=100_000, with_bursts=True)
    # (a desk card's `evidence` is what the session left behind, not the summary's source)
    keys = [k for k in own["sessions"][0] if k != "evidence"]
    assert [{k: s[k] for k in keys} for s in after.json()["sessions"]] == \
        [{k: s[k] for k in keys} for s in own["sessions"]]
