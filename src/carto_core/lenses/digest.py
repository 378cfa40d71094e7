"""Session and day digests (reference 5.3): what one session did, what one day held.

`session_digest(home, session_id)` folds the changelog rows of one session (the changelog is
the union of every hook's rows). `day_digest(home, day)` folds every event of one local day,
deduplicated by event_id, grouped by project, and checks each logged commit against git:
`landed` (reachable from a ref), `moved` (no ref reaches the sha, but a commit with the same
author time and subject landed that day: `landed_as`; an amend or a rebase), `rewritten` (the sha exists, no ref
reaches it and nothing replaced it), `missing` (git does not know it and nothing replaced it), `unverified` (no repository found, or `no_git`), plus `git_only`
commits of the day that no session logged. Schema `carto.day-digest/1`. Both return JSON
documents; the `carto digest` commands render them. Read-only.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from datetime import datetime, timedelta, timezone
from urllib.parse import urlparse

from carto_core.capture.collision import event_files
from carto_core.model.events import Event, is_resolved
from carto_core.facts.store import facts_columns
from carto_core.logio.jsonl import lines_containing, loads_line
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.lenses.sessionfacts import commit_record as _commit
from carto_core.model.project import find_git
from carto_core.util.timeparse import format_timestamp

SCHEMA = "carto.day-digest/1"
OUTSIDE = "outside any repo"


class DigestError(ValueError):
    """A digest that cannot be built (no changelog: `usage` False, exit 1; no session id, a bad
    day, regex or owner list: `usage` True, exit 2)."""

    def __init__(self, message: str, *, usage: bool = False):
        super().__init__(message)
        self.usage = usage



def _edited_files(events) -> tuple[Counter, int]:
    """Files the edits among `events` touched (times each), and edits naming no file."""
    touched: Counter = Counter()
    unresolved = 0
    for event in events:
        if event.type == "tool_file_edit":
            paths = event_files(event.type, event.summary, event.cwd)
            unresolved += not paths
            touched.update(paths)
    return touched, unresolved

def _session_events(home, session_id: str) -> list[Event]:
    """The session's evidence of work (`lenses.sessionfacts`: its hook rows, or its turns and
    what their tool calls stand for), oldest first."""
    return _facts(home, session_id).work


def _facts(home, session_id: str):
    from carto_core.lenses.sessionfacts import facts_for

    if not any(home.log(label).exists() for label in SEARCHED_LOGS):
        raise DigestError(f"no logs in {home.root}")
    return facts_for(home, session_id)


def _session_rows(path, session_id: str):
    """Rows of a telemetry file whose session_id is this session (lines that do not contain
    the id's bytes are never parsed; a last line still being written is left alone)."""
    from carto_core.util.safeio import read_bytes

    try:  # a FIFO or folder in its place is no telemetry, never waited on
        data = read_bytes(path)
    except OSError:
        return
    data = data[:data.rfind(b"\n") + 1]
    for raw in lines_containing(data, session_id.encode()):
        row, problem = loads_line(raw)
        if problem != "malformed_json" and isinstance(row, dict) and row.get("session_id") == session_id:
            yield row


def recall(home, session_id: str) -> dict:
    """What search gave this session and what it used (reference 5.3 "calls -> served ->
    marked used %"), read-only from the search telemetry: `.carto/search-calls.jsonl` (one row
    per call), `served-log.jsonl` (one row per result shown) and `access-ledger.jsonl`.

    `used` counts served ids the session marked used (`result_used`, and legacy rows without a
    source); `result_fetched` (`--get`) is a lookup, not an endorsement, and is reported apart.
    `used_pct` is used / distinct ids served; `calls_with_use` counts calls that served at least
    one id later marked used (upstream's "exact recall success")."""
    from carto_core.search.telemetry import (
        ENDORSING_SOURCES_EXCLUDED,
        access_ledger_path,
        search_calls_path,
        served_log_path,
    )

    paths = {"search_calls": search_calls_path(home), "served": served_log_path(home),
             "access": access_ledger_path(home)}
    calls: set[str] = set()
    for row in _session_rows(paths["search_calls"], session_id):
        calls.add(str(row.get("call_id") or f"call@{row.get('timestamp')}"))
    served_rows = 0
    served_by_call: dict[str, set[str]] = {}
    for row in _session_rows(paths["served"], session_id):
        event_id = row.get("event_id")
        if not isinstance(event_id, str):
            continue
        served_rows += 1
        call = str(row.get("call_id") or "")
        if call:
            calls.add(call)
        served_by_call.setdefault(call, set()).add(event_id)
    served_ids = set().union(*served_by_call.values()) if served_by_call else set()
    used: set[str] = set()
    fetched: set[str] = set()
    for row in _session_rows(paths["access"], session_id):
        event_id = row.get("event_id")
        if not isinstance(event_id, str):
            continue
        (fetched if row.get("source") in ENDORSING_SOURCES_EXCLUDED else used).add(event_id)
    used_served = used & served_ids
    return {
        "calls": len(calls),
        "served": served_rows,
        "served_unique": len(served_ids),
        "used": len(used_served),
        "used_pct": round(100 * len(used_served) / len(served_ids), 1) if served_ids else None,
        "used_not_served": len(used - served_ids),
        "fetched": len(fetched),
        "calls_with_use": sum(1 for ids in served_by_call.values() if ids & used),
        "telemetry": {name: str(path) for name, path in paths.items() if path.exists()},
    }


SPARK = "▁▂▃▄▅▆▇█"
#: Bins of the session's tempo line (upstream's panel: one sparkline across the span).
TEMPO_BINS = 24
#: Repositories described under `leaving` (upstream: at most four).
LEAVING_MAX = 4


def tempo_line(stamps: list[datetime], bins: int = TEMPO_BINS) -> dict:
    """Events per equal slice of the session's span, and the sparkline of those counts (an
    empty slice is a space, so a pause shows as a gap)."""
    if not stamps:
        return {"bins": [], "bin_minutes": 0, "sparkline": ""}
    start, end = min(stamps), max(stamps)
    span = (end - start).total_seconds()
    count = bins if span > 0 else 1
    width = span / count if span > 0 else 1.0
    counts = [0] * count
    for stamp in stamps:
        counts[min(count - 1, int((stamp - start).total_seconds() / width))] += 1
    top = max(counts)
    line = "".join(" " if n == 0 else SPARK[min(len(SPARK) - 1, (n * len(SPARK) - 1) // top)] for n in counts)
    return {"bins": counts, "bin_minutes": round(width / 60, 2), "sparkline": line}


def repo_state(repo: str) -> dict:
    """What a session leaves in a repository: branch, dirty files (tracked changes and untracked
    files, `git status --porcelain`), commits not pushed to the branch's upstream (`@{u}..HEAD`;
    null without an upstream)."""
    code, branch = _git(repo, "rev-parse", "--abbrev-ref", "HEAD")
    _, status = _git(repo, "status", "--porcelain")
    up_code, upstream = _git(repo, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}")
    unpushed = None
    if up_code == 0 and upstream.strip():
        ahead_code, ahead = _git(repo, "rev-list", "--count", "@{u}..HEAD")
        unpushed = int(ahead.strip()) if ahead_code == 0 and ahead.strip().isdigit() else None
    return {"repo": repo, "branch": branch.strip() if code == 0 else None,
            "dirty": sum(1 for line in status.splitlines() if line.strip()),
            "upstream": upstream.strip() if up_code == 0 and upstream.strip() else None,
            "unpushed": unpushed}


def _fetched_url(event: Event) -> str:
    url = event.row.get("url") if isinstance(event.row, dict) else None
    if isinstance(url, str) and "://" in url:
        return url
    text = event.summary or ""
    return text.split(": ", 1)[-1] if "://" in text else ""


def session_digest(home, session_id: str, *, commits: int = 6, files: int = 5,
                   no_git: bool = False) -> dict:
    if not is_resolved(session_id):
        raise DigestError("no session id: pass --session or run inside an agent session", usage=True)
    from carto_core.lenses.lineage import lineage

    facts = _facts(home, session_id)
    events = facts.work
    commit_rows = facts.commits
    # the research log's row (the one the fold keeps) holds the address in `url`, its summary
    # the question asked of the page; the changelog copy's summary names the address
    hosts = Counter(urlparse(_fetched_url(e)).hostname for e in events if e.type == "research_fetch")
    hosts.pop(None, None)
    repos = sorted({str(info.main_worktree) for info in
                    (find_git(e.cwd) for e in events if e.cwd and os.path.isdir(e.cwd)) if info})
    return {
        "session_id": session_id,
        "provider": facts.provider or None,
        "event_count": facts.events,
        # Where the activity below comes from: the hook rows, or (none logged) the session's
        # transcript turns and the calls they record.
        "evidence": facts.evidence,
        "turns": facts.turns,
        "started_at": format_timestamp(facts.started) if facts.started else None,
        "ended_at": format_timestamp(facts.ended) if facts.ended else None,
        "duration_minutes": facts.minutes,
        "projects": facts.projects,
        "counts": {
            "edits": facts.counts["edits"], "bash": facts.counts["bash"],
            "searches": facts.counts["searches"], "fetches": facts.counts["fetches"],
            "compactions": facts.counts["compactions"], "subagents": facts.counts["subagents"],
            "pushes": facts.counts["pushes"], "commits": len(commit_rows),
        },
        "commits": commit_rows[-commits:][::-1],
        "commit_types": dict(Counter(c["type"] for c in commit_rows).most_common()),
        "commit_shapes": dict(Counter(c["quadrant"] for c in commit_rows if c["quadrant"]).most_common()),
        "files": [{"path": p, "touches": n} for p, n in facts.files.most_common(files)],
        "files_unresolved": facts.files_unresolved,
        "research_hosts": [h for h, _ in hosts.most_common(10)],
        "searches": facts.counts["searches"],
        "compactions": facts.counts["compactions"],
        "subagents": facts.counts["subagents"],
        "recall": recall(home, session_id),
        "repos": repos,
        "tempo": tempo_line([e.timestamp for e in facts.counted_rows if e.timestamp is not None]),
        # the sessions this one continues or that continue it: one piece of work
        "lineage": lineage(home).describe(session_id),
        # each repository's state as the session leaves it (git asked now, not at the time)
        "leaving": [] if no_git else [repo_state(repo) for repo in repos[:LEAVING_MAX]],
    }


def _git(repo: str, *args: str) -> tuple[int, str]:
    try:
        done = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, timeout=15)
    except (OSError, subprocess.SubprocessError):
        return 1, ""
    return done.returncode, done.stdout


def _verify(commit: dict, repo: str | None, day_commits: dict[str, list[tuple[str, int, str]]],
            logged_at: datetime | None) -> dict:
    if repo is None or not commit["sha"]:
        return {"status": "unverified"}
    code, _ = _git(repo, "cat-file", "-e", f"{commit['sha']}^{{commit}}")
    if code == 0:
        _, refs = _git(repo, "for-each-ref", "--contains", commit["sha"], "--format=%(refname)")
        if refs.strip():
            return {"status": "landed"}
    # Unreachable or unknown: an amend or rebase that landed under another sha is "moved".
    # Upstream's rule (reference 5.3): same author time AND subject, since a subject alone
    # ("fix: typo") is often reused by an unrelated commit the same day. An amend or a rebase
    # keeps the author time. It is git's own when git still has the object; otherwise the
    # row's timestamp stands in, to the second (a backfilled row is stamped with git's %aI; a
    # hook row's later stamp will not match, and the commit stays "missing", not a guess).
    author_time = None
    if code == 0:
        _, text = _git(repo, "show", "-s", "--format=%at", commit["sha"])
        author_time = int(text.strip()) if text.strip().isdigit() else None
    elif logged_at is not None:
        author_time = int(logged_at.timestamp())
    if author_time is not None:
        for sha, landed_time, subject in day_commits.get(repo, []):
            if (landed_time == author_time and subject == commit["subject"]
                    and not sha.startswith(commit["sha"])):
                return {"status": "moved", "landed_as": sha}
    return {"status": "rewritten" if code == 0 else "missing"}


def day_bounds(day: str, now: datetime | None = None) -> tuple[datetime, datetime, str]:
    """Local-midnight bounds of `today`, `yesterday` or `YYYY-MM-DD` (DST-correct)."""
    local_now = (now or datetime.now(timezone.utc)).astimezone()
    if day in ("", "today"):
        date = local_now.date()
    elif day == "yesterday":
        date = (local_now - timedelta(days=1)).date()
    else:
        try:
            date = datetime.strptime(day, "%Y-%m-%d").date()
        except ValueError:
            raise DigestError(f"cannot read day {day!r}; use today, yesterday or YYYY-MM-DD",
                              usage=True) from None
    try:
        start = datetime(date.year, date.month, date.day).astimezone()
        end = (datetime(date.year, date.month, date.day) + timedelta(days=1)).astimezone()
    except (ValueError, OverflowError):
        # a day at the calendar's edge has no local midnight on both sides of it
        raise DigestError(f"cannot read day {day!r}: it lies at the edge of the calendar; give a day "
                          "between 0002-01-01 and 9998-12-31", usage=True) from None
    return start, end, date.isoformat()


#: The agent author whose commits count as the owner's (upstream adds "Claude").
AGENT_AUTHORS = ("Claude",)
OWNER_VARIABLES = ("CARTO_PROFILE_AUTHORS", "CARTOGRAPHER_PROFILE_AUTHORS")


def profile_authors(env=None) -> tuple[str, list[str]] | None:
    """(the variable, the names it gives) from `$CARTO_PROFILE_AUTHORS`, else upstream's
    `$CARTOGRAPHER_PROFILE_AUTHORS` (comma-separated, blanks dropped), or None when neither is
    set. `carto digest day` and `carto ingest git` both read the owners here, so one name
    works for both; a variable that is set but names nobody gives [] for the caller to refuse."""
    env = os.environ if env is None else env
    for variable in OWNER_VARIABLES:
        if variable in env:
            return variable, [name.strip() for name in env[variable].split(",") if name.strip()]
    return None


def owners(repo: str | None = None, env=None) -> tuple[list[str], str]:
    """(owner names, where they came from) for the git-only filter (reference 5.3/5.5):
    `profile_authors`, else git's `user.name`; either way plus the agent author "Claude". A
    variable that is set but names nobody fails closed (DigestError) instead of widening to
    every author."""
    found = profile_authors(env)
    if found is not None:
        variable, names = found
        if not names:
            raise DigestError(f"{variable} is set but names nobody; unset it or name an owner",
                              usage=True)
        return names + [a for a in AGENT_AUTHORS if a not in names], variable
    _, name = _git(repo, "config", "user.name") if repo else (1, "")
    name = name.strip()
    return ([name] if name else []) + list(AGENT_AUTHORS), "git user.name" if name else "agent authors only"


def _is_owner(author: str, email: str, names: list[str]) -> bool:
    """An owner name matches like git's --author: a case-insensitive search in `name <email>`
    (a name that is not a valid regex is matched literally)."""
    text = f"{author} <{email}>"
    for name in names:
        try:
            if re.search(name, text, re.IGNORECASE):
                return True
        except re.error:
            if name.lower() in text.lower():
                return True
    return False


def day_digest(home, day: str = "today", *, projects: list[str] | None = None, no_git: bool = False,
               deny_regex: str | None = None, now: datetime | None = None) -> dict:
    # No changelog is an outage of the hooks, unless the home holds turns or prompts (built by
    # backfill, or hooks not installed yet, or prompts typed while the agent ran no tool): then
    # the day is read from them, as every other session lens reads such a session.
    if not any(home.log(label).exists() for label in ("changelog", "turns", "prompts")):
        raise DigestError(f"no changelog, no turns and no prompts in {home.root}: an outage, "
                          "not a quiet day")
    deny = None
    if deny_regex:
        try:
            deny = re.compile(deny_regex)
        except re.error as exc:
            raise DigestError(f"cannot read --deny-regex {deny_regex!r}: {exc}", usage=True) from None
    now = now or datetime.now(timezone.utc)
    start, end, name = day_bounds(day, now)
    # The facts columns (persisted: no corpus load) give the day's positions; only the day's
    # events are read back, in the corpus's load order so that the digest is the same as over
    # a loaded corpus.
    cols = facts_columns(home)
    lo, hi = cols.half_open(start, end)
    events = [cols.event_at(p) for p in sorted(range(lo, hi), key=cols.lkey.__getitem__)]
    # carto's own rows (a wrapup, a decision) written this day about an older session are no
    # work of the day: counted, they make that session one of the day's
    from carto_core.lenses.turnwork import hooked_sessions, is_own_row

    events = [e for e in events if not is_own_row(e)]
    denied = 0
    if deny is not None:
        # Denied work (a private project, a client's folder) is dropped before anything is
        # grouped or named, and only counted: its project name or its cwd matches.
        kept = [e for e in events if not (deny.search(e.project or "") or deny.search(e.cwd or ""))]
        denied = len(events) - len(kept)
        events = kept
    out_events, out_projects = 0, set()
    if projects:
        lowered = [p.lower() for p in projects]
        kept = []
        for e in events:
            if e.has_project and any(p in e.project.lower() for p in lowered):
                kept.append(e)
            else:
                out_events += 1
                out_projects.add(e.project)
        events = kept
    groups: dict[str, list[Event]] = {}
    for e in events:
        groups.setdefault(e.project if e.has_project else OUTSIDE, []).append(e)
    # Commits, pushes and files of sessions that logged no hook row that day come from what
    # their turns record (lenses.turnwork); the counts of events stay those of the logs' rows.
    from carto_core.capture.turnactivity import derived_events

    hooked = hooked_sessions(events)
    turn_sessions: set[str] = set()
    work: dict[str, list[Event]] = {}
    for project, group in groups.items():
        extra = []
        for e in group:
            if e.source == "turns" and e.has_session and e.session_id not in hooked:
                derived = derived_events(e)
                if derived:
                    turn_sessions.add(e.session_id)
                extra.extend(derived)
        work[project] = group + extra
    bins = {int(e.timestamp.timestamp() // 300) for e in events}
    hours = [0] * 24
    for e in events:
        hours[e.timestamp.astimezone().hour] += 1
    totals = Counter()
    project_docs = []
    owner_names: dict[str, list[str]] = {}
    for project, group in sorted(groups.items(), key=lambda kv: (kv[0] == OUTSIDE, -len(kv[1]), kv[0])):
        repo = None
        for e in group:
            if e.cwd and os.path.isdir(e.cwd):
                info = find_git(e.cwd)
                if info is not None:
                    repo = str(info.main_worktree)
                    break
        day_commits: dict[str, list[tuple[str, int, str]]] = {}
        owned: set[str] = set()
        if repo and not no_git:
            _, text = _git(repo, "log", "--all", f"--since={start.isoformat()}", f"--until={end.isoformat()}",
                           "--format=%H%x09%at%x09%an%x09%ae%x09%s")
            names = owner_names.get(repo)
            if names is None:
                names = owner_names[repo] = owners(repo)[0]
            day_commits[repo] = []
            for line in text.splitlines():
                parts = line.split("\t", 4)
                if len(parts) != 5 or not parts[1].isdigit():
                    continue
                sha, at, author, email, subject = parts
                day_commits[repo].append((sha, int(at), subject))
                if _is_owner(author, email, names):
                    owned.add(sha)
        commits = []
        for e in work[project]:
            commit = _commit(e)
            if not commit:
                continue
            commit.update(_verify(commit, None if no_git else repo, day_commits, e.timestamp))
            commits.append(commit)
            totals[f"commits_{commit['status']}"] += 1
        logged = {c["sha"] for c in commits if c["sha"]}
        landed_as = {c.get("landed_as") for c in commits}
        # Git-only: the owner's commits of the day that no session logged (another author's
        # commits in a shared repository are not this person's unlogged work).
        git_only = [{"sha": sha, "subject": subject} for sha, _, subject in day_commits.get(repo, [])
                    if sha in owned and sha not in landed_as
                    and not any(sha.startswith(s) or s.startswith(sha[:7]) for s in logged)]
        files, unresolved = _edited_files(work[project])
        project_bins = {int(e.timestamp.timestamp() // 300) for e in group}
        project_docs.append({
            "name": project,
            "kind": "pseudo" if project == OUTSIDE else "project",
            "members": [project] if project != OUTSIDE else [],
            "events": len(group),
            "event_ids": [e.event_id for e in group[:5]],
            "active_minutes": 5 * len(project_bins),
            "sessions": sorted({e.session_id for e in group if e.has_session}),
            "commits": commits,
            "git_only_commits": git_only,
            "pushes": sum(1 for e in work[project] if e.type == "git_push"),
            "files": [{"path": p, "touches": n} for p, n in files.most_common(20)],
            "files_unresolved": unresolved,
            "investigations": sum(1 for e in group if e.type == "investigation"),
            "investigation_outcomes": sum(1 for e in group if e.type == "investigation_outcome"),
            "repo": repo,
        })
        totals["commits_logged"] += len(commits)
        totals["commits_git_only"] += len(git_only)
        totals["pushes"] += project_docs[-1]["pushes"]
    newest = cols.timestamp_at(cols.n - 1) if cols.n_dated else None
    local = start.astimezone()
    return {
        "schema": SCHEMA,
        "generated_at": format_timestamp(now),
        "day": name,
        "tz": str(local.tzinfo),
        "tz_abbrev": local.strftime("%Z"),
        "start": start.isoformat(),
        "end": end.isoformat(),
        "complete": now >= end,
        "log_newest": format_timestamp(newest) if newest else None,
        "scope": {"projects": projects or None,
                  "out_of_scope": {"events": out_events, "projects": len(out_projects)}, "denied": denied},
        "totals": {
            "events": len(events),
            "sessions": len({e.session_id for e in events if e.has_session}),
            "projects": len([g for g in groups if g != OUTSIDE]),
            **{key: totals[key] for key in (
                "commits_logged", "commits_landed", "commits_moved", "commits_rewritten",
                "commits_missing", "commits_unverified", "commits_git_only", "pushes")},
            "active_minutes": 5 * len(bins),
        },
        "agents": dict(Counter(e.provider for e in events if is_resolved(e.provider)).most_common()),
        "hours": hours,
        "unattributed": {"project": sum(1 for e in events if not e.has_project),
                         "session": sum(1 for e in events if not e.has_session)},
        "from_turns": {"sessions": sorted(turn_sessions)},
        "duplicates_dropped": cols.duplicates,
        "undated_dropped": cols.n_undated,
        "projects": project_docs,
    }
