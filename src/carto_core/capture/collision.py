"""Edit collisions: did a peer session touch this file lately? Stdlib only, hook-path fast.

Called from the PreToolUse hooks (Claude Code and Codex) for Edit, Write, MultiEdit,
NotebookEdit and apply_patch::

    from carto_core.capture.collision import collision_note

    note = collision_note(home, session_id, file_path)   # str | None
    if note:
        print(note)        # one short line for the agent; nothing otherwise

`collision_note(home, session_id, file_path, now=None, window_minutes=45, touches=None)`
returns one line when another session (resolved id, not `session_id`) edited or committed the
same file within the last 45 minutes, else None. It never raises (any problem means "no note").

"The same file" is decided by `contention_key`: a path inside a Claude worktree
(`<repo>/.claude/worktrees/<name>/...`) or any linked git worktree (Codex's
`~/.codex/worktrees/<id>/<repo>/...`, `git worktree add ../wt`) collapses onto the same path in
the main checkout (`carto_core.model.project.main_checkout_path`, which reads `.git` files, no
subprocess), so two sessions editing one file from two checkouts collide.

Cost: only the changelog's tail is read (it is the union of every hook's rows), 2 MB at first and
more only when the oldest row read is still inside the window, so a short read never
under-reports; raw lines are filtered by the file's basename before any JSON is parsed.
The same primitives (`edit_paths`, `event_files`, `contention_key`, `work_of`) serve `carto
standup`'s CONTENTION section, so the hook and the lens cannot disagree.

A session and its own sub-agents are one piece of work, never peers: a Claude Code subagent
logs under its parent's session id already, and a Codex sub-agent is a thread of its own whose
turn rows name the parent in `parent_session` (the link `carto session --tree` hangs it by).
`work_of` climbs those links to the session that spawned the rest; the note reads them from the
turns log's tail (rows holding `"parent_session":"`, as far back as the window), and only when
some other session touched the file. A sub-agent whose turns are not ingested yet is not known
to be one, and is named like any peer.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timedelta, timezone

from carto_core.model.project import main_checkout_path
from carto_core.util.safeio import open_regular
from carto_core.util.timeparse import parse_timestamp

WINDOW_MINUTES = 45
TAIL_START = 2 * 1024 * 1024
TAIL_MAX = 64 * 1024 * 1024

#: `[type] Commit <sha>: <subject> | files: a,b` (hook) and `Commit <sha7>: <subject> | files:` (git backfill).
COMMIT_RE = re.compile(r"Commit\s+([0-9a-f]{6,40}):\s*([^|]*)(?:\|\s*files:\s*(.*))?$")
_CLAUDE_WORKTREE = re.compile(r"/\.claude/worktrees/[^/]+(?=/)")
_VIA_BASH = " (via bash)"
_UNRESOLVED = ("", "unknown")


def _resolved(value: object) -> bool:
    # The same rule as carto_core.model.events.is_resolved; that module imports attrs and cattrs,
    # which the hook path cannot afford, so the three-line rule is restated here.
    if value is None:
        return False
    return not isinstance(value, str) or value.strip().lower() not in _UNRESOLVED


def edit_paths(summary: str, cwd: str = "") -> list[str]:
    """Absolute paths a `Modified: ...` summary names ([] when it names none).

    Forms written by the hooks: `Modified: /abs/path`, `Modified: a,b` (apply_patch),
    `Modified: <path> (via bash)` and `Modified: a,b (via bash)`. A whole value that is an
    existing file wins over a comma split (a file name may contain a comma). Relative paths are
    resolved against the row's cwd; without an absolute cwd they cannot be placed and are
    dropped.
    """
    if not isinstance(summary, str) or not summary.startswith("Modified:"):
        return []
    body = summary[len("Modified:"):].strip()
    if body.endswith(_VIA_BASH.strip()):
        body = body[: -len(_VIA_BASH.strip())].strip()
    if not body:
        return []
    whole = _absolute(body, cwd)
    if whole and "," in body and os.path.isfile(whole):
        return [whole]
    parts = body.split(",") if "," in body else [body]
    out = []
    for part in parts:
        path = _absolute(part.strip().strip("'\"`"), cwd)
        if path:
            out.append(path)
    return out


def _absolute(value: str, cwd: str) -> str | None:
    if not value or "\0" in value:
        return None
    if os.path.isabs(value):
        return os.path.normpath(value)
    if cwd and os.path.isabs(cwd):
        return os.path.normpath(os.path.join(cwd, value))
    return None


def event_files(etype: str, summary: str, cwd: str = "") -> list[str]:
    """Files an edit or commit row touched, as absolute paths."""
    if etype == "tool_file_edit":
        return edit_paths(summary, cwd)
    if etype == "git_commit":
        match = COMMIT_RE.search(summary or "")
        if not match or not match.group(3):
            return []
        return [p for p in (_absolute(f.strip(), cwd) for f in match.group(3).split(",") if f.strip()) if p]
    return []


_key_cache: dict[str, str] = {}


def contention_key(path: str) -> str:
    """The main-checkout path a file path stands for (worktrees collapsed)."""
    cached = _key_cache.get(path)
    if cached is not None:
        return cached
    key = path
    try:
        if os.path.exists(path):
            key = os.path.realpath(path)
        collapsed = _CLAUDE_WORKTREE.sub("", key, count=1)
        if collapsed == key:
            collapsed = main_checkout_path(key)
        key = collapsed
    except (OSError, ValueError):
        pass
    _key_cache[path] = key
    return key


def tail_lines(path: str, needle: bytes | None, cutoff: datetime) -> list[bytes]:
    """Lines of the file's tail (containing `needle`, when given), reading enough to reach
    `cutoff`: a read whose oldest row is still inside the window grows (x4, up to 64 MB)."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return []
    want = TAIL_START
    try:
        handle = open_regular(path)  # a FIFO in a log's place would hold the hook in open()
    except OSError:
        return []
    with handle:
        while True:
            start = max(0, size - want)
            handle.seek(start)
            data = handle.read(size - start)
            if start > 0:
                data = data[data.find(b"\n") + 1:]  # a mid-file read split the first record
            if start == 0 or want >= TAIL_MAX or _oldest_before(data, cutoff):
                break
            want *= 4
    if needle is None:
        return [line for line in data.split(b"\n") if line.strip()]
    return [line for line in data.split(b"\n") if needle in line]


def _oldest_before(data: bytes, cutoff: datetime) -> bool:
    """True when the first complete row of `data` is older than `cutoff` (the read reaches
    back far enough). A first row without a readable time counts as far enough."""
    end = data.find(b"\n")
    try:
        row = json.loads(data[: end if end >= 0 else len(data)])
    except ValueError:
        return True
    moment = parse_timestamp(row.get("timestamp")) if isinstance(row, dict) else None
    return moment is None or moment < cutoff


#: How many levels of sub-agent threads `work_of` climbs (a cycle in bad rows ends there too).
THREAD_DEPTH = 8
PARENT_NEEDLE = b'"parent_session":"'


def thread_parents(rows) -> dict[str, str]:
    """sub-agent thread -> the session that spawned it, from turn rows (their `session` and
    `parent_session`); rows of other shapes are passed over."""
    out: dict[str, str] = {}
    for row in rows:
        child, parent = row.get("session"), row.get("parent_session")
        if isinstance(child, str) and isinstance(parent, str) and child and parent and child != parent:
            out[child] = parent
    return out


def work_of(session: str, parents: dict[str, str]) -> str:
    """The session whose piece of work `session` is: the one that spawned it, through every
    level of sub-agent thread in `parents` (`thread_parents`); `session` itself when none did."""
    seen = {session}
    for _ in range(THREAD_DEPTH):
        parent = parents.get(session)
        if not parent or parent in seen:
            break
        seen.add(parent)
        session = parent
    return session


def recent_thread_parents(home, cutoff: datetime) -> dict[str, str]:
    """`thread_parents` of the turn rows in the turns log's tail, read back to `cutoff`."""
    from carto_core.logio.jsonl import loads_line

    rows = (loads_line(line)[0] for line in tail_lines(str(home.log("turns")), PARENT_NEEDLE, cutoff))
    return thread_parents(row for row in rows if isinstance(row, dict))


def peer_touches(home, session_id: str, file_path: str, *, now: datetime | None = None,
                 window_minutes: int = WINDOW_MINUTES) -> list[dict]:
    """Rows of other sessions that touched the same file within the window, newest first:
    `{session_id, provider, timestamp, path, event_id, type}`; the session's own piece of
    work (`work_of`: its sub-agent threads, its parent) is no other session."""
    now = now or datetime.now(timezone.utc)
    cutoff = now - timedelta(minutes=window_minutes)
    target = contention_key(os.path.abspath(file_path))
    needle = os.path.basename(target).encode("utf-8")
    if not needle:
        return []
    found = []
    for line in tail_lines(str(home.log("changelog")), needle, cutoff):
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if not isinstance(row, dict):
            continue
        peer = row.get("session_id") or row.get("session")
        if not _resolved(peer) or peer == session_id:
            continue
        moment = parse_timestamp(row.get("timestamp"))
        if moment is None or moment < cutoff or moment > now + timedelta(minutes=5):
            continue
        cwd = row.get("cwd") if isinstance(row.get("cwd"), str) else ""
        for path in event_files(str(row.get("type") or ""), str(row.get("summary") or ""), cwd):
            if contention_key(path) == target:
                found.append({"session_id": peer, "provider": row.get("provider") or "",
                              "timestamp": moment, "path": path, "event_id": row.get("event_id"),
                              "type": row.get("type")})
                break
    if found:  # the session's own sub-agents (or parent) are no peers
        parents = recent_thread_parents(home, cutoff)
        mine = work_of(session_id, parents)
        found = [item for item in found if work_of(item["session_id"], parents) != mine]
    found.sort(key=lambda item: item["timestamp"], reverse=True)
    return found


def collision_note(home, session_id: str, file_path: str, now: datetime | None = None,
                   window_minutes: int = WINDOW_MINUTES, touches: list[dict] | None = None) -> str | None:
    """One line for the agent when a peer session touched `file_path` lately, else None.
    `touches`: `peer_touches` at `now` when the caller holds them (the MCP collision tool
    answers both), else the logs' tails are read for them."""
    try:
        if not file_path:
            return None
        now = now or datetime.now(timezone.utc)
        if touches is None:
            touches = peer_touches(home, session_id, file_path, now=now, window_minutes=window_minutes)
        if not touches:
            return None
        newest = touches[0]
        peers = []
        for touch in touches:
            if touch["session_id"] not in peers:
                peers.append(touch["session_id"])
        who = f"session {newest['session_id'][:8]}" + (f" ({newest['provider']})" if newest["provider"] else "")
        from carto_core.util.terminal import counted, duration  # a collision is rare: not on every call
        more = f" and {counted(len(peers) - 1, 'other session')}" if len(peers) > 1 else ""
        where = ""
        if contention_key(newest["path"]) != newest["path"]:
            where = " in another checkout"
        verb = "committed" if newest["type"] == "git_commit" else "edited"

        return (
            f"carto: heads-up - {who}{more} {verb} {os.path.basename(file_path)}{where} "
            f"{duration((now - newest['timestamp']).total_seconds() * 1000)} ago "
            f"({newest['event_id']}); "
            f"check `carto standup` before overwriting their work."
        )
    except Exception:  # a hook helper must never fail the edit
        return None
