"""The bulk builds' shortcuts normalise exactly as the slow paths they replace."""

from datetime import datetime, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.model.events import Event, fold_fields
from carto_core.util.timeparse import epoch_seconds, parse_timestamp

_VALUES = st.one_of(st.none(), st.sampled_from(["", "unknown", " Unknown ", "proj", "git-1", "s-1"]),
                    st.text(max_size=12), st.integers(-3, 3), st.booleans(), st.lists(st.integers(), max_size=2))
_ROWS = st.fixed_dictionaries({}, optional={
    key: _VALUES for key in ("event_id", "type", "event", "milestone", "session_id", "session",
                             "sessionId", "provider", "project")})


@settings(max_examples=400, deadline=None)
@given(row=_ROWS, fallback=st.sampled_from(["tool-use-3", "git-7"]))
def test_fold_fields_are_the_events_attributes(row, fallback):
    event = Event.from_row(row, "tool-use", fallback_id=fallback)
    assert fold_fields(row, event.event_id) == (event.type, event.provider, event.session_id,
                                                event.project)


_CANONICAL = st.builds(
    lambda y, mo, d, h, mi, s: f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z",
    st.integers(1980, 2210), st.integers(0, 13), st.integers(0, 32), st.integers(0, 25),
    st.integers(0, 61), st.integers(0, 61))
_STAMPS = st.one_of(_CANONICAL, st.text(max_size=22), st.integers(-5, 2_000_000_000_000),
                    st.floats(allow_nan=True), st.none(),
                    st.sampled_from(["2025-01-01T10:00:00.5Z", "2025-01-01T10:00:00+02:00",
                                     "2025-01-01T1a:00:00Z", "2025-01-01T\u00b2\u00b2:00:00Z",
                                     "1989-12-31T23:59:59Z", "2200-12-31T23:59:59Z"]))


@settings(max_examples=600, deadline=None)
@given(value=_STAMPS)
def test_epoch_seconds_is_the_parsed_instant(value):
    moment = parse_timestamp(value)
    assert epoch_seconds(value) == (moment.timestamp() if moment is not None else None)


def test_the_day_cache_does_not_leak_between_clock_values():
    assert epoch_seconds("2025-03-04T00:00:00Z") == datetime(2025, 3, 4, tzinfo=timezone.utc).timestamp()
    assert epoch_seconds("2025-03-04T23:59:59Z") == datetime(2025, 3, 4, 23, 59, 59, tzinfo=timezone.utc).timestamp()
    assert epoch_seconds("2025-03-04T24:00:00Z") is None  # not a clock time: parse says so too


_TEXT_ROWS = st.fixed_dictionaries({}, optional={
    key: st.one_of(_VALUES, st.text(alphabet="ab \t\n\r", max_size=8), st.text(max_size=1300))
    for key in ("event_id", "summary", "description", "prompt", "url", "query", "milestone", "project")})


@settings(max_examples=400, deadline=None)
@given(row=_TEXT_ROWS, fallback=st.sampled_from(["prompts-3", "ab"]))
def test_row_document_text_is_the_events_document_text(row, fallback):
    from carto_core.semantic.text import document_text, row_document_text

    event = Event.from_row(row, "prompts", fallback_id=fallback)
    assert row_document_text(row, event.event_id) == document_text(event)
