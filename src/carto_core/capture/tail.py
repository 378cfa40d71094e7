"""Reading the end of an append-only file without reading the whole file (stdlib only).

Live capture and the SessionStart note look only at what was appended last: the HEAD reflog's
recent entries, the newest wrap-ups (the changelog's last row, the next row's parent, is read by
`context.read_last_line`, which lives with its only caller so the hook path loads one module
less). Both readers return whole lines only: a line cut by the start of the window is dropped,
never half-parsed.
"""

from __future__ import annotations

import json
import os

from carto_core.util.safeio import open_regular


def read_tail(path: os.PathLike | str, limit: int) -> bytes:
    """The complete lines among the last `limit` bytes of the file (the first line is dropped
    when the window starts inside it); b"" when the file is missing or unreadable."""
    try:
        with open_regular(path) as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            start = max(0, size - limit)
            handle.seek(start)
            data = handle.read()
    except OSError:
        return b""
    if start > 0:
        cut = data.find(b"\n")
        data = data[cut + 1:] if cut >= 0 else b""  # no line break: all of it is one cut line
    return data


def tail_rows(path: os.PathLike | str, limit: int) -> list[dict]:
    """The JSON objects among the complete lines of the last `limit` bytes (`read_tail`), in
    file order; a line that is not one is skipped."""
    rows = []
    for line in read_tail(path, limit).split(b"\n"):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows
