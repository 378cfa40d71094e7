"""The one join of served results and the marks agents left on them (hit rate, abandonment).

Exact, never inferred: a served result is the first served-log row of a (call_id, event_id)
pair; it is *used* when an access-ledger row with `source: "result_used"` carries the same
call_id and event_id, *fetched* when a `result_fetched` row (`carto search --get`) does
(inspection, reported apart from use). Served rows without a call_id (written before calls were
named) are counted as `legacy` and left out. Marks that name no served pair are `unplaced`.
Read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from carto_core.model.events import is_resolved
from carto_core.logio.reader import iter_lines
from carto_core.search.telemetry import access_ledger_path, search_calls_path, served_log_path
from carto_core.util.timeparse import epoch_seconds

USED = "result_used"
FETCHED = "result_fetched"


def source_label(value: object) -> str:
    """A served row's ladders, deduplicated and sorted (`changelog+semantic`)."""
    parts = sorted({p.strip() for p in str(value or "").split("+") if p.strip()})
    return "+".join(parts) or "unknown"


def _text(value) -> str | None:
    return str(value).strip() if is_resolved(value) else None


@dataclass
class Served:
    call_id: str
    event_id: str
    rank: int | None
    source: str
    project: str | None
    purpose: str
    session_id: str | None
    query: str
    at: float | None
    used: list[dict] = field(default_factory=list)
    fetched: list[dict] = field(default_factory=list)


@dataclass
class Call:
    call_id: str
    at: float | None = None
    query: str = ""
    purpose: str = "unknown"
    session_id: str | None = None
    provider: str | None = None
    rows: list[Served] = field(default_factory=list)

    @property
    def used_ranks(self) -> list[int]:
        return sorted(r.rank for r in self.rows if r.used and r.rank is not None)

    @property
    def accessed(self) -> bool:
        return any(r.used or r.fetched for r in self.rows)


@dataclass
class Join:
    calls: dict[str, Call]
    served: list[Served]
    legacy: int = 0
    unplaced: list[dict] = field(default_factory=list)


def _rank(value) -> int | None:
    try:
        rank = int(value)
    except (TypeError, ValueError):
        return None
    return rank if rank > 0 else None


def build_join(home, *, since: datetime | None = None, before: datetime | None = None,
               purpose: str | None = None) -> Join:
    """Calls (by call_id) with their served rows and marks, served rows in the window
    (`since <= served time <= before`) and of `purpose` (None: every purpose)."""
    low = since.timestamp() if since is not None else None
    high = before.timestamp() if before is not None else None
    served: list[Served] = []
    pairs: dict[tuple[str, str], Served] = {}
    calls: dict[str, Call] = {}
    legacy = 0
    for line in iter_lines(served_log_path(home)):
        row = line.row
        call_id, event_id = _text(row.get("call_id")), _text(row.get("event_id"))
        at = epoch_seconds(row.get("timestamp"))
        if (low is not None or high is not None) and (
                at is None or (low is not None and at < low) or (high is not None and at > high)):
            continue
        row_purpose = _text(row.get("purpose")) or "unknown"
        if purpose is not None and row_purpose != purpose:
            continue
        if call_id is None or event_id is None:
            legacy += 1
            continue
        if (call_id, event_id) in pairs:
            continue  # a repeat of the pair (another ladder) is not a second serve
        item = Served(call_id, event_id, _rank(row.get("rank")), source_label(row.get("source")),
                      _text(row.get("project")), row_purpose, _text(row.get("session_id")),
                      str(row.get("query") or ""), at)
        pairs[(call_id, event_id)] = item
        served.append(item)
        call = calls.get(call_id)
        if call is None:
            call = calls[call_id] = Call(call_id, at, item.query, row_purpose, item.session_id,
                                         _text(row.get("provider")))
        call.at = min(call.at, at) if call.at is not None and at is not None else (call.at or at)
        call.rows.append(item)
    unplaced: list[dict] = []
    for line in iter_lines(access_ledger_path(home)):
        row = line.row
        call_id, event_id = _text(row.get("call_id")), _text(row.get("event_id"))
        mark = {"event_id": event_id, "timestamp": row.get("timestamp"), "source": row.get("source"),
                "session_id": _text(row.get("session_id"))}
        item = pairs.get((call_id, event_id)) if call_id and event_id else None
        if item is None:
            if row.get("source") == USED and event_id:
                unplaced.append(mark)
            continue
        if row.get("source") == FETCHED:
            item.fetched.append(mark)
        elif row.get("source") == USED:
            item.used.append(mark)
    for row in _search_calls(home):
        call = calls.get(_text(row.get("call_id")) or "")
        if call is not None:
            call.session_id = call.session_id or _text(row.get("session_id"))
            call.provider = call.provider or _text(row.get("provider"))
            started = epoch_seconds(row.get("request_started_at"))
            if started is not None:
                call.at = min(call.at, started) if call.at is not None else started
    for call in calls.values():
        call.rows.sort(key=lambda r: (r.rank if r.rank is not None else 1 << 30, r.event_id))
    return Join(calls, served, legacy, unplaced)


def _search_calls(home):
    for line in iter_lines(search_calls_path(home)):
        yield line.row


def rank_bucket(rank: int | None) -> str:
    if rank is None:
        return "unknown"
    return "1-3" if rank <= 3 else "4-7" if rank <= 7 else "8-15" if rank <= 15 else "16+"


def mrr(ranks_per_call: list[list[int]]) -> float | None:
    """Mean over calls of 1 / the best rank used (0 for a call with no use)."""
    if not ranks_per_call:
        return None
    return round(sum(1.0 / min(r) if r else 0.0 for r in ranks_per_call) / len(ranks_per_call), 6)
