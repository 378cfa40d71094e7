"""`carto sessions` as a table for a person, within the terminal's width.

The whole table is about 110 columns; a row wider than the terminal would wrap, its numbers
under the next session's id. The table keeps the session id first and pasteable into `carto
session`: 8 characters, lengthened 4 at a time where another session of the home starts the same
way (`lenses.sessions.short_ids`, the rule `carto standup` prints ids by), else whole; it is never cut. It then, until it fits, gives up the columns that say least in this order: wrapup,
edits, turns, commits; start and end become one age of the last activity (`20m ago`, as `carto
search` says it); provider, events, that age. What is left is cut at the width with an
ellipsis, never wrapped. A pipe or a file (no terminal, no `COLUMNS`) gets the whole table.
"""

from __future__ import annotations

from datetime import datetime, timezone

from carto_core.lenses.sessions import short_ids
from carto_core.util.terminal import ago, cells, clip

#: Columns given up one at a time, the first first, until the table fits.
GIVE_UP = ("wrapup", "edits", "turns", "commits", "span", "provider", "events", "last")


def _age(ended, now: datetime) -> str:
    from carto_core.util.timeparse import parse_timestamp

    moment = parse_timestamp(ended)
    return ago((now - moment).total_seconds()) if moment else "-"


def _columns(rows: list[dict], now: datetime, among=()) -> list[tuple[str, str, str, list[str]]]:
    """(name, header, alignment, cells) of every column, in their order on the line."""
    wide = max([len("project")] + [cells(s["project"] or "-") for s in rows])
    short = short_ids([s["session_id"] for s in rows], among)
    cols = [
        ("id", "id".ljust(8), "<", [short[s["session_id"]] for s in rows]),
        # Projects whole (a name is pasted into --project), the column as wide as the longest
        ("project", "project".ljust(wide), "<", [s["project"] or "-" for s in rows]),
        ("provider", "provider", "<", [(s["provider"] or "?")[:8] for s in rows]),
        ("span", "start", "<", [s["started"] or "-" for s in rows]),
        ("span", "end", "<", [s["ended"] or "-" for s in rows]),
        ("last", "last", ">", [_age(s["ended"], now) for s in rows]),
        ("events", "events", ">", [str(s["events"]) for s in rows]),
        ("turns", "turns", ">", [str(s["turns"]) for s in rows]),
        ("commits", "commits", ">", [str(s["commits"]) for s in rows]),
        ("edits", "edits", ">", [str(s["edits"]) for s in rows]),
        ("wrapup", " wrapup", "<", [" yes" if s["wrapup"] else " -" for s in rows]),
    ]
    return cols


def _lines(cols, rows: list[dict], by: list[str], tails: list[str]) -> list[str]:
    out = []
    for i in range(-1, len(rows)):
        parts = []
        for name, head, align, values in cols:
            size = max(cells(head), *(cells(v) for v in values))  # columns: a CJK name takes two each
            text = head if i < 0 else values[i]
            pad = " " * (size - cells(text))
            parts.append(text + pad if align == "<" else pad + text)
        # two spaces after the id: it reads as the row's name
        line = parts[0] + "  " + " ".join(parts[1:])
        if by:
            line += "  by" if i < 0 else by[i]
        if i >= 0:
            line += tails[i]
        out.append(line.rstrip())
    return out


def under_parents(rows: list[dict], parents: dict[str, str]) -> list[dict]:
    """The rows with each sub-agent thread moved right under its parent's row (its own
    sub-agents under it, each level in the rows' order); one whose parent is not among the rows
    stays where it was."""
    listed = {s["session_id"] for s in rows}
    children: dict[str, list[dict]] = {}
    for s in rows:
        parent = parents.get(s["session_id"])
        if parent in listed and parent != s["session_id"]:
            children.setdefault(parent, []).append(s)
    out: list[dict] = []
    placed: set[str] = set()

    def place(s: dict) -> None:
        if s["session_id"] in placed:  # a cycle in bad rows
            return
        placed.add(s["session_id"])
        out.append(s)
        for child in children.get(s["session_id"], []):
            place(child)

    for s in rows:
        if parents.get(s["session_id"]) not in listed:
            place(s)
    for s in rows:  # a cycle's members, which no root reached
        place(s)
    return out


def session_table(rows: list[dict], width: int | None, *, team: bool = False,
                  now: datetime | None = None, among=(), parents: dict[str, str] | None = None) -> list[str]:
    """The header and one line per session, each within `width` columns (None: the whole table,
    as a pipe gets it). `team` adds who and where (`  author on machine`). `among`: the ids of
    the home's other sessions (those left out by a filter or --limit), which an id printed
    must not be the start of too: it is pasted into `carto session`. `parents`: sub-agent thread
    -> the session that spawned it; each is listed under its parent and says whose it is."""
    if not rows:
        return []
    now = now or datetime.now(timezone.utc)
    parents = parents or {}
    rows = under_parents(rows, parents)
    by = [f"  {s.get('author') or '?'} on {s['machine']}" if s.get("machine") else "" for s in rows] if team else []
    named = [parents.get(s["session_id"]) for s in rows]
    pool = [s["session_id"] for s in rows] + list(among)
    shorts = short_ids(sorted({p for p in named if p}), pool)
    tails = [f"  sub-agent of {shorts[p]}" if p else "" for p in named]
    every = _columns(rows, now, among)
    dropped: set[str] = {"last"}  # the age stands in for start and end only when they go
    lines = _lines([c for c in every if c[0] not in dropped], rows, by, tails)
    for name in GIVE_UP:
        if width is None or max(map(cells, lines)) <= width:
            break
        dropped.add(name)
        if name == "span":
            dropped.discard("last")
        lines = _lines([c for c in every if c[0] not in dropped], rows, by, tails)
    if width is None:
        return lines
    # the id is usually 8 and the narrowest terminal 20: a cut line keeps it whole
    return [clip(line, width) for line in lines]
