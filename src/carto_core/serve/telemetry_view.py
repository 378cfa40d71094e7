"""`GET /api/telemetry`: recall telemetry, call by call: what the agent asked (the search-call
row), what it got (the served-log rows of that call, each with the event's summary from the
warm corpus) and what it used (access-ledger rows).

Read-only, from the files `carto search` writes (`search.telemetry`'s paths and environment
overrides). An access row joins the call it names (`call_id`); one without a call id joins the
latest call of the same session that served that event at or before the access. Sources count
as `carto digest session`'s recall block counts them: `result_fetched` (`--get`) is a lookup,
reported as `fetched`; every other access (`result_used`, legacy rows) is `used`. The three
files are read again only when one of them changed (size and mtime).
"""

from __future__ import annotations

import os
from datetime import timedelta

from carto_core.logio.home import Home
from carto_core.logio.reader import iter_lines
from carto_core.search.telemetry import (
    ENDORSING_SOURCES_EXCLUDED,
    access_ledger_path,
    search_calls_path,
    served_log_path,
)
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.util.timeparse import parse_timestamp, utcnow


def _stat(path) -> tuple:
    try:
        info = os.stat(path)
    except OSError:
        return (None,)
    return (info.st_size, info.st_mtime_ns, info.st_ino)


class TelemetryReader:
    """The joined calls of one home, read again when a telemetry file changed."""

    def __init__(self, home: Home):
        self.home = home
        self._key: tuple | None = None
        self._calls: list[dict] = []
        self.reads = 0

    def paths(self) -> dict:
        return {"calls": search_calls_path(self.home), "served": served_log_path(self.home),
                "access": access_ledger_path(self.home)}

    def calls(self) -> list[dict]:
        paths = self.paths()
        key = tuple(_stat(p) for p in paths.values())
        if key != self._key:
            self._calls = self._join(paths)
            self._key = key
            self.reads += 1
        return self._calls

    @staticmethod
    def _join(paths: dict) -> list[dict]:
        calls: dict[str, dict] = {}

        def call(call_id: str, row: dict | None = None) -> dict:
            entry = calls.get(call_id)
            if entry is None:
                entry = calls[call_id] = {
                    "call_id": call_id, "timestamp": None, "query": "", "project": None,
                    "session_id": None, "provider": "", "purpose": "", "elapsed_ms": None,
                    "result_count": None, "stages_ms": {}, "semantic_status": "",
                    "logged": False, "served": [], "accesses": []}
            if row is not None:
                entry.update({k: row.get(k) for k in ("timestamp", "query", "project", "session_id",
                                                       "provider", "purpose", "elapsed_ms",
                                                       "result_count", "semantic_status")
                              if row.get(k) is not None})
                if isinstance(row.get("stages_ms"), dict):
                    entry["stages_ms"] = row["stages_ms"]
                entry["logged"] = True
            return entry

        for line in iter_lines(paths["calls"]):
            call_id = line.row.get("call_id")
            if isinstance(call_id, str) and call_id:
                call(call_id, line.row)
        # (session, event) -> [(served time, call id)] for access rows that name no call
        served_at: dict[tuple, list[tuple]] = {}
        for line in iter_lines(paths["served"]):
            row = line.row
            call_id, event_id = row.get("call_id"), row.get("event_id")
            if not isinstance(call_id, str) or not isinstance(event_id, str):
                continue
            entry = call(call_id)
            for key in ("timestamp", "query", "session_id", "provider", "purpose"):
                if entry[key] in (None, "") and row.get(key) is not None:
                    entry[key] = row.get(key)
            entry["served"].append({"event_id": event_id, "rank": row.get("rank"),
                                    "source": row.get("source") or "", "used": False,
                                    "fetched": False})
            moment = parse_timestamp(row.get("timestamp"))
            served_at.setdefault((row.get("session_id"), event_id), []).append(
                (moment.timestamp() if moment else 0.0, call_id))
        for line in iter_lines(paths["access"]):
            row = line.row
            event_id = row.get("event_id")
            if not isinstance(event_id, str):
                continue
            call_id = row.get("call_id") if isinstance(row.get("call_id"), str) else None
            if call_id is None or call_id not in calls:
                moment = parse_timestamp(row.get("timestamp"))
                at = moment.timestamp() if moment else float("inf")
                earlier = [c for t, c in served_at.get((row.get("session_id"), event_id), []) if t <= at]
                call_id = earlier[-1] if earlier else None
            if call_id is None:
                continue  # an access to an id no call served (a --get by hand)
            kind = "fetched" if row.get("source") in ENDORSING_SOURCES_EXCLUDED else "used"
            entry = calls[call_id]
            entry["accesses"].append({"event_id": event_id, "kind": kind,
                                      "source": row.get("source") or "",
                                      "timestamp": row.get("timestamp")})
            for served in entry["served"]:
                if served["event_id"] == event_id:
                    served[kind] = True
        out = list(calls.values())
        for entry in out:
            entry["served"].sort(key=lambda s: (s["rank"] if isinstance(s["rank"], int) else 1 << 30))
            entry["counts"] = {
                "served": len(entry["served"]),
                "used": sum(1 for s in entry["served"] if s["used"]),
                "fetched": sum(1 for s in entry["served"] if s["fetched"]),
            }
        out.sort(key=lambda c: str(c["timestamp"] or ""), reverse=True)
        return out


def telemetry(reader: TelemetryReader, live: LiveCorpus, *, days: int, session_id: str | None,
              purpose: str | None, query: str | None, limit: int, offset: int) -> dict:
    cutoff = utcnow() - timedelta(days=days)
    needle = (query or "").lower()
    selected = []
    for entry in reader.calls():
        moment = parse_timestamp(entry["timestamp"])
        if moment is None or moment < cutoff:
            continue
        if session_id and entry["session_id"] != session_id:
            continue
        if purpose and entry["purpose"] != purpose:
            continue
        if needle and needle not in str(entry["query"]).lower():
            continue
        selected.append(entry)
    served = sum(c["counts"]["served"] for c in selected)
    used = sum(c["counts"]["used"] for c in selected)
    page = []
    for entry in selected[offset: offset + limit]:
        out = dict(entry)
        out["served"] = [{**s, **_event_brief(live, s["event_id"])} for s in entry["served"]]
        page.append(out)
    purposes: dict[str, int] = {}
    for entry in selected:
        purposes[entry["purpose"] or "?"] = purposes.get(entry["purpose"] or "?", 0) + 1
    return {
        "calls": page,
        "total": len(selected),
        "offset": offset,
        "limit": limit,
        "summary": {
            "calls": len(selected),
            "served": served,
            "used": used,
            "fetched": sum(c["counts"]["fetched"] for c in selected),
            "calls_with_use": sum(1 for c in selected if c["counts"]["used"]),
            "used_pct": round(100 * used / served, 1) if served else None,
            "purposes": dict(sorted(purposes.items(), key=lambda kv: -kv[1])),
        },
        "files": {name: str(path) for name, path in reader.paths().items() if path.exists()},
    }


def _event_brief(live: LiveCorpus, event_id: str) -> dict:
    event = live.get(event_id)
    if event is None:
        return {"summary": None, "type": None, "project": None, "in_corpus": False}
    return {"summary": event.summary, "type": event.type, "project": event.project,
            "in_corpus": True}
