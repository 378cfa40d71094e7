"""The projects a home's rows name, for the commands that take `--project` names whole
(`carto memory`, `forget`, `export`): read from the logs' bytes, no index built."""

from __future__ import annotations

import re
from collections import Counter

import click

_PROJECT = re.compile(rb'"project"\s*:\s*"([^"\\]{1,200})"')


def home_projects(home) -> Counter:
    """The projects the home's rows name, each with its row count."""
    from carto_core.logio.logs import SEARCHED_LOGS
    from carto_core.util.safeio import read_bytes

    counts: Counter = Counter()
    for label in SEARCHED_LOGS:
        try:  # a FIFO in a log's place is read as no log (the command then says so), never waited on
            data = read_bytes(home.log(label))
        except OSError:
            continue
        counts.update(m.group(1).decode("utf-8", "replace") for m in _PROJECT.finditer(data))
    counts.pop("", None)
    counts.pop("unknown", None)
    return counts


def say_unknown_projects(home, projects, command: str) -> None:
    """A --project that names no project of the home (names match whole): a typo would
    otherwise count nothing, or drop its share of several, without a word."""
    if not projects:
        return
    known = home_projects(home)
    lowered = {name.lower() for name in known}
    listed = sorted(known, key=str.lower)
    shown = ", ".join(listed[:12]) + (f", +{len(listed) - 12} more" if len(listed) > 12 else "")
    for name in projects:
        if name.lower() not in lowered:
            click.echo(f"carto: {command}: no project is named {name!r} (a name matches whole, any case); "
                       f"this home's projects: {shown or 'none'}", err=True)
