"""The MCP tool catalogue: names, JSON schemas, and the one lens call behind each tool.

Every tool answers with the document the matching CLI command prints with `--json` (so an agent
that learned one learns the other), cut to the output budget by `budget.paginate` along the list
named by `list_path`. No tool ranks, counts or folds by itself: search, get, thread and orient
call `carto_core.search`; facts calls `carto_core.facts.run_facts`; standup, digest, wrapup,
decisions and decide call `carto_core.lenses`; collision calls `carto_core.capture.collision`.
Only `wrapup` (the milestone) and `decide` (a decision_update milestone) write to the logs;
only `search` writes telemetry (served rows under the caller's session, and a knowledge gap
when it finds nothing for unknown ids or paths, as `carto search` does); facts and the lenses
write nothing.

A tool refuses bad input with `ToolError(code, message, status)`: the server turns it into a
tool result with `isError: true` and `structuredContent.error = {code, status, message, tool}`
(400 the caller asked wrongly, 404 an id that does not exist, 409 another corpus, 503 a lens
that is not installed), and keeps running.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from carto_core.search.api import PURPOSES

ID_PATTERN = r"^[A-Za-z0-9_-]{1,200}$"
_ID_RE = re.compile(ID_PATTERN)
RECORD_ID_PATTERN = r"^[a-z]{3}-[0-9a-f]{4,10}$"
RECORD_ID_WORDS = ("a record id as `decisions` lists it (dec-cf3f65d007, thr-..., ins-...), or its "
                   "kind and first 4 or more hex digits (dec-cf3f)")
#: A pattern's refusal in words: the schema's regular expression is no help to whoever sent it.
PATTERN_WORDS = {RECORD_ID_PATTERN: "a record id: " + RECORD_ID_WORDS.removeprefix("a record id ")}


class ToolError(Exception):
    """A refused call: `code` is a stable word, `status` the HTTP-like class (400/404/409/503)."""

    def __init__(self, code: str, message: str, status: int = 400, **data: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.data = data

    def as_dict(self, tool: str) -> dict:
        return {"error": {"code": self.code, "status": self.status, "message": self.message,
                          "tool": tool, **self.data}}


@dataclass
class ToolSpec:
    """One tool. Its body is the `CartoMcp` method of the same name, called with the arguments."""

    name: str
    title: str
    description: str
    properties: dict
    #: Which list of the answer is paged (a dotted path), or a function of the arguments.
    list_path: str | Callable[[dict], str | None] | None = None
    required: list[str] = field(default_factory=list)
    read_only: bool = True
    idempotent: bool = True
    #: What a non-read-only tool writes (said in the catalogue).
    writes: str = ""

    def paged_list(self, args: dict) -> str | None:
        return self.list_path(args) if callable(self.list_path) else self.list_path

    @property
    def input_schema(self) -> dict:
        schema = {"type": "object", "properties": {**self.properties, **COMMON}, "additionalProperties": False}
        if self.required:
            schema["required"] = list(self.required)
        return schema


#: Arguments every tool takes: the budget and the page cursor.
COMMON = {
    "max_chars": {"type": "integer", "minimum": 2000, "maximum": 200000,
                  "description": "Most characters this answer may use (default: the server's, "
                                 "12000 unless configured). Longer answers are paged."},
    "cursor": {"type": "string", "maxLength": 16384,
               "description": "page.next_cursor of a previous answer of this tool: continue it. "
                              "The other arguments are taken from the cursor."},
}

_WHEN = ("WHEN grammar: 24h, 7d, 2w, 3mo, today, yesterday, this week, last month, "
         "YYYY-MM-DD[THH:MM:SS] (local).")
_PROJECT = {"type": "string", "maxLength": 2048,
            "description": "Project scope: case-insensitive substring, `a|b` for several; a family "
                           "name from the project registry widens it."}
_SINCE = {"type": "string", "maxLength": 128, "description": "Window start. " + _WHEN}
_BEFORE = {"type": "string", "maxLength": 128, "description": "Window end. " + _WHEN}
_TEAM = {"type": "boolean", "default": False,
         "description": "Also ask the team server this home pushes to (`carto team init`): the "
                        "answer is the team's, each session or result naming its machine and "
                        "author; the answer's `team` says whether the server answered (when it "
                        "did not: this home's answer, `team.state` unreachable)."}
_SESSION = {"type": "string", "pattern": r"^[A-Za-z0-9._:-]{1,200}$",
            "description": "Your session id (for delta serving and telemetry); default: the "
                           "server's environment (CLAUDE_CODE_SESSION_ID, CODEX_SESSION_ID, ...)."}


def parse_ids(value) -> list[str]:
    """Event ids from a list or one comma-separated string, each checked."""
    ids = [part.strip() for part in value.split(",")] if isinstance(value, str) else list(value)
    ids = [i for i in ids if i]
    if not ids:
        raise ToolError("invalid_arguments", "ids: give at least one event id")
    bad = [i for i in ids if not _ID_RE.match(i)]
    if bad:
        raise ToolError("invalid_arguments", f"ids: not an event id (allowed [A-Za-z0-9_-]): {bad[:5]}")
    return ids


def _facts_list(args: dict) -> str | None:
    return {"census": "facts.commits", "tempo": "facts.projects", "delta": "facts.events",
            "tokens": "facts.sessions"}.get(
        args.get("verb", ""))


def _digest_list(args: dict) -> str | None:
    return "projects" if args.get("kind") == "day" else "commits"


TOOLS: list[ToolSpec] = [
    ToolSpec(
        name="search",
        title="Search your past work",
        description=(
            "Ranked recall over everything agents did (commits, edits, commands, prompts, research, "
            "transcript turns): BM25 (+ semantic when available), RRF fusion, decay. Results carry "
            "event_id (fetch one with `get`, follow a commit chain with `thread`), timestamp, "
            "sources, type, project, summary, score, session_id, transcript_path. Results already "
            "shown to your session are hidden unless all=true (delta serving). Answers are the "
            "`carto search --json` document."
        ),
        properties={
            "query": {"type": "string", "minLength": 1, "maxLength": 2000,
                      "description": "What to look for (words; ids and paths work too)."},
            "project": _PROJECT,
            "since": _SINCE,
            "before": _BEFORE,
            "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 15,
                      "description": "Results to return (default 15)."},
            "ranker": {"type": "array", "items": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+$"},
                       "maxItems": 8,
                       "description": "Ladder rankers by name (default: config, i.e. bm25)."},
            "decay": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+$",
                      "description": "Decay policy by name: exp, gated-exp, gated-prior, none (default: "
                                     "the configured one, search.decay: gated-prior unless set)."},
            "all": {"type": "boolean", "default": False,
                    "description": "Show results your session was already served."},
            "purpose": {"type": "string", "enum": list(PURPOSES), "default": "manual",
                        "description": "Why this search runs (telemetry), as `carto search --purpose`."},
            "session_id": _SESSION,
            "team": _TEAM,
        },
        required=["query"],
        list_path="results",
        read_only=False,
        idempotent=False,
        writes=("search telemetry (served rows); a knowledge-gap row and its changelog copy when "
                "nothing is found for unknown ids or paths"),
    ),
    ToolSpec(
        name="get",
        title="Fetch events by id",
        description=("Fetch full records by event_id (ids from search, facts samples, standup...): "
                     "{found: {id: row}, missing: [ids]}. When none of the ids exists the answer is "
                     "an error (code not_found) naming them. Answers are the "
                     "`carto search --get IDS --json` document."),
        properties={"ids": {"anyOf": [
            {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}, "minItems": 1, "maxItems": 100},
            {"type": "string", "minLength": 1, "maxLength": 20000}],
            "description": "Event ids: a list, or one string separated by commas."}},
        required=["ids"],
        list_path="found",
    ),
    ToolSpec(
        name="thread",
        title="Follow a commit thread",
        description=("The arc of an event: its ancestors through parent_event_id and every "
                     "descendant (a chain of commits, a session's follow-ups). Answers are the "
                     "`carto search --thread ID --json` document."),
        properties={"event_id": {"type": "string", "pattern": ID_PATTERN}},
        required=["event_id"],
        list_path="thread",
    ),
    ToolSpec(
        name="orient",
        title="Orient on a project",
        description=("No query needed: a project's (or family's) newest wrapups with their open "
                     "threads, milestones, commits and busiest files, newest first. Start here in "
                     "an unfamiliar repository. Answers are `carto search --project P --json`."),
        properties={"project": {**_PROJECT, "minLength": 1}, "since": _SINCE, "before": _BEFORE,
                    "limit": {"type": "integer", "minimum": 1, "maximum": 10, "default": 10,
                              "description": "Entries per section (at most 10)."}},
        required=["project"],
        list_path="commits",
    ),
    ToolSpec(
        name="facts",
        title="Count what is true",
        description=(
            "Deterministic counts (contract v1), never ranked, never written: census (events by "
            "project, type, source, provider with sample event_ids, commits, span), tempo (daily "
            "counts per project, the last complete UTC day scored as z), delta (rows appended since "
            "facts.cursor; the first call without one records a baseline), tokens (what the model API "
            "reported per session, project, day and commit, from the transcripts). Every sample id can be "
            "fetched with `get`. delta: facts.cursor moves past every event of the answer, so page "
            "through next_cursor before using it. Answers are `carto facts VERB --json`."
        ),
        properties={
            "verb": {"type": "string", "enum": ["census", "tempo", "delta", "tokens"]},
            "project": _PROJECT, "since": _SINCE, "before": _BEFORE,
            "top": {"type": "integer", "minimum": 1, "maximum": 200, "description": "Buckets per dimension (default 20)."},
            "sample": {"type": "integer", "minimum": 0, "maximum": 10, "description": "Sample ids per bucket (default 3)."},
            "budget": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "delta page size (default 200)."},
            "facts_cursor": {"type": "string", "maxLength": 65536,
                             "description": "delta: the facts.cursor a previous delta returned."},
            "call_id": {"type": "string", "maxLength": 160},
            "team": {**_TEAM, "description": "census and tempo only: " + _TEAM["description"]},
        },
        required=["verb"],
        list_path=_facts_list,
    ),
    ToolSpec(
        name="standup",
        title="Who is working on what",
        description=("Sessions active in the window with projects, idle time, commits and pushes; "
                     "CONTENTION (projects and files two sessions both touched, worktrees collapsed "
                     "to the main checkout), SILENT and UNCLAIMED. Answers are `carto standup --json`."),
        properties={
            "since": {**_SINCE, "description": "Window (default 6h). " + _WHEN},
            "project": _PROJECT,
            "commit": {"type": "string", "maxLength": 200, "description": "A sha or subject substring: who made this commit?"},
            "live": {"type": "string", "maxLength": 32, "description": "An event this recent marks a session live (default 20m)."},
            "no_git": {"type": "boolean", "default": False, "description": "Skip UNCLAIMED (it runs git status per repository)."},
            "session_id": {**_SESSION, "description": "You, in the answer (a unique id prefix is "
                           "enough); default: the server's environment."},
            "team": _TEAM,
        },
        list_path="sessions",
    ),
    ToolSpec(
        name="digest",
        title="Digest a session or a day",
        description=("kind=session: one session's span, projects, activity counts, commits, files, "
                     "recall (default: your session). kind=day: a local day grouped by project, "
                     "commits checked against git (schema carto.day-digest/1). Answers are "
                     "`carto digest session|day --json`."),
        properties={
            "kind": {"type": "string", "enum": ["session", "day"]},
            "session_id": {**_SESSION, "description": "kind=session: the session (a unique id "
                           "prefix is enough; default: yours)."},
            "day": {"type": "string", "maxLength": 32, "description": "today, yesterday or YYYY-MM-DD (kind=day)."},
            "projects": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": 50,
                         "description": "kind=day: only these projects (others are counted, not named)."},
            "no_git": {"type": "boolean", "default": False,
                       "description": "kind=day: do not check commits against git (they stay unverified)."},
            "commits": {"type": "integer", "minimum": 0, "maximum": 200, "default": 6,
                        "description": "kind=session: commits to list."},
            "files": {"type": "integer", "minimum": 0, "maximum": 200, "default": 5,
                      "description": "kind=session: files to list."},
        },
        required=["kind"],
        list_path=_digest_list,
    ),
    ToolSpec(
        name="wrapup",
        title="Write this session's wrapup milestone",
        description=("Writes the session_wrapup milestone for a session (default: yours), built "
                     "from its events: description, decisions (its commits), unresolved threads "
                     "(files edited and not committed), key_insight and digest scalars; each of "
                     "description, decisions, unresolved and key_insight you give is used instead "
                     "of the derived one (\"none\" is left out). Once per session state: a second "
                     "call is already_present. Answers with the receipt (`carto wrapup --json`)."),
        properties={
            "session_id": {**_SESSION, "description": "The session (a unique id prefix is enough; "
                           "default: yours)."},
            "description": {"type": "string", "maxLength": 2000,
                            "description": "One line; instead of the derived one."},
            "decisions": {"type": "array", "items": {"type": "string", "maxLength": 1000}, "maxItems": 50,
                          "description": "What the session decided; instead of its commits."},
            "unresolved": {"type": "array", "items": {"type": "string", "maxLength": 1000}, "maxItems": 50,
                           "description": "Open threads; instead of its uncommitted edits."},
            "key_insight": {"type": "string", "maxLength": 2000,
                            "description": "Instead of where its edits concentrated."},
            "dry_run": {"type": "boolean", "default": False, "description": "Build the milestone, write nothing."},
        },
        list_path=None,
        read_only=False,
        idempotent=False,
        writes="the session_wrapup milestone",
    ),
    ToolSpec(
        name="decisions",
        title="What earlier sessions decided",
        description=("The decision ledger: decisions, open threads and key insights wrapups "
                     "stated, each with its id (dec-, thr-, ins-), state (current, superseded, "
                     "retired, rejected), successor and the event ids that stated it; current "
                     "records first. Default: current records only. Answers are "
                     "`carto decision list --json`."),
        properties={
            "project": {"type": "string", "maxLength": 200, "description": "Only this project (its name)."},
            "all": {"type": "boolean", "default": False, "description": "Every state, not only current."},
            "states": {"type": "array", "items": {"type": "string", "enum": ["current", "superseded", "retired", "rejected"]},
                       "maxItems": 4},
            "kinds": {"type": "array", "items": {"type": "string", "enum": ["decision", "thread", "insight"]},
                      "maxItems": 3},
        },
        list_path="records",
    ),
    ToolSpec(
        name="decide",
        title="Retire, reject or supersede a decision",
        description=("Change the state of a decision, thread or insight (id or unique prefix): "
                     "retire (no longer true), reject (never was), supersede (replaced: by=ID of "
                     "a current record, or text=the new words). Appends a decision_update "
                     "milestone; nothing is edited. Answers are `carto decision ACTION --json`."),
        properties={
            "action": {"type": "string", "enum": ["retire", "reject", "supersede"]},
            "id": {"type": "string", "pattern": RECORD_ID_PATTERN,
                   "description": "The record to change: " + RECORD_ID_WORDS + "."},
            "by": {"type": "string", "pattern": RECORD_ID_PATTERN,
                   "description": "supersede: the current record that replaces it, "
                                  + RECORD_ID_WORDS + "."},
            "text": {"type": "string", "maxLength": 1000},
            "reason": {"type": "string", "maxLength": 1000},
            "session_id": _SESSION,
            "dry_run": {"type": "boolean", "default": False, "description": "Build the row, write nothing."},
        },
        required=["action", "id"],
        list_path=None,
        read_only=False,
        idempotent=True,
        writes="a decision_update milestone",
    ),
    ToolSpec(
        name="collision",
        title="Did a peer touch this file?",
        description=("Before editing a file: did another session edit or commit it in the last "
                     "window_minutes (default 45)? Worktree paths collapse to the main checkout. "
                     "Answers {path, note (one line or null), touches:[{session_id, provider, "
                     "timestamp, path, event_id, type}]}."),
        properties={
            "path": {"type": "string", "minLength": 1, "maxLength": 4096,
                     "description": "The file (absolute, or relative to the server's cwd)."},
            "session_id": _SESSION,
            "window_minutes": {"type": "integer", "minimum": 1, "maximum": 1440, "default": 45},
        },
        required=["path"],
        list_path="touches",
    ),
    ToolSpec(
        name="session_tree",
        title="A session's agents, turns and tool calls",
        description=("One session as a tree: the main agent's turns and tool calls, each subagent "
                     "(its own file, an inline sidechain, a Codex sub-agent thread) under the call "
                     "that started it with its own transcript_path and turns; subagents no call "
                     "names sit in the agent's `agents`. Every turn and call has an event_id (`get` "
                     "fetches a turn). A unique id prefix is enough. Answers are "
                     "`carto session ID --tree --json`."),
        properties={"session_id": {**_SESSION, "description": "The session (a unique id prefix is "
                                   "enough; default: your session)."}},
        list_path="tree.turns",
    ),
    ToolSpec(
        name="related",
        title="What occurs with a term, a file or a session",
        description=("Terms and sessions that co-occur with a word, a file (its name's words, rows "
                     "naming it) or a session (its characteristic terms, the sessions sharing "
                     "them), idf-weighted: often beside it and rare elsewhere first. kind decides "
                     "what the query is (default: a session id or a unique prefix of 6+ hex digits, "
                     "else a path, else a term). Answers are `carto related QUERY --json`."),
        properties={
            "query": {"type": "string", "minLength": 1, "maxLength": 2000,
                      "description": "A word, a file path, or a session id (a unique prefix is enough)."},
            "kind": {"type": "string", "enum": ["auto", "term", "file", "session"], "default": "auto"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 15,
                      "description": "Terms and sessions to return."},
        },
        required=["query"],
        list_path="sessions",
    ),
    ToolSpec(
        name="handoff",
        title="Hand a session or a project over",
        description=("What the next agent needs, each line citing its event id: for a session "
                     "(default: yours) its decisions (commits, wrapup decisions), open threads "
                     "(wrapup unresolved, edits never committed), files, last turns and the "
                     "sessions it continues; for a project its wrapups, open threads, commits, "
                     "files and newest sessions. Bounded: sections lose their tails to fit and `cut` "
                     "says what. Answers are `carto handoff [SESSION] [--project P] --json`."),
        properties={
            "session_id": {**_SESSION, "description": "The session (a unique id prefix is enough; "
                           "default: yours). Not with project."},
            "project": {**_PROJECT, "minLength": 1, "description": "A project instead of a session."},
        },
        list_path=None,
    ),
]

TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}
