"""The opt-in SessionStart note: what a new session in this checkout should know first.

Called by the SessionStart hooks (stdlib only, no subprocess)::

    from carto_core.lenses.start_note import start_note

    note = start_note(home, session_id, cwd)   # str | None; print it when not None

Off unless `CARTO_START_NOTE=1` (upstream's `CARTOGRAPHER_FOCUS_ON_START=1` also turns it on).
The note holds the project's newest `session_wrapup` (its description and unresolved threads),
the checkout's state (branch and HEAD, read from `.git` files), live peers (other sessions
with events in this project in the last 20 minutes) and how many of the project's sessions in
the changelog's tail ended without a wrapup (`lenses.sessions.pending`, `carto wrapup --pending`). It is shown only when something changed
since it was last shown for this project: a fingerprint of its content is kept in
`<home>/.carto/start-note.json` (state, not telemetry). Never raises.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timedelta, timezone

from carto_core.capture.tail import tail_rows
from carto_core.model.project import find_git, project_for
from carto_core.model.session import row_session
from carto_core.util.privatefiles import make_dirs, write_text
from carto_core.util.terminal import ago, counted
from carto_core.util.timeparse import parse_timestamp

LIVE_MINUTES = 20
TAIL_BYTES = 2 * 1024 * 1024
STATE_FILE = "start-note.json"


def enabled(env: dict | None = None) -> bool:
    env = os.environ if env is None else env
    return any(env.get(var, "").strip().lower() in ("1", "true", "yes", "on")
               for var in ("CARTO_START_NOTE", "CARTOGRAPHER_FOCUS_ON_START"))


def _tail_rows(path, limit: int = TAIL_BYTES) -> list[dict]:
    return tail_rows(path, limit)


def _head(cwd: str) -> tuple[str, str]:
    """(branch, short HEAD sha) from `.git` files; ("", "") outside a repository."""
    from carto_core.capture.gitstate import head_sha

    info = find_git(cwd)
    if info is None:
        return "", ""
    return info.branch(), head_sha(info)[:8]


def build_start_note(home, session_id: str, cwd: str, now: datetime | None = None) -> dict | None:
    """The note's content as a document (None when there is nothing to say)."""
    now = now or datetime.now(timezone.utc)
    project = project_for(cwd)
    if not project:
        return None
    lowered = project.lower()
    wrapup = None
    for row in reversed(_tail_rows(home.log("milestones"))):
        if row.get("milestone") == "session_wrapup" and str(row.get("project") or "").lower() == lowered:
            wrapup = row
            break
    cutoff = now - timedelta(minutes=LIVE_MINUTES)
    peers: dict[str, dict] = {}
    changelog = _tail_rows(home.log("changelog"))
    waiting = pending_wrapups(changelog, lowered, session_id, now)
    from carto_core.capture.turnactivity import OWN_TYPES

    for row in changelog:
        sid = row_session(row)
        if not isinstance(sid, str) or not sid.strip() or sid.lower() == "unknown" or sid == session_id:
            continue
        if row.get("type") in OWN_TYPES:
            continue  # a wrapup or decision written now says nothing of the session being at work
        if str(row.get("project") or "").lower() != lowered:
            continue
        moment = parse_timestamp(row.get("timestamp"))
        if moment is None or moment < cutoff:
            continue
        peer = peers.setdefault(sid, {"session_id": sid, "provider": row.get("provider") or "",
                                      "last": moment, "events": 0})
        peer["events"] += 1
        peer["last"] = max(peer["last"], moment)
    branch, sha = _head(cwd)
    if wrapup is None and not peers and not waiting:
        return None
    return {
        "project": project,
        "checkout": {"branch": branch, "head": sha},
        "wrapup": None if wrapup is None else {
            "event_id": wrapup.get("event_id"),
            "timestamp": wrapup.get("timestamp"),
            "session_id": wrapup.get("session_id"),
            "description": wrapup.get("description") or "",
            "unresolved": _open_threads(home, wrapup),
        },
        "live_peers": sorted(
            ({"session_id": p["session_id"], "provider": p["provider"], "events": p["events"],
              "minutes_ago": int((now - p["last"]).total_seconds() // 60)} for p in peers.values()),
            key=lambda p: p["minutes_ago"]),
        "pending_wrapups": waiting,
    }


def pending_wrapups(rows: list[dict], project: str, session_id: str, now: datetime) -> int:
    """How many sessions of `project` in these changelog rows ended without a wrapup and with
    work in them (`lenses.sessions.pending`; the changelog's tail holds a milestone's copy)."""
    from carto_core.lenses.sessions import pending

    sessions: dict[str, dict] = {}
    for row in rows:
        sid = row_session(row)
        if not isinstance(sid, str) or not sid.strip() or sid.lower() == "unknown":
            continue
        moment = parse_timestamp(row.get("timestamp"))
        kind = str(row.get("type") or "")
        entry = sessions.setdefault(sid, {"session_id": sid, "projects": [], "started": moment,
                                          "ended": moment, "events": 0, "commits": 0,
                                          "wrapup": False, "session_end": False})
        name = str(row.get("project") or "")
        if name and name not in entry["projects"]:
            entry["projects"].append(name)
        if moment is not None:
            entry["started"] = min(filter(None, (entry["started"], moment)))
            entry["ended"] = max(filter(None, (entry["ended"], moment)))
        entry["events"] += 1
        entry["commits"] += kind.startswith("git_commit")
        entry["wrapup"] |= kind == "milestone_session_wrapup"
        entry["session_end"] |= kind.startswith("milestone_session_end")
    return len(pending(sessions.values(), now, project=lambda name: name.lower() == project,
                       exclude=session_id))


def render(document: dict) -> str:
    lines = [f"carto: {document['project']}"
             + (f" on {document['checkout']['branch'] or 'detached'}@{document['checkout']['head']}"
                if document["checkout"]["head"] else "")]
    wrapup = document.get("wrapup")
    if wrapup:
        lines.append(f"  last wrapup ({wrapup['timestamp']}, {str(wrapup['session_id'])[:8]}): {wrapup['description']}")
        for item in wrapup["unresolved"][:5]:
            lines.append(f"  unresolved: {item}")
    if document.get("pending_wrapups"):
        count = document["pending_wrapups"]
        lines.append(f"  {counted(count, 'ended session')} of this project without a "
                     "wrapup (carto wrapup --pending)")
    for peer in document["live_peers"][:5]:
        lines.append(f"  live peer {peer['session_id'][:8]} ({peer['provider'] or '?'}): "
                     f"{counted(peer['events'], 'event')}, last {ago(peer['minutes_ago'] * 60)}")
    return "\n".join(lines)


def _open_threads(home, wrapup: dict) -> list[str]:
    """The wrapup's unresolved threads that are still open: not "none", and not retired,
    rejected or superseded since (`carto_core.model.decisions`)."""
    from carto_core.model import decisions

    given = wrapup.get("unresolved")
    # one string (an older writer's) is one thread, as the decision ledger reads it
    given = [given] if isinstance(given, str) else given if isinstance(given, list) else []
    threads = [str(x) for x in given if not decisions.is_empty(x)]
    if not threads:
        return []
    ledger = decisions.load(home)
    project = wrapup.get("project") if isinstance(wrapup.get("project"), str) else ""
    closed = {rid for rid, record in ledger.records.items() if not record.current}
    return [t for t in threads if decisions.record_id("thread", project, t) not in closed]


def start_note(home, session_id: str, cwd: str, now: datetime | None = None,
               env: dict | None = None) -> str | None:
    """The note to print at SessionStart, or None (off, nothing to say, or unchanged)."""
    try:
        if not enabled(env):
            return None
        document = build_start_note(home, session_id, cwd, now)
        if document is None:
            return None
        # Liveness ages change every minute; fingerprint what a reader would act on.
        stable = {**document, "live_peers": sorted(p["session_id"] for p in document["live_peers"])}
        fingerprint = hashlib.sha1(json.dumps(stable, sort_keys=True).encode()).hexdigest()
        state_path = home.state / STATE_FILE
        try:
            state = json.loads(state_path.read_text("utf-8"))
            if not isinstance(state, dict):
                state = {}
        except (OSError, ValueError):
            state = {}
        if state.get(document["project"]) == fingerprint:
            return None
        state[document["project"]] = fingerprint
        make_dirs(home.state)
        temporary = state_path.with_name(f"{STATE_FILE}.{os.getpid()}.tmp")
        write_text(temporary, json.dumps(state))
        os.replace(temporary, state_path)
        return render(document)
    except Exception:
        return None
