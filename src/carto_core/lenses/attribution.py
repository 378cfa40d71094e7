"""Commit attribution for the lenses: which session made a commit, from the logs.

Given a commit hash (any prefix of 4+ hex digits) or a fragment of its subject, find the commit
rows in the changelog and the tool-use log and say who made it:

- `recorded`: a live hook logged it (`git_commit` row with a session): the session, provider,
  project and transcript (resolved through `carto_core.transcript.resolver`, so an archived Codex
  rollout is still found);
- `backfilled`: only `carto ingest git` knows it (`git-<sha7>` rows carry no session): "not
  recorded, backfilled from git";
- `unattributed`: a commit row without a usable session (an old or hand-written row).

Row shapes read (reference/cartographer.md 1.5, 6.5): hook summaries
`[<type>] Commit <sha>: <subject> | files: ...`, backfill summaries
`Commit <sha7>: <subject> | files: ...` with `commit_hash` and `author`.
`carto standup --commit` and the explorer call `attribute_commit`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from carto_core.model.events import Event, is_resolved
from carto_core.logio.home import Home, current_home
from carto_core.logio.reader import iter_lines, open_log, unreadable

COMMIT_LOGS = ("changelog", "tool-use")
_SUMMARY = re.compile(r"^(?:\[[^\]]*\]\s*)?Commit ([0-9a-fA-F]{7,64}): (.*?)(?: \| files: .*)?$")
_HEX = re.compile(r"^[0-9a-fA-F]{4,64}$")

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

RECORDED = "recorded"
BACKFILLED = "backfilled"
UNATTRIBUTED = "unattributed"

DESCRIPTIONS = {
    BACKFILLED: "not recorded, backfilled from git",
    UNATTRIBUTED: "logged without a session",
}


@dataclass
class CommitAttribution:
    """Everything the logs say about one commit."""

    commit: str  # the full hash when any row has it, else the short one
    subject: str
    status: str  # recorded | backfilled | unattributed
    session_id: str = ""
    provider: str = ""
    project: str = ""
    timestamp: str = ""
    author: str = ""
    transcript_path: str = ""
    #: Where the transcript is now (None when it is gone) and which resolver step found it.
    transcript: dict | None = None
    #: Every session that logged this commit (normally one), earliest first.
    sessions: list[str] = field(default_factory=list)
    event_ids: list[str] = field(default_factory=list)
    #: Files the commit row lists (`| files: a,b`), as logged.
    files: list[str] = field(default_factory=list)
    #: Distinct commits the same session logged (0 when the session is unknown).
    session_commits: int = 0

    @property
    def description(self) -> str:
        if self.status == RECORDED:
            who = f"{self.provider} session {self.session_id}" if self.provider else f"session {self.session_id}"
            return f"made in {who}"
        return DESCRIPTIONS[self.status]

    def as_dict(self) -> dict:
        return {
            "commit": self.commit, "subject": self.subject, "status": self.status,
            "description": self.description, "session_id": self.session_id or None,
            "provider": self.provider or None, "project": self.project or None,
            "timestamp": self.timestamp or None, "author": self.author or None,
            "transcript_path": self.transcript_path or None, "transcript": self.transcript,
            "sessions": self.sessions, "event_ids": self.event_ids, "files": self.files,
            "session_commits": self.session_commits,
            # The keys `carto standup --commit` renders (sha, attribution, event_id, age_ms).
            "sha": self.commit,
            "attribution": RECORDED if self.status == RECORDED else self.description,
            "event_id": self.event_ids[0] if self.event_ids else None,
            "age_ms": self.age_ms(),
        }

    def age_ms(self, now: datetime | None = None) -> int | None:
        from carto_core.util.timeparse import parse_timestamp

        moment = parse_timestamp(self.timestamp)
        if moment is None:
            return None
        return int(((now or datetime.now(timezone.utc)) - moment).total_seconds() * 1000)


@dataclass
class _CommitRow:
    event: Event
    sha: str
    subject: str
    files: list[str] = field(default_factory=list)


def commit_rows(events: Iterable[Event]) -> Iterable[_CommitRow]:
    """The events that are commits, with their hash and subject parsed."""
    for event in events:
        if event.type != "git_commit" and not event.event_id.startswith("git-"):
            continue
        match = _SUMMARY.match(event.summary or "")
        sha = event.row.get("commit_hash")
        sha = sha if isinstance(sha, str) and sha else (match.group(1) if match else "")
        if not sha:
            continue
        _, _, listed = (event.summary or "").partition(" | files: ")
        files = [f.strip() for f in listed.split(",") if f.strip() and f.strip() != "…"]
        yield _CommitRow(event, sha.lower(), match.group(2) if match else "", files)


def _log_events(home: Home) -> Iterable[Event]:
    for label in COMMIT_LOGS:
        if unreadable(home.log(label)):
            continue  # left out as an absent log: the commits of the rest are attributed
        for line in iter_lines(home.log(label)):
            yield Event.from_row(line.row, label, fallback_id=f"{label}-{line.lineno}")
    yield from turn_commits(home)


def turn_commits(home: Home) -> Iterable[Event]:
    """The commits transcript turns record (`carto ingest` of a session no hook saw), as the
    `git_commit` events a lens derives from them (`capture.turnactivity.derived_events`). A
    commit a hook logged too is the same commit (one group: their hashes share a prefix)."""
    from carto_core.capture.turnactivity import derived_events
    from carto_core.logio.jsonl import lines_containing, loads_line

    try:
        with open_log(home.log("turns")) as handle:  # a FIFO: refused, not waited on
            data = handle.read()
    except OSError:
        return
    newest: dict[str, Event] = {}
    for raw in lines_containing(data[: data.rfind(b"\n") + 1], b'"commit"'):
        row, problem = loads_line(raw)
        if problem != "malformed_json" and isinstance(row, dict):
            turn = Event.from_row(row, "turns")
            newest[turn.event_id] = turn  # a turn rewritten as it grew: its newest row
    for turn in newest.values():
        yield from (e for e in derived_events(turn) if e.type == "git_commit")


def _same_commit(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return long.startswith(short)


def attribute_commit(
    query: str,
    *,
    home: Home | None = None,
    events: Iterable[Event] | None = None,
    roots=None,
) -> list[CommitAttribution]:
    """Commits matching `query` (a hash prefix, else a subject fragment), newest first.

    `events` lets a caller that already loaded a corpus pass its events (any order); otherwise
    the changelog and tool-use logs of `home` (default: the current home) are read. `roots` is
    passed to the transcript resolver. An empty list means the logs know no such commit.
    """
    query = query.strip()
    if not query:
        return []
    rows = list(commit_rows(events if events is not None else _log_events(home or current_home())))
    matched: list[_CommitRow] = []
    if _HEX.match(query):
        matched = [r for r in rows if _same_commit(r.sha, query.lower())]
    if not matched:
        needle = query.lower()
        matched = [r for r in rows if needle in r.subject.lower()]
    # One group per commit: rows whose hashes are prefixes of each other are the same commit.
    groups: list[list[_CommitRow]] = []
    for row in sorted(matched, key=lambda r: -len(r.sha)):
        for group in groups:
            if _same_commit(group[0].sha, row.sha):
                group.append(row)
                break
        else:
            groups.append([row])
    from carto_core.util.timeparse import parse_timestamp

    found = [_attribute(group, roots) for group in groups]
    if any(a.status == RECORDED for a in found):
        per_session: dict[str, set[str]] = {}
        for row in rows:
            if is_resolved(row.event.session_id):
                per_session.setdefault(row.event.session_id, set()).add(row.sha[:7])
        for a in found:
            a.session_commits = len(per_session.get(a.session_id, ())) if a.session_id else 0
    # Newest first, as instants (offsets differ between hook and backfill rows).
    return sorted(found, key=lambda a: parse_timestamp(a.timestamp) or _EPOCH, reverse=True)


def _files(group: list[_CommitRow]) -> list[str]:
    """The commit's files: absolute (as the lenses compare them) when a row names its cwd,
    else as listed (backfilled rows have no cwd)."""
    from carto_core.capture.collision import event_files

    for row in group:
        if row.files and row.event.cwd:
            absolute = event_files("git_commit", row.event.summary, row.event.cwd)
            if absolute:
                return absolute
    return next((r.files for r in group if r.files), [])


def _attribute(group: list[_CommitRow], roots) -> CommitAttribution:
    group.sort(key=lambda r: (r.event.timestamp is None, r.event.timestamp or 0))
    full = max((r.sha for r in group), key=len)
    subject = next((r.subject for r in group if r.subject), "")
    with_session = [r for r in group if is_resolved(r.event.session_id)]
    sessions: list[str] = []
    for r in with_session:
        if r.event.session_id not in sessions:
            sessions.append(r.event.session_id)
    first = (with_session or group)[0].event
    if with_session:
        status = RECORDED
    elif any(r.event.event_id.startswith("git-") for r in group):
        status = BACKFILLED
    else:
        status = UNATTRIBUTED
    author = next((r.event.row.get("author") for r in group if isinstance(r.event.row.get("author"), str)), "")
    attribution = CommitAttribution(
        commit=full, subject=subject, status=status,
        session_id=first.session_id if with_session else "",
        provider=first.provider if is_resolved(first.provider) else "",
        project=next((r.event.project for r in group if is_resolved(r.event.project)), ""),
        timestamp=str(first.row.get("timestamp") or ""),
        author=author,
        transcript_path=first.transcript_path if with_session else "",
        sessions=sessions,
        event_ids=[r.event.event_id for r in group],
        files=_files(group),
    )
    if with_session and (attribution.transcript_path or attribution.session_id):
        from carto_core.transcript.resolver import resolve_transcript

        attribution.transcript = resolve_transcript(
            attribution.transcript_path or None, attribution.session_id,
            provider=attribution.provider or None, roots=roots).as_dict()
    return attribution


def attribute(home: Home | None, query: str, *, roots=None) -> dict | None:
    """The one best match for `carto standup --commit` as a dict, None when none: a commit
    whose session is recorded wins over a backfilled one, then the newest."""
    found = attribute_commit(query, home=home, roots=roots)
    if not found:
        return None
    best = sorted(found, key=lambda a: a.status != RECORDED)[0]  # stable: newest stays first
    return best.as_dict()
