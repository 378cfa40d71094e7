"""`carto profile`: a derived profile of the owner's work, `<home>/.carto/profile.md` (ref 5.5).

Sections in priority order, trimmed from the tail to fit the character budget (default 4000):
Active surface (top projects: last seen, events, commits), Durable decisions (wrapup
`decisions[]` and `key_insight`), Work shape (commit types, diff quadrants), Cadence (peak hours
in local time, weekend share, sessions). Never hand-edited: it is rebuilt from the logs.
"""

from __future__ import annotations

import os
from collections import Counter
from datetime import datetime, timezone

from carto_core.corpus import load_corpus
from carto_core.project import is_project_name
from carto_core.timeparse import parse_when

BUDGET = 4000


def build_profile(home, *, window: str = "90d", budget: int = BUDGET, now: datetime | None = None) -> dict:
    now = now or datetime.now(timezone.utc)
    since = parse_when(window, now=now)
    corpus = load_corpus(home)
    events = [e for e in corpus.events if e.timestamp and e.timestamp >= since]
    projects: dict[str, dict] = {}
    commit_types, quadrants, hours = Counter(), Counter(), Counter()
    weekend = 0
    decisions: list[str] = []
    for e in events:
        if e.has_project and is_project_name(e.project):
            p = projects.setdefault(e.project, {"events": 0, "commits": 0, "last": e.timestamp})
            p["events"] += 1
            p["last"] = max(p["last"], e.timestamp)
            if e.type == "git_commit":
                p["commits"] += 1
        if e.type == "git_commit":
            commit_types[e.row.get("commit_type") or "other"] += 1
            shape = e.row.get("diff_shape")
            if isinstance(shape, dict) and shape.get("quadrant"):
                quadrants[shape["quadrant"]] += 1
        local = e.timestamp.astimezone()
        hours[local.hour] += 1
        weekend += local.weekday() >= 5
        if e.row.get("milestone") == "session_wrapup":
            for item in e.row.get("decisions") or []:
                decisions.append(f"{item} ({e.project or '-'}, {local.date()})")
            if e.row.get("key_insight"):
                decisions.append(f"insight: {e.row['key_insight']} ({e.project or '-'})")
    sections = []
    top = sorted(projects.items(), key=lambda kv: (-kv[1]["events"], kv[0]))[:8]
    sections.append(("Active surface", [
        f"- {name}: last seen {p['last'].astimezone().date()}, {p['events']} events, {p['commits']} commits"
        for name, p in top]))
    sections.append(("Durable decisions", [f"- {d}" for d in decisions[-12:][::-1]]))
    sections.append(("Work shape", [
        "- commit types: " + (", ".join(f"{t} {n}" for t, n in commit_types.most_common()) or "none"),
        "- diff quadrants: " + (", ".join(f"{q} {n}" for q, n in quadrants.most_common()) or "none")]))
    peak = ", ".join(f"{h:02d}:00" for h, _ in hours.most_common(3)) or "-"
    sections.append(("Cadence", [
        f"- peak hours (local): {peak}",
        f"- weekend share: {round(100 * weekend / len(events)) if events else 0}%",
        f"- sessions: {len({e.session_id for e in events if e.has_session})}"]))
    warnings = []
    if len(events) < 50:
        warnings.append(f"thin coverage: {len(events)} events in {window}")
    header = f"# carto profile\n\n_Derived from {len(events)} events over {window}; rebuilt by `carto profile`, never edit by hand._\n"
    text = header
    kept = []
    for title, lines in sections:
        block = f"\n## {title}\n" + ("\n".join(lines) if lines else "- (none yet)") + "\n"
        if len(text) + len(block) > budget:
            warnings.append(f"section '{title}' and later trimmed to fit {budget} characters")
            break
        text += block
        kept.append(title)
    return {"path": str(home.state / "profile.md"), "chars": len(text), "budget": budget,
            "sections": kept, "warnings": warnings, "markdown": text}


def write_profile(home, document: dict, out: str | None = None) -> str:
    path = out or document["path"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(document["markdown"])
    os.replace(temporary, path)
    return path
