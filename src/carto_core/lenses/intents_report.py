"""`carto report intents`: how the home's prompts divide among the 17 intents, with samples.

Upstream's retuning tool, over the two prompt logs (prompt history and turns, each event once:
within a log the newest row of an event_id wins, `carto_core.logio.fold`). Every key is listed, even
at zero, so a classifier that never answers a key shows it. A row without a stored
`prompt_intent` (written before carto classified prompts) is counted as `unclassified`, never
guessed here: `carto_core.intents.intent_of` says what a writer would store for it.
Read-only.
"""

from __future__ import annotations

from datetime import datetime

from carto_core.intents import INTENT_KEYS, PROMPT_LOGS, stored_intent
from carto_core.logio.reader import ReadReport, iter_lines, unreadable
from carto_core.util.timeparse import epoch_seconds

#: Characters of a prompt shown in a sample.
SAMPLE_CHARS = 160


def _text(row: dict) -> str:
    value = row.get("summary")
    if not isinstance(value, str):
        return ""
    return " ".join(value.split())[:SAMPLE_CHARS]


def prompt_rows(home, *, since: datetime | None = None, before: datetime | None = None,
                project=None, logs=tuple(sorted(PROMPT_LOGS))):
    """(log label, row) of every prompt event in the window and project scope, newest row of
    each event_id (within its log) only, in log order."""
    low = since.timestamp() if since is not None else None
    high = before.timestamp() if before is not None else None
    for label in logs:
        events: dict[str, dict] = {}
        report = ReadReport(str(home.log(label)))
        if unreadable(home.log(label)):
            continue  # read as an absent log: the prompts of the rest are reported
        for line in iter_lines(home.log(label), report):
            row = line.row
            key = row.get("event_id")
            events.pop(key if isinstance(key, str) else f"{label}-{line.lineno}", None)
            events[key if isinstance(key, str) else f"{label}-{line.lineno}"] = row
        for row in events.values():
            if low is not None or high is not None:
                moment = epoch_seconds(row.get("timestamp"))
                if moment is None or (low is not None and moment < low) or (high is not None and moment > high):
                    continue
            if project is not None and not project.matches(str(row.get("project") or "")):
                continue
            yield label, row


def intents_report(home, *, since=None, before=None, project: str | None = None, samples: int = 3,
                   logs=tuple(sorted(PROMPT_LOGS))) -> dict:
    """The distribution document (`project`: a scope spec, `a|b` or a family)."""
    from carto_core.model.project import ProjectScope

    spec, project = project, ProjectScope.parse(project)
    counts = {key: 0 for key in INTENT_KEYS}
    by_log = {label: {key: 0 for key in INTENT_KEYS} for label in logs}
    picked: dict[str, list[dict]] = {key: [] for key in INTENT_KEYS}
    unclassified = {label: 0 for label in logs}
    total = 0
    for label, row in prompt_rows(home, since=since, before=before, project=project, logs=logs):
        total += 1
        key = stored_intent(row)
        if key is None:
            unclassified[label] += 1
            continue
        counts[key] += 1
        by_log[label][key] += 1
        picked[key].append({"event_id": row.get("event_id"), "log": label,
                            "timestamp": row.get("timestamp"), "project": row.get("project"),
                            "text": _text(row)})
    classified = total - sum(unclassified.values())
    keys = []
    for key in INTENT_KEYS:
        # newest first: the samples a person retuning the rules wants to see
        newest = sorted(picked[key], key=lambda s: epoch_seconds(s["timestamp"]) or 0.0, reverse=True)
        keys.append({"key": key, "count": counts[key],
                     "share": round(counts[key] / classified, 4) if classified else 0.0,
                     "samples": newest[:max(0, samples)]})
    return {
        "report": "intents", "home": str(home.root),
        "since": since, "before": before, "project": spec,
        "logs": list(logs), "prompts": total, "classified": classified,
        "unclassified": sum(unclassified.values()), "unclassified_by_log": unclassified,
        "keys": keys, "by_log": by_log,
    }
