"""`carto search` as text for a person: one compact block per hit, or one line per hit.

A block is the event id in full (pasteable into `--get`, `--thread`, `--touch`), how long ago,
the project, what kind of row it is, then a snippet of its text around the first word the query
asked for, that word highlighted on a terminal. Facets come only when asked (`--facets`).
Colour follows `carto_core.util.terminal` (a terminal, no NO_COLOR); the JSON document is
`SearchResult.to_dict()`, untouched by anything here.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from carto_core.util.terminal import Style, ago, cells, clip, wrap

FORMATS = ("text", "oneline", "json")
_WORD = re.compile(r"\w+", re.UNICODE)
#: The snippet of a block: at most this many lines of the terminal's width.
SNIPPET_LINES = 2


def query_terms(query: str) -> list[tuple[str, bool]]:
    """(lower-cased term, is an explicit prefix) for each word of the query (`deploy*`)."""
    terms = []
    for match in re.finditer(r"(\w+)(\*?)", query.lower()):
        word, star = match.group(1), bool(match.group(2))
        if len(word) >= 2 or star:
            terms.append((word, star))
    return terms


def matches(word: str, terms: list[tuple[str, bool]]) -> bool:
    """Whether a word of the text is one the query asked for: the same word, a word it is the
    prefix of when the query said `word*`, or one sharing its stem-like head (codes / code,
    rounding / rounded) for words of 5 letters and more."""
    word = word.lower()
    for term, star in terms:
        if word == term or (star and word.startswith(term)):
            return True
        if len(term) >= 5 and len(word) >= 4:
            head = term[:max(4, len(term) - 3)]
            if word.startswith(head):
                return True
    return False


def snippet(text: str, terms: list[tuple[str, bool]], room: int) -> str:
    """At most `room` characters of `text` (whitespace folded), starting a little before the
    first word the query asked for; an ellipsis marks each cut."""
    text = " ".join(str(text).split())
    if len(text) <= room:
        return text
    start = 0
    for match in _WORD.finditer(text):
        if matches(match.group(0), terms):
            start = max(0, match.start() - room // 4)
            break
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    if start and len(text) - start < room - 1:  # the text's end is in view: fill the room before it
        start = len(text) - (room - 1)
        piece = text[start:]
    else:
        piece = text[start:start + room - 1 - (start > 0)]
    if start + len(piece) < len(text):
        # A piece ending where a word ends is kept whole; another is cut back to its last
        # space, but by no more than a third of it: a narrow line's snippet would be left
        # half empty ("Discount codes…" where "Discount codes landed…" fits)
        if text[start + len(piece)] != " ":
            space = piece.rfind(" ")
            piece = piece[:space] if space > len(piece) - min(20, len(piece) // 3) else piece
        # a cut just after the text's own ellipsis ("analyzing your codebase…") shows one
        piece = piece.rstrip(" …") + "…"
    return ("…" if start else "") + piece


def highlight(line: str, terms: list[tuple[str, bool]], style: Style) -> str:
    if not style.colour or not terms:
        return line
    return _WORD.sub(lambda m: style(m.group(0), "hit") if matches(m.group(0), terms) else m.group(0), line)


def age_of(timestamp: str | None, now: datetime) -> str:
    if not timestamp:
        return "undated"
    try:
        when = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return timestamp
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return ago((now - when).total_seconds())


def kind_of(hit) -> str:
    """What the row is, in a word or two: the provider and the row's type."""
    parts = [part for part in (hit.provider, hit.type) if part and part != "unknown"]
    return " ".join(parts) or "+".join(hit.sources)


def marks(hit, who: dict | None) -> list[str]:
    out = []
    if hit.gated:
        out.append("lookup")
    if hit.reuse_count:
        out.append(f"used x{hit.reuse_count}")
    if hit.duplicates:
        out.append(f"+{hit.duplicates} identical")
    if hit.prompt_intent:
        out.append(f"intent {hit.prompt_intent}")
    if who and who.get(hit.event_id, ("", ""))[0]:
        machine, author = who[hit.event_id]
        out.append(f"by {author or '?'} on {machine}")
    return out


def header(result, project: str | None, width: int | None = None) -> str:
    """One line, within `width`: a pasted traceback or a long query is folded onto one line and
    cut with an ellipsis (the JSON's `query` keeps it whole). The count comes first and the
    project stays; the query gives way, and where not even a letter of it and its ellipsis fit
    (a 20-column pane: `3 of 11 results`), it is left out, then the project."""
    shown, total = len(result.results), max(result.total, len(result.results))
    count = ("no results" if not shown else f"{shown:,} result{'s' * (shown != 1)}" if shown == total
             else f"{shown:,} of {total:,} results")
    where = f" in {project}" if project else ""
    query = " ".join(str(result.query).split())
    line = f'{count} for "{query}"{where}'
    if width is None or cells(line) <= width:
        return line
    room = width - cells(count) - len(' for ""') - cells(where)
    if room >= 2:
        return f'{count} for "{clip(query, room)}"{where}'
    return clip(count + where if cells(count + where) <= width else count, width)


def facet_lines(result) -> list[str]:
    facets = result.facets or {}
    # the facets count the first `window` results (docs/search.md: the top min(total, 500))
    window = facets.get("window", result.total)
    if result.total == 1:
        head = "facets of the 1 result:"
    elif window < result.total:
        head = f"facets of the first {window:,} of {result.total:,} results:"
    else:
        head = f"facets of all {result.total:,} results:"
    out = [head]

    def line(name, counts, more=0):
        if not counts:
            return
        text = ", ".join(f"{k} {v}" for k, v in counts.items())
        if more:
            text += f", +{more} more"
        out.append(f"  {name:<9} {text}")

    line("projects", facets.get("projects", {}), facets.get("projects_more", 0))
    line("types", facets.get("types", {}), facets.get("types_more", 0))
    line("intents", facets.get("intents", {}))
    line("sources", facets.get("sources", {}))
    if facets.get("span"):
        out.append(f"  {'span':<9} {facets['span'][0]} to {facets['span'][1]}")
    line("months", facets.get("months", {}))
    line("days", facets.get("days", {}))
    return out


def notes(result, session: str | None = None, scope_lines: list[str] | None = None) -> list[str]:
    """The lines a person needs about how the answer was made (none in the usual case).
    `session`: the word of the query that is a session id (or its prefix) the home holds;
    `scope_lines`: what emptied the scope itself (no project matches --project, no session
    holds the --tag), said instead of blaming the words."""
    from carto_core.search.pipeline import NO_SEMANTIC_RANKER

    out = []
    if result.semantic.state == "unavailable" and result.semantic.reason != NO_SEMANTIC_RANKER:
        out.append(f"semantic ladder {result.semantic.label()}")  # a missing plugin is no news
    if result.suppressed:
        out.append(f"({result.suppressed} already shown in this session are hidden; --all shows them)")
    if not result.results:
        floor = result.floor
        if floor is not None and not floor.found and floor.below:
            # Not an empty home: matches were there and judged too weak to be an answer.
            out.append(f"({floor.below} weak match{'es' * (floor.below != 1)} left out by the "
                       "relevance floor: --json's floor says why, CARTO_SEARCH_FLOOR=0 shows them)")
        unheld = [w for w in (floor.unheld_words if floor is not None else []) if w != session]
        if unheld:
            out.append(f"No row holds {', '.join(unheld)}.")
        out.extend(scope_lines or [])
        if session:
            out.append(f"{session} names a session: `carto session {session}` shows it "
                       "(search finds the words of rows, not their ids)")
        # Only what could find more: a window that was given, matches delta serving hid.
        wider = []
        if getattr(result, "since", None) or getattr(result, "before", None):
            wider.append("a wider --since/--before")
        if result.suppressed:
            wider.append("--all")
        tries = ["fewer or other words", *wider]
        out.append("Try " + (", ".join(tries[:-1]) + ", or " + tries[-1] if wider else tries[0]) + ".")
        if result.unknown_entities:
            names = result.unknown_entities
            out.append(f"({len(names)} unknown name{'s' * (len(names) != 1)} recorded as a knowledge "
                       f"gap, for the next session to capture: {', '.join(names)})")
    return out


def render_text(result, *, project: str | None, style: Style, width: int, show_facets: bool = False,
                who: dict | None = None, team: str | None = None, now: datetime | None = None,
                session: str | None = None, scope_lines: list[str] | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    terms = query_terms(result.query)
    out = [style(header(result, project, width), "bold")]
    if team:
        out.append(style(f"({team})", "dim"))
    if show_facets and result.facets:
        out.extend(style(line, "dim") for line in facet_lines(result))
    room = width - 2
    for hit in result.results:
        out.append("")
        details = [age_of(hit.timestamp, now)]
        if hit.project:
            details.append(hit.project)
        details.append(kind_of(hit))
        details.extend(marks(hit, who))
        said = " · ".join(details)
        if len(hit.event_id) + 2 + cells(said) <= width:
            out.append(f"{style(hit.event_id, 'bold', 'cyan')}  {style(said, 'dim')}")
        else:  # a long id (a transcript turn's): the details go under it, cut to the width
            out.append(style(hit.event_id, "bold", "cyan"))
            out.append("  " + style(clip(said, room), "dim"))
        text = snippet(hit.summary, terms, room * SNIPPET_LINES) or "(no text)"
        for line in wrap(text, room)[:SNIPPET_LINES]:
            out.append("  " + highlight(line, terms, style))
    extra = notes(result, session, scope_lines)
    if extra:
        out.append("")
        out.extend(extra)
    return "\n".join(out)


#: The age column of a line (right-aligned: "45m ago", "just now", "undated").
AGE_WIDTH = 8
#: A snippet narrower than this says nothing: the line ends before it instead.
SNIPPET_LEAST = 6
#: The snippet columns most lines of a page keep: the other columns give way before it has less.
SNIPPET_WANT = 20
#: The widest a project is shown (a long name would take the snippet's room on every line).
PROJECT_MOST = 24
#: The columns a page may show besides the id and the snippet, richest first.
_LAYOUTS = ((True, True), (True, False), (False, False))


def _oneline_layout(hits, width: int) -> tuple[bool, bool, int, int]:
    """(show the age, show the project, the id column, the project's room) of a page: the
    richest layout in which at least half its lines keep SNIPPET_WANT columns of snippet
    (measured on the median id and project). The ids are padded to the longest that still
    keeps them: a longer one (a subagent's turn id) is not padded to, or every shorter id's
    line would give its snippet that length."""
    ids = sorted(len(hit.event_id) for hit in hits)
    names = sorted(min(PROJECT_MOST, cells(hit.project or "-")) for hit in hits)
    median, project = ids[(len(ids) - 1) // 2], names[(len(names) - 1) // 2]
    for age, shown in _LAYOUTS:
        extra = (2 + AGE_WIDTH if age else 0) + (2 + project if shown else 0) + 2 + SNIPPET_WANT
        if median + extra <= width:
            return age, shown, max(n for n in ids if n + extra <= width), project
    return False, False, 0, 0


def render_oneline(result, *, style: Style, width: int, now: datetime | None = None) -> str:
    """One line a hit: id, age, project, snippet (tab-free; for grep, fzf, cut), never wider
    than `width` unless its id alone is. The id is never cut, since it is pasted into `--get`,
    and the snippet gets what the line has left; where that is too little, the ids' padding,
    then the project, then the age give way (`_oneline_layout`); an id with no room for a
    snippet beside it stands alone."""
    if not result.results:
        return ""
    now = now or datetime.now(timezone.utc)
    terms = query_terms(result.query)
    show_age, show_project, column, project_room = _oneline_layout(result.results, width)
    lines = []
    for hit in result.results:
        age = f"{age_of(hit.timestamp, now):>{AGE_WIDTH}}" if show_age else ""
        if len(hit.event_id) + 2 + (cells(age) if show_age else SNIPPET_LEAST) > width:
            lines.append(style(hit.event_id, "bold", "cyan"))
            continue
        # padded so the ages and projects line up in columns
        pad = " " * max(0, column - len(hit.event_id))
        line = style(hit.event_id, "bold", "cyan") + pad
        used = len(hit.event_id) + len(pad)
        if show_age:
            line += "  " + style(age, "dim")
            used += 2 + cells(age)
        if show_project:
            # the room the layout kept, more where the snippet still keeps SNIPPET_WANT
            room = max(project_room, width - used - 4 - SNIPPET_WANT)
            project = clip(hit.project or "-", min(PROJECT_MOST, room, width - used - 2))
            if project and project != "…":
                line += "  " + style(project, "dim")
                used += 2 + cells(project)
        room = width - used - 2
        if room >= SNIPPET_LEAST:
            text = clip(snippet(hit.summary, terms, room) or "(no text)", room)
            line += "  " + highlight(text, terms, style)
        lines.append(line)
    return "\n".join(lines)


def say_skipped(home, skipped: list[dict]) -> None:
    """One line on stderr for each file of the home an answer did without (`skipped_files`),
    whatever the output format: a log in the home's folder is one `carto doctor` checks."""
    import sys
    from pathlib import Path

    for item in skipped:
        hint = ("; `carto doctor` says what to do" if Path(item["path"]).parent == home.root
                else "")
        print(f"carto: skipped {item['path']} ({item['why']}): {item['left_out']}{hint}",
              file=sys.stderr)
