"""When a transcript is finished, so that its last turn is final. Stdlib only (the Stop hook
reads transcripts with it).

A transcript is finished when its file has been quiet for `settle_seconds`, or when its own
newest timestamp is that old. The file's mtime alone is wrong for a copy: transcripts copied
onto a machine just now (a backup restored, a laptop migrated) have fresh mtimes and are
finished all the same; their timestamps say so. A live session's file has both fresh.
"""

from __future__ import annotations

DEFAULT_SETTLE_SECONDS = 600.0


def stamp_epoch(value: object) -> float | None:
    """Epoch seconds of a transcript line's timestamp (ISO string or epoch number), else None."""
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        return None
    from carto_core.util.timeparse import parse_timestamp

    moment = parse_timestamp(value)
    return moment.timestamp() if moment is not None else None


def is_finished(mtime: float, last_stamp: float | None, settle_seconds: float, now: float) -> bool:
    """True when the file is quiet for `settle_seconds` or its newest timestamp is that old."""
    if now - mtime >= settle_seconds:
        return True
    return last_stamp is not None and now - last_stamp >= settle_seconds


def final_at(mtime: float, last_stamp: float | None, settle_seconds: float) -> float:
    """When `is_finished` turns true if nothing more is written (epoch seconds)."""
    moments = [mtime + settle_seconds]
    if last_stamp is not None:
        moments.append(last_stamp + settle_seconds)
    return min(moments)
