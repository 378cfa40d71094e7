"""`carto search --project NAME` with no query: orient on a project or family.

Newest first: the latest wrapups and the threads they left open (current records of the decision
ledger only: a thread retired, rejected or superseded since, or one that says "none", is left
out), other milestones, commits, and the files edited most often. Built from the keyword index's columns (no full log parse): only
the rows shown, plus up to `EDIT_WINDOW` newest edit rows for the file counts, are read back.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

EDIT_WINDOW = 2000
_MODIFIED = re.compile(r"^Modified: (.+?)(?: \(via bash\))?$")


def orient(engine, project_scope, *, since=None, before=None, limit: int = 5) -> dict:
    """The orientation document for a project scope (a `ProjectScope`)."""
    from carto_core.search.index import LOG_CODE

    engine.refresh() if engine.auto_refresh else engine.ensure_loaded()
    scope = engine.scope(since=since, before=before, project=project_scope)
    index = engine.index
    n = len(index)
    mask = scope.mask if scope.mask is not None else np.ones(n, np.bool_)
    docs = np.flatnonzero(mask)
    ts = np.asarray(index.cols["ts"])[docs]
    order = np.argsort(-np.nan_to_num(ts, nan=-np.inf), kind="stable")
    docs = docs[order]
    types = index.strings["types"]
    type_col = np.asarray(index.cols["type"])[docs]
    source_col = np.asarray(index.cols["source"])[docs]

    def item(position: int) -> dict:
        row = index.row(position)
        from carto_core.search.pipeline import _summary

        return {"event_id": index.event_id(position), "timestamp": row.get("timestamp"),
                "type": types[int(index.cols["type"][position])], "project": row.get("project"),
                "summary": _summary(row), "session_id": index.strings["sessions"][int(index.cols["session"][position])]}

    from carto_core.model.decisions import is_empty, load, record_id

    ledger = load(engine.home)
    milestone_docs = docs[source_col == LOG_CODE["milestones"]]
    wrapups, milestones, open_threads, wrapup_rows = [], [], [], []
    listed: set[str] = set()
    for position in milestone_docs[:200].tolist():
        row = index.row(position)
        if row.get("milestone") == "session_wrapup":
            if len(wrapups) < limit:
                wrapups.append(item(position))
                wrapup_rows.append(row)
                for text in row.get("unresolved") or []:
                    if is_empty(text) or len(open_threads) >= 3 * limit:
                        continue
                    record = ledger.records.get(record_id("thread", str(row.get("project") or ""), text))
                    if record is not None and (not record.current or record.id in listed):
                        continue  # closed since (retired, rejected, superseded), or listed already
                    if record is not None:
                        listed.add(record.id)
                    open_threads.append({"text": text, "from": index.event_id(position),
                                         "timestamp": row.get("timestamp"),
                                         "record": record.id if record is not None else None})
        elif len(milestones) < limit:
            milestones.append(item(position))
        if len(wrapups) >= limit and len(milestones) >= limit:
            break
    _mark_stale(wrapups, wrapup_rows)
    commit_code = [c for c, t in enumerate(types) if t == "git_commit"]
    commits = [item(p) for p in docs[np.isin(type_col, commit_code)][:limit].tolist()]
    edit_code = [c for c, t in enumerate(types) if t == "tool_file_edit"]
    files: Counter = Counter()
    newest: dict[str, str] = {}
    folders: dict[str, str | None] = {}
    for position in docs[np.isin(type_col, edit_code)][:EDIT_WINDOW].tolist():
        row = index.row(position)
        for path in edited_files(row):
            files[path] += 1
            newest.setdefault(path, row.get("timestamp"))
            if folders.get(path) is None:
                folders[path] = _project_folder(row.get("cwd"), row.get("project"))
    busiest = [{"path": p, "relative": _relative(p, folders[p]), "edits": c, "last": newest[p]}
               for p, c in files.most_common(limit)]
    return {
        "project": project_scope.names[0] if project_scope.names else "",
        "matched_projects": list(scope.project_values),
        "events": int(len(docs)),
        "wrapups": wrapups, "open_threads": open_threads, "milestones": milestones,
        "commits": commits, "busiest_files": busiest,
    }


def edited_files(row: dict) -> list[str]:
    """The files an edit row names, absolute: Codex's apply_patch rows name them relative to
    the row's cwd, Claude's absolute, and one file must count once whichever agent edited it.
    A relative name without an absolute cwd to place it is kept as written."""
    from carto_core.capture.collision import edit_paths

    summary = str(row.get("summary") or "")
    placed = edit_paths(summary, str(row.get("cwd") or ""))
    if placed:
        return placed
    match = _MODIFIED.match(summary)
    return [p.strip() for p in match.group(1).split(",") if p.strip()] if match else []


def _project_folder(cwd, project) -> str | None:
    """The folder named after the project at or above the row's cwd (a project is named after
    its main checkout's folder, so a worktree's cwd below it finds it too); None when there
    is none."""
    import os

    if not isinstance(cwd, str) or not project or not os.path.isabs(cwd):
        return None
    folder = os.path.normpath(cwd)
    while True:
        if os.path.basename(folder) == project:
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _relative(path: str, folder: str | None) -> str | None:
    import os

    if folder is None or not path.startswith(folder.rstrip(os.sep) + os.sep):
        return None
    return path[len(folder.rstrip(os.sep)) + 1:]


def _mark_stale(wrapups: list[dict], rows: list[dict]) -> None:
    """Each wrapup's `stale` (what changed in git, since, in what it cites: None when up to
    date or git cannot tell); up-to-date ones first, each group newest first."""
    from carto_core.model.staleness import Checker, of_statement
    from carto_core.util.timeparse import epoch_seconds

    checker = Checker()
    for entry, row in zip(wrapups, rows):
        written = epoch_seconds(entry.get("timestamp"))
        said = " ".join(d for d in row.get("decisions") or [] if isinstance(d, str))
        entry["stale"] = None if written is None else of_statement(
            checker, said, row.get("cites"), str(row.get("cwd") or ""), written)
    wrapups.sort(key=lambda e: e["stale"] is not None)
