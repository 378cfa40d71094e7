"""The MCP collision tool reads the logs' tails once: its touches and its note are of the same
read (`peer_touches`, then `collision_note` over those touches at the same moment), where the
note read the changelog's tail (and the turns') again."""

from __future__ import annotations

import os

from carto_core.capture import collision
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.mcp.server import CartoMcp


def test_the_touches_and_the_note_are_of_one_read(tmp_path, monkeypatch):
    home = build_sample_home(tmp_path / "h")
    reads: list[str] = []
    real = collision.tail_lines

    def counted(path, *args, **kwargs):
        reads.append(os.path.basename(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(collision, "tail_lines", counted)
    path = "/work/webshop/tests/test_cart.py"
    answer = CartoMcp(home).call("collision", {"path": path, "session_id": SESSIONS["a"]})
    assert sorted(reads) == ["changelog.jsonl", "turns.jsonl"]
    [touch] = answer["touches"]
    assert (touch["session_id"], touch["provider"], touch["type"]) == (SESSIONS["b"], "codex", "tool_file_edit")
    assert touch["path"].endswith("/tests/test_cart.py") and touch["path"] != path
    assert answer["note"].startswith(f"carto: heads-up - session {SESSIONS['b'][:8]} (codex) edited "
                                     "test_cart.py in another checkout ")
    assert answer["note"].endswith(f" ago ({touch['event_id']}); check `carto standup` before "
                                   "overwriting their work.")
    assert (answer["path"], answer["session_id"], answer["window_minutes"]) == (path, SESSIONS["a"], 45)


def test_a_note_of_touches_given_reads_nothing(tmp_path, monkeypatch):
    from datetime import timedelta

    from carto_core.util.timeparse import utcnow

    home = build_sample_home(tmp_path / "h")
    now = utcnow()
    touches = [{"session_id": "5c3e0000-cccc-4000-8000-00000000000c", "provider": "", "path": "/w/app/x.py",
                "timestamp": now - timedelta(minutes=3), "event_id": "evt-x", "type": "git_commit"}]
    monkeypatch.setattr(collision, "tail_lines", lambda *a, **k: (_ for _ in ()).throw(AssertionError("read")))
    assert collision.collision_note(home, SESSIONS["a"], "/w/app/x.py", now=now, touches=touches) == (
        "carto: heads-up - session 5c3e0000 committed x.py 3m ago (evt-x); check `carto standup` "
        "before overwriting their work.")
    assert collision.collision_note(home, SESSIONS["a"], "/w/app/x.py", now=now, touches=[]) is None
