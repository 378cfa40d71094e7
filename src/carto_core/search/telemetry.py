"""Search telemetry: the delta-serving list, served-log rows, access-ledger rows, search calls,
knowledge gaps.

One writer: `carto search` (and the MCP server when it passes the caller's session). The engine,
the explorer, facts and lenses never write here.

Delta-serving list: `<home>/.carto/served/<session>.txt`, the last 200 unique ids served to that
session, oldest first. Upstream kept it in `$TMPDIR_BASE/cartographer-served/`; carto keeps it
in the home because served ids are ids *of that home* (two homes searched from one session must
not hide each other's results), because /tmp is shared by every user of the machine, and because
the home is where tests already point everything. `CARTO_SERVED_DIR` overrides the folder.

Row shapes follow upstream (reference section 3.7). Paths honour `CARTO_SERVED_LOG` /
`CARTOGRAPHER_SERVED_LOG`, `CARTO_ACCESS_LEDGER` / `CARTOGRAPHER_ACCESS_LEDGER`,
`CARTO_SEARCH_CALL_LOG` / `CARTOGRAPHER_SEARCH_CALL_LOG`.
"""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.util.records import NEW, Record
from carto_core.privacy.redact import redacted
from carto_core.model.session import safe_session_id
from carto_core.util.privatefiles import make_dirs, write_text

SERVED_KEEP = 200
ENDORSING_SOURCES_EXCLUDED = frozenset({"result_fetched"})


def _env_path(names: tuple[str, ...], default: Path) -> Path:
    for name in names:
        value = os.environ.get(name)
        if value:
            return Path(value).expanduser()
    return default


def served_log_path(home: Home) -> Path:
    return _env_path(("CARTO_SERVED_LOG", "CARTOGRAPHER_SERVED_LOG"), home.log("served"))


def access_ledger_path(home: Home) -> Path:
    return _env_path(("CARTO_ACCESS_LEDGER", "CARTOGRAPHER_ACCESS_LEDGER"), home.log("access"))


def search_calls_path(home: Home) -> Path:
    return _env_path(("CARTO_SEARCH_CALL_LOG", "CARTOGRAPHER_SEARCH_CALL_LOG"),
                     home.state / "search-calls.jsonl")


def served_dir(home: Home) -> Path:
    return _env_path(("CARTO_SERVED_DIR",), home.state / "served")


def served_list_path(home: Home, session_id: str) -> Path | None:
    if not session_id or not safe_session_id(session_id):
        return None
    return served_dir(home) / f"{session_id}.txt"


def read_served(home: Home, session_id: str) -> list[str]:
    """Ids already served to the session (last 200 unique, oldest first)."""
    path = served_list_path(home, session_id)
    if path is None:
        return []
    try:
        lines = path.read_text("utf-8").split("\n")
    except FileNotFoundError:
        return []
    return [line for line in lines if line]


def add_served(home: Home, session_id: str, event_ids: list[str]) -> None:
    path = served_list_path(home, session_id)
    if path is None or not event_ids:
        return
    ordered = list(dict.fromkeys(read_served(home, session_id)))
    for event_id in event_ids:
        if event_id in ordered:
            ordered.remove(event_id)
        ordered.append(event_id)
    ordered = ordered[-SERVED_KEEP:]
    make_dirs(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    write_text(tmp, "\n".join(ordered) + "\n")
    os.replace(tmp, path)


def reset_served(home: Home, session_id: str) -> bool:
    path = served_list_path(home, session_id)
    if path is None:
        return False
    try:
        path.unlink()
        return True
    except FileNotFoundError:
        return False


def read_accesses(path: Path) -> dict[str, list[float]]:
    """event_id -> epoch seconds of every endorsing access (result_fetched rows excluded;
    result_used and legacy rows without a source count)."""
    from carto_core.logio.reader import iter_lines
    from carto_core.util.timeparse import parse_timestamp

    from carto_core.logio.reader import unreadable

    out: dict[str, list[float]] = {}
    if unreadable(path):  # no reuse boost rather than no answer (the engine says so)
        return out
    for line in iter_lines(path):
        row = line.row
        if row.get("source") in ENDORSING_SOURCES_EXCLUDED:
            continue
        event_id = row.get("event_id")
        moment = parse_timestamp(row.get("timestamp"))
        if isinstance(event_id, str) and moment is not None:
            out.setdefault(event_id, []).append(moment.timestamp())
    return out


def _iso(epoch: float | None = None) -> str:
    moment = time.gmtime(epoch if epoch is not None else time.time())
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", moment)


#: How many calls this process has named: its first call is `call-<stamp>-<pid>` (upstream's
#: form, one search a process), each later one `call-<stamp>-<pid>-<n>`. A server (the MCP
#: server, `carto serve`) answers several searches in one second, and calls that share an id
#: are one call to every reader: `--touch` credits its rows, `carto forget` takes them all.
_CALLS = itertools.count()


def new_call_id() -> str:
    base = f"call-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{os.getpid()}"
    made = next(_CALLS)
    return f"{base}-{made}" if made else base


def last_served_call(home: Home, session_id: str, event_id: str) -> str | None:
    """The call_id of the latest served row for an id in this session (tail 2000 rows)."""
    from carto_core.logio.reader import iter_lines

    path = served_log_path(home)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    start = max(0, size - 2000 * 400)
    found = None
    rows = iter_lines(path, start=start)
    for line in rows:
        row = line.row
        if row.get("event_id") == event_id and row.get("session_id") == session_id:
            found = row.get("call_id") or found
    return found


class Telemetry(Record):
    """Who is searching: passed to `run_search` by the callers that record telemetry. A plain
    record (carto_core.util.records: no dataclass to generate on every cold search)."""

    _fields = ("home", "session_id", "provider", "purpose", "call_id", "call_id_given", "backend",
               "skipped")
    _factories = {"call_id": new_call_id, "skipped": list}
    home: Home
    session_id: str
    provider: str
    purpose: str
    call_id: str
    #: True when the caller named the call (`--call-id`): access rows then carry it as is.
    call_id_given: bool
    backend: str
    #: Telemetry files that are no log file (a folder in a log's place, ...), `{path, why,
    #: left_out}` as `SearchEngine.skipped_files`: not written, the search answers anyway.
    skipped: list

    def __init__(self, home: Home, session_id: str = "", provider: str = "unknown",
                 purpose: str = "manual", call_id: str = NEW, call_id_given: bool = False,
                 backend: str = "cli", skipped: list = NEW):
        self.home = home
        self.session_id = session_id
        self.provider = provider
        self.purpose = purpose
        self.call_id = new_call_id() if call_id is NEW else call_id
        self.call_id_given = call_id_given
        self.backend = backend
        self.skipped = [] if skipped is NEW else skipped

    def _append(self, path: Path, rows: list[dict]) -> int:
        """`append_rows`, unless `path` is no log file (`reader.unreadable`): then `skipped`
        says so and nothing is written (a hook's rows go on to the other logs)."""
        from carto_core.logio.reader import unreadable

        why = unreadable(path)
        if why:
            if all(item["path"] != str(path) for item in self.skipped):
                self.skipped.append({"path": str(path), "why": why,
                                     "left_out": "this search is not recorded there"})
            return 0
        return append_rows(path, rows)

    def record_search(self, request, result, started: float, finished: float) -> None:
        """Served-log rows (one per shown result), the served list, the search-call row."""
        served_rows = [
            {"timestamp": _iso(finished), "call_id": self.call_id, "purpose": self.purpose,
             "session_id": self.session_id or None, "provider": self.provider,
             "query": request.query, "event_id": hit.event_id, "rank": hit.rank,
             "source": "+".join(hit.sources), "project": hit.project}
            for hit in result.results
        ]
        if served_rows:
            self._append(served_log_path(self.home), redacted(served_rows))
        if self.session_id and not request.all:
            add_served(self.home, self.session_id, [hit.event_id for hit in result.results])
        elapsed = round((finished - started) * 1000, 3)
        call = {
            "timestamp": _iso(finished), "request_started_at": _iso(started),
            "results_served_at": _iso(finished), "request_started_ms": int(started * 1000),
            "results_served_ms": int(finished * 1000), "call_id": self.call_id,
            "requested_backend": self.backend, "selected_backend": self.backend,
            "transport": "process", "purpose": self.purpose,
            "session_id": self.session_id or None, "provider": self.provider,
            "query": request.query, "project": request.project,
            "since": result.since, "before": result.before,
            "result_count": len(result.results), "elapsed_ms": elapsed,
            "stages_ms": result.stages_ms, "index_generation": result.index_generation,
            "semantic_status": result.semantic_status, "fallback_reason": None,
        }
        self._append(search_calls_path(self.home), redacted([call]))
        if not result.results and result.unknown_entities:
            self.record_gap(request.query, request.project, result.unknown_entities)

    def record_served(self, query: str, hits: list[dict], *, started: float,
                      stages_ms: dict | None = None) -> None:
        """What a caller outside `run_search` showed (the UserPromptSubmit recall): served-log
        rows for `hits` ({event_id, source, project, also}: `also`, the ids of rows a hit
        stands for, enter the session's served list with it), the session's served list and
        the search-call row, all under this telemetry's purpose."""
        finished = time.time()
        rows = [{"timestamp": _iso(finished), "call_id": self.call_id, "purpose": self.purpose,
                 "session_id": self.session_id or None, "provider": self.provider, "query": query,
                 "event_id": hit["event_id"], "rank": rank, "source": hit.get("source") or "",
                 "project": hit.get("project") or ""}
                for rank, hit in enumerate(hits, 1)]
        if rows:
            self._append(served_log_path(self.home), redacted(rows))
        if self.session_id and hits:  # with the rows each hit stands for (`also`)
            add_served(self.home, self.session_id,
                       [i for hit in hits for i in (hit["event_id"], *(hit.get("also") or ()))])
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        self._append(search_calls_path(self.home), redacted([{
            "timestamp": _iso(finished), "call_id": self.call_id,
            "requested_backend": self.backend, "selected_backend": self.backend,
            "transport": "hook", "purpose": self.purpose, "session_id": self.session_id or None,
            "provider": self.provider, "query": query, "result_count": len(hits),
            "elapsed_ms": elapsed, "stages_ms": stages_ms or {}}]))

    def record_gap(self, query: str, project: str | None, entities: list[str],
                   cwd: str | None = None) -> str:
        """A knowledge gap (upstream 1.8): a search found nothing and named ids or paths no
        log holds. One row in knowledge-gaps.jsonl and its changelog copy, under this caller's
        session and provider, so the next session can capture what was missing. Returns the
        gap's event id."""
        import secrets

        from carto_core.logio.logs import order_row
        from carto_core.model.project import project_for
        from carto_core.util.timeparse import format_timestamp, utcnow

        ts = format_timestamp(utcnow())
        alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
        event_id = "evt-" + "".join(secrets.choice(alphabet) for _ in range(12))
        cwd = cwd or os.getcwd()
        self._append(self.home.log("knowledge-gaps"), redacted([{
            "event_id": event_id, "timestamp": ts, "type": "knowledge_gap", "query": query,
            "unknown_entities": list(entities), "project_filter": project or "", "cwd": cwd,
            "session": self.session_id or None, "salience": 0.6}]))
        self._append(self.home.log("changelog"), redacted([order_row("changelog", {
            "event_id": event_id, "timestamp": ts, "type": "knowledge_gap",
            "provider": self.provider, "session_id": self.session_id or None,
            "project": project_for(cwd), "cwd": cwd,
            "summary": f"Knowledge gap: '{query}' returned no results; unknown: {', '.join(entities)}",
            "related_ids": [], "salience": 0.6})]))
        return event_id

    def record_access(self, event_ids: list[str], source: str) -> int:
        """Access-ledger rows: `result_used` (--touch) or `result_fetched` (--get)."""
        if not event_ids:
            return 0
        kind = "touch" if source == "result_used" else "get"
        batch = f"{kind}-{_iso()}-{os.getpid()}"
        rows = []
        for ordinal, event_id in enumerate(event_ids, 1):
            row = {"event_id": event_id, "timestamp": _iso(), "session_id": self.session_id or None,
                   "provider": self.provider, "purpose": self.purpose, "source": source,
                   "access_batch_id": batch, "access_ordinal": ordinal}
            call_id = self.call_id if self.call_id_given else (
                last_served_call(self.home, self.session_id, event_id) if self.session_id else None)
            if call_id:
                row["call_id"] = call_id
            rows.append(row)
        return append_rows(access_ledger_path(self.home), rows)
