"""Archives of a home: what `carto export` and `carto backup` write, what `carto import` and
`carto restore` read.

An archive is a gzip-compressed tar (sealed with `carto_core.control.sealed` when a backup is
encrypted) whose members mirror the home under `carto/home/`:

    carto/home/changelog.jsonl ...          the logs, byte for byte (an export: the rows it
                                            selected, each as it was written)
    carto/home/.carto/tombstones.bin ...    a backup only: the state a home cannot rebuild
                                            (`STATE`: tombstones, checkpoints, live transcript
                                            states, the MEMORY.md record, team settings without
                                            the password file, search calls, logged commits)
    carto/manifest.json                     last: {"format": "carto-archive", "version": 1,
                                            "kind": "export" | "backup", "created",
                                            "carto_version", "selection", "files": {name:
                                            {"bytes", "rows", "sha256"}}, "rows"}

Derived stores (keyword index, facts cache, vectors, profile) are never in an archive: they
are rebuilt from the logs (`carto index`). Reading verifies every member against the manifest
(size, rows, SHA-256) and refuses an archive with a member it does not list, a name outside
`carto/home/`, or anything but regular files, before anything is merged or restored.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import json
import os
import shutil
import stat
import tarfile
import time
import zlib
from collections.abc import Iterable
from pathlib import Path

from carto_core.logio.home import Home
from carto_core.logio.logs import SEARCHED_LOGS, SIDE_LOGS
from carto_core.logio.reader import NotALogFile

FORMAT = "carto-archive"
VERSION = 1
ROOT = "carto/home/"
MANIFEST = "carto/manifest.json"
#: Event logs (an id is an event) and telemetry logs (an id is the event a row refers to).
EVENT_LOGS = {**SEARCHED_LOGS, "knowledge-gaps": SIDE_LOGS["knowledge-gaps"]}
TELEMETRY_LOGS = {label: name for label, name in SIDE_LOGS.items() if label not in EVENT_LOGS}
LOGS = {**EVENT_LOGS, **TELEMETRY_LOGS}
#: What a backup keeps of `.carto/` (patterns under it): what no rebuild gives back.
STATE = ("tombstones.bin", "memory-files.json", "search-calls.jsonl", "logged-commits.txt",
         "checkpoints/*.json", "live/*/*.json", "team/team.json")
_BLOCK = 1 << 20


class ArchiveError(Exception):
    """An archive that cannot be used: damaged, of another format, or unsafe."""


# --------------------------------------------------------------------------- snapshots


class Piece:
    """One member to write: `size` bytes of an open descriptor from offset 0."""

    def __init__(self, name: str, fd: int, size: int):
        self.name, self.fd, self.size = name, fd, size


def _whole_lines(fd: int, size: int) -> int:
    """The size up to the last newline (a row still being written is left out)."""
    end = size
    while end > 0:
        start = max(0, end - 65536)
        block = os.pread(fd, end - start, start)
        cut = block.rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        end = start
    return 0


def snapshot(home: Home, names: dict[str, Path], *, lock: bool = True) -> list[Piece]:
    """The files `names` (member name -> path) as they are at one moment: every log's
    rewriters' lock is taken (in one order, so no rewriter waits on another's), a rewrite that
    died is finished, each file is opened and its size up to its last newline recorded, and
    the locks are released. The descriptors keep those inodes: a rewrite after the release
    replaces the files, not what is read from them. A row appended before the snapshot is in
    it (its one `write` landed); one appended after is not."""
    from carto_core.logio.rewrite_journal import open_lock, recover_locked

    locks: list[int] = []
    pieces: list[Piece] = []
    try:
        for name, path in names.items():
            if lock and path.suffix in (".jsonl", ".log") and path.exists():
                fd = open_lock(path, blocking=True)
                if fd is not None:
                    locks.append(fd)
                recover_locked(path)
        for name, path in names.items():
            try:
                # O_NONBLOCK: a FIFO in a log's place would wait for a writer in the open.
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            except FileNotFoundError:
                continue
            kept = os.fstat(fd)
            if not stat.S_ISREG(kept.st_mode):
                # A folder opens but fails in pread with no file named; an archive without
                # one of its files would not be the copy it claims, so it names the file.
                os.close(fd)
                if stat.S_ISDIR(kept.st_mode):
                    raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
                raise NotALogFile(errno.EINVAL, "not a regular file", str(path))
            size = kept.st_size
            if path.suffix in (".jsonl", ".log", ".txt"):
                size = _whole_lines(fd, size)
            pieces.append(Piece(name, fd, size))
    finally:
        for fd in locks:
            os.close(fd)
    return pieces


def log_names(home: Home) -> dict[str, Path]:
    return {ROOT + name: home.root / name for name in LOGS.values()}


def check_logs(home: Home, *also: Path, by: str = "a backup") -> None:
    """Raise `notafile.NotAFile` when a folder, FIFO, socket or device stands in the place of
    one of the home's logs (or of `also`): a backup or an export (`by`) never leaves a log's
    rows out, and nothing rebuilds them."""
    from carto_core.logio.notafile import log_refusal

    for path in [*log_names(home).values(), *also]:
        refusal = log_refusal(path, by)
        if refusal is not None:
            raise refusal


def state_names(home: Home, *, left_out: list | None = None) -> dict[str, Path]:
    """The state files a backup copies (member name -> path). A folder, FIFO, socket or device
    in the place of one is not copied; `left_out` (when given) gets `{"path", "what"}` for each,
    to be said."""
    from carto_core.logio.notafile import not_a_file

    out = {}
    for pattern in STATE:
        for path in sorted(home.state.glob(pattern)):
            if path.is_file():
                out[ROOT + ".carto/" + str(path.relative_to(home.state))] = path
            elif left_out is not None and (what := not_a_file(path, follow=True)):
                left_out.append({"path": str(path), "what": what})
    return out


# --------------------------------------------------------------------------- writing


class _Reader:
    """`size` bytes of a descriptor, hashed and their newlines counted as they are read."""

    def __init__(self, piece: Piece):
        self.piece, self.offset = piece, 0
        self.sha = hashlib.sha256()
        self.rows = 0

    def read(self, n: int = -1) -> bytes:
        left = self.piece.size - self.offset
        n = left if n is None or n < 0 else min(n, left)
        data = os.pread(self.piece.fd, n, self.offset) if n else b""
        if len(data) < n:
            raise ArchiveError(f"{self.piece.name}: the file shrank while it was read")
        self.offset += len(data)
        self.sha.update(data)
        self.rows += data.count(b"\n")
        return data


def write_archive(dest: Path, pieces: list[Piece], *, kind: str, selection: dict | None = None,
                  secret=None, compresslevel: int = 3, progress=None) -> dict:
    """Write `pieces` and the manifest to `dest` (through a temporary file renamed into
    place, fsynced), sealed with `secret` when given. Returns the manifest."""
    from carto_core import __version__

    from carto_core.util.privatefiles import make_dirs, open_fd

    dest = Path(dest)
    make_dirs(dest.parent)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    files: dict = {}
    try:
        fd = open_fd(tmp, os.O_WRONLY | os.O_TRUNC)
        with open(fd, "wb") as raw:
            sink = raw
            if secret is not None:
                from carto_core.control.sealed import SealingWriter

                sink = SealingWriter(raw, secret)
            with gzip.GzipFile(fileobj=sink, mode="wb", compresslevel=compresslevel, mtime=0) as zipped:
                with tarfile.open(fileobj=zipped, mode="w|", format=tarfile.PAX_FORMAT) as tar:
                    now = time.time()
                    for piece in pieces:
                        if progress:
                            progress(piece.name)
                        info = tarfile.TarInfo(piece.name)
                        info.size, info.mtime, info.mode = piece.size, now, 0o600
                        reader = _Reader(piece)
                        tar.addfile(info, reader)
                        files[piece.name] = {"bytes": piece.size, "rows": reader.rows,
                                             "sha256": reader.sha.hexdigest()}
                    manifest = {"format": FORMAT, "version": VERSION, "kind": kind,
                                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                "carto_version": __version__, "selection": selection,
                                "files": files,
                                "rows": sum(f["rows"] for n, f in files.items() if _log_of(n))}
                    data = json.dumps(manifest, indent=1, sort_keys=True).encode()
                    info = tarfile.TarInfo(MANIFEST)
                    info.size, info.mtime, info.mode = len(data), now, 0o600
                    import io

                    tar.addfile(info, io.BytesIO(data))
            if secret is not None:
                sink.close()
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        for piece in pieces:
            os.close(piece.fd)
    from carto_core.logio.rewrite_journal import fsync_folder

    fsync_folder(str(dest.parent))
    return manifest


def _log_of(name: str) -> str | None:
    """The log label a member holds, None for state."""
    if not name.startswith(ROOT) or "/" in name[len(ROOT):]:
        return None
    file = name[len(ROOT):]
    return next((label for label, log in LOGS.items() if log == file), None)


# --------------------------------------------------------------------------- reading


def unpack(source: Path, into: Path, *, secret=None, progress=None) -> dict:
    """Unpack an archive into the folder `into` (members under `carto/home/` become files under
    it, 0600 in 0700 folders), verifying each against the manifest. Returns the manifest.
    Raises ArchiveError (damaged, unsafe, another format) or SealError (wrong key)."""
    from carto_core.control.sealed import is_sealed
    from carto_core.util.privatefiles import make_dirs, open_fd

    source = Path(source)
    plain = source
    opened = None
    if is_sealed(source):
        if secret is None:
            raise ArchiveError(f"{source} is encrypted: give its passphrase or key file")
        from carto_core.control.sealed import unseal

        opened = into.parent / f".{into.name}.unsealed-{os.getpid()}"
        fd = open_fd(opened, os.O_WRONLY | os.O_TRUNC)
        try:
            with open(fd, "wb") as out:
                unseal(source, out, secret)
        except BaseException:
            opened.unlink(missing_ok=True)
            raise
        plain = opened
    seen: dict = {}
    manifest = None
    try:
        make_dirs(into)
        try:
            with gzip.open(plain, "rb") as zipped, tarfile.open(fileobj=zipped, mode="r|") as tar:
                for member in tar:
                    if member.name == MANIFEST and member.isfile():
                        manifest = json.loads(tar.extractfile(member).read())
                        continue
                    target = _safe_target(into, member)
                    if progress:
                        progress(member.name)
                    make_dirs(target.parent)
                    sha, size, rows = hashlib.sha256(), 0, 0
                    handle = tar.extractfile(member)
                    fd = open_fd(target, os.O_WRONLY | os.O_TRUNC)
                    with open(fd, "wb") as out:
                        while block := handle.read(_BLOCK):
                            sha.update(block)
                            size += len(block)
                            rows += block.count(b"\n")
                            out.write(block)
                    seen[member.name] = {"bytes": size, "rows": rows, "sha256": sha.hexdigest()}
        except (OSError, EOFError, tarfile.TarError, ValueError, zlib.error) as exc:
            raise ArchiveError(f"{source}: not a readable carto archive ({exc})") from None
    finally:
        if opened is not None:
            opened.unlink(missing_ok=True)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveError(f"{source}: no carto manifest in it (not a carto archive, or cut off)")
    if manifest.get("version") != VERSION:
        raise ArchiveError(f"{source}: archive version {manifest.get('version')}, this carto reads {VERSION}")
    listed = manifest.get("files") or {}
    for name, expected in listed.items():
        got = seen.get(name)
        if got is None:
            raise ArchiveError(f"{source}: {name} is listed in its manifest but missing")
        if got != expected:
            raise ArchiveError(f"{source}: {name} does not match its manifest (checksum, size or "
                               "rows differ): the archive is corrupted")
    extra = sorted(set(seen) - set(listed))
    if extra:
        raise ArchiveError(f"{source}: {extra[0]} is not in its manifest")
    return manifest


def _safe_target(into: Path, member: tarfile.TarInfo) -> Path:
    name = member.name
    if not member.isfile():
        raise ArchiveError(f"{name}: not a regular file (refused)")
    if not name.startswith(ROOT):
        raise ArchiveError(f"{name}: outside {ROOT} (refused)")
    relative = name[len(ROOT):]
    parts = Path(relative).parts
    if not parts or Path(relative).is_absolute() or ".." in parts:
        raise ArchiveError(f"{name}: an unsafe name (refused)")
    return into.joinpath(*parts)


# --------------------------------------------------------------------------- export and import


def export_home(home: Home, dest: Path, *, criteria=None, progress=None) -> dict:
    """`carto export`: the home's logs (or, with `criteria`, the rows `carto forget` would take
    out for them: every row of a matching event) into the archive `dest`. A forget left
    unfinished is finished first. Criteria no event matches write nothing (`written` False),
    nor does a home none of whose logs holds a byte (an archive of no row would stand where one
    was asked for, and exit 3 would say nothing was exported)."""
    from carto_core.control import forget as engine
    from carto_core.logio.tombstone import check as check_tombstones

    check_tombstones(home)  # a hook writes forgotten events back into the logs copied
    check_logs(home, by="an export")
    if engine.pending(home):
        engine.resume(home)
    names = log_names(home)
    if not any(path.is_file() and path.stat().st_size for path in names.values()):
        return {"rows": 0, "files": {}, "selection": criteria.to_dict() if criteria else None,
                "written": False}
    if criteria is None:
        return write_archive(dest, snapshot(home, names), kind="export", progress=progress)
    plan = engine.make_plan(home, criteria)
    if not plan.ids:
        # Nothing matched: an archive of empty logs would stand where one was asked for (or
        # replace one already there with --force); none is written.
        return {"rows": 0, "files": {}, "selection": criteria.to_dict(), "written": False}
    from carto_core.util.privatefiles import make_dirs, open_private

    staging = dest.parent / f".{dest.name}.{os.getpid()}.rows"
    make_dirs(staging)
    try:
        selected: dict[str, Path] = {}
        for piece in snapshot(home, names):
            label = _log_of(piece.name)
            path = staging / LOGS[label]
            try:
                with open_private(path, "wb") as out:
                    for raw in _lines(piece):
                        if _selected(label, raw, plan):
                            out.write(raw)
            finally:
                os.close(piece.fd)
            selected[piece.name] = path
        return write_archive(dest, snapshot(home, selected, lock=False), kind="export",
                             selection=criteria.to_dict(), progress=progress)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _lines(piece: Piece) -> Iterable[bytes]:
    offset, rest = 0, b""
    while offset < piece.size:
        block = os.pread(piece.fd, min(_BLOCK, piece.size - offset), offset)
        if not block:
            break
        offset += len(block)
        block = rest + block
        cut = block.rfind(b"\n") + 1
        rest = block[cut:]
        yield from block[:cut].splitlines(keepends=True)


def _selected(label: str, raw: bytes, plan) -> bool:
    if not raw.strip():
        return False
    from carto_core.logio.jsonl import fast_loads_line

    row, problem = fast_loads_line(raw.rstrip(b"\r\n"))
    if problem == "malformed_json" or not isinstance(row, dict):
        row = None
    if label in EVENT_LOGS:
        return not plan.keep_event_row(raw, row)
    return row is not None and row.get("event_id") in plan.ids


def import_archive(home: Home, source: Path, *, secret=None, progress=None) -> dict:
    """`carto import`: merge an archive's logs into `home` by event_id: an event the home holds
    (in that log) is not added again, nor one it buried (`carto forget`) or one of an excluded
    project; a telemetry row or a row without an id is added unless the same line is there.
    A second import of the same archive adds nothing. The archive is verified whole first."""
    staging = home.root.parent / f".{home.root.name}.import-{os.getpid()}"
    try:
        manifest = unpack(source, staging, secret=secret, progress=progress)
        from carto_core.ingest.runner import Guard
        from carto_core.util.privatefiles import make_dirs

        make_dirs(home.root)

        guard = Guard(home)
        excluded = _excluded_events(staging, guard)
        calls = _forgotten_calls(staging, guard)
        added: dict = {}
        skipped: dict = {}
        for label, name in LOGS.items():
            path = staging / name
            if path.exists():
                added[label], skipped[label] = _merge(home, label, path, guard, excluded, calls)
        unknown = sorted(name[len(ROOT):] for name in manifest.get("files") or {}
                         if _log_of(name) is None and "/" not in name[len(ROOT):])
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return {"home": str(home.root), "archive": str(source), "kind": manifest["kind"],
            "created": manifest["created"], "selection": manifest.get("selection"),
            "added": {k: v for k, v in added.items() if v}, "rows": sum(added.values()),
            "skipped": {k: dict(v) for k, v in skipped.items() if v},
            "unknown_logs": unknown}


def _forgotten_calls(staging: Path, guard) -> set[str]:
    """The searches that served an event this home forgot: `carto forget` took each whole (its
    query led there), and so does a restore (`forget.keep_out`), so none of their rows comes
    back, the rows naming an event the home holds included."""
    out: set[str] = set()
    path = staging / TELEMETRY_LOGS["served"]
    if not path.exists():
        return out
    from carto_core.logio.jsonl import fast_loads_line

    with open(path, "rb") as handle:
        for raw in handle:
            row, _ = fast_loads_line(raw.rstrip(b"\r\n"))
            if isinstance(row, dict) and isinstance(row.get("call_id"), str) \
                    and isinstance(row.get("event_id"), str) and row["event_id"] in guard.buried:
                out.add(row["call_id"])
    return out


#: Why a line of an archive's log is not added as a row (`_unreadable`).
UNREADABLE = ("NUL run", "torn row", "not JSON", "not an object", "no event_id")


def _unreadable(raw: bytes, row, problem: str | None, by_id: bool) -> str | None:
    """Why a line of an archive's log is no row to add (the reasons `carto doctor` would give it
    in the home), None for a row."""
    from carto_core.logio.reader import looks_torn
    from carto_core.model.events import is_resolved

    line = raw.rstrip(b"\r\n")
    if not line.strip(b"\x00 \t"):
        return "NUL run" if b"\x00" in line else "blank"
    if problem == "malformed_json":
        if b"\x00" in line:
            return "NUL run"
        return "torn row" if looks_torn(line) else "not JSON"
    if not isinstance(row, dict):
        return "not an object"
    if by_id and not (isinstance(row.get("event_id"), str) and is_resolved(row["event_id"])):
        return "no event_id"
    return None


def _excluded_events(staging: Path, guard) -> set[str]:
    """The events one of whose rows is of an excluded project or folder (a knowledge gap is
    told by its changelog copy's project): every row of such an event stays out."""
    out: set[str] = set()
    if not guard.exclusion:
        return out
    from carto_core.logio.jsonl import fast_loads_line

    for name in EVENT_LOGS.values():
        path = staging / name
        if not path.exists():
            continue
        with open(path, "rb") as handle:
            for raw in handle:
                row, problem = fast_loads_line(raw.rstrip(b"\r\n"))
                if isinstance(row, dict) and guard.exclusion.row(row) \
                        and isinstance(row.get("event_id"), str):
                    out.add(row["event_id"])
    return out


def _merge(home: Home, label: str, source: Path, guard, excluded: set[str],
           calls: set[str] = frozenset()) -> tuple[int, dict]:
    from collections import Counter

    from carto_core.logio.appendlog import append_lines
    from carto_core.logio.jsonl import fast_loads_line
    from carto_core.model.events import is_resolved

    target = home.log(label)
    by_id = label in EVENT_LOGS
    known_ids: set[str] = set()
    known_lines: set[bytes] = set()
    if target.exists():
        data = target.read_bytes()
        for line in data.splitlines():
            if not line.strip():
                continue
            row, problem = fast_loads_line(line)
            event_id = row.get("event_id") if isinstance(row, dict) else None
            if by_id and isinstance(event_id, str) and is_resolved(event_id):
                known_ids.add(event_id)
            else:
                known_lines.add(hashlib.blake2b(line, digest_size=16).digest())
        del data
    skipped: Counter = Counter()
    batch: list[bytes] = []
    added = 0
    with open(source, "rb") as handle:
        for raw in handle:
            if not raw.strip():
                continue
            row, problem = fast_loads_line(raw.rstrip(b"\r\n"))
            why = "torn row" if not raw.endswith(b"\n") else _unreadable(raw, row, problem, by_id)
            if why:
                if why != "blank":
                    skipped[why] += 1
                continue
            event_id = row.get("event_id")
            resolved = isinstance(event_id, str) and is_resolved(event_id)
            if (resolved and event_id in guard.buried) or row.get("call_id") in calls:
                skipped["forgotten"] += 1
                continue
            if ((resolved and event_id in excluded)
                                    or (guard.exclusion and guard.exclusion.row(row))):
                skipped["excluded"] += 1
                continue
            if by_id and resolved:
                if event_id in known_ids:
                    skipped["present"] += 1
                    continue
            else:
                digest = hashlib.blake2b(raw.rstrip(b"\r\n"), digest_size=16).digest()
                if digest in known_lines:
                    skipped["present"] += 1
                    continue
                known_lines.add(digest)
            batch.append(raw)
            if len(batch) >= 4096:
                added += append_lines(target, batch)
                batch = []
    if batch:
        added += append_lines(target, batch)
    return added, skipped
