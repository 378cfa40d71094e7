"""The normalized view of one log row: `Event`.

Rows in the logs disagree on key names (`session` vs `session_id`, milestones without `type`,
prompts without `summary`); `Event.from_row` applies upstream's fallback chains once so that no
lens has to. The original row rides along untouched in `Event.row`, so writing an event back
reproduces its line byte for byte, unknown keys and key order included.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from carto_core.model.salience import as_number as _salience
from carto_core.util.timeparse import format_timestamp, parse_timestamp

_UNRESOLVED = frozenset({"", "unknown"})


def is_resolved(value: object) -> bool:
    """True when a value names something: not None, not "", not "unknown" (any case/spacing).

    Absence is spelled three ways in the logs; nothing may group or key on any of them (the
    "phantom unknown session" bug upstream fixed).
    """
    if value is None:
        return False
    if isinstance(value, str):
        return value.strip().lower() not in _UNRESOLVED
    return True


# Fallback chains (DESIGN section 4).
TYPE_CHAIN = ("type", "event", "milestone")
SESSION_CHAIN = ("session_id", "session", "sessionId")
TEXT_CHAIN = ("summary", "description", "prompt", "url", "query", "event_id", "milestone")


def _resolved(value: object) -> bool:
    """`is_resolved`, with a shortcut for the common case of a plain, longer string."""
    if value is None:
        return False
    if value.__class__ is str:
        if len(value) > 7 and not value[0].isspace() and not value[-1].isspace():
            return True  # longer than "unknown" and not padded: cannot be a sentinel
        return value.strip().lower() not in _UNRESOLVED
    return True


def first_resolved(row: dict, chain: tuple[str, ...]) -> Any:
    """The first value along `chain` that is resolved, else None."""
    for key in chain:
        value = row.get(key)
        if is_resolved(value):
            return value
    return None


def single_line(text: str) -> str:
    """Collapse every line break and tab to one space: summaries are single-line."""
    if "\n" not in text and "\r" not in text and "\t" not in text:
        return text
    return " ".join(text.replace("\r", " ").replace("\t", " ").split("\n"))


def _as_str(value: object) -> str:
    if value is None:
        return ""
    return value if value.__class__ is str else str(value)


def fold_fields(row: dict, event_id: str) -> tuple[str, str, str, str]:
    """(type, provider, session_id, project) of a row exactly as `Event.from_row` normalises
    them, without building the Event: bulk builds that keep only these (the facts columns)
    call it once per row. `event_id` is the id the row is folded under."""
    get = row.get
    etype = get("type")
    if not _resolved(etype):
        etype = get("event")
        if not _resolved(etype):
            etype = get("milestone")
            if not _resolved(etype):
                etype = "git_commit" if event_id.startswith("git-") else ""
    session = get("session_id")
    if not _resolved(session):
        session = get("session")
        if not _resolved(session):
            session = get("sessionId")
            if not _resolved(session):
                session = ""
    return (etype if etype.__class__ is str else _as_str(etype), _as_str(get("provider")),
            session if session.__class__ is str else _as_str(session), _as_str(get("project")))


def fold_summary(row: dict) -> str:
    """The `summary` `Event.from_row` gives a row (first resolved field of TEXT_CHAIN, on one
    line), without building the Event (bulk builds that keep only the text)."""
    get = row.get
    for key in TEXT_CHAIN:
        text = get(key)
        if _resolved(text):
            break
    else:
        return ""
    return single_line(text if text.__class__ is str else _as_str(text))


@attrs.frozen(kw_only=True)
class Event:
    """One event as every lens sees it; `row` is the line as it was read."""

    event_id: str
    timestamp: datetime | None
    source: str
    type: str = ""
    provider: str = ""
    session_id: str = ""
    project: str = ""
    cwd: str = ""
    summary: str = ""
    transcript_path: str = ""
    salience: float | None = None
    parent_event_id: str = ""
    related_ids: tuple[str, ...] = ()
    row: dict = attrs.field(factory=dict, eq=False, hash=False)

    @classmethod
    def from_row(cls, row: dict, source: str, *, fallback_id: str = "") -> "Event":
        """Normalize one parsed row of the log labelled `source`.

        `fallback_id` names a row that has no usable event_id (upstream keyed such rows by
        `milestone`, else by position). This runs once per row of every bulk load, so the
        fallback chains are unrolled here rather than looped (`first_resolved` is the readable
        form of the same rule).
        """
        get = row.get
        event_id = get("event_id")
        if event_id.__class__ is not str or not _resolved(event_id):
            event_id = fallback_id or _as_str(get("milestone"))
        etype = get("type")
        if not _resolved(etype):
            etype = get("event")
            if not _resolved(etype):
                etype = get("milestone")
                if not _resolved(etype):
                    etype = "git_commit" if event_id.startswith("git-") else ""
        session = get("session_id")
        if not _resolved(session):
            session = get("session")
            if not _resolved(session):
                session = get("sessionId")
                if not _resolved(session):
                    session = ""
        text = None
        for key in TEXT_CHAIN:
            text = get(key)
            if _resolved(text):
                break
        else:
            text = ""
        related = get("related_ids")
        salience = get("salience")
        return cls(
            event_id=event_id,
            timestamp=parse_timestamp(get("timestamp")),
            source=source,
            type=etype if etype.__class__ is str else _as_str(etype),
            provider=_as_str(get("provider")),
            session_id=session if session.__class__ is str else _as_str(session),
            project=_as_str(get("project")),
            cwd=_as_str(get("cwd")),
            summary=single_line(text if text.__class__ is str else _as_str(text)),
            transcript_path=_as_str(get("transcript_path")),
            salience=salience if salience.__class__ is float else _salience(salience),
            parent_event_id=_as_str(get("parent_event_id")),
            related_ids=tuple(str(x) for x in related) if related.__class__ is list and related else (),
            row=row,
        )

    @property
    def has_project(self) -> bool:
        return is_resolved(self.project)

    @property
    def has_session(self) -> bool:
        return is_resolved(self.session_id)


def make_converter() -> "cattrs.Converter":
    """A converter for Event and other records: datetimes as upstream ISO strings."""
    import cattrs  # here, not at import: a cost no cold CLI path needs

    converter = cattrs.Converter()
    converter.register_unstructure_hook(
        datetime, lambda moment: format_timestamp(moment) if moment else None
    )
    converter.register_structure_hook(datetime, lambda value, _: parse_timestamp(value))
    converter.register_structure_hook(
        datetime | None, lambda value, _: parse_timestamp(value) if value is not None else None
    )
    converter.register_structure_hook(dict, lambda value, _: dict(value))
    return converter


def __getattr__(name: str):
    # `converter` is built on first use (PEP 562): importing cattrs would cost every cold
    # command, and only record (un)structuring needs it.
    if name == "converter":
        global converter
        converter = make_converter()
        return converter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
