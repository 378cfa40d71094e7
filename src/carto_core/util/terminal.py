"""Text for a person at a terminal: whether to colour, the styles, ages, counts, the width.

Colour only when the stream is a terminal, `NO_COLOR` is unset or empty (no-color.org) and
`TERM` is not `dumb`; a pipe, a file and an agent's captured output get plain text. Plain
ANSI escapes rather than rich: rich.console costs a large share of a cold `carto search`'s
start-up (docs/performance.md), and a few styles need none of it. Stdlib only.
"""

from __future__ import annotations

import os
import re
import sys

_CODES = {"bold": "1", "dim": "2", "italic": "3", "underline": "4", "red": "31", "green": "32",
          "yellow": "33", "blue": "34", "magenta": "35", "cyan": "36", "hit": "1;33"}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def use_colour(stream=None) -> bool:
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("TERM", "") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Style:
    """`style("text", "bold", "cyan")`: the text in those styles, or unchanged when off."""

    def __init__(self, colour: bool):
        self.colour = colour

    def __call__(self, text: str, *names: str) -> str:
        if not self.colour or not names or not text:
            return text
        codes = ";".join(_CODES[name] for name in names)
        return f"\x1b[{codes}m{text}\x1b[0m"


def plain(text: str) -> str:
    """`text` without its escapes (for measuring what a person sees)."""
    return _ANSI.sub("", text)


#: The narrowest width laid out for: a split pane or a phone's terminal is this narrow, a stray
#: `COLUMNS=5` is no terminal anyone reads.
NARROWEST = 20


def width(stream=None, default: int = 100) -> int:
    """Columns of the terminal (`COLUMNS` first), `default` when not a terminal; NARROWEST..200."""
    stream = sys.stdout if stream is None else stream
    columns = 0
    raw = os.environ.get("COLUMNS", "")
    if raw.isdigit():
        columns = int(raw)
    else:
        try:
            if stream.isatty():
                import shutil

                columns = shutil.get_terminal_size((default, 24)).columns
        except (AttributeError, ValueError, OSError):
            pass
    return min(200, max(NARROWEST, columns or default))


def duration(ms: float) -> str:
    """How long, in a person's words: "40m", "1h40m", "2d 3h" (hours past two days read as
    days)."""
    minutes = max(0, round(ms / 60000))
    if minutes < 60:
        return f"{minutes}m"
    if minutes < 48 * 60:
        return f"{minutes // 60}h{minutes % 60:02d}m"
    hours = round(minutes / 60)
    return f"{hours // 24}d {hours % 24}h"


def ago(seconds: float) -> str:
    """How long ago, in a person's words: "just now", "4m ago", "5h ago", "3d ago", "2w ago",
    "4mo ago", "1y ago"; "in the future" for a time ahead of the clock (a skewed machine)."""
    if seconds < -60:
        return "in the future"
    seconds = max(0.0, seconds)
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("w", 7 * 86400), ("d", 86400),
                       ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit} ago"
    return "just now"


def transcript_said(path: str) -> str:
    """A transcript path as a person reads it: marked when the file is gone (moved, pruned by
    the client, or never written), so nobody opens a path that is not there."""
    import os

    return path if os.path.exists(path) else f"{path} (not on disk)"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and its noun agreeing: "1 event", "2 events", "0 events"; `plural` if not noun + "s"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def size(n: int) -> str:
    """A file's size as a person reads it: "980 bytes", "10.4 KB", "3.2 MB" (units of 1024,
    one decimal); the exact count belongs in `--json`."""
    if n < 1024:
        return counted(n, "byte")
    amount = float(n)
    for unit in ("KB", "MB", "GB"):
        amount /= 1024
        # 1023.96 KB would print as "1024.0 KB": that is 1.0 MB to a reader.
        if round(amount, 1) < 1024:
            return f"{amount:.1f} {unit}"
    return f"{amount / 1024:.1f} TB"


def cells(text: str) -> int:
    """Columns `text` takes on a terminal: a wide character (CJK, most emoji) two, a combining
    mark none, anything else one."""
    if text.isascii():
        return len(text)
    import unicodedata  # a C module, loaded only for text beyond ASCII: cold searches skip it

    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def clip(text: str, room: int) -> str:
    """`text` within `room` columns, an ellipsis marking the cut ("" when not even that fits)."""
    if cells(text) <= room:
        return text
    if room < 1:
        return ""
    while text and cells(text) > room - 1:
        text = text[:-1]
    return text.rstrip(" …") + "…"


def wrap(text: str, room: int) -> list[str]:
    """`text` in lines of at most `room` columns as `cells` counts them, broken at white space; a
    word wider than a line fills what the line has left and goes on below (textwrap's rule,
    which counts characters: a line of CJK or emoji took twice its room)."""
    if text.isascii():
        import textwrap

        return textwrap.wrap(text, room, break_long_words=True, break_on_hyphens=False)
    import re

    room = max(room, 2)  # a wide character needs two columns
    lines: list[str] = []
    line, gap = "", ""
    for word in re.findall(r"\S+|\s+", text.replace("\t", " ").replace("\n", " ")):
        if word.isspace():  # kept as it is between two words of a line (an aligned column)
            gap = word if line else ""
            continue
        if cells(line) + len(gap) + cells(word) <= room:
            line, gap = line + gap + word, ""
            continue
        if cells(word) <= room:
            if line:
                lines.append(line)
            line, gap = word, ""
            continue
        while word:  # a word no line holds: cut it where the columns run out
            left = room - cells(line) - len(gap)
            taken = 0
            while taken < len(word) and cells(word[:taken + 1]) <= left:
                taken += 1
            if taken == 0:
                lines.append(line)
                line, gap = "", ""
                continue
            line, gap, word = line + gap + word[:taken], "", word[taken:]
            if word:
                lines.append(line)
                line = ""
    if line:
        lines.append(line)
    return lines


def fold(text: str, width: int | None) -> str:
    """Each line of `text` wider than `width` columns broken at white space, its continuation
    lines indented two more than it (None: unchanged, as a pipe gets it)."""
    if width is None:
        return text
    out = []
    for line in text.split("\n"):
        if cells(line) <= width:
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        pieces = wrap(line.strip(), max(width - indent - 2, 20))
        out.extend(" " * (indent + (2 if n else 0)) + piece for n, piece in enumerate(pieces))
    return "\n".join(out)


def fitted_width(stream=None) -> int | None:
    """`width()` when there is a terminal to fit (`COLUMNS` set, or the stream a terminal); None
    for a pipe or a file, which a program reads whole: a table cut to a guessed 100 columns
    would lose what `awk` or `grep` looked for."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("COLUMNS", "").isdigit():
        return width(stream)
    try:
        return width(stream) if stream.isatty() else None
    except (AttributeError, ValueError):
        return None
