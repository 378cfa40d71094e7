"""One hook call: the facts its rows share (`Context`), what it produced (`Outcome`), and
writing that out (`write_outcome`: redact, then one `os.write` per row).

Stdlib only and import-light: this runs on every tool call of an agent.
"""

from __future__ import annotations

import json
import os
import time

from carto_core.util.lazyre import Lazy
from carto_core.util.safeio import open_regular

#: A changelog row this recent (seconds) and of the same session is the next row's parent.
PARENT_WINDOW_SECONDS = 60

#: Write-time salience priors (reference/cartographer.md 1.6).
SALIENCE = {
    "tool_bash": 0.2,
    "tool_file_edit": 0.4,
    "git_push": 0.6,
    "session_wrapup": 0.9,
    "session_end": 0.5,
    "compaction": 0.4,
    "agent": 0.4,
    "turn_stop": 0.5,
    "milestone": 0.5,
    "prompt": 0.6,
    "derived_compaction_summary": 0.35,
}

_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
#: `format_utc`'s shape (what the hooks write): such strings sort in time order. (A day its
#: month lacks, `02-31`, would pass; no writer makes one.)
_CANONICAL = Lazy(r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ")


def new_event_id() -> str:
    """`evt-` + 12 random [a-z0-9], upstream's hook id format."""
    return "evt-" + "".join(_ID_ALPHABET[b % 36] for b in os.urandom(12))


def format_utc(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def tool_use_enabled() -> bool:
    """Tool-use capture is on unless `CARTO_CAPTURE_TOOL_USE=0` (upstream made it opt-in)."""
    return os.environ.get("CARTO_CAPTURE_TOOL_USE", "1").strip().lower() not in {"0", "false", "no", "off"}


def as_text(value: object) -> str:
    """`value` when it is a string, else "" (payload fields arrive as any JSON type)."""
    return value if isinstance(value, str) else ""


def read_last_line(path: os.PathLike | str, max_bytes: int = 1 << 20) -> bytes:
    """The last complete line of a file (without its newline), b"" when there is none. Reads
    8 KiB, then 4x more until a line break is found or `max_bytes` is reached."""
    try:
        with open_regular(path) as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            chunk = 8192
            while True:
                start = max(0, size - chunk)
                handle.seek(start)
                data = handle.read(size - start)
                body = data[:-1] if data.endswith(b"\n") else data
                cut = body.rfind(b"\n")
                if cut >= 0:
                    return body[cut + 1:]
                if start == 0 or chunk >= max_bytes:
                    return body if start == 0 else b""
                chunk *= 4
    except OSError:
        return b""


class Outcome:
    """What one hook invocation produced: rows to append, text for the agent, problems to log."""

    __slots__ = ("rows", "output", "problems")

    def __init__(self):
        self.rows: list[tuple[str, dict]] = []
        self.output: str | None = None
        self.problems: list[str] = []

    def add(self, log: str, row: dict) -> None:
        self.rows.append((log, row))

    def logs(self) -> list[str]:
        return [log for log, _ in self.rows]


class Context:
    """The facts every row of one hook call shares: who, where, when, and the thread so far."""

    def __init__(self, home, provider: str, event_name: str, payload: dict, *, now: float | None = None):
        self.home = home
        self.provider = provider
        self.event_name = event_name
        self.payload = payload
        self.session = as_text(payload.get("session_id"))
        self.cwd = as_text(payload.get("cwd"))
        self.transcript = as_text(payload.get("transcript_path"))
        #: The client's id of the tool call (recorded on its rows: PostToolBatch skips calls
        #: whose rows exist).
        self.tool_use_id = as_text(payload.get("tool_use_id")) or None
        self.now = time.time() if now is None else now
        self.timestamp = format_utc(self.now)
        self._project: str | None = None
        self._parent: str | None = None
        self._parent_read = False
        self._start: float | None | bool = False

    @property
    def project(self) -> str:
        if self._project is None:
            from carto_core.model.project import project_for

            self._project = project_for(self.cwd) if self.cwd else ""
        return self._project

    def project_of_file(self, path: str) -> str:
        """A file's own repository names the project (an edit in another repo), else the cwd's."""
        if path and os.path.isabs(path):
            from carto_core.model.project import find_git

            info = find_git(os.path.dirname(path))
            if info is not None:
                return info.main_worktree.name
        return self.project

    def call_id_field(self) -> dict:
        """`{"tool_use_id": ...}` for a tool call's rows (nothing when the payload names none)."""
        return {"tool_use_id": self.tool_use_id} if self.tool_use_id else {}

    def session_start(self) -> float | None:
        """When the session began (epoch s): the first timestamp of its transcript (Claude's
        first line is written at the first prompt, Codex's `session_meta` when the thread
        starts), None when the transcript cannot be read. Commit detection never claims a
        commit older than this."""
        if self._start is False:
            self._start = _first_timestamp(self.transcript) if self.transcript else None
        return self._start

    def parent(self) -> str | None:
        """upstream `find_parent_event_id`: the changelog's last row, same session, <= 60 s old."""
        if not self._parent_read:
            self._parent_read = True
            self._parent = self._read_parent()
        return self._parent

    def _read_parent(self) -> str | None:
        if not self.session:
            return None
        line = read_last_line(self.home.log("changelog"))
        if not line:
            return None
        try:
            row = json.loads(line)
        except ValueError:
            return None
        if not isinstance(row, dict):
            return None
        session = row.get("session_id") or row.get("session")
        event_id = row.get("event_id")
        if session != self.session or not isinstance(event_id, str) or not event_id:
            return None
        stamp = row.get("timestamp")
        if isinstance(stamp, str) and _CANONICAL.fullmatch(stamp):
            # The hooks' own `format_utc` form sorts as the instant it names: two string
            # comparisons instead of importing datetime (~5M instructions) on most tool calls.
            now = int(self.now)
            return event_id if format_utc(now - PARENT_WINDOW_SECONDS) <= stamp <= format_utc(now) else None
        from carto_core.util.timeparse import parse_timestamp

        moment = parse_timestamp(row.get("timestamp"))
        if moment is None:
            return None
        age = int(self.now) - int(moment.timestamp())
        return event_id if 0 <= age <= PARENT_WINDOW_SECONDS else None

    def chained(self, event_id: str | None) -> None:
        """A changelog row was just emitted: it is the next row's parent."""
        self._parent_read = True
        self._parent = event_id if self.session else None


def _first_timestamp(path: str, lines: int = 5, max_bytes: int = 1 << 20) -> float | None:
    """The top-level `timestamp` of the first of `lines` lines of a JSONL file that has one."""
    try:
        with open_regular(path) as handle:
            data = handle.read(max_bytes)
    except OSError:
        return None
    from carto_core.util.timeparse import parse_timestamp

    for raw in data.split(b"\n")[:lines]:
        try:
            row = json.loads(raw)
        except ValueError:
            continue
        moment = parse_timestamp(row.get("timestamp")) if isinstance(row, dict) else None
        if moment is not None:
            return moment.timestamp()
    return None


def kept_rows(home, rows: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The rows a hook may write: not of an excluded project or folder (`[capture] exclude`),
    not of an event `carto forget` buried (ids made from content, such as a Codex prompt's,
    would otherwise come back). One `stat` of each when neither is set up."""
    from carto_core.logio.tombstone import is_buried
    from carto_core.privacy.exclude import load as exclusion

    rule = exclusion()
    if rule:
        rows = [(log, row) for log, row in rows if not rule.row(row)]
    buried = is_buried(home, [row.get("event_id") for _, row in rows])
    if any(buried):
        rows = [pair for pair, gone in zip(rows, buried) if not gone]
    return rows


def write_outcome(home, outcome: Outcome) -> int:
    """Redact every row and append it to its log: one `os.write` per row, logs in first-use
    order. Rows of an excluded project or of a forgotten event are dropped first
    (`kept_rows`). Rows a full or unwritable home refuses go to the spill file (`carto_core.logio.spill`),
    flushed by the next call that can write; what happened is added to `outcome.problems`."""
    if not outcome.rows:
        return 0
    kept = kept_rows(home, outcome.rows)
    if len(kept) != len(outcome.rows):
        outcome.rows = kept
        if not kept:
            return 0
    from carto_core.logio.jsonl import dumps_row
    from carto_core.logio.logs import PROMPT_LOGS
    from carto_core.privacy.redact import redact_row
    from carto_core.logio.spill import land

    # the classifier loads only for a batch holding a prompt or a turn (a tool call has none)
    if any(log in PROMPT_LOGS for log, _ in outcome.rows):
        from carto_core.intents import ensure
    else:
        def ensure(log, row):
            return row
    by_log: dict[str, list[bytes]] = {}
    for log, row in outcome.rows:
        by_log.setdefault(log, []).append(dumps_row(redact_row(ensure(log, row))))
    written = 0
    sealed: list[str] = []
    for log, lines in by_log.items():
        result = land(home.root, home.log(log), lines, on_seal=sealed.append)
        written += result["written"]
        if result.get("error") is not None:
            outcome.problems.append(
                f"{log}: the home refused {len(lines) - result['written']} row(s) "
                f"({result['error'].strerror or result['error']}); {result['spilled']} kept in the "
                f"spill file, {result['dropped']} dropped (spill full)")
        if result.get("flushed"):
            outcome.problems.append(f"{log}: {result['flushed']} spilled row(s) flushed into the home")
    for path in sealed:
        outcome.problems.append(f"{path} ended in a torn row; sealed it with a newline before "
                                "appending (carto repair torn-rows settles it)")
    return written
