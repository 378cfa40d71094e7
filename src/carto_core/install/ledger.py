"""What `carto install` changed in an agent's files, so that `carto uninstall` can leave them
exactly as they were: the file itself when carto created it, the bytes it had otherwise.

The first time carto writes a file (`configedit.backup`, called before every write), the ledger
records whether the file existed and, when it did, the backup copy of its original bytes; later
writes add their backups. After an uninstall, `settle()` looks at every recorded file: one whose
content now means what the original meant (the same JSON or TOML document; carto's entries are
all gone and nothing else changed) gets its original back, byte for byte, or is removed when
carto had created it (with the folders carto made for it, when empty), and its backups go. A
file the person changed meanwhile keeps its changes and its backups, and stays in the ledger.

The ledger is `$XDG_STATE_HOME/carto/install-ledger.json` (paths and flags only: agent configs
may hold tokens, so no content is copied into it). Stdlib only.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def ledger_path() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "carto" / "install-ledger.json"


def _load() -> dict:
    try:
        data = json.loads(ledger_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict) -> None:
    path = ledger_path()
    if not data:
        try:
            path.unlink()
            path.parent.rmdir()  # only when empty: carto's state folder held nothing else
        except OSError:
            pass
        return
    from carto_core.util.privatefiles import make_dirs, write_text

    make_dirs(path.parent)
    write_text(path, json.dumps(data, indent=2) + "\n")


def _missing_folders(path: Path) -> list[str]:
    """The folders above `path` that do not exist yet (the ones a write will create), deepest first."""
    out, parent = [], path.parent
    while not parent.exists() and parent != parent.parent:
        out.append(str(parent))
        parent = parent.parent
    return out


def record(path: Path, copy: str | None) -> None:
    """Before carto writes `path`: the first time, whether it existed and the copy of its
    original (`copy`, None when there was no file); every time, the backup `copy` made."""
    key = str(Path(path).absolute())
    data = _load()
    entry = data.get(key)
    if entry is None:
        entry = data[key] = {"existed": copy is not None, "original": copy, "backups": [],
                             "folders": [] if copy is not None else _missing_folders(Path(key))}
    if copy is not None and copy not in entry["backups"]:
        entry["backups"].append(copy)
    _save(data)


def _meaning(path: Path, raw: bytes):
    """The document a file holds, for comparing: parsed JSON or TOML without its empty tables
    and lists (an uninstall may leave `"mcpServers": {}` where the install made it; the
    original bytes are what is put back), else the bytes."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".json":
            return _pruned(json.loads(raw.decode("utf-8") or "{}"))
        if suffix == ".toml":
            import tomllib

            return _pruned(tomllib.loads(raw.decode("utf-8")))
    except (ValueError, UnicodeDecodeError):
        pass
    return raw


def _pruned(value):
    if isinstance(value, dict):
        kept = {key: _pruned(item) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item not in ({}, [])}
    if isinstance(value, list):
        return [_pruned(item) for item in value]
    return value


def _empty(value) -> bool:
    return value == {} or value == b"" or (isinstance(value, bytes) and not value.strip())


def settle() -> list[str]:
    """Put back every recorded file carto's entries have left (see the module docstring);
    returns a line for each file put back or removed."""
    data = _load()
    done = []
    for key in list(data):
        entry, path = data[key], Path(key)
        try:
            current = path.read_bytes() if path.exists() else None
        except OSError:
            continue
        if not entry.get("existed"):
            if current is not None and not _empty(_meaning(path, current)):
                continue
            if current is not None:
                path.unlink()
                done.append(f"{path}: removed (carto had created it)")
        else:
            original = Path(entry["original"]) if entry.get("original") else None
            if current is None or original is None or not original.exists():
                continue
            if _meaning(path, original.read_bytes()) != _meaning(path, current):
                continue
            os.replace(original, path)  # the original bytes and mode, not a re-serialisation
            done.append(f"{path}: restored as it was before carto was installed")
        for copy in entry.get("backups", []):
            try:
                os.unlink(copy)
            except OSError:
                pass
        for folder in entry.get("folders", []):  # deepest first; only the ones carto made
            try:
                os.rmdir(folder)
            except OSError:
                break
        del data[key]
    _save(data)
    return done
