import pytest

from carto_core.model.events import Event, converter, is_resolved, single_line


@pytest.mark.parametrize("value,expected", [
    (None, False), ("", False), ("  ", False), ("unknown", False), (" Unknown ", False),
    ("UNKNOWN", False), ("x", True), (0, True), ("sess-1", True),
])
def test_is_resolved(value, expected):
    assert is_resolved(value) is expected


def test_fallback_chains_for_a_milestone_row():
    row = {"event_id": "evt-aaaaaaaaaaaa", "timestamp": "2026-09-08T14:03:05Z",
           "milestone": "session_end_clear", "description": "Session ended", "session_id": "s1",
           "event": "SessionEnd"}
    event = Event.from_row(row, "milestones")
    # type: type -> event -> milestone; text: summary -> description
    assert event.type == "SessionEnd"
    assert event.summary == "Session ended"
    assert event.session_id == "s1"


def test_domain_logs_spell_session_differently():
    tool = Event.from_row({"event_id": "e1", "session": "abc"}, "tool-use")
    prompt = Event.from_row({"event_id": "e2", "sessionId": "def"}, "prompts")
    unresolved = Event.from_row({"event_id": "e3", "session_id": "unknown", "session": "ghi"}, "changelog")
    assert (tool.session_id, prompt.session_id, unresolved.session_id) == ("abc", "def", "ghi")


def test_text_chain_order_and_single_line():
    event = Event.from_row({"event_id": "e", "prompt": "first\nsecond\tthird", "url": "u"}, "research")
    assert event.summary == "first second third"
    assert Event.from_row({"event_id": "e", "url": "https://x"}, "research").summary == "https://x"
    assert Event.from_row({"event_id": "evt-1"}, "research").summary == "evt-1"


def test_git_backfill_rows_type_as_commits():
    assert Event.from_row({"event_id": "git-abc1234", "summary": "Commit"}, "changelog").type == "git_commit"


def test_missing_event_id_uses_fallback():
    assert Event.from_row({"milestone": "m"}, "milestones", fallback_id="milestones-7").event_id == "milestones-7"
    assert Event.from_row({"event_id": ""}, "changelog", fallback_id="changelog-3").event_id == "changelog-3"


def test_original_row_is_kept_untouched():
    row = {"zeta": 1, "event_id": "e", "alpha": {"nested": [1, 2]}, "timestamp": 1788876185}
    event = Event.from_row(row, "changelog")
    assert event.row is row
    assert list(event.row) == ["zeta", "event_id", "alpha", "timestamp"]


def test_salience_parsing():
    assert Event.from_row({"event_id": "e", "salience": "0.7"}, "changelog").salience == 0.7
    assert Event.from_row({"event_id": "e", "salience": True}, "changelog").salience is None
    assert Event.from_row({"event_id": "e"}, "changelog").salience is None


def test_cattrs_round_trip():
    event = Event.from_row({"event_id": "e", "timestamp": "2026-09-08T14:03:05Z", "project": "p",
                            "related_ids": ["a", "b"], "extra": {"k": 1}}, "changelog")
    data = converter.unstructure(event)
    assert data["timestamp"] == "2026-09-08T14:03:05Z"
    back = converter.structure(data, Event)
    assert back == event
    assert back.row == event.row


def test_single_line():
    assert single_line("a\r\nb\tc") == "a  b c"
    assert single_line("plain") == "plain"
