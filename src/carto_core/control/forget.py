"""`carto forget`: take events out of a home, from every log and everything derived from them.

A dry run (`write=False`) plans and counts: which events go (every row of an event_id that has
one matching row: `carto_core.control.criteria`), per log, per telemetry file, per derived
store. With `write=True` the plan is carried out in phases, each safe to repeat:

1. **intent**: `<home>/.carto/forget/ids.txt` (the ids) and `intent.json` (the criteria, the
   sessions and transcript paths that go with them, the telemetry calls), fsynced. From here
   on the forget is finished by whoever comes next (`resume`), never left half done;
2. **tombstone**: the ids' hashes join `<home>/.carto/tombstones.bin`
   (`carto_core.logio.tombstone`), so no backfill or hook writes them again;
3. **logs**: every searched log and `knowledge-gaps.jsonl` rewritten without those rows
   through the crash-safe rewrite (`rewrite.rewrite_kept`: rows appended meanwhile are kept);
4. **telemetry**: served-log, access-ledger and search-calls rows of those events, of the
   searches that served them, of sessions nothing is left of, and the telemetry rows the
   criteria match themselves (a search scoped to a forgotten project, ...);
5. **state**: the other text logs under `.carto/` (hook.log, index errors, ...): rows of those
   events and lines that name what is forgotten; the per-session served lists;
6. **checkpoints**: backfill checkpoints and live transcript states of the streams whose
   sessions or transcripts are gone (their keys name them); the start-note memory;
7. **index**, **facts**, **vectors**, **profile**: patched (`carto_core.control.stores`);
8. **memory**: carto's section of every MEMORY.md it wrote (`carto_core.control.memoryfiles`);
9. **team**: the team server, when one is configured;
10. **done**: the intent removed.

A forget killed at any point is finished by the next `carto forget` (any), `carto doctor`
says one waits, and `carto backup` and `carto export` finish it first: a snapshot never holds
half a forget. Each log's rewrite is atomic on its own (`rewrite_journal`), so a kill never
loses a row of anything that was not to be forgotten.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from carto_core.control.criteria import Criteria, session_of
from carto_core.logio.home import Home
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.model.events import is_resolved

FOLDER = "forget"
INTENT = "intent.json"
IDS = "ids.txt"
#: Logs whose rows are events (an id may repeat across them).
EVENT_LOGS: tuple[str, ...] = (*SEARCHED_LOGS, "knowledge-gaps")
#: The points a forget passes, in order (`_reach`): a kill at any of them is finished by `resume`.
PHASES = ("planned", f"wrote {IDS}", f"wrote {INTENT}", "intent", "tombstone", "logs",
          "telemetry", "state", "checkpoints", "index", "facts", "vectors", "profile", "memory",
          "team", "done")

Progress = Callable[[str], None]


def _reach(phase: str) -> None:
    """A named point of a forget; tests replace this to kill the forget there."""


def folder(home: Home) -> Path:
    return home.state / FOLDER


def pending(home: Home) -> bool:
    """True when a forget was started and not finished (one `stat`)."""
    return (folder(home) / INTENT).exists()


class Plan:
    """What one forget takes out."""

    def __init__(self, criteria: Criteria):
        self.criteria = criteria
        self.ids: set[str] = set()
        #: Sessions whose rows without a project go with a forgotten project.
        self.by_session: set[str] = set()
        #: Sessions and transcript paths no row outlives (their checkpoints go).
        self.sessions_gone: set[str] = set()
        self.paths_gone: set[str] = set()
        #: Projects that lost rows (their MEMORY.md sections are written again).
        self.projects_touched: set[str] = set()
        #: Searches that served a forgotten event (their telemetry goes whole: the query
        #: led to it).
        self.calls: set[str] = set()
        self.rows: Counter = Counter()
        #: This home alone (`forget(local=True)`): kept in the intent, so that finishing it
        #: later does not patch the MEMORY.md files and team server the live home's forget did.
        self.local = False

    def keep_event_row(self, raw: bytes, row: dict | None) -> bool:
        """The line filter of the logs' rewrite."""
        if row is None:
            return not self.criteria.line(raw)
        event_id = row.get("event_id")
        if isinstance(event_id, str) and is_resolved(event_id):
            return event_id not in self.ids
        return not self.criteria.row(row, project_by_session=session_of(row) in self.by_session)

    def to_intent(self) -> dict:
        return {"v": 1, "criteria": self.criteria.to_dict(), "by_session": sorted(self.by_session),
                "sessions_gone": sorted(self.sessions_gone), "paths_gone": sorted(self.paths_gone),
                "projects_touched": sorted(self.projects_touched), "calls": sorted(self.calls),
                "local": self.local}

    @classmethod
    def from_intent(cls, data: dict, ids: set[str]) -> "Plan":
        plan = cls(Criteria.from_dict(data.get("criteria") or {}))
        plan.ids = ids
        plan.by_session = set(data.get("by_session") or ())
        plan.sessions_gone = set(data.get("sessions_gone") or ())
        plan.paths_gone = set(data.get("paths_gone") or ())
        plan.projects_touched = set(data.get("projects_touched") or ())
        plan.calls = set(data.get("calls") or ())
        plan.local = bool(data.get("local"))
        return plan


def _rows(path: Path):
    from carto_core.logio.jsonl import fast_loads_line
    from carto_core.logio.reader import ReadReport, iter_lines

    return iter_lines(path, ReadReport(str(path)), loads=fast_loads_line)


def _event_id(row: dict) -> str | None:
    event_id = row.get("event_id")
    return event_id if isinstance(event_id, str) and is_resolved(event_id) else None


def make_plan(home: Home, criteria: Criteria, progress: Progress | None = None) -> Plan:
    """Read the logs and decide what goes: two passes over the event logs (the ids, then what
    their going leaves behind), one over the telemetry."""
    plan = Plan(criteria)
    # Pass 1: the ids of matching rows; rows without a project are held back for the
    # sessions rule (a session that holds only forgotten projects' rows takes them along).
    candidates: list[tuple[str | None, str]] = []
    forgotten_sessions: set[str] = set()
    other_sessions: set[str] = set()
    for label in EVENT_LOGS:
        if progress:
            progress(f"reading {label}")
        for line in _rows(home.log(label)):
            row = line.row
            event_id = _event_id(row)
            if criteria.row(row):
                if event_id:
                    plan.ids.add(event_id)
                if criteria.projects:
                    session = session_of(row)
                    if session:
                        forgotten_sessions.add(session)
            elif criteria.projects:
                session = session_of(row)
                if not session:
                    continue
                if is_resolved(row.get("project")):
                    other_sessions.add(session)
                elif criteria.row(row, project_by_session=True):
                    candidates.append((event_id, session))
    if criteria.projects:
        plan.by_session = forgotten_sessions - other_sessions
        plan.ids.update(event_id for event_id, session in candidates
                        if event_id and session in plan.by_session)
    # Pass 2: what goes, per log, and the sessions and transcripts nothing outlives.
    kept_sessions: set[str] = set()
    kept_paths: set[str] = set()
    gone_sessions: set[str] = set()
    gone_paths: set[str] = set()
    for label in EVENT_LOGS:
        for line in _rows(home.log(label)):
            row = line.row
            event_id = _event_id(row)
            goes = (event_id in plan.ids) if event_id else plan.criteria.row(
                row, project_by_session=session_of(row) in plan.by_session)
            session = session_of(row)
            path = row.get("transcript_path")
            path = path if isinstance(path, str) and path else None
            if goes:
                plan.rows[label] += 1
                if session:
                    gone_sessions.add(session)
                if path:
                    gone_paths.add(path)
                project = row.get("project")
                if isinstance(project, str) and is_resolved(project):
                    plan.projects_touched.add(project)
            else:
                if session:
                    kept_sessions.add(session)
                if path:
                    kept_paths.add(path)
    plan.sessions_gone = gone_sessions - kept_sessions
    plan.paths_gone = gone_paths - kept_paths
    # The searches that served a forgotten event.
    from carto_core.search.telemetry import served_log_path

    if plan.ids:
        for line in _rows(served_log_path(home)):
            call = line.row.get("call_id")
            if isinstance(call, str) and line.row.get("event_id") in plan.ids:
                plan.calls.add(call)
    return plan


# --------------------------------------------------------------------------- the phases


def _rewrite(path: Path, keep, write: bool, known: int = 0) -> int:
    """Lines `keep` refuses: counted (dry run) or taken out through the crash-safe rewrite.
    `known`: how many the plan already counted (when none, a dry pass first: a log with
    nothing to drop is not rewritten, so no cache rebuilds anything for it)."""
    if not path.is_file():
        return 0
    if not write or (not known and not _count(path, keep)):
        return _count(path, keep) if not write else 0
    from carto_core.logio.rewrite import rewrite_kept

    dropped = [0]

    def counted(raw, row):
        kept = keep(raw, row)
        dropped[0] += not kept
        return kept

    rewrite_kept(path, counted)
    return dropped[0]


def _count(path: Path, keep) -> int:
    from carto_core.logio.jsonl import fast_loads_line
    from carto_core.logio.rewrite_journal import settle

    settle(path)
    n = 0
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return 0
    with handle:
        for raw in handle:
            if not raw.strip():
                continue
            row, problem = fast_loads_line(raw.rstrip(b"\r\n"))
            if problem == "malformed_json" or not isinstance(row, dict):
                row = None
            n += not keep(raw, row)
    return n


def _logs(home: Home, plan: Plan, write: bool) -> dict:
    return {label: _rewrite(home.log(label), plan.keep_event_row, write, plan.rows[label])
            for label in EVENT_LOGS}


def _telemetry(home: Home, plan: Plan, write: bool) -> dict:
    from carto_core.search.telemetry import access_ledger_path, search_calls_path, served_log_path

    criteria = plan.criteria

    def keep(raw: bytes, row: dict | None) -> bool:
        if row is None:
            return not criteria.line(raw)
        if row.get("event_id") in plan.ids or row.get("call_id") in plan.calls \
                or row.get("session_id") in plan.sessions_gone:
            return False
        return not criteria.telemetry(row)

    def keep_access(raw: bytes, row: dict | None) -> bool:
        if row is None:
            return not criteria.line(raw)
        return row.get("event_id") not in plan.ids and row.get("session_id") not in plan.sessions_gone \
            and not criteria.telemetry(row)

    return {"served": _rewrite(served_log_path(home), keep, write),
            "access": _rewrite(access_ledger_path(home), keep_access, write),
            "search-calls": _rewrite(search_calls_path(home), keep, write)}


def _state_logs(home: Home) -> list[Path]:
    """The text logs under `.carto/` other than telemetry."""
    if not home.state.is_dir():
        return []
    skip = {"search-calls.jsonl"}
    return sorted(p for p in home.state.iterdir()
                  if p.is_file() and p.suffix in (".jsonl", ".log") and p.name not in skip)


def _mentions(text: str, plan: Plan) -> bool:
    """A text names a session or a transcript no row outlives, or a project forgotten whole
    (`--project` alone)."""
    if any(s in text for s in plan.sessions_gone) or any(p in text for p in plan.paths_gone):
        return True
    criteria = plan.criteria
    if not criteria.projects or any((criteria.sessions, criteria.timed, criteria.match,
                                     criteria.events)):
        return False
    lowered = text.lower()
    return any(p.lower() in lowered for p in criteria.projects)


def _state(home: Home, plan: Plan, write: bool) -> dict:
    criteria = plan.criteria

    def keep(raw: bytes, row: dict | None) -> bool:
        if row is not None:
            return row.get("event_id") not in plan.ids and not criteria.line(raw)
        text = raw.decode("utf-8", "replace")
        return not (criteria.text(text) or _mentions(text, plan))

    out = {f".carto/{p.name}": _rewrite(p, keep, write) for p in _state_logs(home)}
    out = {name: n for name, n in out.items() if n}
    out["served lists"] = _served_lists(home, plan, write)
    return out


def _served_lists(home: Home, plan: Plan, write: bool) -> int:
    """The per-session lists of served ids: a forgotten session's goes, forgotten ids leave
    the others."""
    from carto_core.search.telemetry import served_dir

    base = served_dir(home)
    if not base.is_dir():
        return 0
    changed = 0
    for path in sorted(base.glob("*.txt")):
        session = path.stem
        try:
            ids = [line for line in path.read_text("utf-8").split("\n") if line]
        except OSError:
            continue
        if session in plan.sessions_gone or session in plan.criteria.sessions:
            changed += 1
            if write:
                path.unlink(missing_ok=True)
            continue
        kept = [i for i in ids if i not in plan.ids]
        if len(kept) != len(ids):
            changed += 1
            if write:
                _write_private(path, ("\n".join(kept) + "\n") if kept else "")
    return changed


def _write_private(path: Path, text: str) -> None:
    from carto_core.control.files import write_whole

    write_whole(path, text)


def _checkpoints(home: Home, plan: Plan, write: bool) -> dict:
    """Backfill checkpoints and live states of streams whose sessions or transcripts are gone
    (their keys name them: a later backfill reads such a stream again, and the tombstone keeps
    what it finds out) or that hold a `--match` text (a Stop's answer kept for its turn, which
    a Stop fired again after a forget brings back), forgotten ids out of the live states'
    digests, and the start note's memory of forgotten projects."""
    out = {"checkpoints": 0, "live": 0, "start-note": 0}
    for path in sorted((home.state / "checkpoints").glob("*.json")):
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        kept = {key: value for key, value in data.items()
                if not (_mentions(key + json.dumps(value, ensure_ascii=False), plan)
                        or plan.criteria.holds_match(value))}
        if len(kept) != len(data):
            out["checkpoints"] += len(data) - len(kept)
            if write:
                _write_private(path, json.dumps(kept, sort_keys=True))
    live = home.state / "live"
    if live.is_dir():
        from carto_core.capture import live as live_states

        for source in sorted(p for p in live.iterdir() if p.is_dir()):
            with (live_states.source_lock(home, source.name) if write else _nothing()):
                for path in sorted(source.glob("*.json")):
                    try:
                        text = path.read_text("utf-8")
                        data = json.loads(text)
                    except (OSError, ValueError):
                        continue
                    if not isinstance(data, dict):
                        continue
                    written = data.get("written") if isinstance(data.get("written"), dict) else {}
                    state = {k: v for k, v in data.items() if k != "written"}
                    if (_mentions(json.dumps(state, ensure_ascii=False), plan)
                            or plan.criteria.holds_match(state)):
                        out["live"] += 1
                        if write:
                            path.unlink(missing_ok=True)
                    elif any(event_id in plan.ids for event_id in written):
                        out["live"] += 1
                        if write:
                            data["written"] = {k: v for k, v in written.items() if k not in plan.ids}
                            _write_private(path, json.dumps(data))
    note = home.state / "start-note.json"
    if plan.criteria.projects and note.exists():
        try:
            data = json.loads(note.read_text("utf-8"))
        except (OSError, ValueError):
            data = None
        if isinstance(data, dict):
            lowered = {p.lower() for p in plan.criteria.projects}
            kept = {k: v for k, v in data.items() if k.lower() not in lowered}
            if len(kept) != len(data):
                out["start-note"] = len(data) - len(kept)
                if write:
                    _write_private(note, json.dumps(kept))
    return out


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _team(home: Home, plan: Plan, write: bool) -> dict:
    """The team server's rows, when this home has a team (`carto_core.team`): its forget
    takes a project (this person's rows of it), so only `--project` alone is sent, and the
    project leaves this home's allow list (the next push does not send it again, and the list
    no longer names it). Other criteria are reported with what to run there."""
    from carto_core.team import settings as team_settings

    if not team_settings.configured(home):
        return {"outcome": "none"}
    criteria = plan.criteria
    if not criteria.projects or any((criteria.sessions, criteria.timed, criteria.match,
                                     criteria.events)):
        return {"outcome": "not sent",
                "why": "it forgets whole projects: `carto team forget --project KEY` there, or "
                       "forget with --project alone"}
    if not write:
        return {"outcome": "would forget", "projects": list(criteria.projects)}
    try:
        loaded = team_settings.load(home)
    except team_settings.TeamSettingsError as exc:
        return {"outcome": "failed", "error": str(exc)}
    if loaded is None:
        return {"outcome": "none"}
    out: dict = {"outcome": "forgotten", "removed": 0,
                 "disallowed": sum(len(loaded.disallow(p)) for p in criteria.projects)}
    if out["disallowed"]:
        loaded.save(home)
    try:
        from carto_core.team.connect import connect
        from carto_core.team.forget import forget_here

        conn = connect(loaded)
        try:
            for project in criteria.projects:
                out["removed"] += forget_here(conn, home, loaded, project=project)["removed"]
        finally:
            conn.close()
    except Exception as exc:  # noqa: BLE001 - an unreachable server: said, the local forget stands
        from carto_core.team.connect import TeamError

        error = str(exc) if isinstance(exc, TeamError) else f"{type(exc).__name__}: {exc}"
        return {**out, "outcome": "failed", "error": error,
                "fix": "; ".join(f"carto team forget --project {p}" for p in criteria.projects)}
    return out


# --------------------------------------------------------------------------- driving it


def _write_intent(home: Home, plan: Plan) -> None:
    from carto_core.logio.rewrite_journal import fsync_folder

    from carto_core.util.privatefiles import make_dirs, open_fd

    base = folder(home)
    make_dirs(base)
    for name, data in ((IDS, "".join(f"{i}\n" for i in sorted(plan.ids)).encode("utf-8")),
                       (INTENT, json.dumps(plan.to_intent()).encode("utf-8"))):
        tmp = base / f".{name}.{os.getpid()}.tmp"
        fd = open_fd(tmp, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, base / name)  # ids first: the intent names a complete id list
        _reach(f"wrote {name}")
    fsync_folder(str(base))


def _read_intent(home: Home) -> Plan | None:
    base = folder(home)
    try:
        data = json.loads((base / INTENT).read_text("utf-8"))
        ids = {line for line in (base / IDS).read_text("utf-8").split("\n") if line}
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    if "local" not in data:
        # written before intents said so: every forget carto starts in a home a restore kept is
        # that home's alone (the restore finished the live home's forgets before keeping it)
        from carto_core.control.replaced import kept_by_restore

        data = {**data, "local": kept_by_restore(home)}
    return Plan.from_intent(data, ids)


def _clear_intent(home: Home) -> None:
    import shutil

    shutil.rmtree(folder(home), ignore_errors=True)


def _document(home: Home, plan: Plan, write: bool) -> dict:
    return {"home": str(home.root), "dry_run": not write, "criteria": plan.criteria.to_dict(),
            "events": len(plan.ids), "logs": dict(plan.rows),
            "rows": sum(plan.rows.values())}


def plan_document(home: Home, criteria: Criteria, progress: Progress | None = None, *,
                  copies=None) -> dict:
    """A dry run: what `--write` would take out, per log and per derived store; `copies(home,
    plan)`, when given, what copies of the home would still hold it (`control.copies.holding`)."""
    plan = make_plan(home, criteria, progress)
    document = _document(home, plan, write=False)
    document["telemetry"] = _telemetry(home, plan, write=False)
    document["state"] = _state(home, plan, write=False)
    document["checkpoints"] = _checkpoints(home, plan, write=False)
    document["derived"] = _derived_counts(home, plan)
    from carto_core.control.memoryfiles import patch_memory_files

    document["memory_files"] = patch_memory_files(home, plan, write=False)
    document["team"] = _team(home, plan, write=False)
    from carto_core.logio.tombstone import TombstoneSet, id_hash

    buried = TombstoneSet.of(home).hashes
    document["tombstones"] = sum(1 for i in plan.ids if id_hash(i) not in buried)
    document["pending"] = pending(home)
    if copies is not None:
        document["copies"] = copies(home, plan)
    return document


def _derived_counts(home: Home, plan: Plan) -> dict:
    out: dict = {"keyword_index": len(plan.ids) if (home.state / "search").is_dir() else 0}
    from carto_core.facts.store import cache_path

    out["facts"] = len(plan.ids) if cache_path(home).exists() else 0
    from carto_core.semantic.store import vectors_dir

    vectors: dict = {}
    if plan.ids and (vectors_dir(home) / "manifest.json").exists():
        try:
            from carto_core.semantic.embedded import EmbeddedStore

            store = EmbeddedStore(vectors_dir(home))
            ids = sorted(plan.ids)
            for model in sorted(store.models()):
                vectors[model] = int(store.has(model, ids).sum())
        except Exception as exc:  # noqa: BLE001 - counted as unknown, never fatal in a dry run
            vectors = {"error": f"{type(exc).__name__}: {exc}"}
    out["vectors"] = vectors
    out["profile"] = (home.state / "profile.md").exists()
    return out


def forget(home: Home, criteria: Criteria, progress: Progress | None = None, *,
           local: bool = False, copies=None) -> dict:
    """Carry out a forget (see the module docstring); returns what was taken out, and with
    `copies(home, plan)` (`control.copies.holding`) the copies carto made of the home that
    still hold it. A forget left unfinished is finished first. `local`: this home alone, not
    the MEMORY.md files or team server it records (a home a restore replaced: the forget in the
    live home did those)."""
    from carto_core.logio.tombstone import check as check_tombstones

    check_tombstones(home)  # before its intent: one written could not be finished
    earlier = resume(home, progress) if pending(home) else None
    plan = make_plan(home, criteria, progress)
    plan.local = local
    document = _document(home, plan, write=True)
    if earlier is not None:
        document["resumed"] = earlier
    document.update(_carry_out(home, plan, progress, local=local))
    if copies is not None:
        document["copies"] = copies(home, plan)
    return document


def resume(home: Home, progress: Progress | None = None) -> dict | None:
    """Finish a forget that was started and not finished; None when there is none."""
    plan = _read_intent(home)
    if plan is None:
        if folder(home).exists():
            _clear_intent(home)  # killed while writing its intent: nothing else was done
        return None
    document = _document(home, plan, write=True)
    document.update(_carry_out(home, plan, progress, resumed=True, local=plan.local))
    return document


def keep_out(home: Home, buried) -> dict:
    """Forget in `home` the events another home's tombstones `buried` (a
    `carto_core.logio.tombstone.TombstoneSet`) name, and bury them all here too: a restore
    applies the forgets of the home it replaces to the backup it unpacked, before that takes
    the home's place. The home-local phases only: no intent (nothing is in place yet, a kill
    leaves nothing to finish), no derived stores (a backup holds none), no MEMORY.md or team
    server (the forget that buried these ids did them)."""
    from carto_core.logio.tombstone import bury_hashes, id_hash
    from carto_core.search.telemetry import access_ledger_path, served_log_path

    seen: set[str] = set()
    found: set[str] = set()
    for path in (*(home.log(label) for label in EVENT_LOGS), served_log_path(home), access_ledger_path(home)):
        for line in _rows(path):
            event_id = _event_id(line.row)
            if event_id and event_id not in seen:
                seen.add(event_id)
                if id_hash(event_id) in buried.hashes:
                    found.add(event_id)
    out: dict = {"events": len(found), "tombstones": bury_hashes(home, set(buried.hashes))}
    if not found:
        return {**out, "logs": {}, "rows": 0}
    plan = make_plan(home, Criteria(events=sorted(found)))
    out["logs"] = {label: n for label, n in _logs(home, plan, write=True).items() if n}
    out["rows"] = sum(out["logs"].values())
    out["telemetry"] = _telemetry(home, plan, write=True)
    out["state"] = _state(home, plan, write=True)
    out["checkpoints"] = _checkpoints(home, plan, write=True)
    return out


def _carry_out(home: Home, plan: Plan, progress: Progress | None, *, resumed: bool = False,
               local: bool = False) -> dict:
    from carto_core.control import stores
    from carto_core.control.memoryfiles import patch_memory_files
    from carto_core.logio.tombstone import bury

    def step(phase: str) -> None:
        if progress:
            progress(phase)

    out: dict = {}
    if not resumed:
        step("intent")
        _reach("planned")
        _write_intent(home, plan)
    _reach("intent")
    step("tombstone")
    out["tombstones"] = bury(home, plan.ids)
    _reach("tombstone")
    step("logs")
    out["removed"] = _logs(home, plan, write=True)
    _reach("logs")
    step("telemetry")
    out["telemetry"] = _telemetry(home, plan, write=True)
    _reach("telemetry")
    step("state")
    out["state"] = _state(home, plan, write=True)
    _reach("state")
    step("checkpoints")
    out["checkpoints"] = _checkpoints(home, plan, write=True)
    _reach("checkpoints")
    derived: dict = {}
    # The derived stores hold events alone: without a forgotten event there is nothing to
    # patch in them (a search query's text is telemetry, taken out above).
    step("keyword index")
    if plan.ids:
        derived["keyword_index"] = stores.patch_keyword_index(home, plan.ids)
    _reach("index")
    step("facts")
    if plan.ids:
        derived["facts"] = stores.patch_facts(home, plan.ids)
    _reach("facts")
    step("vectors")
    if plan.ids:
        derived["vectors"] = stores.delete_vectors(home, plan.ids)
    _reach("vectors")
    if plan.ids:
        derived["profile"] = stores.rewrite_profile(home)
    _reach("profile")
    out["derived"] = derived
    if not local:
        step("memory files")
        out["memory_files"] = patch_memory_files(home, plan, write=True)
    _reach("memory")
    if not local:
        step("team")
        out["team"] = _team(home, plan, write=True)
    _reach("team")
    _clear_intent(home)
    _reach("done")
    return out
