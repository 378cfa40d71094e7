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


def _registry(home: Home) -> dict[str, str]:
    try:
        data = json.loads((home.state / REGISTRY).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(data, dict) else {}


def _save_registry(home: Home, data: dict[str, str]) -> None:
    path = home.state / REGISTRY
    if not data:
        path.unlink(missing_ok=True)
        return
    home.ensure_state()
    write_whole(path, json.dumps(data, sort_keys=True), mode=0o600)


def remember(home: Home, path: Path, project: str) -> None:
    """Record that carto's section of `project` lives in `path` (best effort: a home that
    cannot be written loses only this record)."""
    if not home.root.is_dir():
        return
    data = _registry(home)
    key = os.path.abspath(os.fspath(path))
    if data.get(key) == project:
        return
    data[key] = project
    try:
        _save_registry(home, data)
    except OSError:
        pass


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
            new = rewritten(existing, build_memory(home, owner))
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
    from carto_core.lenses.memory import BEGIN, NoRoom, build_memory, rewritten, section_of, \
        without_section

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
        if project.lower() not in whole and project.lower() not in touched \
                and not (ids & plan.ids):
            continue
        out["files"] += 1
        new = None
        if project.lower() not in whole:
            memory = build_memory(home, project)
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
