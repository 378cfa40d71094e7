"""What the semantic indexer left undone, read without importing the indexer: `carto search
--json` reports `semantic.not_embedded` on every call, and the indexer's imports (the
document text builder, log states, the event records and attrs) cost a cold search time it
never uses. The indexer writes these files; this module only reads them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from carto_core.logio.reader import iter_lines

if TYPE_CHECKING:
    from carto_core.logio.home import Home

REJECTS_FILE = "index-rejects.jsonl"
STATE_FILE = "semantic-index.json"
STATE_VERSION = 1


def not_embedded(home: Home, model: str, events: int, vectors: int) -> int:
    """How many of `events` (the corpus size) have no vector of `model` yet: the events less
    the vectors less what can never be embedded (no text, as the last complete run counted, and
    the ids the gate rejected). `carto search --json` reports it (semantic.not_embedded)."""
    state = read_state(home)
    no_text = int(state.get("no_text", 0)) if state.get("model") == model else 0
    return max(0, events - vectors - no_text - len(read_rejected(home, model)))


def read_rejected(home: Home, model: str) -> set[str]:
    """Ids the gate already rejected under `model` (not offered to the gate again)."""
    out: set[str] = set()
    for line in iter_lines(home.state_file(REJECTS_FILE)):
        if line.row.get("model") == model and isinstance(line.row.get("event_id"), str):
            out.add(line.row["event_id"])
    return out


def read_state(home: Home) -> dict:
    """The last complete run's state (model, counts), {} when none or of another version."""
    try:
        state = json.loads(home.state_file(STATE_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) and state.get("version") == STATE_VERSION else {}
