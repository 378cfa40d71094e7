"""`carto handoff [SESSION] [--project P]`: what the next agent needs from a session or a project,
every line citing the event it comes from, within a size bound.

A session (built from its session facts, `carto_core.lenses.sessionfacts`, so the counts are the
ones every lens gives it):

- **decisions**: the commits it made (decisions that landed; the commit's event id) and the
  decisions its wrapups recorded (the wrapup's event id);
- **open threads**: what its wrapups left unresolved, and the files it edited and did not
  commit afterwards (the last edit's event id), as `carto wrapup` decides them
  (`carto_core.lenses.wrapup.uncommitted_edits`);
- **files**: the files it edited, most touched first (the last edit's event id);
- **last turns**: its newest turns (the head of each: the prompt that opened it; its event id): where it stopped;
- **thread**: the sessions it continues or that continue it (`carto_core.lenses.lineage`).

A project: the orientation (`carto_core.search.orient`: its newest wrapups and their open
threads, its commits and busiest files) and its most recently active sessions (each with its
newest event's id), whose commits and uncommitted edits join the lists (a backfilled session's
commits are those its turns recorded), each with its event id; a file edited in one session and
committed later in another is no open thread.

Bounded: the document's JSON stays within `max_chars`; when it would not, the sections lose
items from their tails in turn (the oldest decisions and files first) and `cut` counts what
each lost. Read-only.
"""

from __future__ import annotations

import json
import os

from carto_core.capture.collision import contention_key
from carto_core.util.timeparse import format_timestamp
from carto_core.util.terminal import counted, transcript_said

DEFAULT_MAX_CHARS = 6000
MIN_MAX_CHARS = 1000
LAST_TURNS = 3
TURN_CHARS = 240
#: Sections trimmed, in this order, one item at a time, until the document fits.
TRIM_ORDER = ("files", "last_turns", "sessions", "decisions", "open_threads", "commits", "wrapups")


def _short(text: str, width: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def session_handoff(home, session_id: str, *, max_chars: int = DEFAULT_MAX_CHARS) -> dict:
    from carto_core.capture.collision import event_files
    from carto_core.lenses.lineage import lineage
    from carto_core.lenses.sessionfacts import session_events, session_facts
    from carto_core.lenses.turnwork import is_own_row
    from carto_core.lenses.wrapup import uncommitted_edits

    events = session_events(home, session_id)
    facts = session_facts(session_id, events)
    if not facts.events:
        raise LookupError(f"session {session_id} has no events in {home.root}")
    decisions, open_threads = [], []
    for commit in reversed(facts.commits):
        decisions.append({"text": f"{commit['subject']} ({commit['sha'][:7]})", "kind": "commit",
                          "event_id": commit["event_id"], "timestamp": commit["timestamp"]})
    wrapups = [e for e in facts.rows if isinstance(e.row, dict) and e.row.get("milestone") == "session_wrapup"]
    for wrapup in reversed(wrapups):
        stamp = format_timestamp(wrapup.timestamp) if wrapup.timestamp else None
        for text in _statements(wrapup.row.get("decisions")):
            if not any(d["text"] == text for d in decisions):
                decisions.append({"text": text, "kind": "wrapup", "event_id": wrapup.event_id, "timestamp": stamp})
        for text in _statements(wrapup.row.get("unresolved")):
            open_threads.append({"text": text, "kind": "wrapup", "event_id": wrapup.event_id, "timestamp": stamp})
    for path, event in uncommitted_edits([e for e in facts.work if not is_own_row(e)]):
        stamp = format_timestamp(event.timestamp) if event.timestamp else None
        if _stated(open_threads, path, stamp):
            continue
        open_threads.append({"text": f"uncommitted edits: {path}", "kind": "uncommitted",
                             "event_id": event.event_id, "timestamp": stamp})
    last_edit = {}
    for event in facts.work:
        if event.type == "tool_file_edit":
            for path in event_files(event.type, event.summary, event.cwd):
                last_edit[path] = event.event_id
    files = [{"path": path, "touches": n, "event_id": last_edit.get(path)} for path, n in facts.files.most_common()]
    turns = sorted((e for e in facts.rows if e.source == "turns" and not e.row.get("agent_id")),
                   key=lambda e: (e.timestamp is None, e.timestamp or facts.started, e.event_id))
    asks = [{"text": _short(t.summary, TURN_CHARS), "event_id": t.event_id,
             "timestamp": format_timestamp(t.timestamp) if t.timestamp else None}
            for t in reversed(turns[-LAST_TURNS:])]
    family = lineage(home).describe(session_id)
    document = {
        "kind": "session", "session_id": session_id, "provider": facts.provider or None,
        "project": facts.project or None,
        "span": {"started": format_timestamp(facts.started) if facts.started else None,
                 "ended": format_timestamp(facts.ended) if facts.ended else None,
                 "events": facts.events, "turns": facts.turns,
                 "commits": len(facts.commits), "edits": facts.edits},
        "transcript_path": facts.transcript_path or None,
        "thread": {"continues": [c["session_id"] for c in family["continues"]],
                   "continued_by": [c["session_id"] for c in family["continued_by"]],
                   "sessions": family["thread"]},
        "decisions": decisions, "open_threads": open_threads, "files": files, "last_turns": asks,
    }
    return bound(document, max_chars)


def project_handoff(home, spec: str, *, max_chars: int = DEFAULT_MAX_CHARS, sessions: int = 5,
                    engine=None) -> dict:
    """`engine`: the caller's SearchEngine over `home` (the MCP server's warm one, which keeps
    the index of a home that does not exist in memory); default: a new one."""
    from carto_core.lenses.sessionfacts import sessions_events, session_facts
    from carto_core.lenses.turnwork import is_own_row
    from carto_core.lenses.wrapup import uncommitted_edits
    from carto_core.model.project import ProjectScope
    from carto_core.search.engine import SearchEngine
    from carto_core.search.orient import orient

    scope = ProjectScope.parse(spec)
    engine = SearchEngine(home) if engine is None else engine
    found = orient(engine, scope, limit=10)
    if not found["events"]:
        raise LookupError(f"no events of project {spec!r} in {home.root}")
    newest = _newest_sessions(engine, scope, sessions)
    commits = [{"text": _short(_commit_text(c["summary"]), 200), "event_id": c["event_id"],
                "timestamp": c["timestamp"], "session_id": c["session_id"]} for c in found["commits"]]
    threads = [{"text": t["text"], "event_id": t["from"], "timestamp": t["timestamp"]}
               for t in found["open_threads"]]
    listed = []
    events = sessions_events(home, newest)
    # An edit one session left is closed by a later commit of the file, whoever made it: the
    # project's work is the sum of its sessions'.
    committed = _commits_by_file(e for sid in newest for e in events.get(sid, []))
    left: dict[str, dict] = {}
    for sid in newest:
        facts = session_facts(sid, events.get(sid, []))
        if not facts.events:
            continue
        listed.append({"session_id": sid, "provider": facts.provider or None,
                       "started": format_timestamp(facts.started) if facts.started else None,
                       "ended": format_timestamp(facts.ended) if facts.ended else None,
                       "commits": len(facts.commits), "edits": facts.edits,
                       "event_id": facts.rows[-1].event_id if facts.rows else None})
        seen = {c["event_id"] for c in commits}
        for commit in reversed(facts.commits):  # a backfilled session's commits are its turns'
            if commit["event_id"] not in seen:
                commits.append({"text": f"{commit['subject']} ({commit['sha'][:7]})", "event_id": commit["event_id"],
                                "timestamp": commit["timestamp"], "session_id": sid})
        for path, event in uncommitted_edits([e for e in facts.work if not is_own_row(e)]):
            later = committed.get(contention_key(path))
            if later is not None and event.timestamp is not None and later >= event.timestamp:
                continue
            stamp = format_timestamp(event.timestamp) if event.timestamp else None
            if _stated(threads, path, stamp):
                continue
            if path not in left or (stamp or "") > (left[path]["timestamp"] or ""):
                left[path] = {"text": f"uncommitted edits: {path}", "event_id": event.event_id, "timestamp": stamp}
    threads.extend(sorted(left.values(), key=lambda t: t["timestamp"] or "", reverse=True))
    commits.sort(key=lambda c: c["timestamp"] or "", reverse=True)
    document = {
        "kind": "project", "project": found["project"], "matched_projects": found["matched_projects"],
        "events": found["events"], "sessions": listed,
        "wrapups": [{"text": _short(w["summary"], 300), "event_id": w["event_id"], "timestamp": w["timestamp"],
                     "session_id": w["session_id"]} for w in found["wrapups"]],
        "open_threads": threads,
        "commits": commits[:10],
        "files": _cited_files(engine, scope, found["busiest_files"]),
    }
    return bound(document, max_chars)


def _statements(value) -> list[str]:
    """A wrapup's decisions or threads: a list of strings, or one string an older writer left
    (the decision ledger reads it as one statement too)."""
    from carto_core.model.decisions import is_empty

    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [item for item in items if isinstance(item, str) and not is_empty(item)]


def _stated(threads: list[dict], path: str, stamp: str | None) -> bool:
    """A wrapup written after the file's last edit already left it open, in the words
    `carto wrapup` derives ("uncommitted edits: <file name>")."""
    said = f"uncommitted edits: {os.path.basename(path)}"
    return any(t["text"] == said and (t["timestamp"] or "") >= (stamp or "") for t in threads)


def _commit_text(summary: str) -> str:
    """A commit row's summary as a session's commits read ("subject (sha)"); other text as is."""
    from carto_core.capture.collision import COMMIT_RE

    match = COMMIT_RE.search(summary or "")
    return f"{match.group(2).strip()} ({match.group(1)[:7]})" if match else summary


def _commits_by_file(events) -> dict[str, object]:
    """contention key -> the newest time a commit among `events` named the file."""
    from carto_core.capture.collision import event_files

    out: dict[str, object] = {}
    for event in events:
        if event.type != "git_commit" or event.timestamp is None:
            continue
        for path in event_files(event.type, event.summary, event.cwd):
            key = contention_key(path)
            if key not in out or event.timestamp > out[key]:
                out[key] = event.timestamp
    return out


def _cited_files(engine, scope, busiest: list[dict]) -> list[dict]:
    """The busiest files, each with the event id of its newest edit in the project (the line
    cites it as every other line does), or its time when no edit row names it any more."""
    import numpy as np

    from carto_core.search.orient import EDIT_WINDOW, edited_files

    index = engine.index
    wanted = {f["path"] for f in busiest}
    found: dict[str, str] = {}
    types = [c for c, t in enumerate(index.strings["types"]) if t == "tool_file_edit"]
    projects = [i for i, name in enumerate(index.strings["projects"]) if name and scope.matches(name)]
    if wanted and types and projects:
        mask = (np.isin(np.asarray(index.cols["type"]), types) & np.isin(np.asarray(index.cols["project"]), projects)
                & np.asarray(index.cols["alive"]).astype(bool))
        docs = np.flatnonzero(mask)
        ts = np.nan_to_num(np.asarray(index.cols["ts"])[docs], nan=-np.inf)
        for doc in docs[np.argsort(-ts, kind="stable")][:EDIT_WINDOW].tolist():
            for path in edited_files(index.row(doc)):
                if path in wanted and path not in found:
                    found[path] = index.event_id(doc)
            if len(found) == len(wanted):
                break
    return [{"path": f["path"], "touches": f["edits"], "last": f["last"], "event_id": found.get(f["path"])}
            for f in busiest]


def _newest_sessions(engine, scope, n: int) -> list[str]:
    """The project's `n` most recently active sessions (from the index's columns)."""
    import numpy as np

    index = engine.index
    projects = index.strings["projects"]
    wanted = np.asarray([i for i, name in enumerate(projects) if name and scope.matches(name)], dtype=np.int64)
    if not len(wanted):
        return []
    mask = np.isin(np.asarray(index.cols["project"]), wanted) & np.asarray(index.cols["alive"]).astype(bool)
    docs = np.flatnonzero(mask)
    ts = np.nan_to_num(np.asarray(index.cols["ts"])[docs], nan=-np.inf)
    names = index.strings["sessions"]
    out: list[str] = []
    for doc in docs[np.argsort(-ts, kind="stable")]:
        name = names[int(index.cols["session"][doc])]
        if name and name.lower() != "unknown" and name not in out:
            out.append(name)
            if len(out) >= n:
                break
    return out


def _size(document: dict) -> int:
    return len(json.dumps(document, ensure_ascii=False, separators=(",", ":")))


def bound(document: dict, max_chars: int) -> dict:
    """`document` within `max_chars` of compact JSON: sections lose tail items in TRIM_ORDER,
    one at a time round-robin, then long texts are shortened; `cut` says what each lost."""
    max_chars = max(MIN_MAX_CHARS, int(max_chars))
    cut: dict[str, int] = {}
    document = {**document, "max_chars": max_chars, "cut": cut}
    sections = [name for name in TRIM_ORDER if isinstance(document.get(name), list)]
    while _size(document) > max_chars and any(document[name] for name in sections):
        for name in sections:
            if document[name] and _size(document) > max_chars:
                document[name] = document[name][:-1]
                cut[name] = cut.get(name, 0) + 1
    if _size(document) > max_chars:
        document["transcript_path"] = _short(document.get("transcript_path") or "", 80) or None
    return document


def render(document: dict) -> list[str]:
    """The text form: one line per item, each ending with its event id."""
    lines = []
    if document["kind"] == "session":
        s = document["span"]
        lines.append(f"handoff  session {document['session_id']} · {document['provider'] or '?'} · "
                     f"{document['project'] or 'no project'}")
        lines.append(f"span     {s['started']} .. {s['ended']} · {counted(s['events'], 'event')}, "
                     f"{counted(s['turns'], 'turn')}, {counted(s['commits'], 'commit')}, {counted(s['edits'], 'edit')}")
        if document["transcript_path"]:
            lines.append(f"transcript {transcript_said(document['transcript_path'])}")
        thread = document["thread"]
        if len(thread["sessions"]) > 1:
            lines.append("thread   " + " -> ".join(thread["sessions"]))
    else:
        lines.append(f"handoff  project {document['project']} ({', '.join(document['matched_projects'])}; "
                     f"{counted(document['events'], 'event')})")
    titles = (("decisions", "Decisions"), ("wrapups", "Latest wrapups"), ("open_threads", "Open threads"),
              ("commits", "Commits"), ("files", "Files"), ("sessions", "Sessions"), ("last_turns", "Last turns"))
    for key, title in titles:
        items = document.get(key)
        if not items:
            continue
        lines.append(f"{title}:")
        for item in items:
            if key == "files":
                where = item.get("event_id") or item.get("last") or ""
                lines.append(f"- {item['path']} ×{item['touches']}  [{where}]")
            elif key == "sessions":
                lines.append(f"- {item['session_id']} {item['started'] or '?'} .. {item['ended'] or '?'} · "
                             f"{counted(item['commits'], 'commit')}, {counted(item['edits'], 'edit')}  "
                             f"[{item['event_id']}]")
            else:
                lines.append(f"- {_short(item['text'], 160)}  [{item['event_id']}]")
    if document["cut"]:
        nouns = {"open_threads": "open thread", "last_turns": "last turn"}
        lines.append("(cut to " + str(document["max_chars"]) + " characters: "
                     + ", ".join(counted(n, nouns.get(k, k.rstrip("s"))) for k, n in document["cut"].items())
                     + " left out)")
    return lines
