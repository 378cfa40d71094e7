"""Changing an agent's configuration file safely: a timestamped backup first (and an entry in
the install ledger, `install.ledger`, so uninstall can give the original back), then the new text
written beside the file and renamed over it (a crash leaves the old file or the new one, never a
torn one). Shared by the hook installers (`install.hooksfile`), the MCP installer and Codex's
hook trust. Stdlib only.
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone
from pathlib import Path


def backup_path(path: Path) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return path.with_name(f"{path.name}.carto-backup-{stamp}")


def backup(path: Path, dry_run: bool = False) -> str | None:
    """Copy an existing `path` to `<name>.carto-backup-<UTC time>`; returns the copy's path
    (the would-be path on a dry run), or None when there is no file to keep."""
    if not path.exists():
        if not dry_run:
            from carto_core.install import ledger

            ledger.record(path, None)  # carto creates it: uninstall removes it again
        return None
    target = backup_path(path)
    if not dry_run:
        shutil.copy2(path, target)
        from carto_core.install import ledger

        ledger.record(path, str(target))
    return str(target)


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file renamed over it; an existing file keeps
    its permission bits, a new one is private (0600: agent configs may hold tokens), and so is
    a folder made for it (0700: `~/.claude` on a machine Claude Code has not run on yet)."""
    from carto_core.util.privatefiles import make_dirs

    make_dirs(path.parent)
    tmp = path.with_name(f".{path.name}.carto-tmp-{os.getpid()}")
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
