"""A changelog row's parent (upstream `find_parent_event_id`): the log's last row when it is of
the same session and at most PARENT_WINDOW_SECONDS old. The hooks' own timestamp form is
compared as a string (no datetime import on the hook path); any other form is parsed. Both
must give the same answer at every age around the window's edges."""

from __future__ import annotations

import json
import time

import pytest

from carto_core.capture.context import PARENT_WINDOW_SECONDS, Context, format_utc
from carto_core.logio.home import Home

NOW = 1_790_000_000.75  # a fraction: the window counts whole seconds, as the rows do


def parent_of(tmp_path, row: dict, session: str = "s1") -> str | None:
    home = Home(tmp_path / "home")
    log = home.log("changelog")
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text('{"event_id": "evt-older", "session_id": "s1", "timestamp": "2020-01-01T00:00:00Z"}\n'
                   + json.dumps(row) + "\n")
    return Context(home, "claude", "PostToolUse", {"session_id": session}, now=NOW).parent()


def iso_ms(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + ".000Z"


@pytest.mark.parametrize("form", [format_utc, iso_ms], ids=["hook form (string compare)", "ms form (parsed)"])
@pytest.mark.parametrize("age", [-2, -1, 0, 1, 30, 59, 60, 61, 62, 3600])
def test_the_window_is_zero_to_sixty_whole_seconds_in_either_form(tmp_path, form, age):
    row = {"event_id": "evt-last", "session_id": "s1", "timestamp": form(int(NOW) - age)}
    expected = "evt-last" if 0 <= age <= PARENT_WINDOW_SECONDS else None
    assert parent_of(tmp_path, row) == expected


def test_another_session_or_a_broken_stamp_has_no_parent(tmp_path):
    fresh = format_utc(NOW - 5)
    assert parent_of(tmp_path, {"event_id": "evt-last", "session_id": "s2", "timestamp": fresh}) is None
    assert parent_of(tmp_path, {"event_id": "evt-last", "session": "s1", "timestamp": fresh}) == "evt-last"
    assert parent_of(tmp_path, {"event_id": "evt-last", "session_id": "s1", "timestamp": "yesterday"}) is None
    # digits in the hook's shape but not an instant: the parser refuses it, so must the fast path
    assert parent_of(tmp_path, {"event_id": "evt-last", "session_id": "s1",
                                "timestamp": format_utc(NOW - 5)[:-3] + "65Z"}) is None
