"""The text prompt recall adds to the agent's context: a header and at most three snippets,
each naming its event id (for `carto search --get`), its age and its project, within
`settings.MAX_CHARS` characters in all. A snippet is a window of the row's text around the
first word that holds one of the matched terms. The snippets travel in the record envelope
(`carto_core.privacy.envelope`): quoted data, never instructions, and no stored text can close
the envelope early. Stdlib only.
"""

from __future__ import annotations

import re

from carto_core.privacy.envelope import OVERHEAD, wrap_text
from carto_core.recall.settings import MAX_CHARS
from carto_core.util.terminal import ago

HEADER = "carto recall: earlier work that may bear on this prompt (`carto search --get ID` shows one in full)"
_WORD = re.compile(r"\w+", re.UNICODE)
_TEXT_CHAIN = ("summary", "description", "prompt", "url", "query", "milestone")


def row_text(row: dict) -> str:
    for key in _TEXT_CHAIN:
        value = row.get(key)
        if isinstance(value, str) and value.strip() and value.strip().lower() != "unknown":
            return " ".join(value.split())
    return ""


def window(text: str, terms: list[str], analyzer, width: int) -> str:
    """At most `width` characters of `text`, starting a little before the first word whose
    analysed terms include one of `terms` (the start when none does)."""
    if len(text) <= width:
        return text
    wanted = set(terms)
    start = 0
    for match in _WORD.finditer(text[:20000]):
        if wanted & set(analyzer.terms(match.group(0))):
            start = max(0, match.start() - width // 4)
            break
    piece = text[start:start + width - 2 * (start > 0) - 1]
    if start > 0:
        cut = piece.find(" ")
        piece = "…" + (piece[cut + 1:] if 0 <= cut < 20 else piece)
    if start + len(piece) < len(text):
        piece = piece.rstrip() + "…"
    return piece[:width]


def render(items: list[dict], analyzer, now: float, limit: int = MAX_CHARS) -> tuple[str, int]:
    """`items`: {event_id, row, ts (epoch or None), project, terms, stale (a note or None)}. (The text, at most `limit`
    characters, and how many of the items it shows: "" and 0 when none fits.)"""
    lines = []
    budget = limit - len(HEADER) - 1 - OVERHEAD
    items = [item for item in items if row_text(item["row"])]
    for position, item in enumerate(items):
        ts = item.get("ts")
        project = " ".join(str(item.get("project") or "").split())[:40] or "no project"
        event_id = "".join(str(item["event_id"]).split())[:120]
        head = (f"- [{event_id} · {ago(now - ts) if ts is not None else 'undated'}"
                f" · {project}] ")
        if item.get("stale"):  # a memory the code has moved past says so first
            head += f"(stale: {' '.join(str(item['stale']).split())[:160]}) "
        room = budget // (len(items) - position) - 1 - len(head)
        if room < 24:
            break
        text = window(row_text(item["row"]), item.get("terms") or [], analyzer, room)
        line = head + text
        lines.append(line)
        budget -= len(line) + 1
    if not lines:
        return "", 0
    return f"{HEADER}\n{wrap_text(chr(10).join(lines))}", len(lines)
