"""Where `carto install` keeps its ledger, and what a reader below the front doors may ask of it
(when carto first wrote an agent's hook file). The ledger itself is written by
`carto_core.install.ledger`. Stdlib only."""

from __future__ import annotations

import json
import os
from pathlib import Path


def ledger_path() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "carto" / "install-ledger.json"


def first_written(path: Path) -> float | None:
    """When carto first wrote `path` (epoch seconds), as the ledger recorded it; None for a
    file the ledger does not know (written by hand) or an entry older than that record."""
    try:
        data = json.loads(ledger_path().read_text("utf-8"))
    except (OSError, ValueError):
        return None
    entry = data.get(str(Path(path).absolute())) if isinstance(data, dict) else None
    if isinstance(entry, dict) and isinstance(entry.get("first_written"), (int, float)):
        return float(entry["first_written"])
    return None
