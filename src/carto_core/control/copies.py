"""The copies of a home carto made itself, which a forget in the home does not reach: the homes
`carto restore --force` kept beside it (`<home>.replaced-<time>`) and the backups `carto backup`
wrote (`control.backup`). A forget names each one that still holds what it forgot, so "forgot
N events" is never read as "no copy is left".

A replaced home is a home: `forget_in_replaced` forgets there too (the home-local phases: its
MEMORY.md files and team server are the ones the forget in the home already patched). A backup
is a checksummed archive, sealed or not: carto never edits one. An unsealed backup is read to
count the rows that hold it; a sealed one cannot be read without its key, so it is named as one
that may hold it."""

from __future__ import annotations

import gzip
import tarfile
import zlib
from pathlib import Path

from carto_core.logio.home import Home


def replaced_homes(home: Home) -> list[Path]:
    """The homes a restore kept beside `home`, oldest first."""
    parent = home.root.parent
    prefix = f"{home.root.name}.replaced-"
    try:
        found = [p for p in parent.iterdir() if p.name.startswith(prefix) and p.is_dir()]
    except OSError:
        return []
    return sorted(found)


def _home_holds(copy: Path, criteria) -> dict:
    from carto_core.control.forget import _telemetry, make_plan

    other = Home(copy)
    plan = make_plan(other, criteria)
    telemetry = sum(_telemetry(other, plan, write=False).values())
    return {"path": str(copy), "events": len(plan.ids), "rows": sum(plan.rows.values()) + telemetry}


def _backup_holds(path: Path, plan) -> dict:
    """The rows of an unsealed backup that hold what `plan` forgot (its events, or rows its
    criteria match); None for a sealed or unreadable one."""
    from carto_core.control.archive import EVENT_LOGS, LOGS, ROOT
    from carto_core.control.sealed import is_sealed
    from carto_core.logio.jsonl import fast_loads_line

    out: dict = {"path": str(path), "sealed": is_sealed(path), "rows": None}
    if out["sealed"]:
        return out
    events = {f"{ROOT}{name}" for name in EVENT_LOGS.values()}
    readable = events | {f"{ROOT}{name}" for name in LOGS.values()} | {f"{ROOT}.carto/search-calls.jsonl"}
    criteria = plan.criteria
    rows = 0
    try:
        with gzip.open(path, "rb") as zipped, tarfile.open(fileobj=zipped, mode="r|") as tar:
            for member in tar:
                if member.name not in readable or not member.isfile():
                    continue
                for raw in tar.extractfile(member):
                    row, problem = fast_loads_line(raw.rstrip(b"\r\n"))
                    if problem == "malformed_json" or not isinstance(row, dict):
                        rows += bool(raw.strip()) and criteria.line(raw)
                    elif row.get("event_id") in plan.ids or row.get("call_id") in plan.calls:
                        rows += 1
                    elif member.name in events:
                        rows += criteria.row(row)
                    else:
                        rows += criteria.telemetry(row)
    except (OSError, EOFError, tarfile.TarError, ValueError, zlib.error):
        return out
    out["rows"] = rows
    return out


def holding(home: Home, plan) -> dict:
    """The copies that hold what `plan` forgot: {"replaced_homes": [{"path", "events",
    "rows"}], "backups": [{"path", "sealed", "rows"}]} (a sealed backup's rows: None, not
    known)."""
    from carto_core.control.backup import BackupSettings, backups

    homes = [found for found in (_home_holds(p, plan.criteria) for p in replaced_homes(home))
             if found["events"] or found["rows"]]
    try:
        folder = BackupSettings.load(home).dir
    except Exception:  # noqa: BLE001 - a config that cannot be read: the default folder
        folder = BackupSettings(home).dir
    held = [found for found in (_backup_holds(p, plan) for p in backups(folder))
            if found["rows"] is None or found["rows"]]
    return {"replaced_homes": homes, "backups": held}


def forget_in_replaced(home: Home, criteria, progress=None) -> list[dict]:
    """Forget by `criteria` in every home a restore kept beside `home` that holds anything of
    it; what each forget took out."""
    from carto_core.control.forget import forget

    done = []
    for copy in replaced_homes(home):
        found = _home_holds(copy, criteria)
        if found["events"] or found["rows"]:
            document = forget(Home(copy), criteria, progress, local=True)
            done.append({"path": str(copy), "events": document["events"], "rows": document["rows"]})
    return done
