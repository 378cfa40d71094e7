"""Provider-neutral live capture: hook payload facts in, upstream-shaped rows out.

A provider's capture module (Claude, Codex, ...) maps its hook events onto the builders here;
the builders own every rule that upstream's hooks applied (reference/cartographer.md 1.4-1.8):
row shapes and key order, salience priors, noise rules, shell-write and commit detection,
single-line summaries with the 200-byte cut, `parent_event_id` threading, milestone rows with
their changelog copies, research rows with URL categories. `write_outcome` redacts and appends.

Stdlib only and import-light: this runs on every tool call of an agent. `gitstate` (which
imports subprocess) is imported only when a command names a commit or a milestone is written.

Usage from a provider module::

    ctx = Context(home, "codex", event_name, payload)
    out = Outcome()
    capture_shell(ctx, out, tool="Bash", command=cmd, failed=False, duration_ms=None)
    write_outcome(home, out)
"""

from __future__ import annotations

import json
import os
import time

from carto_core.capture import research as _research
from carto_core.capture import shell as _shell
from carto_core.capture.tail import read_last_line
from carto_core.logs import order_row

#: A changelog row this recent (seconds) and of the same session is the next row's parent.
PARENT_WINDOW_SECONDS = 60

#: Write-time salience priors (reference/cartographer.md 1.6).
SALIENCE = {
    "tool_bash": 0.2,
    "tool_file_edit": 0.4,
    "git_push": 0.6,
    "session_wrapup": 0.9,
    "session_end": 0.5,
    "compaction": 0.4,
    "agent": 0.4,
    "turn_stop": 0.5,
    "milestone": 0.5,
    "prompt": 0.6,
    "derived_compaction_summary": 0.35,
}

_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


def new_event_id() -> str:
    """`evt-` + 12 random [a-z0-9], upstream's hook id format."""
    return "evt-" + "".join(_ID_ALPHABET[b % 36] for b in os.urandom(12))


def format_utc(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def tool_use_enabled() -> bool:
    """Tool-use capture is on unless `CARTO_CAPTURE_TOOL_USE=0` (upstream made it opt-in)."""
    return os.environ.get("CARTO_CAPTURE_TOOL_USE", "1").strip().lower() not in {"0", "false", "no", "off"}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


class Outcome:
    """What one hook invocation produced: rows to append, text for the agent, problems to log."""

    __slots__ = ("rows", "output", "problems")

    def __init__(self):
        self.rows: list[tuple[str, dict]] = []
        self.output: str | None = None
        self.problems: list[str] = []

    def add(self, log: str, row: dict) -> None:
        self.rows.append((log, row))

    def logs(self) -> list[str]:
        return [log for log, _ in self.rows]


class Context:
    """The facts every row of one hook call shares: who, where, when, and the thread so far."""

    def __init__(self, home, provider: str, event_name: str, payload: dict, *, now: float | None = None):
        self.home = home
        self.provider = provider
        self.event_name = event_name
        self.payload = payload
        self.session = _text(payload.get("session_id"))
        self.cwd = _text(payload.get("cwd"))
        self.transcript = _text(payload.get("transcript_path"))
        self.now = time.time() if now is None else now
        self.timestamp = format_utc(self.now)
        self._project: str | None = None
        self._parent: str | None = None
        self._parent_read = False

    @property
    def project(self) -> str:
        if self._project is None:
            from carto_core.project import project_for

            self._project = project_for(self.cwd) if self.cwd else ""
        return self._project

    def project_of_file(self, path: str) -> str:
        """A file's own repository names the project (an edit in another repo), else the cwd's."""
        if path and os.path.isabs(path):
            from carto_core.project import find_git

            info = find_git(os.path.dirname(path))
            if info is not None:
                return info.main_worktree.name
        return self.project

    def parent(self) -> str | None:
        """upstream `find_parent_event_id`: the changelog's last row, same session, <= 60 s old."""
        if not self._parent_read:
            self._parent_read = True
            self._parent = self._read_parent()
        return self._parent

    def _read_parent(self) -> str | None:
        if not self.session:
            return None
        line = read_last_line(self.home.log("changelog"))
        if not line:
            return None
        try:
            row = json.loads(line)
        except ValueError:
            return None
        if not isinstance(row, dict):
            return None
        session = row.get("session_id") or row.get("session")
        event_id = row.get("event_id")
        if session != self.session or not isinstance(event_id, str) or not event_id:
            return None
        from carto_core.timeparse import parse_timestamp

        moment = parse_timestamp(row.get("timestamp"))
        if moment is None:
            return None
        age = int(self.now) - int(moment.timestamp())
        return event_id if 0 <= age <= PARENT_WINDOW_SECONDS else None

    def chained(self, event_id: str) -> None:
        """A changelog row was just emitted: it is the next row's parent."""
        self._parent_read = True
        self._parent = event_id if self.session else None


# ---------------------------------------------------------------------------------------------
# Tool use: tool-use-log + changelog pairs


def tool_use_pair(
    ctx: Context,
    out: Outcome,
    *,
    type: str,
    tool: str,
    summary: str,
    salience: float,
    project: str | None = None,
    diff_shape: dict | None = None,
    commit_type: str | None = None,
    commit_action: str | None = None,
) -> str:
    """Emit one tool-use row and its changelog copy (same event id); returns the id."""
    event_id = new_event_id()
    parent = ctx.parent()
    project = ctx.project if project is None else project
    common = {
        "event_id": event_id, "timestamp": ctx.timestamp, "type": type, "provider": ctx.provider,
        "summary": summary, "project": project, "cwd": ctx.cwd,
        "transcript_path": ctx.transcript, "diff_shape": diff_shape, "salience": salience,
        "commit_type": commit_type, "commit_action": commit_action, "parent_event_id": parent,
    }
    keep = frozenset({"diff_shape"})
    out.add("tool-use", order_row("tool-use", {**common, "tool": tool, "session": ctx.session}, keep_none=keep))
    out.add("changelog", order_row("changelog", {**common, "session_id": ctx.session, "related_ids": []}, keep_none=keep))
    ctx.chained(event_id)
    return event_id


def capture_file_edit(ctx: Context, out: Outcome, *, tool: str, paths: list[str], via_bash: bool = False) -> int:
    """`Modified: <path>` rows (one per path) for file tools, apply_patch and shell writes."""
    if not tool_use_enabled():
        return 0
    written = 0
    for path in paths:
        if _shell.is_noise_path(path):
            continue
        summary = f"Modified: {path} (via bash)" if via_bash else f"Modified: {path}"
        tool_use_pair(ctx, out, type="tool_file_edit", tool=tool, summary=_shell.flatten(summary),
                      salience=SALIENCE["tool_file_edit"],
                      project=ctx.project if via_bash else ctx.project_of_file(path))
        written += 1
    return written


def capture_patch(ctx: Context, out: Outcome, *, tool: str, patch: str) -> int:
    """An `apply_patch` call: one row, `Modified: a,b` (paths as the patch names them)."""
    if not tool_use_enabled():
        return 0
    paths = [p for p in _shell.apply_patch_paths(patch) if not _shell.is_noise_path(p)]
    if not paths:
        return 0
    tool_use_pair(ctx, out, type="tool_file_edit", tool=tool, summary=_shell.flatten("Modified: " + ",".join(paths)),
                  salience=SALIENCE["tool_file_edit"])
    return 1


def capture_shell(
    ctx: Context,
    out: Outcome,
    *,
    tool: str,
    command: str,
    failed: bool = False,
    duration_ms: float | None = None,
) -> int:
    """Rows for one shell call: new commits, shell writes, then `Pushed:`/`Ran:` unless noise.

    A failed call writes only the commits it made. `duration_ms` (Claude's payloads carry it)
    selects reflog mode: commits the reflog recorded during the call; without it (Codex) an
    unlogged, fresh HEAD commit counts.
    """
    if not tool_use_enabled() or not isinstance(command, str) or not command.strip():
        return 0
    before = len(out.rows)
    calls = _shell.git_calls(command, ctx.cwd)
    committed = 0
    if _shell.mentions_commit(calls):
        committed = capture_commits(ctx, out, tool=tool, command=command, calls=calls, duration_ms=duration_ms)
    if failed:
        return len(out.rows) - before
    writes = _shell.shell_writes(command)
    written = capture_file_edit(ctx, out, tool=tool, paths=writes, via_bash=True) if writes else 0
    if committed or written:
        return len(out.rows) - before
    if _shell.is_noise_command(command):
        return 0
    if _shell.mentions_push(calls):
        tool_use_pair(ctx, out, type="git_push", tool=tool, summary=_shell.pushed_summary(command),
                      salience=SALIENCE["git_push"])
    else:
        tool_use_pair(ctx, out, type="tool_bash", tool=tool, summary=_shell.ran_summary(command),
                      salience=SALIENCE["tool_bash"])
    return len(out.rows) - before


def capture_commits(ctx: Context, out: Outcome, *, tool: str, command: str, calls, duration_ms: float | None) -> int:
    """One `git_commit` row per new commit, oldest first, chained by parent_event_id."""
    from carto_core.capture import gitstate

    seen = gitstate.SeenCommits(ctx.home.state)
    found: list = []
    done: set[tuple[str, bool]] = set()
    for call in calls:
        if call.verb not in _shell.COMMIT_VERBS:
            continue
        key = (call.repo, call.literal)
        if key in done:
            continue
        done.add(key)
        info = gitstate.repo_info(call.repo)
        if info is None:
            continue
        if isinstance(duration_ms, (int, float)) and not isinstance(duration_ms, bool):
            since = ctx.now - float(duration_ms) / 1000.0 - gitstate.REFLOG_SLACK_SECONDS
            new = gitstate.commits_from_reflog(info, since, seen, command=command, need_subject=not call.literal)
        else:
            new = gitstate.commit_from_head(info, ctx.now, seen, command=command, need_subject=not call.literal)
        for commit in new:
            if all(commit.sha != other.sha for other, _ in found):
                found.append((commit, info.main_worktree.name))
    if not found:
        return 0
    seen.add([commit.sha for commit, _ in found])
    for commit, project in found:
        details = gitstate.commit_details(commit.repo, commit.sha)
        subject = details.subject or commit.subject
        commit_type = gitstate.classify_commit(subject)
        summary = f"[{commit_type}] Commit {commit.sha}: {subject}"
        files = details.files[:20]
        if files:
            summary += " | files: " + ",".join(files)
        tool_use_pair(
            ctx, out, type="git_commit", tool=tool, summary=_shell.flatten(summary),
            salience=gitstate.commit_salience(commit_type, subject, len(files)),
            project=project,
            diff_shape=gitstate.diff_shape(details), commit_type=commit_type,
            commit_action=commit.action,
        )
    return len(found)


# ---------------------------------------------------------------------------------------------
# Research: research-log rows + changelog envelopes


def _research_row(fields: dict) -> dict:
    return order_row("research", fields)


def _research_pair(ctx: Context, out: Outcome, *, kind: str, fields: dict, summary: str, salience: float) -> str:
    """A research-log row (`fetch`/`search` plus `fields`) and its changelog envelope."""
    event_id = new_event_id()
    parent = ctx.parent()
    out.add("research", _research_row({
        "event_id": event_id, "timestamp": ctx.timestamp, "type": kind, "provider": ctx.provider, **fields,
        "project": ctx.project, "cwd": ctx.cwd, "session": ctx.session, "transcript_path": ctx.transcript,
        "salience": salience, "parent_event_id": parent,
    }))
    out.add("changelog", order_row("changelog", {
        "event_id": event_id, "timestamp": ctx.timestamp, "type": f"research_{kind}", "provider": ctx.provider,
        "session_id": ctx.session, "project": ctx.project, "cwd": ctx.cwd, "summary": _shell.flatten(summary),
        "transcript_path": ctx.transcript, "related_ids": [], "salience": salience, "parent_event_id": parent,
    }))
    ctx.chained(event_id)
    return event_id


def capture_fetch(ctx: Context, out: Outcome, *, url: str, prompt: str = "") -> str | None:
    """A fetch: research-log `fetch` row + changelog `research_fetch` (`Fetched: <url>`)."""
    if not url:
        return None
    category = _research.categorize_url(url)
    return _research_pair(ctx, out, kind="fetch", fields={"url": url, "prompt": prompt, "category": category},
                          summary="Fetched: " + url, salience=_research.FETCH_SALIENCE.get(category, 0.4))


def capture_search(ctx: Context, out: Outcome, *, query: str, response: object = None) -> str | None:
    """A search: research-log `search` + changelog `research_search` (`Search: <q>`), then one
    research-log-only `search_result` per result URL, parented to the search."""
    if not query:
        return None
    event_id = _research_pair(ctx, out, kind="search", fields={"query": query}, summary="Search: " + query,
                              salience=_research.SEARCH_SALIENCE)
    for url, title in _research.search_results(response):
        row = _research_row({
            "event_id": new_event_id(), "timestamp": ctx.timestamp, "type": "search_result",
            "provider": ctx.provider, "url": url, "title": _shell.flatten(title), "query": query,
            "category": _research.categorize_url(url), "project": ctx.project, "cwd": ctx.cwd,
            "session": ctx.session, "transcript_path": ctx.transcript, "related_ids": [event_id],
        })
        # Upstream writes parent_event_id before salience on result rows (1.7).
        row["parent_event_id"] = event_id
        row["salience"] = _research.SEARCH_RESULT_SALIENCE
        out.add("research", row)
    return event_id


# ---------------------------------------------------------------------------------------------
# Milestones: session-milestones rows + changelog copies


def session_event_count(home, session: str) -> int:
    """Changelog lines that mention the session id (upstream: `grep -c`), before this write."""
    if not session:
        return 0
    needle = session.encode("utf-8")
    count = 0
    try:
        with open(home.log("changelog"), "rb") as handle:
            for line in handle:
                if needle in line:
                    count += 1
    except OSError:
        return 0
    return count


def deeplink_for(provider: str, transcript: str, verified: bool) -> str:
    if provider != "claude" or not verified or not transcript:
        return ""
    from urllib.parse import quote

    return "claude-history://session/" + quote(transcript, safe="")


def milestone_salience(milestone: str) -> float:
    if milestone == "session_wrapup":
        return SALIENCE["session_wrapup"]
    for prefix, key in (("session_end", "session_end"), ("compaction", "compaction"), ("agent_", "agent"),
                        ("turn_stop", "turn_stop")):
        if milestone.startswith(prefix):
            return SALIENCE[key]
    return SALIENCE["milestone"]


def capture_milestone(
    ctx: Context,
    out: Outcome,
    *,
    milestone: str,
    description: str,
    drop_when_unverified_and_empty: bool = False,
) -> str | None:
    """A milestone row and its changelog copy (`milestone_<name>`, summary with git context).

    With `drop_when_unverified_and_empty` (SessionEnd), a missing transcript keeps the row only
    if the session already has events (`transcript_verified: false`, empty deeplink).
    """
    verified = bool(ctx.transcript) and os.path.isfile(ctx.transcript)
    count = session_event_count(ctx.home, ctx.session)
    if drop_when_unverified_and_empty and not verified and count == 0:
        out.problems.append(
            f"{ctx.event_name}: session {ctx.session or '?'} has no events and its transcript "
            f"{ctx.transcript or '(none)'} does not exist; milestone {milestone} not written"
        )
        return None
    from carto_core.capture import gitstate

    branch, dirty, recent = gitstate.milestone_git(ctx.cwd)
    event_id = new_event_id()
    parent = ctx.parent()
    salience = milestone_salience(milestone)
    deeplink = deeplink_for(ctx.provider, ctx.transcript, verified)
    description = _shell.flatten(description)
    out.add("milestones", order_row("milestones", {
        "event_id": event_id, "timestamp": ctx.timestamp, "milestone": milestone, "provider": ctx.provider,
        "description": description, "session_id": ctx.session, "transcript_path": ctx.transcript,
        "transcript_verified": verified, "deeplink": deeplink, "project": ctx.project, "cwd": ctx.cwd,
        "event": ctx.event_name, "git_branch": branch, "git_dirty_files": dirty, "recent_commits": recent,
        "session_event_count": count, "salience": salience, "parent_event_id": parent,
    }))
    context = f"[{branch}, {dirty} dirty, {count} events]" if branch else f"[{count} events]"
    out.add("changelog", order_row("changelog-milestone", {
        "event_id": event_id, "timestamp": ctx.timestamp, "type": "milestone_" + milestone,
        "provider": ctx.provider, "session_id": ctx.session, "project": ctx.project, "cwd": ctx.cwd,
        "deeplink": deeplink, "summary": f"{description} {context}", "transcript_path": ctx.transcript,
        "transcript_verified": verified, "related_ids": [], "salience": salience, "parent_event_id": parent,
    }))
    ctx.chained(event_id)
    return event_id


#: Subagent types whose stop is a milestone (upstream skips the others).
MILESTONE_AGENT_TYPES = frozenset({"Explore", "Plan", "general-purpose"})


def compaction_description(trigger: str) -> str:
    return f"Context compaction ({trigger}) — session at peak density"


def capture_compact_summary(ctx: Context, out: Outcome, *, trigger: str, summary: str,
                            limit: int | None = None) -> str | None:
    """PostCompact: a changelog-only `derived_compaction_summary` row with a content-hash id."""
    if not summary or not summary.strip():
        return None
    import hashlib

    from carto_core.redact import default_redactor

    limit = limit or int(os.environ.get("CARTO_COMPACT_SUMMARY_MAX", "8000") or 8000)
    clean = " ".join(default_redactor().text(summary).split())
    digest = hashlib.sha256(f"{ctx.session}\n{trigger}\n{summary}".encode("utf-8", "surrogatepass")).hexdigest()
    event_id = "evt-compact-summary-" + digest[:16]
    truncated = len(clean) > limit
    text = clean[:limit] if truncated else clean
    verified = bool(ctx.transcript) and os.path.isfile(ctx.transcript)
    parent = ctx.parent()
    row = {
        "event_id": event_id, "timestamp": ctx.timestamp, "type": "derived_compaction_summary",
        "provider": ctx.provider, "session_id": ctx.session, "project": ctx.project, "cwd": ctx.cwd,
        "transcript_path": ctx.transcript, "deeplink": deeplink_for(ctx.provider, ctx.transcript, verified),
        "summary": text, "summary_hash": hashlib.sha256(clean.encode("utf-8", "surrogatepass")).hexdigest(),
        "summary_truncated": truncated, "compaction_trigger": trigger, "canonical": False,
        "noise_class": "compaction_echo",
        "derived_from": {"kind": f"{ctx.provider}_postcompact", "session_id": ctx.session,
                         "transcript_path": ctx.transcript},
        "related_ids": [], "salience": SALIENCE["derived_compaction_summary"],
    }
    if parent:
        row["parent_event_id"] = parent
    out.add("changelog", row)
    ctx.chained(event_id)
    return event_id


# ---------------------------------------------------------------------------------------------
# Event mapping every provider shares (Claude Code and Codex send the same payload shapes)


def is_mcp_search(tool: str) -> bool:
    """`mcp__.*search.*` (the hooks-file matcher), without a regex on the hot path."""
    return tool.startswith("mcp__") and "search" in tool.lower()


def is_mcp_fetch(tool: str) -> bool:
    """`mcp__.*(fetch|open).*`."""
    if not tool.startswith("mcp__"):
        return False
    lowered = tool.lower()
    return "fetch" in lowered or "open" in lowered


def capture_web_tool(ctx: Context, out: Outcome, *, tool: str, tool_input: dict) -> bool:
    """WebSearch / `mcp__*search*` and WebFetch / `web__run` / `mcp__*fetch|open*` calls onto
    `capture_search` / `capture_fetch`; False when `tool` is neither (the caller goes on)."""
    if tool == "WebSearch" or is_mcp_search(tool):
        query = _text(tool_input.get("query")) or _text(tool_input.get("q")) or _text(tool_input.get("search_query"))
        capture_search(ctx, out, query=query, response=ctx.payload.get("tool_response"))
        return True
    if tool in ("WebFetch", "web__run") or is_mcp_fetch(tool):
        url = _text(tool_input.get("url")) or _text(tool_input.get("uri")) or _text(tool_input.get("href"))
        capture_fetch(ctx, out, url=url, prompt=_text(tool_input.get("prompt")))
        return True
    return False


def capture_agent_event(ctx: Context, out: Outcome, *, quiet_without_summary: bool = False) -> bool:
    """PreCompact, PostCompact and SubagentStop, the same for every provider; False for any
    other event. A PostCompact without `compact_summary` is a hook.log problem unless
    `quiet_without_summary` (Codex's PostCompact schema has no summary field)."""
    event_name, payload = ctx.event_name, ctx.payload
    if event_name == "PreCompact":
        trigger = _text(payload.get("trigger")) or "auto"
        capture_milestone(ctx, out, milestone=f"compaction_{trigger}", description=compaction_description(trigger))
    elif event_name == "PostCompact":
        summary = _text(payload.get("compact_summary"))
        if summary:
            capture_compact_summary(ctx, out, trigger=_text(payload.get("trigger")) or "auto", summary=summary)
        elif not quiet_without_summary:
            out.problems.append("PostCompact payload has no compact_summary; nothing captured")
    elif event_name == "SubagentStop":
        agent_type = _text(payload.get("agent_type"))
        if agent_type in MILESTONE_AGENT_TYPES:
            capture_milestone(ctx, out, milestone=f"agent_{agent_type}", description=f"{agent_type} agent completed")
    else:
        return False
    return True


def context_output(event_name: str, text: str) -> str:
    """Hook stdout the agent adds to the model's context (Claude Code and Codex alike)."""
    return json.dumps({"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}},
                      ensure_ascii=False)


def edit_collision_output(ctx: Context, out: Outcome, paths: list[str]) -> None:
    """PreToolUse of an edit: the collision note for the first of `paths` (relative ones are
    the cwd's) that another live session touched, as `out.output`."""
    if not ctx.session or not paths:
        return
    try:
        from carto_core.collision import collision_note
    except ImportError:
        return
    for path in paths:
        absolute = path if os.path.isabs(path) or not ctx.cwd else os.path.join(ctx.cwd, path)
        note = collision_note(ctx.home, ctx.session, absolute)
        if note:
            out.output = context_output(ctx.event_name, note)
            return


# ---------------------------------------------------------------------------------------------
# Writing


def write_outcome(home, outcome: Outcome) -> int:
    """Redact every row and append it to its log: one `os.write` per row, logs in first-use order."""
    if not outcome.rows:
        return 0
    from carto_core.appendlog import append_lines
    from carto_core.jsonl import dumps_row
    from carto_core.redact import redact_row

    by_log: dict[str, list[bytes]] = {}
    for log, row in outcome.rows:
        by_log.setdefault(log, []).append(dumps_row(redact_row(row)))
    written = 0
    for log, lines in by_log.items():
        written += append_lines(home.log(log), lines)
    return written
