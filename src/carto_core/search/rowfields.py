"""What one log row gives the keyword index besides its terms: the id it is folded under, its
type, session, time, salience and prompt intent, by the rules every builder shares (a full
build and the tail of `KeywordIndex`, in numpy; the prompt recall's unsaved tail,
`index_tail`, in the standard library). Stdlib only.
"""

from __future__ import annotations

import os

from carto_core.intents import INTENT_KEYS, PROMPT_LOGS
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.model.salience import as_number

#: Log labels by code (the order of SEARCHED_LOGS); a document's own log is one of these.
LOG_LABELS: tuple[str, ...] = tuple(SEARCHED_LOGS)
LOG_CODE = {label: code for code, label in enumerate(LOG_LABELS)}
#: The logs whose rows are prompts (carto_core.intents.PROMPT_LOGS) and the intent codes.
PROMPT_CODES = frozenset(LOG_CODE[label] for label in PROMPT_LOGS)
INTENT_CODE = {key: n for n, key in enumerate(INTENT_KEYS, 1)}

UNRESOLVED = frozenset({"", "unknown"})
TYPE_CHAIN = ("type", "event", "milestone")
SESSION_CHAIN = ("session_id", "session", "sessionId")


class StringCodes:
    """The string tables of the project, type and session columns (`strings`: table -> values,
    a document stores a value's position): `code(table, value)`, appending a new value."""

    def __init__(self, strings: dict[str, list[str]]):
        self.strings = strings
        self._codes = {table: {value: code for code, value in enumerate(values)}
                       for table, values in strings.items()}

    def code(self, table: str, value: str) -> int:
        codes = self._codes[table]
        code = codes.get(value)
        if code is None:
            code = codes[value] = len(self.strings[table])
            self.strings[table].append(value)
        return code


def event_id_of(row: dict, label: str, lineno: int) -> str:
    """The id a row is folded under: its own, or `<log>-<line number>` when it has none."""
    event_id = row.get("event_id")
    if not isinstance(event_id, str) or event_id.strip().lower() in UNRESOLVED:
        return f"{label}-{lineno}"
    return event_id


def resolved_str(row: dict, chain: tuple[str, ...]) -> str:
    for key in chain:
        value = row.get(key)
        if value is None:
            continue
        if isinstance(value, str):
            if value.strip().lower() not in UNRESOLVED:
                return value
        else:
            return str(value)
    return ""


def event_type(row: dict, event_id: str) -> str:
    etype = resolved_str(row, TYPE_CHAIN)
    if not etype and event_id.startswith("git-"):
        return "git_commit"
    return etype


def salience(value) -> float:
    """The salience column's value (NaN when the row has none: the fusion's default)."""
    number = as_number(value)
    return float("nan") if number is None else number


#: The `intent` column's bit for a turn in which the agent worked (its row names the tools it
#: called): the relevance floor judges such a turn as a record of that work, not as a person's
#: words (docs/ranking.md, "A turn of work is a record"). The low bits are the intent's code.
WORKED = 0x40
#: The `intent` column's bits that hold the intent's code (`INTENT_CODE`).
INTENT_BITS = WORKED - 1
TURN_CODE = LOG_CODE.get("turns", -1)


def intent_code(row: dict, code: int) -> int:
    """A prompt's stored intent as a code (0: none; INTENT_CODE): `search --intent` masks on it
    (`INTENT_BITS`); with `WORKED` set for a turn whose row names the tools the agent called."""
    value = row.get("prompt_intent") if code in PROMPT_CODES else None
    intent = INTENT_CODE.get(value, 0) if value.__class__ is str else 0
    if code == TURN_CODE and row.get("tools"):
        return intent | WORKED
    return intent


#: Off by default: measured, 8 to 48 context terms at a quarter weight cost conversational
#: hit@1 on both dialogue variants (docs/ranking.md): neighbours that merely share a word with
#: the query take top-10 places from the evidence. CARTO_CONTEXT_TERMS=N turns it on.
DEFAULT_CONTEXT_TERMS = 0


def context_terms() -> int:
    """Terms of the previous row indexed as context (CARTO_CONTEXT_TERMS, 0 = none)."""
    try:
        return max(0, int(os.environ.get("CARTO_CONTEXT_TERMS", DEFAULT_CONTEXT_TERMS)))
    except ValueError:
        return DEFAULT_CONTEXT_TERMS
