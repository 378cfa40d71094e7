"""`carto wrapup`: the `session_wrapup` milestone, built from the session's events.

No language model is needed: the description, decisions, unresolved threads and key insight are
derived from what the session logged (commits are decisions that landed; files edited after the
session's last commit, and edits never committed, are unresolved; the most-touched file is where
the work concentrated). Each can be overridden by the caller (`--description`, `--decision`,
`--unresolved`, `--insight`), which is how an agent adds its own judgement; an entry that states
nothing ("none", "n/a") is left out. Each statement becomes a record of the decision ledger
(`carto_core.model.decisions`); `lenses.decisions.proposals` names the earlier decisions a new
one says it reverses. The row is written in
upstream's shape (reference 1.8) to session-milestones.jsonl with a changelog copy, once: its
event_id is stable for (session, last event), so a repeated wrapup reports `already_present`.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from datetime import datetime, timezone

from carto_core.logio.appendlog import append_rows
from carto_core.privacy.redact import redacted
from carto_core.capture.collision import contention_key, event_files
from carto_core.lenses.digest import DigestError, _session_events, session_digest
from carto_core.lenses.turnwork import is_own_row
from carto_core.logio.logs import order_row
from carto_core.logio.reader import iter_lines
from carto_core.util.terminal import counted, duration
from carto_core.util.timeparse import format_timestamp


def build_wrapup(home, session_id: str, *, description: str | None = None,
                 decisions: list[str] | None = None, unresolved: list[str] | None = None,
                 key_insight: str | None = None, now: datetime | None = None) -> dict:
    """The milestone row (not written)."""
    now = now or datetime.now(timezone.utc)
    digest = session_digest(home, session_id)
    if not digest["event_count"]:
        raise DigestError(f"session {session_id} has no events in {home.root}")
    # A wrapup's own rows (and decision updates) are not work: leaving them out keeps the id
    # stable, so a second wrapup of an unchanged session is recognised as already present (the
    # digest's count leaves them out already: the row it shows is the one the log holds).
    events = [e for e in _session_events(home, session_id) if not is_own_row(e)]
    count = digest["event_count"]
    if not events:  # it only changed a decision: nothing it did to state
        raise DigestError(f"session {session_id} has no events of its own work in {home.root} "
                          "(only carto's rows: wrapups, decision updates): nothing to wrap up")
    edited = Counter(path for e in events if e.type == "tool_file_edit"
                     for path in event_files(e.type, e.summary, e.cwd))
    pending = [path for path, _ in uncommitted_edits(events)]
    theirs = _others_commits(events)
    auto_decisions = [f"{c['subject']} ({c['sha'][:7]})" for c in digest["commits"][::-1]
                      if c["sha"].lower() not in theirs]
    auto_unresolved = [f"uncommitted edits: {os.path.basename(p)}" for p in pending[:5]]
    projects = ", ".join(digest["projects"]) or "no project"
    auto_description = (
        # a span in the words standup and sessions use ("1h40m", not "100 minutes")
        f"{counted(count, 'event')} on {projects} over {duration(digest['duration_minutes'] * 60000)}: "
        f"{counted(digest['counts']['commits'], 'commit')}, {counted(digest['counts']['edits'], 'edit')}"
        + (f", {counted(len(pending), 'file')} left uncommitted" if pending else "")
    )
    insight = key_insight
    if insight is None and edited:
        path, touches = edited.most_common(1)[0]
        insight = f"work concentrated in {os.path.basename(path)} ({counted(touches, 'edit')})"
    last = events[-1]
    event_id = "evt-" + hashlib.sha256(f"wrapup|{session_id}|{last.event_id}".encode()).hexdigest()[:12]
    return order_row("milestones", {
        "event_id": event_id,
        "timestamp": format_timestamp(now),
        "milestone": "session_wrapup",
        "provider": digest["provider"] or "unknown",
        "description": (description or auto_description).replace("\n", " "),
        "session_id": session_id,
        "transcript_path": last.transcript_path,
        "deeplink": "",
        "project": digest["projects"][0] if digest["projects"] else "",
        "cwd": last.cwd,
        "event": "Wrapup",
        "git_branch": "",
        "salience": 0.9,
        "digest": {"duration_minutes": digest["duration_minutes"], "event_count": count}
                  | {k: digest[k] for k in ("projects", "commit_types", "commit_shapes")}
                  | {"files_touched": len(edited), "recall": None},
        "decisions": _stated(decisions) if decisions is not None else auto_decisions,
        "unresolved": _stated(unresolved) if unresolved is not None else auto_unresolved,
        "key_insight": " ".join((insight or "").split()),
        "cites": _cites(events, last.cwd, edited),
    })


def _cites(events, cwd: str, edited) -> dict:
    """The session's commits (sha -> files) and edited files, relative to the repository of
    `cwd`, for the staleness check (`carto_core.model.staleness`)."""
    from carto_core.lenses.sessionfacts import commit_record
    from carto_core.model.staleness import wrapup_cites

    commits: dict[str, list[str]] = {}
    for e in events:
        if e.type == "git_commit":
            sha = (commit_record(e) or {}).get("sha") or ""
            if sha:
                commits[sha] = event_files(e.type, e.summary, e.cwd) or _files_from_git(e)
    return wrapup_cites(cwd, commits, [path for path, _ in edited.most_common()])


def _others_commits(events) -> set[str]:
    """The shas (lower case) of the session's commits that git says another author wrote: one
    the agent merged or cherry-picked is not a decision of the owner's. An owner is who `carto
    ingest git` counts as one (`digest.owners`: $CARTO_PROFILE_AUTHORS, else the repository's
    user.name, and the agent author); a commit git cannot tell about stays the session's."""
    from carto_core.lenses.digest import DigestError, _git, _is_owner, owners
    from carto_core.lenses.sessionfacts import commit_record
    from carto_core.model.project import find_git

    found: set[str] = set()
    names_of: dict[str, list[str] | None] = {}
    for event in events:
        if event.type != "git_commit" or not event.cwd or not os.path.isdir(event.cwd):
            continue
        sha = ((commit_record(event) or {}).get("sha") or "").lower()
        info = find_git(event.cwd)
        if not sha or info is None:
            continue
        repo = str(info.worktree)
        if repo not in names_of:
            try:
                names_of[repo] = owners(repo)[0]
            except DigestError:
                names_of[repo] = None  # an owner variable naming nobody: no one to compare with
        names = names_of[repo]
        code, out = _git(repo, "log", "-1", "--format=%an%x00%ae", sha)
        parts = out.strip().split("\x00")
        if names and code == 0 and len(parts) == 2 and not _is_owner(parts[0], parts[1], names):
            found.add(sha)
    return found


def uncommitted_edits(events) -> list[tuple[str, object]]:
    """(path, its last edit event) of the files a session's work (`events`, oldest first)
    edited and did not commit, or edited after its last commit: a wrapup's unresolved threads.
    A commit whose files no row names (one a transcript recorded: the client names the sha, not
    the files) asks git; when git cannot tell, the edits made up to it count as in it."""
    last_commit_at = max((e.timestamp for e in events if e.type == "git_commit" and e.timestamp), default=None)
    committed: set[str] = set()
    unknown_until = None
    for e in events:
        if e.type == "git_commit":
            files = event_files(e.type, e.summary, e.cwd) or _files_from_git(e)
            committed.update(contention_key(p) for p in files)
            if not files and e.timestamp and (unknown_until is None or e.timestamp > unknown_until):
                unknown_until = e.timestamp
    pending: dict[str, object] = {}
    for e in events:
        if e.type != "tool_file_edit":
            continue
        for path in event_files(e.type, e.summary, e.cwd):
            late = last_commit_at is None or (e.timestamp and e.timestamp > last_commit_at)
            covered = contention_key(path) in committed or (
                unknown_until is not None and e.timestamp is not None and e.timestamp <= unknown_until)
            if not covered or late:
                pending[path] = e  # the newest edit of the path: where the thread was left
    return list(pending.items())


def _stated(values: list[str]) -> list[str]:
    """What the caller stated, without the entries that state nothing ("none", "n/a")."""
    from carto_core.model.decisions import is_empty

    # one line each: a statement is a list item in MEMORY.md and a line of every text view
    return [" ".join(v.split()) for v in values if not is_empty(v)]


def _files_from_git(event) -> list[str]:
    """The files of a logged commit as git knows them (absolute), [] without the repository."""
    sha = event.row.get("commit_hash") if isinstance(event.row, dict) else None
    if not isinstance(sha, str) or not sha or not event.cwd or not os.path.isdir(event.cwd):
        return []
    from carto_core.capture.gitstate import commit_details
    from carto_core.model.project import find_git

    info = find_git(event.cwd)
    if info is None:
        return []
    return [os.path.join(str(info.worktree), path) for path in commit_details(info.worktree, sha).files]


def recorded(home, event_id: str) -> bool:
    """A wrapup of this id is in the milestones log already."""
    return any(line.row.get("event_id") == event_id for line in iter_lines(home.log("milestones")))


def write_wrapup(home, row: dict) -> dict:
    """Append the row (and its changelog copy) unless its id is already logged; a receipt."""
    if recorded(home, row["event_id"]):
        return {"log_outcome": "already_present", "event_id": row["event_id"]}
    row = redacted([row])[0]  # decisions and insights are typed by people and agents
    append_rows(home.log("milestones"), [row])
    append_rows(home.log("changelog"), [order_row("changelog-milestone", {
        "event_id": row["event_id"], "timestamp": row["timestamp"], "type": "milestone_session_wrapup",
        "provider": row["provider"], "session_id": row["session_id"], "project": row["project"],
        "cwd": row["cwd"], "deeplink": row["deeplink"],
        "summary": f"{row['description']} [{counted(row['digest']['event_count'], 'event')}]",
        "transcript_path": row["transcript_path"], "transcript_verified": False, "related_ids": [],
        "salience": row["salience"]})])
    return {"log_outcome": "written", "event_id": row["event_id"], "index": {"outcome": "not_indexed",
            "stage": "log", "point_id": None}}
