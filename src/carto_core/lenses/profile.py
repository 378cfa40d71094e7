"""`carto profile`: a derived profile of the owner's work, `<home>/.carto/profile.md` (ref 5.5).

Sections in priority order, trimmed from the tail to fit the character budget (default 4000):
Active surface (top projects: last seen, events, commits), Durable decisions (wrapup
`decisions[]` and `key_insight`, without those superseded, retired or rejected since, nor
a decision that is the subject of a commit another author wrote: `lenses.decisions.others_decisions`), Work shape (commit types, diff quadrants), Cadence (peak hours
in local time, weekend share, sessions). Never hand-edited: it is rebuilt from the logs.

Read from the facts columns (`carto_core.facts.store`), not a loaded corpus: only commits and
wrapup milestones are read back from their logs (docs/lenses.md, "Cost").
"""

from __future__ import annotations

import os
from collections import Counter
from datetime import datetime, timezone

from carto_core.facts.store import LOAD_ORDER, cache_enabled, facts_columns, lkey_of
from carto_core.capture.collision import COMMIT_RE
from carto_core.model.project import is_project_name
from carto_core.logio.reader import open_log
from carto_core.capture.turnactivity import derived_events
from carto_core.util.privatefiles import make_dirs, open_private
from carto_core.util.terminal import counted
from carto_core.util.timeparse import parse_when

BUDGET = 4000


def _wrapup_lines(home) -> dict[str, set[int]]:
    """Per log, the byte offsets of lines that mention `session_wrapup`: the only rows besides
    commits whose fields the profile reads (a bytes search; no other line is parsed)."""
    found: dict[str, set[int]] = {}
    for label in LOAD_ORDER:
        try:
            with open_log(home.log(label)) as handle:  # a FIFO: refused, not waited on
                data = handle.read()
        except OSError:
            continue
        offsets = found.setdefault(label, set())
        position = data.find(b"session_wrapup")
        while position >= 0:
            start = data.rfind(b"\n", 0, position) + 1
            offsets.add(start)
            end = data.find(b"\n", position)
            if end < 0:
                break
            position = data.find(b"session_wrapup", end)
    return found


def _tool_turn_lines(home) -> set[int]:
    """Load keys of the turns whose row records tool calls (a bytes search: only those turn
    rows are read back)."""
    found: set[int] = set()
    try:
        with open_log(home.log("turns")) as handle:  # a FIFO: refused, not waited on
            data = handle.read()
    except OSError:
        return found
    position = data.find(b'"tools":[')
    while position >= 0:
        start = data.rfind(b"\n", 0, position) + 1
        found.add(lkey_of("turns", start))
        end = data.find(b"\n", position)
        if end < 0:
            break
        position = data.find(b'"tools":[', end)
    return found


def _tool_family(name: str) -> str:
    """A tool's name as the profile counts it: MCP tools by server (`mcp__github__x` ->
    `mcp:github`)."""
    if name.startswith("mcp__"):
        return "mcp:" + name[5:].split("__", 1)[0]
    return name


def build_profile(home, *, window: str = "90d", budget: int = BUDGET, now: datetime | None = None) -> dict:
    now = now or datetime.now(timezone.utc)
    since = parse_when(window, now=now)
    # The facts columns (persisted: no corpus load) hold what most sections need: time,
    # project, type, session. Only commits and wrapup milestones are read back from their
    # logs. Positions are visited in the corpus's load order, so every tie (most_common) and
    # the order of decisions is the same as over a loaded corpus.
    cols = facts_columns(home)
    lo, hi = cols.window(since, None)
    u = cols.n_undated
    epoch, lkey = cols.epoch, cols.lkey
    project_dim, type_dim, session_dim = cols.dims["project"], cols.dims["type"], cols.dims["session"]
    project_names, type_names = project_dim.names, type_dim.names
    project_ok = [is_project_name(name) for name in project_names]
    commit_code = type_dim.ids.get("git_commit", -1)
    turn_code = type_dim.ids.get("transcript", -1)
    # Persisted columns key a position by (log, byte offset); columns over a loaded corpus
    # (CARTO_FACTS_CACHE=0) by load index, and there every row is in memory anyway.
    persisted = cache_enabled()
    wrapup_keys = {lkey_of(label, offset) for label, offsets in _wrapup_lines(home).items()
                   for offset in offsets} if persisted else set()
    local_of: dict[int, tuple[int, bool]] = {}  # 15-minute bucket -> local hour, weekend
    projects: dict[str, dict] = {}
    commit_types, quadrants, hours = Counter(), Counter(), Counter()
    weekend = 0
    decisions: list[tuple[str, str]] = []  # (record id, line)
    from carto_core.model.decisions import load, record_id, statements as stated

    ledger = load(home)
    closed = {rid for rid, record in ledger.records.items() if not record.current}
    hook_shas: set[str] = set()
    turn_commits: list[tuple[str, str, str]] = []  # (sha, project, commit type) that turns record
    tools: Counter = Counter()
    turns_with_tools = _tool_turn_lines(home) if persisted else None
    positions = sorted(range(lo, hi), key=lkey.__getitem__)
    pcol, tcol = project_dim.col, type_dim.col
    for position in positions:
        stamp = epoch[position - u]
        project = pcol[position]
        etype = tcol[position]
        if project and project_ok[project]:
            name = project_names[project]
            p = projects.get(name)
            if p is None:
                p = projects[name] = {"events": 0, "commits": 0, "last": stamp}
            p["events"] += 1
            if stamp > p["last"]:
                p["last"] = stamp
            if etype == commit_code:
                p["commits"] += 1
        bucket = int(stamp // 900)  # local offsets change on 15-minute boundaries at most
        local = local_of.get(bucket)
        if local is None:
            moment = datetime.fromtimestamp(stamp, tz=timezone.utc).astimezone()
            local = local_of[bucket] = (moment.hour, moment.weekday() >= 5)
        hours[local[0]] += 1
        weekend += local[1]
        is_wrapup = lkey[position] in wrapup_keys if persisted else True
        if etype == turn_code:
            # A transcript turn: the tool calls it records, and the commits it saw (kept apart
            # until the hook commits are known, so a commit both logged is counted once).
            if turns_with_tools is not None and lkey[position] not in turns_with_tools:
                continue
            event = cols.event_at(position)
            for entry in event.row.get("tools") or ():
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    tools[_tool_family(entry["name"])] += 1
            for derived in derived_events(event):
                if derived.type == "git_commit":
                    turn_commits.append((derived.row["commit_hash"], event.project if project and project_ok[project] else "",
                                         derived.row.get("commit_type") or "other"))
            continue
        if etype != commit_code and not is_wrapup:
            continue
        event = cols.event_at(position)
        if etype == commit_code:
            sha = event.row.get("commit_hash") or (COMMIT_RE.search(event.summary or "") or [None, ""])[1]
            if sha:
                hook_shas.add(sha)
            commit_types[event.row.get("commit_type") or "other"] += 1
            shape = event.row.get("diff_shape")
            if isinstance(shape, dict) and shape.get("quadrant"):
                quadrants[shape["quadrant"]] += 1
        if is_wrapup and event.row.get("milestone") == "session_wrapup":
            day = event.timestamp.astimezone().date()
            project = event.row.get("project") if isinstance(event.row.get("project"), str) else ""
            for kind, item in stated(event.row):
                if record_id(kind, project, item) in closed:
                    continue  # superseded, retired or rejected since
                if kind == "decision":
                    decisions.append((record_id(kind, project, item), f"{item} ({event.project or '-'}, {day})"))
                elif kind == "insight":
                    decisions.append(("", f"insight: {item} ({event.project or '-'})"))
    for sha, name, commit_type in turn_commits:
        if any(sha.startswith(other[:7]) or other.startswith(sha) for other in hook_shas):
            continue
        hook_shas.add(sha)
        commit_types[commit_type] += 1
        if name in projects:
            projects[name]["commits"] += 1
    for p in projects.values():
        p["last"] = datetime.fromtimestamp(p["last"], tz=timezone.utc)
    n_events = hi - lo
    sessions = {session_dim.col[position] for position in range(lo, hi)}
    sessions.discard(0)
    sections = []
    top = sorted(projects.items(), key=lambda kv: (-kv[1]["events"], kv[0]))[:8]
    sections.append(("Active surface", [
        f"- {name}: last seen {p['last'].astimezone().date()}, {counted(p['events'], 'event')}, {counted(p['commits'], 'commit')}"
        for name, p in top]))
    from carto_core.lenses.decisions import others_decisions

    theirs = others_decisions([ledger.records[rid] for rid in {rid for rid, _ in decisions}
                               if rid in ledger.records])
    decisions = [line for rid, line in decisions if rid not in theirs]
    sections.append(("Durable decisions", [f"- {d}" for d in decisions[-12:][::-1]]))
    sections.append(("Work shape", [
        "- commit types: " + (", ".join(f"{t} {n}" for t, n in commit_types.most_common()) or "none"),
        "- diff quadrants: " + (", ".join(f"{q} {n}" for q, n in quadrants.most_common()) or "none"),
        "- tool calls (transcripts): " + (", ".join(f"{t} {n}" for t, n in tools.most_common(12)) or "none")]))
    peak = ", ".join(f"{h:02d}:00" for h, _ in hours.most_common(3)) or "-"
    sections.append(("Cadence", [
        f"- peak hours (local): {peak}",
        f"- weekend share: {round(100 * weekend / n_events) if n_events else 0}%",
        f"- sessions: {len(sessions)}"]))
    warnings = []
    if n_events < 50:
        warnings.append(f"thin coverage: {counted(n_events, 'event')} in {window}")
    header = f"# carto profile\n\n_Derived from {counted(n_events, 'event')} over {window}; rebuilt by `carto profile`, never edit by hand._\n"
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
    make_dirs(os.path.dirname(path) or ".")
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open_private(temporary, "w", encoding="utf-8") as handle:
            handle.write(document["markdown"])
        os.replace(temporary, path)
    except OSError as exc:
        # the temporary name is ours, not the person's: say the file they asked for
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise OSError(exc.errno, exc.strerror, path) from exc
    return path
