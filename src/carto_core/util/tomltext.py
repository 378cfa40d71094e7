"""Editing a TOML file as text, one table at a time, so that its comments and layout survive
(the standard library reads TOML but does not write it). Callers parse the result with `tomllib`
and compare it with what they meant to change before writing (`mcp.install`, Codex hook trust).
Stdlib only.
"""

from __future__ import annotations

import json
import re

#: A bare key; the escapes of a basic string (TOML 1.0, and \e of 1.1).
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '"', "\\": "\\", "b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r",
            "e": "\x1b"}
_SPACE = " \t"


def header_parts(line: str) -> list[str] | None:
    """The dotted key of a table header line (`[a."b.c"]` -> ["a", "b.c"], `[[a.b]]` too),
    else None. Its keys are bare, basic strings (their escapes decoded: `"\""` is a quote) or
    literal strings, so a `]`, a `.` or a `#` inside quotes is the key's own; a comment may
    follow the header."""
    text = line.rstrip("\r\n")
    pos = len(text) - len(text.lstrip(_SPACE))
    if not text.startswith("[", pos):
        return None
    double = text.startswith("[[", pos)
    pos += 2 if double else 1
    parts = []
    while True:
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        key, pos = _key(text, pos)
        if key is None:
            return None
        parts.append(key)
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        if not text.startswith(".", pos):
            break
        pos += 1
    close = "]]" if double else "]"
    if not text.startswith(close, pos):
        return None
    rest = text[pos + len(close):].lstrip(_SPACE)
    return parts if not rest or rest.startswith("#") else None


def _key(text: str, pos: int) -> tuple[str | None, int]:
    """One simple key of a dotted key at `pos`: (its value, the position after it), or None."""
    if text.startswith("'", pos):
        end = text.find("'", pos + 1)
        return (None, pos) if end < 0 else (text[pos + 1:end], end + 1)
    if not text.startswith('"', pos):
        bare = _BARE.match(text, pos)
        return (bare.group(), bare.end()) if bare else (None, pos)
    out, pos = [], pos + 1
    while pos < len(text):
        char = text[pos]
        if char == '"':
            return "".join(out), pos + 1
        if char != "\\":
            out.append(char)
            pos += 1
            continue
        code = text[pos + 1:pos + 2]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            pos += 2
        elif code in ("u", "U"):
            width = 4 if code == "u" else 8
            digits = text[pos + 2:pos + 2 + width]
            if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                return None, pos
            out.append(chr(int(digits, 16)))
            pos += 2 + width
        else:
            return None, pos
    return None, pos


def toml_string(value: str) -> str:
    """A TOML basic string: a JSON string literal, plus DEL escaped (TOML forbids it raw, JSON
    does not escape it)."""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def table_span(lines: list[str], key: list[str]) -> tuple[int, int] | None:
    """[start, end) of the lines of the table `key` and its sub-tables (the first such run of
    headers), leaving the blank lines and comments before the next table to that table."""
    start = end = None
    for index, line in enumerate(lines):
        parts = header_parts(line)
        if parts is None:
            continue
        ours = parts[: len(key)] == key
        if start is None and ours:
            start = index
        elif start is not None and not ours:
            end = index
            break
    if start is None:
        return None
    end = len(lines) if end is None else end
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return start, end


def append_block(text: str, block: str) -> str:
    """`text` with `block` appended after one blank line."""
    if not text:
        return block
    prefix = "" if text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    return text + prefix + block
