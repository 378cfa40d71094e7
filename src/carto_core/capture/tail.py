"""Reading the end of an append-only file without reading the whole file (stdlib only).

Live capture and the SessionStart note look only at what was appended last: the changelog's last
row (the next row's parent), the HEAD reflog's recent entries, the newest wrap-ups. Both readers
return whole lines only: a line cut by the start of the window is dropped, never half-parsed.
"""

from __future__ import annotations

import os


def read_tail(path: os.PathLike | str, limit: int) -> bytes:
    """The complete lines among the last `limit` bytes of the file (the first line is dropped
    when the window starts inside it); b"" when the file is missing or unreadable."""
    try:
        with open(path, "rb") as handle:
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


def read_last_line(path: os.PathLike | str, max_bytes: int = 1 << 20) -> bytes:
    """The last complete line of a file (without its newline), b"" when there is none. Reads
    8 KiB, then 4x more until a line break is found or `max_bytes` is reached."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            chunk = 8192
            while True:
                start = max(0, size - chunk)
                handle.seek(start)
                data = handle.read(size - start)
                body = data[:-1] if data.endswith(b"\n") else data
                cut = body.rfind(b"\n")
                if cut >= 0:
                    return body[cut + 1:]
                if start == 0 or chunk >= max_bytes:
                    return body if start == 0 else b""
                chunk *= 4
    except OSError:
        return b""
