"""What a transcript turn did: the `tools` field of a `turns.jsonl` row, and the hook-shaped
events a lens derives from it.

Hooks see a tool call as it happens; a transcript holds the same calls after the fact. A home
built by backfill alone (`carto ingest claude`, no hooks yet: how every user starts) has turns
and nothing else, so the transcript readers record each turn's tool calls on its row, and the
lenses (standup, digests, wrapup, profile, trustmap) turn them back into the events a hook
would have logged (`derived_events`; which evidence a lens folds for a session is decided in
`carto_core.lenses.turnwork`).

Row field (written only when a turn made tool calls)::

    "tools": [{"name": "Bash", "input": "git commit -am 'fix: x'", "at": "<ISO>",
               "failed": true, "edits": ["/abs/a.py"], "commit": {"sha": "8cd9945",
               "subject": "fix: x", "branch": "main", "kind": "committed"}}, ...]
    "tools_dropped": 12                       # calls past MAX_TOOLS, counted only

`input` is the call's key argument (command, path, URL, query) cut to INPUT_CUT characters;
`failed`, `edits`, `commit` and `agent_type` (a Task/Agent call's subagent type, a
`spawn_agent` call's role) appear only when true or known. Stdlib only (the readers run in
the SessionStart catch-up and the Stop hook).
"""

from __future__ import annotations

import os
import re

#: Changelog rows no hook wrote (a lens's own, the desktop app's session metadata, which names
#: the Claude Code session it ran): they do not make a session "hooked", nor is a session at
#: work when one is written. Here, stdlib-only, for the SessionStart note on the hook path too.
OWN_TYPES = frozenset({"milestone_session_wrapup", "milestone_decision_update", "milestone_trustmap_update",
                       "desktop_session"})


def own_row(row: dict) -> bool:
    """A raw row of one of `OWN_TYPES`: a changelog row by its type, a milestones row by its
    milestone."""
    return row.get("type") in OWN_TYPES or f"milestone_{row.get('milestone')}" in OWN_TYPES


INPUT_CUT = 200
MAX_TOOLS = 200

#: Shell tools of both agents (Claude's Bash; Codex's exec tools).
SHELL_TOOLS = frozenset({"Bash", "shell", "exec_command", "local_shell", "container.exec"})
FETCH_TOOLS = frozenset({"WebFetch", "web__run"})
SEARCH_TOOLS = frozenset({"WebSearch", "web_search"})
AGENT_TOOLS = frozenset({"Task", "Agent"})
#: Codex's subagent tool: every call starts one, whatever its role (`agent_type`).
SPAWN_TOOLS = frozenset({"spawn_agent"})

#: The first line git prints for a commit: `[main 8cd9945] subject`, `[main (root-commit) 8cd9945] subject`,
#: `[detached HEAD 8cd9945] subject`.
_COMMIT_LINE = re.compile(
    r"^\[(?P<branch>[^\]\n]*?)(?: \(root-commit\))? (?P<sha>[0-9a-f]{7,40})\] (?P<subject>[^\n]+)$", re.M)


def clip(text: str, limit: int = INPUT_CUT) -> str:
    from carto_core.privacy.redact import clip as redacted_clip  # redacted before the cut

    return redacted_clip(" ".join(text.split()), limit, "…")


def announced_commits(text: object) -> list[dict]:
    """Every commit a shell call's output announces (`[branch sha] subject` lines), in order."""
    if not isinstance(text, str) or "] " not in text:
        return []
    return [{"sha": m.group("sha"), "subject": m.group("subject").strip(), "branch": m.group("branch").strip()}
            for m in _COMMIT_LINE.finditer(text)]


def commit_from_output(text: object) -> dict | None:
    """The first commit a shell call's output announces, else None."""
    found = announced_commits(text)
    return found[0] if found else None


def absolute(path: str, cwd: str) -> str:
    """`path` made absolute against an absolute `cwd` (else as given)."""
    if not path or os.path.isabs(path) or not cwd or not os.path.isabs(cwd):
        return path
    return os.path.normpath(os.path.join(cwd, path))


class ToolLog:
    """A turn's tool calls as a reader meets them: a call, later its result."""

    __slots__ = ("entries", "dropped", "_by_id")

    def __init__(self):
        self.entries: list[dict] = []
        self.dropped = 0
        self._by_id: dict[str, dict] = {}

    def call(self, call_id: object, name: str, what: str, at: object = "") -> dict | None:
        """Record a call (once per id: streamed lines repeat blocks); None past MAX_TOOLS."""
        if isinstance(call_id, str) and call_id in self._by_id:
            return None
        if len(self.entries) >= MAX_TOOLS:
            self.dropped += 1
            return None
        entry = {"name": name or "tool", "input": clip(what) if what else ""}
        if isinstance(at, str) and at:
            entry["at"] = at
        self.entries.append(entry)
        if isinstance(call_id, str) and call_id:
            self._by_id[call_id] = entry
        return entry

    def get(self, call_id: object) -> dict | None:
        return self._by_id.get(call_id) if isinstance(call_id, str) else None

    def fields(self) -> dict:
        out: dict = {}
        if self.entries:
            out["tools"] = self.entries
        if self.dropped:
            out["tools_dropped"] = self.dropped
        return out


def set_edits(entry: dict | None, paths, cwd: str = "") -> None:
    if entry is None:
        return
    edits = []
    for path in paths:
        if isinstance(path, str) and path:
            path = absolute(path, cwd)
            if path not in edits:
                edits.append(path)
    if edits:
        entry["edits"] = edits
    else:
        entry.pop("edits", None)


# ---------------------------------------------------------------------------------------------
# Lenses: events derived from a turn


def derived_events(turn) -> list:
    """The hook-shaped events a turn's `tools` stand for (never written to a log).

    As the hooks would have logged them (reference/cartographer.md 1.5-1.7): a commit
    (`git_commit`, also from a failed call), edits (`tool_file_edit` `Modified: <path>`, noise
    paths skipped; `(via bash)` from a shell call), otherwise a shell call's `Pushed:`/`Ran:`
    unless noise, a fetch (`research_fetch`), a search (`research_search`), a subagent of a
    type the SubagentStop hook marks (`milestone_agent_<type>`; every Codex `spawn_agent` call,
    its role the type, as Codex's SubagentStop marks every subagent). Ids are `<turn id>#<n>`.
    """
    from carto_core.capture import shell
    from carto_core.capture.gitstate import classify_commit
    from carto_core.capture.milestones import MILESTONE_AGENT_TYPES, agent_role
    from carto_core.model.events import Event
    from carto_core.util.timeparse import parse_timestamp

    tools = turn.row.get("tools") if isinstance(turn.row, dict) else None
    if not isinstance(tools, list):
        return []
    out = []
    base = {"provider": turn.provider, "session_id": turn.session_id, "project": turn.project,
            "cwd": turn.cwd, "transcript_path": turn.transcript_path}

    def add(n: int, entry: dict, etype: str, summary: str, **extra) -> None:
        at = parse_timestamp(entry.get("at")) if entry.get("at") else None
        row = {"event_id": f"{turn.event_id}#{n}", "type": etype, "summary": summary,
               "derived_from": turn.event_id, **base, **extra}
        out.append(Event(event_id=row["event_id"], timestamp=at or turn.timestamp, source="turns",
                         type=etype, provider=turn.provider, session_id=turn.session_id,
                         project=turn.project, cwd=turn.cwd, summary=summary,
                         transcript_path=turn.transcript_path, parent_event_id=turn.event_id, row=row))

    for n, entry in enumerate(tools, 1):
        if not isinstance(entry, dict):
            continue
        name = entry.get("name") if isinstance(entry.get("name"), str) else ""
        what = entry.get("input") if isinstance(entry.get("input"), str) else ""
        failed = entry.get("failed") is True
        commit = entry.get("commit")
        if isinstance(commit, dict) and isinstance(commit.get("sha"), str) and commit["sha"]:
            subject = commit.get("subject") if isinstance(commit.get("subject"), str) else ""
            commit_type = classify_commit(subject)
            add(n, entry, "git_commit", shell.flatten(f"[{commit_type}] Commit {commit['sha']}: {subject}"),
                commit_hash=commit["sha"], commit_type=commit_type)
        if failed:
            continue
        edits = [p for p in entry.get("edits") or () if isinstance(p, str) and not shell.is_noise_path(p)]
        if edits:
            via = " (via bash)" if name in SHELL_TOOLS else ""
            add(n, entry, "tool_file_edit", shell.flatten("Modified: " + ",".join(edits) + via))
            continue
        if name in SHELL_TOOLS:
            if commit or not what.strip() or shell.is_noise_command(what):
                continue
            if shell.mentions_push(shell.git_calls(what, turn.cwd)):
                add(n, entry, "git_push", shell.pushed_summary(what))
            else:
                add(n, entry, "tool_bash", shell.ran_summary(what))
        elif name in FETCH_TOOLS and "://" in what:
            add(n, entry, "research_fetch", "Fetched: " + what, url=what)
        elif name in SEARCH_TOOLS and what:
            add(n, entry, "research_search", "Search: " + what, query=what)
        elif name in SPAWN_TOOLS:
            kind = agent_role(entry.get("agent_type"))
            add(n, entry, f"milestone_agent_{kind}", f"Subagent {kind}: {what}")
        elif name in AGENT_TOOLS:
            kind = entry.get("agent_type")
            if isinstance(kind, str) and kind in MILESTONE_AGENT_TYPES:
                add(n, entry, f"milestone_agent_{kind}", f"Subagent {kind}: {what}")
    return out

