from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, strategies as st

from carto_core.util.timeparse import WhenError, format_timestamp, parse_timestamp, parse_when

UTC = timezone.utc
MOMENT = datetime(2026, 9, 8, 14, 3, 5, tzinfo=UTC)


@pytest.mark.parametrize("value", [
    "2026-09-08T14:03:05Z",
    "2026-09-08T14:03:05.000Z",
    "2026-09-08T16:03:05+02:00",
    "2026-09-08T09:03:05-05:00",
    "2026-09-08T14:03:05",
    1788876185,
    1788876185000,
    1788876185.0,
    "1788876185",
    "1788876185000",
])
def test_every_upstream_spelling_is_the_same_instant(value):
    assert parse_timestamp(value) == MOMENT


@pytest.mark.parametrize("value", [None, "", "   ", "yesterday", "2026", "not a date", True, [], {}, -5, 0,
                                   float("nan"), "20xx-01-01"])
def test_unusable_values_parse_to_none(value):
    assert parse_timestamp(value) is None


def test_milliseconds_are_kept():
    assert parse_timestamp("2026-09-08T14:03:05.250Z").microsecond == 250000


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                    timezones=st.just(UTC)))
def test_format_then_parse_is_identity_to_the_second(moment):
    assert parse_timestamp(format_timestamp(moment)) == moment.replace(microsecond=0)


@given(st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2100, 1, 1)),
       st.integers(min_value=-14 * 60, max_value=14 * 60))
def test_offsets_compare_as_instants(naive, offset_minutes):
    zone = timezone(timedelta(minutes=offset_minutes))
    local = naive.replace(tzinfo=zone)
    assert parse_timestamp(local.isoformat()) == local.astimezone(UTC)


def test_when_grammar():
    now = datetime(2026, 9, 9, 15, 30, tzinfo=UTC)  # a Wednesday
    assert parse_when("2h", now=now) == now - timedelta(hours=2)
    assert parse_when("3d", now=now) == now - timedelta(days=3)
    assert parse_when("1mo", now=now) == now - timedelta(days=30)
    assert parse_when("1y", now=now) == now - timedelta(days=365)
    today = parse_when("today", now=now).astimezone()
    assert (today.hour, today.minute) == (0, 0)
    week = parse_when("this week", now=now).astimezone()
    assert week.weekday() == 0 and week.hour == 0
    assert parse_when("last week", now=now) < parse_when("this week", now=now)
    assert parse_when("2026-09-01", now=now).astimezone().date().isoformat() == "2026-09-01"


@pytest.mark.parametrize("bad", ["", "soon", "3 fortnights", "2026-13-01", "h2"])
def test_when_rejects_with_the_grammar_in_the_message(bad):
    with pytest.raises(WhenError, match="accepted: today"):
        parse_when(bad)


@pytest.mark.parametrize("span", ["9999999d", "99999999999y", "9" * 5000 + "d", "0001-01-01",
                                  "9999-12-31T23:59:59+00:00"])
def test_a_span_outside_the_calendar_is_a_when_error_not_an_overflow(span):
    # Before: OverflowError (or ValueError for 5000 digits) from the date arithmetic, which the
    # commands did not catch (a traceback; a 500 from MCP's standup).
    with pytest.raises(WhenError, match="reaches outside the years 2-9998"):
        parse_when(span)


def test_the_calendar_bounds_are_where_they_are():
    now = datetime(2026, 9, 9, 15, 30, tzinfo=UTC)
    assert parse_when("2020y", now=now).year == 8  # 2020 x 365 days back (leap days aside)
    with pytest.raises(WhenError):
        parse_when("2030y", now=now)
    assert parse_when("0002-01-02T00:00:00+00:00", now=now).year == 2
    assert parse_when("9998-12-31T00:00:00+00:00", now=now).year == 9998
    with pytest.raises(WhenError):
        parse_when("0001-12-31T00:00:00+00:00", now=now)
    with pytest.raises(WhenError):
        parse_when("9999-01-01T00:00:00+00:00", now=now)


@pytest.mark.parametrize("spelling, span", [
    ("2w ago", timedelta(weeks=2)), ("3d ago", timedelta(days=3)),
    ("2 days ago", timedelta(days=2)), ("1 week ago", timedelta(weeks=1)),
    ("10 minutes", timedelta(minutes=10)), ("1 hour", timedelta(hours=1)),
    ("6 months ago", timedelta(days=180)), ("1 year", timedelta(days=365)),
    ("90 min ago", timedelta(minutes=90)),
])
def test_a_span_in_words_or_with_ago_is_the_span(spelling, span):
    """The message of a refused WHEN offers '<n>m|h|d|w|mo|y (ago)', yet '2w ago' was refused,
    and so were '2 days ago' and '10 minutes', the way a person says a span."""
    now = datetime(2026, 9, 9, 15, 30, tzinfo=UTC)
    assert parse_when(spelling, now=now) == now - span
