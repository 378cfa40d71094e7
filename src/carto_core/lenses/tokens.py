"""`carto facts tokens`: the tokens the model API reported, per session, project and day, and the
commits they paid for.

The figures are the clients' own: a turn row's `tokens` (`{input, output, cache_read,
cache_write}`, docs/records.md), which the Claude and Codex readers sum from the transcript
(`carto_core.transcript.usage`: a Claude message id once, Codex `token_count` events). Nothing
is estimated. Rules:

- a turn counts once (the turns log folded by event_id, the newest row winning, as every reader
  folds it); a turn another session copied (`copied_from`: a fork's history) counts only in
  the session it came from;
- `total` = input + output + cache_read + cache_write (each also given alone: cache reads are
  cheap, a reader may want them apart);
- a turn belongs to the window, the project scope and the UTC day of its own timestamp;
- **commits**: a session's commits (its `git_commit` rows in the changelog, and those its turns
  record: a sha is one commit) in time order; commit *k* is charged the tokens of the
  session's turns that started after commit *k-1* and before commit *k* (the turn that made it
  included: it started first). Turns after a session's last commit are `uncommitted`.

Reads the lines of the turns log that hold `"tokens":` and the changelog's commit rows (bytes
searches: nothing else is parsed), no corpus. Read-only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime, timezone

from carto_core.logio.reader import rows_containing
from carto_core.model.events import Event, is_resolved
from carto_core.transcript.usage import USAGE_KEYS
from carto_core.util.timeparse import format_timestamp

_NEEDLE = b'"tokens":{'
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _read(home, label: str, needle: bytes) -> list[dict]:
    # a log that cannot be read is an absent one (and a FIFO is not waited on): `carto facts`
    # names it
    return rows_containing(home.log(label), needle, fast=True)


def _usage(value: object) -> dict | None:
    if not isinstance(value, dict):
        return None
    out = {k: value[k] if isinstance(value.get(k), int) and not isinstance(value.get(k), bool)
           and value[k] > 0 else 0 for k in USAGE_KEYS}
    return out if any(out.values()) else None


def _zero() -> dict:
    return dict.fromkeys(USAGE_KEYS, 0)


def _add(into: dict, usage: dict) -> None:
    for key in USAGE_KEYS:
        into[key] += usage[key]


def _with_total(usage: dict) -> dict:
    return {**usage, "total": sum(usage[k] for k in USAGE_KEYS)}


def token_turns(home) -> list[Event]:
    """Every turn that reports tokens, once (the newest row of an id), copies left out."""
    by_id: dict[str, dict] = {}
    for row in _read(home, "turns", _NEEDLE):
        if isinstance(row.get("event_id"), str):
            by_id.pop(row["event_id"], None)
            by_id[row["event_id"]] = row
    out = []
    for row in by_id.values():
        usage = None if row.get("copied_from") else _usage(row.get("tokens"))
        if usage is not None:
            row["tokens"] = usage  # checked once: every fold below reads it as is
            out.append(Event.from_row(row, "turns"))
    return out


def session_commits(home, sessions: set[str], turns: list[Event]) -> dict[str, list[dict]]:
    """session -> its commits, oldest first: hook rows (the changelog: it holds a copy of every
    hook's commit row, and the git backfill's), then the commits its turns record that no hook
    row names (a sha is one commit)."""
    from carto_core.capture.turnactivity import derived_events
    from carto_core.lenses.sessionfacts import commit_record

    out: dict[str, list[dict]] = defaultdict(list)
    for label in ("changelog",):
        for row in _read(home, label, b'"git_commit"'):
            event = Event.from_row(row, label)
            commit = commit_record(event)
            if commit and commit["sha"] and event.session_id in sessions and event.timestamp:
                out[event.session_id].append({**commit, "at": event.timestamp})
    for turn in turns:
        tools = turn.row.get("tools")
        if turn.session_id not in sessions or not isinstance(tools, list) or not any(
                isinstance(t, dict) and t.get("commit") for t in tools):
            continue
        for event in derived_events(turn):
            commit = commit_record(event)
            if commit and commit["sha"] and event.timestamp:
                out[turn.session_id].append({**commit, "at": event.timestamp})
    for sid, commits in out.items():
        unique: dict[str, dict] = {}
        for commit in sorted(commits, key=lambda c: c["at"]):
            sha = commit["sha"].lower()
            if not any(s.startswith(sha) or sha.startswith(s) for s in unique):
                unique[sha] = commit
        out[sid] = list(unique.values())
    return out


def _in_window(turn: Event, since: datetime | None, before: datetime | None) -> bool:
    if since is None and before is None:
        return True
    if turn.timestamp is None:
        return False
    return (since is None or turn.timestamp >= since) and (before is None or turn.timestamp < before)


def tokens(home, *, since=None, before=None, project=None, top: int = 20, sample: int = 3) -> dict:
    """The `facts` object of `carto facts tokens` (see the module's rules). `project` is a
    callable(project name) -> bool, or None."""
    turns = [t for t in token_turns(home) if _in_window(t, since, before)
             and (project is None or (t.has_project and project(t.project)))]
    total, sessions, projects, days = _zero(), {}, {}, {}
    for turn in sorted(turns, key=lambda t: (t.timestamp is None, t.timestamp or _EPOCH, t.event_id)):
        usage = turn.row["tokens"]
        _add(total, usage)
        sid = turn.session_id if turn.has_session else ""
        s = sessions.setdefault(sid, {"session_id": sid or None, "provider": turn.provider,
                                      "project": turn.project if turn.has_project else None,
                                      "turns": 0, "tokens": _zero(), "first": turn.timestamp,
                                      "last": turn.timestamp, "sample_ids": []})
        s["turns"] += 1
        _add(s["tokens"], usage)
        if turn.timestamp:
            s["first"] = min(filter(None, (s["first"], turn.timestamp)))
            s["last"] = max(filter(None, (s["last"], turn.timestamp)))
        if len(s["sample_ids"]) < sample:
            s["sample_ids"].append(turn.event_id)
        name = turn.project if turn.has_project else ""
        p = projects.setdefault(name, {"project": name or None, "sessions": set(), "turns": 0, "tokens": _zero()})
        p["sessions"].add(sid)
        p["turns"] += 1
        _add(p["tokens"], usage)
        day = turn.timestamp.date().isoformat() if turn.timestamp else None
        d = days.setdefault(day, {"day": day, "turns": 0, "tokens": _zero()})
        d["turns"] += 1
        _add(d["tokens"], usage)
    commits = _charge_commits(home, turns)
    by_total = lambda item: (-sum(item["tokens"].values()), str(item.get("session_id") or item.get("project") or ""))
    session_rows = sorted(sessions.values(), key=by_total)
    per_session = Counter(c["session_id"] for c in commits if c["sha"])
    for s in session_rows:
        s["commits"] = per_session.get(s["session_id"], 0)
        s["tokens"] = _with_total(s["tokens"])
        s["first"] = format_timestamp(s["first"]) if s["first"] else None
        s["last"] = format_timestamp(s["last"]) if s["last"] else None
    project_rows = sorted(projects.values(), key=by_total)
    for p in project_rows:
        p["sessions"] = len(p["sessions"])
        p["tokens"] = _with_total(p["tokens"])
    day_rows = sorted(days.values(), key=lambda d: (d["day"] is None, d["day"] or ""))
    for d in day_rows:
        d["tokens"] = _with_total(d["tokens"])
    charged = [c for c in commits if c["sha"]]
    charged.sort(key=lambda c: (-c["tokens"]["total"], c["timestamp"] or "", c["sha"]))
    return {
        "rule": "reported by the model API per turn (transcripts); copies of another session's turns excluded",
        "turns": len(turns),
        "tokens": _with_total(total),
        "sessions": session_rows[:top],
        "sessions_total": len(session_rows),
        "projects": project_rows[:top],
        "days": day_rows,
        "commits": charged[:top],
        "commits_total": len(charged),
        "uncommitted": _with_total(_sum(c["tokens"] for c in commits if not c["sha"])),
    }


def _sum(items) -> dict:
    out = _zero()
    for usage in items:
        for key in USAGE_KEYS:
            out[key] += usage[key]
    return out


def _charge_commits(home, turns: list[Event]) -> list[dict]:
    """Per session, its commits with the tokens of the turns since its previous commit; the
    turns after its last commit as one entry with sha None (uncommitted)."""
    by_session: dict[str, list[Event]] = defaultdict(list)
    for turn in turns:
        if turn.has_session and turn.timestamp:
            by_session[turn.session_id].append(turn)
    commits = session_commits(home, set(by_session), turns)
    out = []
    for sid, mine in by_session.items():
        mine.sort(key=lambda t: (t.timestamp, t.event_id))
        start = 0
        for commit in commits.get(sid, []):
            end = start
            while end < len(mine) and mine[end].timestamp < commit["at"]:
                end += 1
            paid, start = mine[start:end], end
            out.append({"sha": commit["sha"], "subject": commit["subject"], "session_id": sid,
                        "event_id": commit["event_id"], "timestamp": format_timestamp(commit["at"]),
                        "project": commit["project"], "turns": len(paid),
                        "turn_ids": [t.event_id for t in paid][:5],
                        "tokens": _with_total(_sum(t.row["tokens"] for t in paid))})
        if start < len(mine):
            out.append({"sha": None, "session_id": sid, "turns": len(mine) - start,
                        "tokens": _sum(t.row["tokens"] for t in mine[start:])})
    return out
