"""What gets embedded for an event, and the Qdrant point id. Stdlib only."""

from __future__ import annotations

import hashlib

from carto_core.model.events import Event, fold_summary, is_resolved

#: Characters of document text sent to an embedder (upstream CARTOGRAPHER_EMBED_TEXT_MAX).
TEXT_MAX = 1200


def document_text(event: Event, max_chars: int = TEXT_MAX) -> str:
    """Upstream's indexer text: the first resolved text field, then `" | project: <p>"`,
    single-line, cut to `max_chars`. "" when the event has no text of its own."""
    summary = event.summary
    if not summary or summary == event.event_id:
        # The text chain fell through to the id: there is nothing to mean.
        return ""
    text = summary
    if is_resolved(event.project):
        text = f"{text} | project: {event.project}"
    return text[:max_chars]


def row_document_text(row: dict, event_id: str, max_chars: int = TEXT_MAX) -> str:
    """`document_text(Event.from_row(row, ...))` for a row folded under `event_id`, without
    building the Event (the indexer's bulk path)."""
    summary = fold_summary(row)
    if not summary or summary == event_id:
        return ""
    project = row.get("project")
    project = "" if project is None else project if project.__class__ is str else str(project)
    if is_resolved(project):
        summary = f"{summary} | project: {project}"
    return summary[:max_chars]


def point_id(event_id: str) -> int:
    """Upstream's point id: the integer of the first 13 hex digits of sha256(event_id)
    (52 bits, safe as a JavaScript number; byte-identical to `embed-events.js hashToInt`)."""
    return int(hashlib.sha256(event_id.encode("utf-8")).hexdigest()[:13], 16)


def text_digest(text: str) -> int:
    """The 64-bit digest a store keeps with the vector of `text` (never 0: 0 means "not
    known"): a rewritten row whose text changed is embedded again, one whose text did not is
    left alone."""
    try:  # the C module: `hashlib.blake2b` would load OpenSSL first
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover
        from hashlib import blake2b
    return int.from_bytes(blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                          "little") or 1
