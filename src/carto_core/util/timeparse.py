"""Timestamps as they occur in the logs, and the WHEN grammar of `--since/--before`.

Logs hold ISO strings with `Z`, with milliseconds, with offsets (about 2 % of a real corpus), and
epoch numbers in seconds or milliseconds. All of them compare as instants: everything parsed here
is an aware UTC datetime. A value that is none of these parses to None; callers drop such rows
whenever a time window is active.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

UTC = timezone.utc

# Years outside this range are almost always a unit mix-up (ms read as s or the reverse).
_MIN_YEAR, _MAX_YEAR = 1990, 2200


def parse_timestamp(value: object) -> datetime | None:
    """Parse one log timestamp into an aware UTC datetime, or None when it is unusable."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return _from_epoch(float(value))
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text:
        return None
    if text[0].isdigit() and text.replace(".", "", 1).isdigit():
        # A bare number: epoch seconds or milliseconds written as a string. A four-digit year
        # with nothing after it is not a number of seconds anyone meant.
        if len(text) > 4:
            return _from_epoch(float(text))
        return None
    return _from_iso(text)


def _from_epoch(number: float) -> datetime | None:
    if number != number or number <= 0:  # NaN or non-positive
        return None
    seconds = number / 1000.0 if number > 1e12 else number
    try:
        result = datetime.fromtimestamp(seconds, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return result if _MIN_YEAR <= result.year <= _MAX_YEAR else None


def _from_iso(text: str) -> datetime | None:
    try:
        # Python 3.11's fromisoformat reads `Z`, fractions and offsets itself.
        parsed = datetime.fromisoformat(text)
    except ValueError:
        if not text.endswith("z"):
            return None
        try:
            parsed = datetime.fromisoformat(text[:-1] + "+00:00")
        except ValueError:
            return None
    if parsed.tzinfo is None:
        # Upstream writers always mean UTC; a naive value is a truncated UTC stamp.
        parsed = parsed.replace(tzinfo=UTC)
    parsed = parsed.astimezone(UTC)
    return parsed if _MIN_YEAR <= parsed.year <= _MAX_YEAR else None


_DAY_SECONDS: dict[str, float | None] = {}


def epoch_seconds(value: object) -> float | None:
    """`parse_timestamp(value).timestamp()` (None when unusable), for bulk builds: the
    canonical upstream form `YYYY-MM-DDTHH:MM:SSZ` (most rows) is the day's epoch, parsed
    once per day, plus the clock."""
    if value.__class__ is str and len(value) == 20 and value[19] == "Z" and value[10] == "T" \
            and value[13] == ":" and value[16] == ":":
        clock = value[11:13] + value[14:16] + value[17:19]
        if clock.isascii() and clock.isdigit():
            hours, minutes, seconds = int(clock[:2]), int(clock[2:4]), int(clock[4:])
            if hours < 24 and minutes < 60 and seconds < 60:
                date = value[:10]
                if date in _DAY_SECONDS:
                    day = _DAY_SECONDS[date]
                else:
                    moment = parse_timestamp(date + "T00:00:00Z")
                    day = _DAY_SECONDS[date] = moment.timestamp() if moment is not None else None
                return None if day is None else day + hours * 3600 + minutes * 60 + seconds
    moment = parse_timestamp(value)
    return moment.timestamp() if moment is not None else None


def format_timestamp(moment: datetime) -> str:
    """The canonical upstream form: `YYYY-MM-DDTHH:MM:SSZ` in UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def shown_timestamp(value: object) -> object:
    """A stored timestamp as a lens prints it: one with an offset (git's `%aI` writes
    `+00:00`, `+02:00`) as the same instant in the canonical `Z` form, so a list mixing
    commits with hook rows reads in one zone and in order; any other value as it is."""
    if value.__class__ is not str or value.endswith(("Z", "z")) or len(value) < 20 \
            or value[-6] not in "+-" or value[-3] != ":":
        return value
    moment = parse_timestamp(value)
    return value if moment is None else format_timestamp(moment)


def utcnow() -> datetime:
    return datetime.now(UTC)


class WhenError(ValueError):
    """A WHEN expression that the grammar does not accept."""


WHEN_HELP = (
    "today, yesterday, last night, this morning, this afternoon, this evening, tonight, "
    "this hour, this week, last week, this month, last month, "
    "<n>m|h|d|w|mo|y (ago), <n> minutes|hours|days|weeks|months|years (ago), "
    "or YYYY-MM-DD[THH:MM[:SS]]"
)

_RELATIVE = re.compile(r"^(\d+)\s*([a-z]+?)(?:\s+ago)?$")
_UNIT = {
    "m": timedelta(minutes=1),
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
    "mo": timedelta(days=30),
    "y": timedelta(days=365),
}
#: The words a person spells a span with, to the unit letters above.
_UNIT_WORDS = {
    **{w: "m" for w in ("min", "mins", "minute", "minutes")},
    **{w: "h" for w in ("hr", "hrs", "hour", "hours")},
    **{w: "d" for w in ("day", "days")},
    **{w: "w" for w in ("wk", "wks", "week", "weeks")},
    **{w: "mo" for w in ("month", "months")},
    **{w: "y" for w in ("yr", "yrs", "year", "years")},
}
#: A WHEN instant must fall in these years: a span that reaches past them (`9999999d`) is a
#: usage error, not an overflow deep in a lens, and a year of margin keeps a window's own
#: arithmetic (a day or a week either side) from overflowing.
_WHEN_YEARS = (2, 9998)


def is_span(expression: str) -> bool:
    """A WHEN that counts back from now ("6h", "2 days", "30m ago"): a window of it reads
    "last 6h"; any other ("yesterday", "2026-09-01") reads "since ..."."""
    match = _RELATIVE.match(" ".join(expression.strip().lower().split()))
    return bool(match) and _UNIT_WORDS.get(match.group(2), match.group(2)) in _UNIT


def parse_when(expression: str, *, now: datetime | None = None) -> datetime:
    """Resolve the upstream WHEN grammar to an aware instant.

    Named days and times are local wall-clock times (as upstream's `parse_time_arg`); relative
    spans count back from now; absolute dates are local. Raises WhenError naming the grammar,
    or the range, for a span that reaches outside the calendar (`9999999d`).
    """
    local_now = (now or utcnow()).astimezone()
    text = " ".join(expression.strip().lower().split())
    midnight = local_now.replace(hour=0, minute=0, second=0, microsecond=0)
    named = {
        "today": midnight,
        "this day": midnight,
        "yesterday": midnight - timedelta(days=1),
        "last night": midnight - timedelta(days=1),
        "this morning": midnight.replace(hour=6),
        "this afternoon": midnight.replace(hour=12),
        "this evening": midnight.replace(hour=18),
        "tonight": midnight.replace(hour=21),
        "this hour": local_now.replace(minute=0, second=0, microsecond=0),
        "this week": midnight - timedelta(days=midnight.weekday()),
        "last week": midnight - timedelta(days=midnight.weekday() + 7),
        "this month": midnight.replace(day=1),
        "last month": (midnight.replace(day=1) - timedelta(days=1)).replace(day=1),
    }
    if text in named:
        return named[text].astimezone(UTC)
    match = _RELATIVE.match(text)
    unit = _UNIT_WORDS.get(match.group(2), match.group(2)) if match else None
    if unit not in _UNIT:
        match = None
    try:
        if match:
            moment = (local_now - int(match.group(1)) * _UNIT[unit]).astimezone(UTC)
        else:
            try:
                parsed = datetime.fromisoformat(expression.strip())
            except ValueError:
                raise WhenError(f"cannot read {expression!r} as a time; accepted: {WHEN_HELP}") from None
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=local_now.tzinfo)
            moment = parsed.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        # OverflowError: the span leaves the calendar; ValueError: more digits than int() reads.
        if isinstance(exc, WhenError):
            raise
        moment = None
    if moment is None or not _WHEN_YEARS[0] <= moment.year <= _WHEN_YEARS[1]:
        raise WhenError(f"{expression.strip()[:40]!r} reaches outside the years "
                        f"{_WHEN_YEARS[0]}-{_WHEN_YEARS[1]}; give a shorter span or a date "
                        f"(accepted: {WHEN_HELP})")
    return moment
