"""`carto repair redact` and `carto doctor --secrets`: find, and with --write replace, the
credentials already stored in a home (upstream's rows were never redacted; older carto versions
knew fewer shapes).

Every file under the home is covered, `.carto/` included:

- the logs (searched and side logs): every row goes through the redactor; a row that changes
  is rewritten through the crash-safe rewrite path (`carto_core.logio.rewrite`), so rows hooks append
  meanwhile are kept; a line that does not parse is redacted as text, never dropped;
- the state logs under `.carto/` (`hook.log`, `search-calls.jsonl`, error logs): the same;
- every other JSONL, JSON or text file (the live state under `.carto/live/`, the backfill's
  checkpoints, telemetry, notes): **patched** in place (JSONL through the rewrite path; JSON and
  text written whole to a temporary file, then renamed over the old one, its mode kept);
- the derived caches (keyword index, facts columns, LSA vocabulary, vectors, profile): built
  from the logs, so they hold what the logs held. A dry run names the cache files that hold a
  piece of a credential it found; `--write` patches them (`carto_core.control.stores`: the
  keyword index and the facts columns re-read the rewritten logs and save without the old
  rows, the vectors of the rows that changed are deleted and the next keep-up embeds them
  again, the profile is written again), so search keeps every ladder, the semantic one
  included; a file that still holds a piece after that (an LSA vocabulary, a cache this carto
  cannot read) is removed.
  Other binary files (locks, sockets, the MCP cursor key) hold no text and are left alone.

Nothing here ever prints or returns a credential: documents carry counts by log and kind, and
examples name rows by event id.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS, SIDE_LOGS
from carto_core.privacy.redact import default_redactor
from carto_core.repair.base import Line, Repair, Tally, read_lines
from carto_core.logio.rewrite import rewrite_lines

#: How many pieces of found credentials the cache check looks for, and the largest file read.
MAX_FRAGMENTS = 64
MAX_CACHE_FILE = 64 << 20


class RedactSecrets(Repair):
    """Rows and lines holding a credential shape, replaced by `[REDACTED:<kind>]`."""

    name = "redact"
    found_key = "secrets"
    count_keys = ("rows",)
    labels = tuple(SEARCHED_LOGS) + tuple(SIDE_LOGS)

    def __init__(self) -> None:
        self.redactor = default_redactor()
        self.pieces: list[str] = []  # the texts replaced (memory only: for the cache check)
        self.changed: set[str] = set()  # event ids of the rows that changed (their vectors go)

    def fix(self, label: str, lines: list[Line], tally: Tally) -> list[bytes]:
        return [self.fix_line(raw, row, tally) for raw, row in lines]

    def fix_line(self, raw: bytes, row: dict | None, tally: Tally) -> bytes:
        kinds: list[str] = []
        if row is None:
            # Not one row (torn, glued, text in a text log): redact it as text.
            text = raw.decode("utf-8", "surrogateescape")
            body = text.rstrip("\n")
            new, kinds = self.redactor.scan(body, self.pieces)
            out = (new + text[len(body):]).encode("utf-8", "surrogateescape")
            where = None
        else:
            new_row = self.redactor.value(row, kinds, self.pieces)
            out = dumps_row(new_row) if kinds else raw
            where = row.get("event_id")
            if kinds and isinstance(where, str):
                self.changed.add(where)
        if not kinds:
            return raw
        tally.add("rows")
        tally.add("secrets", len(kinds))
        tally.add("fixed")
        for kind, n in Counter(kinds).items():
            tally.add(kind, n)
        if len(tally.examples) < 20:
            tally.example(event_id=where or "(unparsed line)", kinds=",".join(sorted(set(kinds))))
        return out


def state_logs(home: Home) -> list[Path]:
    """The text logs under `.carto/` that writers append to."""
    if not home.state.is_dir():
        return []
    return sorted(p for p in home.state.iterdir() if p.is_file() and p.suffix in (".jsonl", ".log"))


def redact_home(home: Home, *, write: bool = False, leave_out: Iterable[str] = ()) -> dict:
    """Scan (and with `write`, redact) every log, state log and cache of `home`; the document
    of `run_repair` plus the state logs under `logs` and a `caches` section. `leave_out`
    names logs not read (a scan that says so; a write never leaves one out)."""
    from carto_core.repair import run_repair

    repair = RedactSecrets()
    left_out = set(leave_out)
    labels = [label for label in repair.labels if label not in left_out]
    document = run_repair(repair, home, write=write, labels=labels)
    for path in state_logs(home):
        label = f".carto/{path.name}"
        tally = Tally()
        repair.fix(label, read_lines(path), tally)
        fixable = tally.counts.get("fixed", 0)
        if write and fixable:
            tally = Tally()
            rewrite_lines(path, lambda lines, tally=tally: repair.fix(label, lines, tally))
            document["fixed"] += tally.counts.get("fixed", 0)
        elif fixable:
            document["would_fix"] += fixable
        counts = {k: v for k, v in tally.counts.items() if k != "fixed"}
        if counts:
            document["logs"][label] = {**counts, "fixed": tally.counts.get("fixed", 0) if write else 0,
                                       "would_fix": 0 if write else fixable}
            for key, value in counts.items():
                document[key] = document.get(key, 0) + value
            document["examples"].extend({"log": label, **e} for e in tally.examples[:5])
    _other_files(home, repair, document, write=write)
    document["caches"] = _caches(home, repair.pieces, repair.changed,
                                 patch=write and bool(document["secrets"]))
    return document


#: The derived stores under `.carto/` (`_caches` patches them; the file pass leaves them alone).
DERIVED_STORES = ("search", "facts", "embedders", "vectors", "profile.md")
#: Files larger than this are not patched (no file carto writes outside the logs is that big).
MAX_PATCHED_FILE = 64 << 20
_TEXT_SUFFIXES = (".log", ".md", ".txt", ".toml", ".yaml", ".yml", "")


def _patch_targets(home: Home) -> list[Path]:
    """Every regular file under the home that neither the log pass nor the cache pass covers."""
    covered = {home.root / name for name in (*SEARCHED_LOGS.values(), *SIDE_LOGS.values())}
    covered |= set(state_logs(home))
    caches = [home.state / name for name in DERIVED_STORES]
    out = []
    for path in sorted(home.root.rglob("*")):
        if path in covered or any(path == c or c in path.parents for c in caches):
            continue
        try:
            if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_PATCHED_FILE:
                continue
        except OSError:
            continue
        out.append(path)
    return out


def _patch_text(repair: RedactSecrets, path: Path, tally: Tally) -> bytes | None:
    """The file's redacted content, or None when it is not text carto can patch."""
    data = path.read_bytes()
    if not data or b"\0" in data[:4096]:
        return None  # empty, or binary (a lock, a key, an index part)
    text = data.decode("utf-8", "surrogateescape")
    if path.suffix == ".json":
        import json

        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if value is not None:
            kinds: list[str] = []
            new = repair.redactor.value(value, kinds, repair.pieces)
            if not kinds:
                return data
            _count(tally, kinds, path.name)
            return json.dumps(new, ensure_ascii=False).encode("utf-8", "surrogateescape")
    elif path.suffix not in _TEXT_SUFFIXES:
        return None
    lines = text.split("\n")
    out = []
    found: list[str] = []
    for line in lines:
        new, kinds = repair.redactor.scan(line, repair.pieces)
        out.append(new)
        found += kinds
    if not found:
        return data
    _count(tally, found, path.name)
    return "\n".join(out).encode("utf-8", "surrogateescape")


def _count(tally: Tally, kinds: list[str], where: str) -> None:
    tally.add("rows")
    tally.add("secrets", len(kinds))
    tally.add("fixed")
    for kind, n in Counter(kinds).items():
        tally.add(kind, n)
    tally.example(event_id=f"({where})", kinds=",".join(sorted(set(kinds))))


def _replace_whole(path: Path, data: bytes) -> None:
    """Write `data` over `path` atomically (temporary file, fsync, rename), keeping its mode."""
    mode = path.stat().st_mode & 0o777
    tmp = path.with_name(f".{path.name}.{os.getpid()}.redact")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _other_files(home: Home, repair: RedactSecrets, document: dict, *, write: bool) -> None:
    for path in _patch_targets(home):
        label = str(path.relative_to(home.root))
        tally = Tally()
        try:
            if path.suffix == ".jsonl":
                repair.fix(label, read_lines(path), tally)
                if write and tally.counts.get("fixed"):
                    tally = Tally()
                    rewrite_lines(path, lambda lines, tally=tally: repair.fix(label, lines, tally))
            else:
                new = _patch_text(repair, path, tally)
                if new is None:
                    continue
                if write and tally.counts.get("fixed"):
                    _replace_whole(path, new)
        except OSError:
            continue  # vanished or unreadable meanwhile: the next run sees it
        fixable = tally.counts.get("fixed", 0)
        if not fixable:
            continue
        counts = {k: v for k, v in tally.counts.items() if k != "fixed"}
        document["logs"][label] = {**counts, "fixed": fixable if write else 0, "would_fix": 0 if write else fixable}
        document["fixed" if write else "would_fix"] += fixable
        for key, value in counts.items():
            document[key] = document.get(key, 0) + value
        document["examples"].extend({"log": label, **e} for e in tally.examples[:5])


def fragments(pieces: list[str]) -> list[bytes]:
    """Distinctive lower-cased pieces of found credentials (what a tokenizer would keep)."""
    found: dict[bytes, None] = {}
    for piece in pieces:
        for run in re.findall(r"[A-Za-z0-9]{10,}", piece):
            found[run[:12].lower().encode()] = None
    return sorted(found, key=len, reverse=True)[:MAX_FRAGMENTS]


def _holding(home: Home, needles: list[bytes]) -> list[Path]:
    """The files under `.carto/` (state logs aside) holding a piece of a found credential."""
    encoded = [(n, n.decode().encode("utf-32-le")) for n in needles]
    holding: list[Path] = []
    logs = set(state_logs(home))  # reported (and redacted) as logs, not caches
    if needles and home.state.is_dir():
        for path in sorted(p for p in home.state.rglob("*") if p.is_file() and p not in logs):
            try:
                if path.stat().st_size > MAX_CACHE_FILE:
                    continue
                data = path.read_bytes().lower()
            except OSError:
                continue
            if any(a in data or b in data for a, b in encoded):
                holding.append(path)
    return holding


def _caches(home: Home, pieces: list[str], changed: set[str], *, patch: bool) -> dict:
    """Which files under `.carto/` hold a piece of a found credential; with `patch`, the
    derived stores patched (not dropped) and whatever still holds a piece removed."""
    needles = fragments(pieces)
    holding = _holding(home, needles)
    out: dict = {"holding": [str(p.relative_to(home.root)) for p in holding], "removed": []}
    if not patch:
        return out
    from carto_core.control import stores

    out["patched"] = {"keyword_index": stores.patch_keyword_index(home),
                      "facts": stores.patch_facts(home),
                      "vectors": stores.delete_vectors(home, changed),
                      "profile": stores.rewrite_profile(home)}
    for path in _holding(home, needles):
        try:
            os.unlink(path)
        except OSError:
            continue
        out["removed"].append(str(path.relative_to(home.root)))
    return out
