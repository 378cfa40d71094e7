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

from carto_core.control.replaced import kept_at, replaced_homes, stamp_seconds
from carto_core.logio.home import Home


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
        _finish_interrupted(copy, progress)
        found = _home_holds(copy, criteria)
        if found["events"] or found["rows"]:
            document = forget(Home(copy), criteria, progress, local=True)
            done.append({"path": str(copy), "events": document["events"], "rows": document["rows"]})
    return done


def _finish_interrupted(copy: Path, progress=None) -> dict | None:
    """Finish a forget in the home at `copy` that was interrupted: it may have buried its ids
    and rewritten its logs already, so the copy no longer looks as if it held anything, and
    nothing else finishes it (no command reads a kept home). It was a forget of that home alone
    (its intent says so), and is finished so. What it took out, or None."""
    from carto_core.control.forget import pending, resume

    other = Home(copy)
    return resume(other, progress) if pending(other) else None


def _folder_bytes(folder: Path) -> int:
    import os

    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def unburied_in(home: Home, copy: Path) -> set[int]:
    """The hashes of the events `home` forgot that the home kept at `copy` did not (its
    tombstones lack them): forgets in `home` since the restore that kept it, which it may still
    hold. A copy whose tombstones cannot be read lacks them all."""
    from carto_core.logio.notafile import NotAFile
    from carto_core.logio.tombstone import TombstoneSet

    try:
        kept = TombstoneSet.of(Home(copy)).hashes
    except NotAFile:  # a folder or FIFO in their place
        kept = frozenset()
    return set(TombstoneSet.of(home).hashes - kept)


def inventory(home: Home) -> dict:
    """Every copy carto made of `home`, for `carto doctor`, without reading one: the homes a
    restore kept beside it ({"path", "kept_at", "bytes", "unburied"}: how many events the home
    forgot since that it may still hold) and the backups ({"path", "taken_at", "bytes",
    "sealed", "before_last_forget"}: taken before the home's tombstones last changed, so it may
    hold what that forget took out). Times are seconds since the epoch (None when the name
    holds none)."""
    import os

    from carto_core.control.backup import NAME, BackupSettings, backups
    from carto_core.logio.notafile import NotAFile
    from carto_core.logio.tombstone import path_of

    homes = []
    for copy in replaced_homes(home):
        try:
            unburied = len(unburied_in(home, copy))
        except NotAFile:  # the home's tombstones: not known, and doctor names them as a problem
            unburied = 0
        homes.append({"path": str(copy), "kept_at": kept_at(copy),
                      "bytes": _folder_bytes(copy), "unburied": unburied})
    try:
        folder = BackupSettings.load(home).dir
    except Exception:  # noqa: BLE001 - a config that cannot be read: the default folder
        folder = BackupSettings(home).dir
    try:
        last_forget = os.stat(path_of(home)).st_mtime
    except OSError:
        last_forget = None
    found = []
    for path in backups(folder):
        match = NAME.match(path.name)
        taken = stamp_seconds(match.group(1)) if match else None
        try:
            size = path.stat().st_size
        except OSError:
            continue
        found.append({"path": str(path), "taken_at": taken, "bytes": size,
                      "sealed": bool(match and match.group(3)),
                      "before_last_forget": bool(last_forget and taken is not None and taken < last_forget)})
    return {"replaced_homes": homes, "backups": found, "last_forget": last_forget}


def _buried_ids(copy: Home, hashes: set[int]) -> set[str]:
    """The event ids of `copy` whose hash is among `hashes`."""
    from carto_core.control.forget import EVENT_LOGS, _event_id, _rows
    from carto_core.logio.tombstone import id_hash
    from carto_core.search.telemetry import access_ledger_path, served_log_path

    seen: set[str] = set()
    found: set[str] = set()
    for path in (*(copy.log(label) for label in EVENT_LOGS), served_log_path(copy),
                 access_ledger_path(copy)):
        for line in _rows(path):
            event_id = _event_id(line.row)
            if event_id and event_id not in seen:
                seen.add(event_id)
                if id_hash(event_id) in hashes:
                    found.add(event_id)
    return found


def forget_forgotten_in_replaced(home: Home, *, write: bool, progress=None) -> list[dict]:
    """For every home a restore kept beside `home`: the events `home` forgot since that it
    still holds ({"path", "events", "rows"}, and "finished": what a forget interrupted there,
    finished first: how many events it named), taken out with `write` (the home-local phases, as
    `forget_in_replaced`), and every hash it lacked buried there, so it is known to hold none of
    them. Homes that lack no tombstone are left out, unless one was finished there."""
    from carto_core.control.criteria import Criteria
    from carto_core.control.forget import forget
    from carto_core.logio.tombstone import bury_hashes

    done = []
    for copy in replaced_homes(home):
        finished = _finish_interrupted(copy, progress) if write else None
        missing = unburied_in(home, copy)
        if not missing:
            if finished is not None:
                done.append({"path": str(copy), "events": 0, "rows": 0,
                             "finished": {"events": finished["events"]}})
            continue
        other = Home(copy)
        ids = _buried_ids(other, missing)
        entry = {"path": str(copy), "events": len(ids), "rows": 0}
        if finished is not None:
            entry["finished"] = {"events": finished["events"]}
        if ids and write:
            entry["rows"] = forget(other, Criteria(events=sorted(ids)), progress, local=True)["rows"]
        elif ids:
            entry["rows"] = _home_holds(copy, Criteria(events=sorted(ids)))["rows"]
        if write:
            bury_hashes(other, missing)
        done.append(entry)
    return done
