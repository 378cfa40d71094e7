"""What `carto install` changed in an agent's files, so that `carto uninstall` can leave them
exactly as they were: the file itself when carto created it, the bytes it had otherwise.

The first time carto writes a file (`configedit.backup`, called before every write), the ledger
records whether the file existed and, when it did, the backup copy of its original bytes; later
writes add their backups. After an uninstall, `settle()` looks at every recorded file: one whose
content now means what the original meant (the same JSON or TOML document; carto's entries are
all gone and nothing else changed) gets its original back, byte for byte, or is removed when
carto had created it (with the folders carto made for it, when empty), and its backups go. A
file the person changed meanwhile keeps its changes and its backups, and stays in the ledger.

The folders install made go too, once nothing of carto's install is left: the home it made for
the hooks (`record_folder`) when it is still empty (a home holding what was recorded is kept and
said so), and the folders the ledger itself was made in (`~/.local/state/carto`, and
`~/.local/state` when carto made it).

The ledger is `$XDG_STATE_HOME/carto/install-ledger.json` (paths and flags only: agent configs
may hold tokens, so no content is copied into it). Stdlib only.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from carto_core.util.install_ledger import ledger_path  # readers below install ask it too


def _load() -> dict:
    try:
        data = json.loads(ledger_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


#: The ledger's own entry: the folders made to hold it, deepest first.
_OWN = "#ledger-folders"


def _save(data: dict) -> None:
    path = ledger_path()
    if not [key for key in data if key != _OWN]:
        own = data.get(_OWN) or [str(path.parent)]
        try:
            path.unlink()
        except OSError:
            pass
        for folder in own:  # deepest first; only when empty: they held nothing else
            try:
                os.rmdir(folder)
            except OSError:
                break
        return
    from carto_core.util.privatefiles import make_dirs, write_text

    if not path.exists() and _OWN not in data:
        data[_OWN] = _missing_folders(path)
    make_dirs(path.parent)
    write_text(path, json.dumps(data, indent=2) + "\n")


def _missing_folders(path: Path) -> list[str]:
    """The folders above `path` that do not exist yet (the ones a write will create), deepest first."""
    out, parent = [], path.parent
    while not parent.exists() and parent != parent.parent:
        out.append(str(parent))
        parent = parent.parent
    return out


def record_folder(folder: Path) -> None:
    """Before carto makes `folder` (the home, for the hooks): it and the folders above it that do
    not exist yet, so an uninstall that leaves nothing of carto's install takes them away while
    they are empty."""
    folder = Path(folder).absolute()
    if folder.exists():
        return
    data = _load()
    data.setdefault(str(folder), {"made_folder": True,
                                  "folders": [str(folder), *_missing_folders(folder)]})
    _save(data)


def record(path: Path, copy: str | None) -> None:
    """Before carto writes `path`: the first time, whether it existed and the copy of its
    original (`copy`, None when there was no file); every time, the backup `copy` made."""
    key = str(Path(path).absolute())
    data = _load()
    entry = data.get(key)
    if entry is None:
        import time

        # when carto first wrote it: what ran before (a Codex session before the hooks were
        # installed) is no sign of hooks that do not run
        entry = data[key] = {"existed": copy is not None, "original": copy, "backups": [],
                             "folders": [] if copy is not None else _missing_folders(Path(key)),
                             "first_written": time.time()}
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
        if key == _OWN or entry.get("made_folder"):
            continue
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
    if all(key == _OWN or data[key].get("made_folder") for key in data):
        # nothing of carto's install is left: the folders it made go while they are empty
        for key in [key for key in data if key != _OWN]:
            for folder in data.pop(key)["folders"]:
                try:
                    os.rmdir(folder)
                except FileNotFoundError:
                    continue
                except OSError:
                    if folder == key:
                        done.append(f"{key}: kept (the home holds what was recorded)")
                    break
                if folder == key:
                    done.append(f"{key}: removed (carto had made it, and it held nothing)")
    _save(data)
    return done
