"""The session page describes its session's lineage (continues, continued by, restarts) from
the milestones and turns logs. Reading them on each view cost half a second at a million
events: the lineage is read again only when one of those two logs changed."""

from __future__ import annotations

from carto_core.evaluation.sample import SESSIONS
from carto_core.lenses import lineage as lineage_module
from carto_core.logio.appendlog import append_rows


def test_the_lineage_is_read_again_only_when_its_logs_change(home, client, monkeypatch):
    reads = []
    real = lineage_module.lineage
    monkeypatch.setattr(lineage_module, "lineage", lambda h: reads.append(1) or real(h))
    whole = SESSIONS["a"]

    def restarts() -> list:
        answer = client.get(f"/api/sessions/{whole}")
        assert answer.status_code == 200, answer.text
        return answer.json()["lineage"]["restarts"]

    first = restarts()
    assert restarts() == first and len(reads) == 1
    # a new event in another log: the lineage it was read from is unchanged
    append_rows(home.log("tool-use"), [{"event_id": "evt-kept-bash", "timestamp": "2026-11-20T11:50:00Z",
                                        "session_id": whole, "tool": "Bash", "command": "ls"}])
    assert restarts() == first and len(reads) == 1
    append_rows(home.log("milestones"), [{
        "event_id": "evt-kept-resume", "timestamp": "2026-11-20T11:55:00Z", "session_id": whole,
        "milestone": "session_start_resume", "description": "Session resumed"}])
    after = restarts()
    assert len(reads) == 2
    assert [r["event_id"] for r in after] == [r["event_id"] for r in first] + ["evt-kept-resume"]
