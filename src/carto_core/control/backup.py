"""`carto backup` and `carto restore`: snapshots of a home, rotated, optionally sealed.

A backup is an archive (`carto_core.control.archive`) of the logs and the state no rebuild
gives back (`archive.STATE`), taken through the rewriters' locks (`archive.snapshot`: every
row appended before it is in it, none half), written beside the home (never inside it: a
forget could not reach it there), and the oldest beyond `keep` removed. Sealed
(`carto_core.control.sealed`) with a passphrase or a key file when asked, or when the config
says so:

    [backup]
    dir = "~/carto-backups"          # default: <home's folder>/<home's name>-backups
    keep = 7                         # backups kept (the oldest go)
    daily = true                     # the detached keep-up job takes one a day
    key_file = "~/.config/carto/backup.key"   # seal with this key (`carto backup --new-key-file`)

A restore verifies the whole archive (the seal, every member's checksum) into a folder beside
the home before it touches the home, and never replaces a home that holds anything without
`force`; the replaced home is kept beside it (`<home>.replaced-<time>`), never deleted. What
the replaced home forgot stays forgotten: its tombstones (a forget left unfinished finished
first) are applied to the unpacked backup before it takes the home's place
(`forget.keep_out`), and what it records of things outside the home is kept rather than the
backup's: its team settings (server, allow list, password file: a project taken off the
allow list stays off) and its record of the MEMORY.md files carto wrote.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

from carto_core.control.archive import (ArchiveError, check_logs, log_names, snapshot, state_names,
                                        unpack, write_archive)
from carto_core.logio.home import Home
from carto_core.logio.tombstone import check as check_tombstones

NAME = re.compile(r"^carto-backup-(\d{8}T\d{6}Z)(?:-(\d+))?\.tar\.gz(\.sealed)?$")
KEEP = 7
DAILY_STAMP = "backup.last"
DAY = 86400.0


class BackupSettings:
    """`[backup]` of the config file, resolved against the home."""

    def __init__(self, home: Home, table: dict | None = None):
        table = table or {}
        folder = table.get("dir")
        self.dir = (Path(folder).expanduser() if isinstance(folder, str) and folder
                    else home.root.parent / f"{home.root.name}-backups")
        keep = table.get("keep", KEEP)
        self.keep = keep if isinstance(keep, int) and keep >= 1 else KEEP
        self.daily = table.get("daily") is True
        key = table.get("key_file")
        self.key_file = Path(key).expanduser() if isinstance(key, str) and key else None

    @classmethod
    def load(cls, home: Home) -> "BackupSettings":
        from carto_core.model.config import load_config

        return cls(home, load_config().section("backup"))


def backup(home: Home, *, settings: BackupSettings | None = None, secret=None,
           dest_dir: Path | None = None, keep: int | None = None, progress=None) -> dict:
    """Take a backup of `home` into its backup folder; returns what was written and removed.
    A forget left unfinished is finished first (a backup never holds half of one)."""
    from carto_core.control import forget as engine

    settings = settings or BackupSettings.load(home)
    folder = Path(dest_dir) if dest_dir else settings.dir
    keep = keep if keep is not None else settings.keep
    if not home.root.is_dir():
        raise ArchiveError(f"no carto home at {home.root}")
    if _inside(folder, home.root):
        raise ArchiveError(f"{folder} is inside the home: a backup there would back itself up "
                           "and a forget could not reach it; choose a folder outside it")
    check_tombstones(home)  # left out without a word, nothing would rebuild them
    # the other state it keeps holds no rows (checkpoints a backfill makes again, records the
    # home reads as empty): a folder or FIFO there is left out and named (`left_out`)
    check_logs(home, home.state / "search-calls.jsonl")
    if engine.pending(home):
        engine.resume(home)
    started = time.perf_counter()
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    name = f"carto-backup-{stamp}.tar.gz" + (".sealed" if secret is not None else "")
    # Several in one second: -2, -3, ... after the highest already there (the order rotation keeps).
    taken = [int(m.group(2) or 1) for m in (NAME.match(p.name) for p in backups(folder))
             if m.group(1) == stamp]
    dest = folder / (name if not taken else name.replace(stamp, f"{stamp}-{max(taken) + 1}"))
    from carto_core.util.privatefiles import make_dirs

    try:
        make_dirs(folder)
    except OSError as exc:
        raise ArchiveError(_folder_refused(folder, _refused_in(exc, folder), exc, "could not be made",
                                           "folders")) from None
    left_out: list[dict] = []
    names = state_names(home, left_out=left_out)
    pieces = snapshot(home, {**log_names(home), **names})
    try:
        manifest = write_archive(dest, pieces, kind="backup", secret=secret, progress=progress)
    except OSError as exc:
        where = _refused_in(exc, folder)
        # a log that cannot be read is said as every reader says it (`reader.cannot_read`)
        if not exc.filename or where != Path(os.path.abspath(folder)):
            raise
        raise ArchiveError(_folder_refused(folder, where, exc, "could not be written into", "files")) from None
    removed = rotate(folder, keep, spare=dest)
    return {"backup": str(dest), "bytes": dest.stat().st_size, "sealed": secret is not None,
            "files": len(manifest["files"]), "rows": manifest["rows"],
            "seconds": round(time.perf_counter() - started, 3), "removed": removed,
            "left_out": left_out}


def _refused_in(exc: OSError, folder: Path) -> Path:
    """The folder the file system refused to make or write something in (above `folder` when
    the error names no file)."""
    return Path(os.path.dirname(os.path.abspath(os.fsdecode(exc.filename or folder))))


def _folder_refused(folder: Path, where: Path, exc: OSError, doing: str, made: str) -> str:
    """One line for a backup folder that cannot be made or written into (`where`: the folder
    that refused, `made`: what was being made in it): the folder, why, and where to choose
    another."""
    import errno

    from carto_core.logio.homefaults import in_the_way, why

    if exc.errno == errno.ENOTDIR:
        blocking = in_the_way(os.path.abspath(folder))
        reason = f"{blocking} is a file, not a folder" if blocking else "a file is in the way"
    elif exc.errno == errno.ENOENT and where.is_dir():
        # a parent there that refuses to hold new entries (/proc, a FUSE mount)
        reason = f"{where} does not let {made} be made in it"
    else:
        reason = f"{where} is {why(exc)}"
    return f"the backup folder {folder} {doing} ({reason}); choose another with --dir, or set [backup] dir in the config file"


def _inside(path: Path, root: Path) -> bool:
    # Links resolved: a folder reached through one can still be the home's.
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(root))
        return True
    except ValueError:
        return False


def backups(folder: Path) -> list[Path]:
    """The backups in `folder`, oldest first."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if p.is_file() and NAME.match(p.name)]

    def when(path: Path) -> tuple[str, int]:
        match = NAME.match(path.name)
        return match.group(1), int(match.group(2) or 1)  # a second one in the same second: -2

    return sorted(found, key=when)


def rotate(folder: Path, keep: int, spare: Path | None = None) -> list[str]:
    """Remove the oldest backups beyond `keep` (never `spare`, the one just written)."""
    found = [p for p in backups(folder) if p != spare]
    keep = keep - 1 if spare is not None else keep
    gone = found[:max(0, len(found) - keep)]
    for path in gone:
        path.unlink(missing_ok=True)
    return [str(p) for p in gone]


def restore(home: Home, source: Path, *, secret=None, force: bool = False, progress=None) -> dict:
    """Restore the backup (or export) `source` as `home`: verified whole into a folder beside
    the home first; a home that holds anything is replaced only with `force`, and kept beside
    it. Raises ArchiveError, SealError, or HomeNotEmpty."""
    source = Path(source)
    if not source.is_file():
        raise ArchiveError(f"{source}: no such backup")
    replacing = _holds_anything(home.root)
    if replacing and not force:
        raise HomeNotEmpty(f"{home.root} already holds a home: restore into an empty or new "
                           "folder (CARTO_HOME=...), or add --force to replace it (it is kept "
                           "beside it, renamed)")
    buried = _forgotten_in(home) if replacing else None
    from carto_core.util.privatefiles import make_dirs

    make_dirs(home.root.parent)
    staging = home.root.parent / f".{home.root.name}.restoring-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    forgotten = None
    try:
        manifest = unpack(source, staging, secret=secret, progress=progress)
        carried = _tombstones_of(Home(staging))
        if buried:
            from carto_core.control.forget import keep_out

            forgotten = keep_out(Home(staging), buried)
        _date_tombstones(Home(staging), manifest, carried, buried, _changed_at(home) if buried else None)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    kept = None
    if home.root.exists():
        if _holds_anything(home.root):
            from carto_core.control.replaced import kept_name

            kept = kept_name(home)
            os.rename(home.root, kept)
        else:
            home.root.rmdir()
    os.rename(staging, home.root)
    team = _settle_team(home, kept)
    _settle_memory_files(home, kept)
    from carto_core.logio.rewrite_journal import fsync_folder

    fsync_folder(str(home.root.parent))
    return {"home": str(home.root), "backup": str(source), "kind": manifest["kind"],
            "created": manifest["created"], "files": len(manifest["files"]),
            "rows": manifest["rows"], "replaced_home_kept_at": str(kept) if kept else None,
            "forgotten": forgotten, "team_settings": team,
            "next": "carto index (the keyword index, facts and vectors are rebuilt from the logs)"}


def _tombstones_of(home: Home) -> set[int]:
    from carto_core.logio.tombstone import TombstoneSet

    return set(TombstoneSet.of(home).hashes)


def _changed_at(home: Home) -> float | None:
    from carto_core.logio.tombstone import path_of

    try:
        return os.stat(path_of(home)).st_mtime
    except OSError:
        return None


def _date_tombstones(home: Home, manifest: dict, carried: set[int], buried, buried_at: float | None) -> None:
    """Date the restored home's tombstones by the last forget they hold, not by the restore that
    wrote them (unpacked now, the replaced home's added): `carto doctor` calls a backup taken
    before that time one that may hold what a forget took out, and a backup taken after the
    last forget and before a restore holds none of it. The replaced home's forgets are dated
    by its tombstones; the backup's, by when it was taken (they are no later)."""
    import calendar

    from carto_core.logio.tombstone import path_of

    path = path_of(home)
    if not os.path.exists(path):
        return
    try:
        created = float(calendar.timegm(time.strptime(manifest.get("created") or "", "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return
    held = set(buried.hashes) if buried else set()
    times = [buried_at] if held and buried_at is not None else []
    if carried - held or not times:
        times.append(created)
    os.utime(path, (time.time(), max(times)))


def _forgotten_in(home: Home):
    """The tombstones of the home a restore replaces (a forget it left unfinished finished
    first, so they are whole). ArchiveError when they cannot be read: the restore could not
    keep its forgotten events out."""
    from carto_core.control import forget as engine
    from carto_core.logio.tombstone import TombstoneSet, path_of

    if engine.pending(home):
        engine.resume(home)
    from carto_core.logio.notafile import NotAFile

    try:
        return TombstoneSet.of(home, strict=True)
    except (ValueError, NotAFile):  # not tombstones, or a folder or FIFO in their place
        raise ArchiveError(f"{path_of(home)} cannot be read as tombstones: a restore over this home "
                           "could bring back the events it forgot; restore into another folder "
                           "(CARTO_HOME=...), or move that file aside to restore over it anyway") from None


def _settle_team(home: Home, kept: Path | None) -> str | None:
    """A backup holds the team settings but never the password file they name (a path in the
    home it was taken from). Restored over a home with a team, that home's settings and
    password file stay (the server, the allow list and the password are this person's latest
    choices on this machine: a project `carto forget` or `carto team forget` took off the list
    stays off); restored elsewhere, the backup's settings name no password file rather than
    another home's: `carto team init ... --password-stdin` gives one. Returns whose settings the
    home has ("replaced home", "backup"), None when it has none."""
    import json

    from carto_core.team.settings import FILE, FOLDER, PASSFILE, write_private

    team = home.state / FOLDER
    previous = Home(kept).state / FOLDER if kept is not None else None
    whose = "backup"
    if previous is not None and (previous / FILE).is_file():
        from carto_core.util.privatefiles import make_dirs

        make_dirs(team)
        write_private(team / FILE, (previous / FILE).read_text("utf-8"))
        whose = "replaced home"
    try:
        settings = json.loads((team / FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(settings, dict):
        return None
    if previous is not None and (previous / PASSFILE).is_file():
        write_private(team / PASSFILE, (previous / PASSFILE).read_text("utf-8"))
    settings["passfile"] = str(team / PASSFILE) if (team / PASSFILE).is_file() else None
    write_private(team / FILE, json.dumps(settings, indent=1, sort_keys=True) + "\n")
    return whose


def _settle_memory_files(home: Home, kept: Path | None) -> None:
    """The record of the MEMORY.md files carto wrote names files outside the home, which the
    replaced home's forgets patched since the backup: restored over a home, that home's record
    stays (none when it had none), so the keep-up job never writes a forgotten project's
    section back into a file the forget took it out of."""
    if kept is None:
        return
    from carto_core.control.memoryfiles import REGISTRY
    from carto_core.control.files import write_whole

    previous = Home(kept).state / REGISTRY
    try:
        text = previous.read_text("utf-8")
    except OSError:
        (home.state / REGISTRY).unlink(missing_ok=True)
        return
    home.ensure_state()
    write_whole(home.state / REGISTRY, text, mode=0o600)


class HomeNotEmpty(Exception):
    """A restore that would replace a home without --force."""


def _holds_anything(root: Path) -> bool:
    try:
        return any(root.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return False


def daily(home: Home, *, now: float | None = None) -> dict | None:
    """The keep-up job's daily backup: when `[backup] daily = true` and the last one is a day
    old. Sealed with `[backup] key_file` when set (a detached job cannot ask a passphrase).
    None when not due."""
    settings = BackupSettings.load(home)
    if not settings.daily:
        return None
    now = time.time() if now is None else now
    stamp = home.state / DAILY_STAMP
    try:
        if now - stamp.stat().st_mtime < DAY:
            return None
    except FileNotFoundError:
        pass
    secret = None
    if settings.key_file is not None:
        from carto_core.control.sealed import Secret, read_key_file

        secret = Secret(key=read_key_file(settings.key_file))
    done = backup(home, settings=settings, secret=secret)
    home.ensure_state()
    from carto_core.util.privatefiles import write_text

    write_text(stamp, done["backup"] + "\n")
    os.utime(stamp, (now, now))
    return done
