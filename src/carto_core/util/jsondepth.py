"""JSON nested deeper than a bound, found and cut without recursion. Stdlib only (hook path).

Python's JSON parser recurses once per level of nesting, and so does every walk over what it
returns (redaction, the writer's dump): about a thousand levels raise RecursionError, which
is not the ValueError a caller expects of bad input. So text from outside (a hook payload, a
request body) is measured first, in one scan that skips strings, and a value nested deeper
than the bound is either refused (`deeper_than`) or replaced by a short string saying so
(`cut_deep`), so the rest of the document is kept.
"""

from __future__ import annotations

import re

#: A JSON string (escapes included) or a bracket; everything else is skipped by the scan.
_TOKEN = re.compile(r'"[^"\\]*(?:\\[\s\S][^"\\]*)*"|[\[\]{}]')
CUT_TEXT = "[nested deeper than {limit} levels: cut]"
#: How deep a hook payload or a request body may nest (agents' payloads nest a few levels;
#: the parser and the walks after it stay far from Python's recursion limit).
MAX_DEPTH = 100


def _could_nest(text: str, limit: int) -> bool:
    # Fewer opening brackets than the bound cannot nest past it: no scan.
    return text.count("[") + text.count("{") > limit


def depth(text: str) -> int:
    """The deepest nesting of `text`'s arrays and objects (brackets in strings do not count)."""
    level = deepest = 0
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def deeper_than(text: str, limit: int) -> bool:
    return _could_nest(text, limit) and depth(text) > limit


def cut_deep(text: str, limit: int) -> str:
    """`text` with every array or object that opens below `limit` levels replaced by the
    string `CUT_TEXT`. Text that is not JSON stays what it was (the parser then says so)."""
    if not _could_nest(text, limit):
        return text
    import json

    marker = json.dumps(CUT_TEXT.format(limit=limit))
    out: list[str] = []
    level, kept, start = 0, 0, -1
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char in "[{":
            level += 1
            if level == limit + 1:
                start = token.start()
        elif char in "]}":
            if level == limit + 1 and start >= 0:
                out.append(text[kept:start])
                out.append(marker)
                kept, start = token.end(), -1
            level -= 1
    out.append(text[kept:])
    return "".join(out)
