"""One log row as the row a team server keeps, and back.

A pushed row is the log's row redacted once more with this machine's rules (rows are redacted
when they are written; a pattern added since then applies before anything leaves), with the
columns the team lenses filter and rank on beside it. `files` holds the machine-independent
contention key of every file an edit or commit touched: `<project key>:<path in the
repository>`, found on the machine that wrote the row (its worktrees mapped onto the main
checkout), so two machines editing `src/cart.py` of one repository contend whatever their
checkouts are called. The same function gives a local event its keys when a team lens folds
local and team events together.
"""

from __future__ import annotations

import os
from collections import Counter

from carto_core.capture.collision import contention_key, event_files
from carto_core.logio.fold import LOAD_ORDER
from carto_core.model.events import Event
from carto_core.team.remotes import KeyCache

#: Log -> its rank in the fold order (a lower rank wins an event_id: `carto_core.logio.fold`).
LOG_RANK = {label: rank for rank, label in enumerate(LOAD_ORDER)}
#: A revision is (rewrite generation << REV_SHIFT) | the row's end offset in its log: within
#: one log, a row appended later (a turn that grew) has a larger revision, and so has any row
#: read after the log was rewritten.
REV_SHIFT = 40
TF_MAX = 32767

#: Columns a push copies into its inbox, in order (team and author are the batch's and the
#: login's; `logs` the row's own log, then the changelog when its copy was folded in before
#: sending). The lists go as text, split on the server: psycopg adapts a Python list element
#: by element, which cost a push more than all its SQL.
COLUMNS = ("event_id", "machine", "project_key", "project", "log", "log_rank", "logs", "rev",
           "ts", "session", "type", "provider", "summary", "row", "files", "terms", "tfs", "dl",
           "model", "embedding")
#: How the inbox's text columns become the table's arrays.
FILES_SEPARATOR = "\x1f"
ARRAYS = {
    "logs": "string_to_array(logs, ' ')",
    "files": "coalesce(string_to_array(files, E'\\x1f'), '{}')",
    "terms": "coalesce(string_to_array(terms, ' '), '{}')",
    "tfs": "coalesce(string_to_array(tfs, ' ')::smallint[], '{}')",
}


def revision(generation: int, end: int) -> int:
    return (int(generation) << REV_SHIFT) | int(end)


def team_files(event: Event, keys: KeyCache) -> list[str]:
    """The contention keys of the files an edit or commit event touched (files outside any
    repository with a remote cannot be placed across machines and are left out)."""
    if event.type not in ("tool_file_edit", "git_commit"):
        return []
    out: list[str] = []
    for path in event_files(event.type, event.summary, event.cwd):
        main = contention_key(path)
        found = keys.of(os.path.dirname(main))
        if found is None:
            continue
        relative = os.path.relpath(main, found.path)
        if relative.startswith(".."):
            continue
        key = f"{found.key}:{relative}"
        if key not in out:
            out.append(key)
    return out


def terms_of(analyzer, row: dict) -> tuple[str, str, int]:
    """(distinct terms, their counts, each space-separated, and the row's length in terms) of
    the row's indexed text, by the analyzer the team agreed on (the keyword index's own text:
    `search.tokens`; a term holds no space)."""
    from carto_core.search.tokens import row_text

    tokens = analyzer.terms(row_text(row))
    counts = Counter(token for token in tokens if token and " " not in token)
    return (" ".join(counts), " ".join(str(min(n, TF_MAX)) for n in counts.values()), len(tokens))


def files_text(keys: list[str]) -> str:
    return FILES_SEPARATOR.join(key.replace(FILES_SEPARATOR, "") for key in keys)


class TeamEvent:
    """An event read back from a team server: the Event every lens folds, and who pushed it."""

    __slots__ = ("event", "machine", "author", "logs", "files", "project_key")

    def __init__(self, event: Event, machine: str, author: str, logs: list[str], files: list[str],
                 project_key: str):
        self.event, self.machine, self.author = event, machine, author
        self.logs, self.files, self.project_key = logs, files, project_key


def from_server(event_id: str, log: str, row: dict, machine: str, author: str, logs, files,
                project_key: str, source: str | None = None) -> TeamEvent:
    """A server row as a TeamEvent; `source` relabels it (the standup reads every row as the
    changelog copy it also is)."""
    event = Event.from_row(row, source or log, fallback_id=event_id)
    return TeamEvent(event, machine, author, list(logs or [log]), list(files or []), project_key)
