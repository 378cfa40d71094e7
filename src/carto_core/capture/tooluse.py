"""Tool use: a tool-use-log row and its changelog copy per call (file edits, patches, shell
calls, the commits a shell call made), with upstream's noise, shell-write and commit rules
(reference/cartographer.md 1.4-1.6).

Stdlib only; `gitstate` (which imports subprocess) is imported only when a command names a commit.
"""

from __future__ import annotations

from carto_core.capture import shell as _shell
from carto_core.capture.context import SALIENCE, Context, Outcome, new_event_id, tool_use_enabled
from carto_core.logio.logs import order_row


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
    common.update(ctx.call_id_field())
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
    reported_commits: list[str] | None = None,
    changed_files: list[str] | None = None,
) -> int:
    """Rows for one shell call: new commits, shell writes, then `Pushed:`/`Ran:` unless noise.

    A failed call writes only the commits it made. Commits are the ones the client reported
    (`reported_commits`: shas, full or short, from Claude Code's `gitOperation` or the
    `[branch sha] subject` lines of the output) when it reported any; else `duration_ms`
    (Claude's payloads carry it) selects reflog mode, commits the reflog recorded during the
    call, and without it (Codex) an unlogged, fresh HEAD commit counts; neither ever claims a
    commit older than the session's first event (`Context.session_start`). Writes are the
    client's `changed_files` (Claude Code's `bashEditDiff.changedFiles`) when given, else what
    the shell-write heuristic finds in the command.
    """
    if not tool_use_enabled() or not isinstance(command, str) or not command.strip():
        return 0
    before = len(out.rows)
    calls = _shell.git_calls(command, ctx.cwd)
    committed = 0
    if reported_commits or _shell.mentions_commit(calls):
        committed = capture_commits(ctx, out, tool=tool, command=command, calls=calls, duration_ms=duration_ms,
                                    reported=reported_commits or None)
    if failed:
        return len(out.rows) - before
    writes = _shell.shell_writes(command) if changed_files is None else [p for p in changed_files if p]
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


def capture_commits(ctx: Context, out: Outcome, *, tool: str, command: str, calls, duration_ms: float | None,
                    reported: list[str] | None = None) -> int:
    """One `git_commit` row per new commit, oldest first, chained by parent_event_id: the
    commits the client `reported` (looked up in the repositories the command names, then the
    cwd's), else the reflog/HEAD heuristics, floored at the session's first event."""
    from carto_core.capture import gitstate

    seen = gitstate.SeenCommits(ctx.home.state)
    found: list = []
    repos = [call.repo for call in calls if call.verb in _shell.COMMIT_VERBS] + [ctx.cwd]
    named = False
    for sha in reported or ():
        for repo in dict.fromkeys(r for r in repos if r):
            info = gitstate.repo_info(repo)
            commit = gitstate.commit_named(info, sha) if info is not None else None
            if commit is not None:
                named = True
                if commit.sha not in seen and all(commit.sha != other.sha for other, _ in found):
                    found.append((commit, info.main_worktree.name))
                break
    if named:
        calls = []  # the client said which commits the call made: no heuristic adds one
    floor = ctx.session_start() if calls else None
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
            if floor is not None:
                since = max(since, float(int(floor)))  # reflog times are whole seconds
            new = gitstate.commits_from_reflog(info, since, seen, command=command, need_subject=not call.literal)
        else:
            new = gitstate.commit_from_head(info, ctx.now, seen, command=command, need_subject=not call.literal,
                                            not_before=int(floor) if floor is not None else None)
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


def reported_commits(command: str, cwd: str, output: object = None, operation: object = None) -> list[str]:
    """Shas of the commits the client says a shell call made: Claude Code's
    `gitOperation.commit.sha` (2.1.3xx), and, when the command runs a commit verb, the
    `[branch sha] subject` lines git printed in its output (a failed call's too)."""
    shas: list[str] = []
    commit = operation.get("commit") if isinstance(operation, dict) else None
    if isinstance(commit, dict) and isinstance(commit.get("sha"), str) and commit["sha"].strip():
        shas.append(commit["sha"].strip())
    if isinstance(output, str) and "] " in output and _shell.mentions_commit(_shell.git_calls(command, cwd)):
        from carto_core.capture.turnactivity import announced_commits  # only for a commit's output

        for found in announced_commits(output):
            if not any(found["sha"].startswith(s) or s.startswith(found["sha"]) for s in shas):
                shas.append(found["sha"])
    return shas


#: How much of the changelog's end PostToolBatch searches for the rows of its calls.
BATCH_TAIL_BYTES = 4 * 1024 * 1024


def recorded_tool_calls(home, ids: list[str]) -> set[str]:
    """The tool_use_ids among `ids` that rows near the changelog's end already name."""
    if not ids:
        return set()
    from carto_core.capture.tail import read_tail

    data = read_tail(home.log("changelog"), BATCH_TAIL_BYTES)
    return {i for i in ids if b'"tool_use_id":"' + i.encode("utf-8", "replace") + b'"' in data}
