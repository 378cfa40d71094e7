"""What gets embedded for an event, and the Qdrant point id. Stdlib only."""

from __future__ import annotations

import hashlib

from carto_core.events import Event, is_resolved

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


def point_id(event_id: str) -> int:
    """Upstream's point id: the integer of the first 13 hex digits of sha256(event_id)
    (52 bits, safe as a JavaScript number; byte-identical to `embed-events.js hashToInt`)."""
    return int(hashlib.sha256(event_id.encode("utf-8")).hexdigest()[:13], 16)
