"""Tokens for the keyword index and BM25: lowercase, split on `[^a-z0-9]+` (upstream's awk and
JS agree on this). Accented letters fold to their base letter first (upstream's JS NFD step), so
`café` matches `cafe`; other non-ASCII text separates tokens.

Stdlib only; a term's id on disk is a stable 64-bit hash (blake2b), because Python's own
`hash()` changes per process.
"""

from __future__ import annotations

import re
import unicodedata

try:  # the C module itself: `hashlib` would first load OpenSSL (~4 ms of a cold search)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b

_TOKEN = re.compile(r"[a-z0-9]+")

#: Row fields whose text is indexed, in upstream's order (awk: summary, description, prompt,
#: url, query, event_id, milestone; JS adds title). `cwd` is left out: it repeats the project
#: path on every row and would make a project name match everything in that project.
DOC_FIELDS: tuple[str, ...] = (
    "summary", "description", "prompt", "url", "query", "title", "milestone", "event_id",
)


def fold(text: str) -> str:
    lowered = text.lower()
    if lowered.isascii():
        return lowered
    decomposed = unicodedata.normalize("NFD", lowered)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def tokenize(text: str) -> list[str]:
    """Every token of `text`, in order, repeats kept."""
    return _TOKEN.findall(fold(text))


def query_tokens(text: str) -> tuple[str, ...]:
    """Distinct tokens of a query, in first-seen order."""
    return tuple(dict.fromkeys(tokenize(text)))


def row_text(row: dict) -> str:
    """The indexed text of a row: its DOC_FIELDS string values joined by spaces."""
    parts = []
    for key in DOC_FIELDS:
        value = row.get(key)
        if isinstance(value, str) and value:
            parts.append(value)
    return " ".join(parts)


def term_hash(term: str) -> int:
    """Stable unsigned 64-bit id of a term."""
    return int.from_bytes(blake2b(term.encode("ascii"), digest_size=8).digest(), "little")
