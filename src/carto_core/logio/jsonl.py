"""Encoding and decoding of JSONL rows, stdlib only (the hook path imports this).

Rows are compact JSON with non-ASCII kept as is, which is what jq writes; key order is the
dict's order. `dumps_row` is the one encoder every writer uses so that bytes agree.
"""

from __future__ import annotations

import json
import re

from carto_core.util.lazyre import Lazy

_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
#: Compiled on first use (a cost to every process that imports this module, the hook's too):
#: only a row holding a surrogate escape, or a string that cannot be encoded, needs it.
_SURROGATE = Lazy("[\ud800-\udfff]")
#: A JSON escape of a UTF-16 surrogate: only lines holding one can decode to a lone surrogate.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def replace_surrogates(text: str) -> str:
    """Lone UTF-16 surrogates (a JavaScript agent's cut emoji, an undecodable file name) -> U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


def scrub_surrogates(value):
    """`value` with every lone surrogate in its strings (keys included) replaced by U+FFFD."""
    if isinstance(value, str):
        return replace_surrogates(value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {scrub_surrogates(k): scrub_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_surrogates(v) for v in value]
    return value


def dumps_row(row: dict) -> bytes:
    """One row as the bytes of one line, newline included. A lone surrogate anywhere in the row
    becomes U+FFFD (UTF-8 cannot encode one; losing the whole row for it would be worse)."""
    text = _encoder.encode(row) + "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return replace_surrogates(text).encode("utf-8")


def loads_line(raw: bytes) -> tuple[object, str | None]:
    """Decode one line. Returns (value, problem): problem is None for a clean line.

    A line with bytes that are not UTF-8 is decoded with U+FFFD in their place and reported as
    `invalid_utf8`, so the rest of its row is not lost.
    """
    problem = None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="replace")
        problem = "invalid_utf8"
    try:
        value = json.loads(text)
    except ValueError:
        return None, "malformed_json"
    if _SURROGATE_ESCAPE.search(raw):
        scrubbed = scrub_surrogates(value)
        if scrubbed != value:
            return scrubbed, problem or "lone_surrogate"
    return value, problem


def fast_loads_line(raw: bytes) -> tuple[object, str | None]:
    """`loads_line` with orjson first (faster on clean lines) for bulk loads; anything
    orjson refuses takes the stdlib path, so problems are named the same way. Not for the hook
    path (importing orjson there costs more than it saves on one row)."""
    import orjson

    try:
        return orjson.loads(raw), None
    except orjson.JSONDecodeError:
        return loads_line(raw)


def lines_containing(data: bytes, needle: bytes):
    """Every line of `data` that contains `needle` (found by bytes search, so lines without it
    cost nothing: a session's rows are a small share of a large log)."""
    position = data.find(needle)
    while position >= 0:
        start = data.rfind(b"\n", 0, position) + 1
        end = data.find(b"\n", position)
        if end < 0:
            end = len(data)
        yield data[start:end]
        position = data.find(needle, end)


