"""Editing a TOML file as text, one table at a time, so that its comments and layout survive
(the standard library reads TOML but does not write it). Callers parse the result with `tomllib`
and compare it with what they meant to change before writing (`mcp.install`, Codex hook trust).
Stdlib only.
"""

from __future__ import annotations

import json
import re

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def header_parts(line: str) -> list[str] | None:
    """The dotted key of a table header line (`[a."b.c"]` -> ["a", "b.c"]), else None."""
    match = _HEADER.match(line)
    if not match:
        return None
    parts, buf, quote = [], "", None
    for char in match.group(1):
        if quote:
            if char == quote:
                quote = None
            else:
                buf += char
        elif char in "\"'":
            quote = char
        elif char == ".":
            parts.append(buf.strip())
            buf = ""
        else:
            buf += char
    parts.append(buf.strip())
    return parts


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
