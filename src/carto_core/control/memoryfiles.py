"""The MEMORY.md files carto wrote its section into, and bringing them in line after a forget.

`carto memory --write` records each file it writes in `<home>/.carto/memory-files.json`
(`{path: project}`, 0600). A forget then looks at those files and at every MEMORY.md in Claude
Code's auto-memory folders that holds carto's markers (files written before the record
existed): a section whose project was forgotten whole is removed (markers and all, the
person's own lines kept byte for byte); a section that names a forgotten event, or whose
project lost events, is written again from the home as it is after the forget.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from carto_core.control.files import write_whole
from carto_core.logio.home import Home

REGISTRY = "memory-files.json"


def _entries(home: Home) -> dict[str, dict]:
    """`{path: {"project", "folder"}}`; a file recorded before folders were (`{path: project}`)
    has folder None."""
    from carto_core.util.safeio import read_text

    try:  # a FIFO or folder in its place records nothing, never waited on
        data = json.loads(read_text(home.state / REGISTRY))
    except (OSError, ValueError):
        return {}
    out = {}
    for key, value in (data.items() if isinstance(data, dict) else ()):
        if isinstance(value, str):
            value = {"project": value, "folder": None}
        if isinstance(key, str) and isinstance(value, dict) and isinstance(value.get("project"), str):
            folder = value.get("folder")
            out[key] = {"project": value["project"], "folder": folder if isinstance(folder, str) else None}
    return out


def _registry(home: Home) -> dict[str, str]:
    return {key: value["project"] for key, value in _entries(home).items()}


def _save_registry(home: Home, data: dict[str, str], folders: dict[str, str | None] | None = None) -> None:
    path = home.state / REGISTRY
    if not data:
        path.unlink(missing_ok=True)
        return
    home.ensure_state()
    folders = {k: v["folder"] for k, v in _entries(home).items()} if folders is None else folders
    document = {key: {"project": project, "folder": folders.get(key)} if folders.get(key) else project
                for key, project in data.items()}
    write_whole(path, json.dumps(document, sort_keys=True), mode=0o600)


def remember(home: Home, path: Path, project: str, folder: str | None = None) -> None:
    """Record that carto's section of `project`, as recorded in `folder`, lives in `path` (best
    effort: a home that cannot be written loses only this record)."""
    if not home.root.is_dir():
        return
    entries = _entries(home)
    key = os.path.abspath(os.fspath(path))
    if entries.get(key) == {"project": project, "folder": folder}:
        return
    entries[key] = {"project": project, "folder": folder}
    try:
        _save_registry(home, {k: v["project"] for k, v in entries.items()},
                       {k: v["folder"] for k, v in entries.items()})
    except OSError:
        pass


def folder_of(home: Home, path: str, project: str) -> str | None:
    """The folder whose rows the MEMORY.md at `path` holds: the one `carto memory --write`
    recorded; else, for Claude Code's auto-memory file, the recorded working folder (or a
    parent of one) its folder name encodes; else the repository the file is in; else None."""
    import re

    recorded = _entries(home).get(os.path.abspath(path), {}).get("folder")
    if recorded:
        return recorded
    candidate = Path(path)
    if candidate.name == "MEMORY.md" and candidate.parent.name == "memory":
        encoded = candidate.parent.parent.name
        from carto_core.model.memoryfiles import cwds_in_home

        for cwd in cwds_in_home(home):
            for folder in (Path(cwd), *Path(cwd).parents):
                if re.sub(r"[^A-Za-z0-9]", "-", str(folder)) == encoded:
                    return str(folder)
        return None
    from carto_core.model.project import find_git

    info = find_git(candidate.parent) if candidate.parent.is_dir() else None
    return str(info.worktree) if info is not None else None


#: Most files one refresh rewrites, and where it logs what it changed.
REFRESH_MAX = 10
REFRESH_LOG = "memory-refresh.jsonl"


def refresh(home: Home, project: str | None = None, *, limit: int = REFRESH_MAX) -> list[dict]:
    """Bring carto's section of every MEMORY.md `carto memory --write` wrote (of `project`, or
    all) up to date with the home: superseded and retired decisions go, new ones come, the
    person's lines stay (`lenses.memory.rewritten`). Idempotent (an unchanged file is not
    written), at most `limit` files, a file whose section a person removed is left alone. One
    row per file looked at in `<home>/.carto/memory-refresh.jsonl` (changed, lines added and
    removed). Never raises for a file: its problem is its row's `error`."""
    import difflib
    import time

    from carto_core.lenses.memory import BEGIN, NoRoom, build_memory, rewritten

    if _registry(home):
        _write_profile(home)
    rows = []
    for name, owner in sorted(_registry(home).items()):
        if len(rows) >= limit:
            break
        if project is not None and owner.lower() != project.lower():
            continue
        row = {"timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "file": name,
               "project": owner, "changed": False}
        try:
            existing = Path(name).read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # moved or deleted: nothing of the person's to keep current
        if BEGIN not in existing:
            continue
        try:
            new = rewritten(existing, build_memory(home, owner, folder_of(home, name, owner)))
            if new != existing:
                diff = list(difflib.unified_diff(existing.splitlines(), new.splitlines(), lineterm="", n=0))
                write_whole(Path(name), new)
                row.update(changed=True,
                           added=sum(1 for d in diff if d.startswith("+") and not d.startswith("+++")),
                           removed=sum(1 for d in diff if d.startswith("-") and not d.startswith("---")))
        except (NoRoom, OSError) as exc:
            row["error"] = str(exc)[:300]
        rows.append(row)
    if rows:
        from carto_core.logio.appendlog import append_rows

        try:
            home.ensure_state()
            append_rows(home.state / REFRESH_LOG, rows)
        except OSError:
            pass
    return rows


def _write_profile(home: Home) -> None:
    """`<home>/.carto/profile.md` rebuilt from the logs (`carto profile`), so the files take
    the owner's current profile (best effort: the files are refreshed without it)."""
    from carto_core.lenses.profile import build_profile, write_profile

    try:
        write_profile(home, build_profile(home))
    except (OSError, ValueError):
        pass


def refresh_quietly(home: Home, project: str | None = None) -> list[dict]:
    """`refresh` for a command that just changed what the memory holds: never fails it."""
    try:
        return refresh(home, project)
    except Exception:  # noqa: BLE001 - the command's own work is done; the next refresh retries
        return []


def _claude_memory_files() -> list[Path]:
    from carto_core.transcript.resolver import TranscriptRoots

    found = []
    for root in TranscriptRoots.default().claude:
        if root.is_dir():
            found.extend(sorted(root.glob("*/memory/MEMORY.md")))
    return found


def patch_memory_files(home: Home, plan, *, write: bool) -> dict:
    """Remove or write again carto's section in every MEMORY.md it wrote (see the module
    docstring). Returns `{files, removed, rewritten, failed}` (paths)."""
    from carto_core.lenses.memory import BEGIN, NoRoom, build_memory, has_profile_lines, rewritten, \
        section_of, without_section

    registry = _registry(home)
    candidates = dict.fromkeys(registry)
    candidates.update(dict.fromkeys(os.fspath(p) for p in _claude_memory_files()))
    whole = {p.lower() for p in plan.criteria.projects} if not any(
        (plan.criteria.sessions, plan.criteria.timed, plan.criteria.match,
         plan.criteria.events)) else set()
    touched = {p.lower() for p in plan.projects_touched}
    out: dict = {"files": 0, "removed": [], "rewritten": [], "failed": []}
    for name in candidates:
        path = Path(name)
        try:
            existing = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if BEGIN not in existing:
            continue
        found = section_of(existing)
        if found is None:
            continue
        project, ids = found
        # the profile's lines name other projects and count their events, with no ids: a
        # forget that took events from any project may have changed them
        profiled = bool(plan.ids or whole or touched) and has_profile_lines(existing)
        if project.lower() not in whole and project.lower() not in touched \
                and not (ids & plan.ids) and not profiled:
            continue
        new = None
        if project.lower() not in whole:
            memory = build_memory(home, project, folder_of(home, name, project))
            if memory.knows_project():
                try:
                    new = rewritten(existing, memory)
                except NoRoom:
                    new = None
        if new is None:
            new = without_section(existing)
            kind = "removed"
        else:
            kind = "rewritten"
        if new == existing:
            continue
        out["files"] += 1
        out[kind].append(name)
        if write:
            try:
                write_whole(path, new)
            except OSError as exc:
                out["failed"].append(f"{name}: {exc.strerror or exc}")
            if kind == "removed":
                registry.pop(name, None)
    if write:
        registry = {k: v for k, v in registry.items() if v.lower() not in whole}
        try:
            _save_registry(home, registry)
        except OSError:
            pass
    return out
