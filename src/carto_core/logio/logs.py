"""The logs of a carto home: their labels, file names and upstream key orders.

Upstream's five searched logs keep their names and row shapes byte for byte (jq key order);
carto adds `turns.jsonl`. Labels are what `sources` in search results and census buckets say.
Stdlib only: the hook path imports this.
"""

from __future__ import annotations

#: Searched logs: label -> file name, in upstream's order, turns last.
SEARCHED_LOGS: dict[str, str] = {
    "changelog": "changelog.jsonl",
    "research": "research-log.jsonl",
    "milestones": "session-milestones.jsonl",
    "tool-use": "tool-use-log.jsonl",
    "prompts": "prompt-history.jsonl",
    "turns": "turns.jsonl",
}

#: The order logs are folded in: domain logs first, the changelog last, so that a domain row
#: wins its event_id over the changelog copy (upstream: the domain log wins `_source`).
FOLD_ORDER: tuple[str, ...] = tuple(l for l in SEARCHED_LOGS if l != "changelog") + ("changelog",)

#: Telemetry and side logs in the home folder: written, never searched.
SIDE_LOGS: dict[str, str] = {
    "served": "served-log.jsonl",
    "access": "access-ledger.jsonl",
    "knowledge-gaps": "knowledge-gaps.jsonl",
}

#: Which key spells the session in each log (upstream's quirk, kept for compatibility).
SESSION_KEY: dict[str, str] = {
    "changelog": "session_id",
    "research": "session",
    "milestones": "session_id",
    "tool-use": "session",
    "prompts": "session_id",
    "turns": "session",
}

# Key orders of each row shape (reference/cartographer.md 1.5, 1.7, 1.8, 6.1). Keys that a
# shape lists are written in this order when present; keys a shape does not list (a plugin's
# extras, a newer upstream field) follow in the order they were given.
SHAPES: dict[str, tuple[str, ...]] = {
    "tool-use": (
        "event_id", "timestamp", "type", "provider", "tool", "summary", "project", "cwd",
        "session", "transcript_path", "diff_shape", "salience", "commit_type", "commit_action",
        "parent_event_id",
    ),
    "changelog": (
        "event_id", "timestamp", "type", "provider", "session_id", "project", "cwd", "summary",
        "transcript_path", "diff_shape", "related_ids", "salience", "commit_type",
        "commit_action", "parent_event_id",
    ),
    # A commit backfilled from git history (reference 6.5): no session, provider or salience.
    "changelog-git": (
        "event_id", "timestamp", "type", "project", "summary", "commit_hash", "author", "url",
        "files_changed", "related_ids",
    ),
    "changelog-milestone": (
        "event_id", "timestamp", "type", "provider", "session_id", "project", "cwd", "deeplink",
        "summary", "transcript_path", "transcript_verified", "related_ids", "salience",
        "parent_event_id",
    ),
    "milestones": (
        "event_id", "timestamp", "milestone", "provider", "description", "session_id",
        "transcript_path", "transcript_verified", "deeplink", "project", "cwd", "event",
        "git_branch", "git_dirty_files", "recent_commits", "session_event_count", "salience",
        "parent_event_id",
    ),
    "research": (
        "event_id", "timestamp", "type", "provider", "url", "title", "query", "prompt",
        "category", "project", "cwd", "session", "transcript_path", "related_ids", "salience",
        "parent_event_id",
    ),
    # A search's result row: upstream writes parent_event_id before salience here (1.7).
    "research-result": (
        "event_id", "timestamp", "type", "provider", "url", "title", "query", "prompt",
        "category", "project", "cwd", "session", "transcript_path", "related_ids",
        "parent_event_id", "salience",
    ),
    "prompts": (
        "event_id", "timestamp", "type", "provider", "summary", "project", "cwd", "session_id",
        "transcript_path", "salience",
    ),
    "turns": (
        "event_id", "timestamp", "project", "type", "provider", "summary", "transcript_path",
        "session", "turn_idx",
    ),
}


def order_row(shape: str, fields: dict, *, keep_none: frozenset[str] = frozenset()) -> dict:
    """Return `fields` as a dict in the key order of `shape`.

    Keys the shape lists come first in its order; others follow as given. A value of None is
    dropped (upstream's optional `[key]`s) unless the key is in `keep_none` (keys such as
    `diff_shape` that upstream writes as an explicit null).
    """
    order = SHAPES[shape]
    row: dict = {}
    for key in order:
        if key in fields:
            value = fields[key]
            if value is not None or key in keep_none:
                row[key] = value
    for key, value in fields.items():
        if key not in row and key not in order:
            row[key] = value
    return row


#: Logs whose rows are prompts (the row's summary is the prompt) or open with one (a turn):
#: the rows that carry `prompt_intent` (carto_core.intents). Here, so a writer can tell
#: whether a batch needs the classifier without importing it.
PROMPT_LOGS = frozenset({"prompts", "turns"})
