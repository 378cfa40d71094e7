"""`carto digest session|day`: what one session did; what one day held (schema carto.day-digest/1)."""

from __future__ import annotations

import os

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.terminal import counted, duration
from carto_core.util.exitcodes import ExitCode


@click.group(epilog="""\b
Examples:
  carto digest session                       the current agent session (from the session variables)
  carto digest session 5a1e0000 --json      a session by a unique prefix of its id
  carto digest day yesterday --projects webshop,infra --json
  carto digest day 2026-09-07 --no-git
  carto digest day --projects webshop --deny-regex 'client-|private' --json""")
def digest() -> None:
    """Digests: one session, or one local day with every logged commit checked against git."""


@digest.command("session", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto digest session                 the current agent session
  carto digest session 5a1e0000        a session by a unique prefix of its id
  carto digest session 5a1e --json --no-git

Exit codes: 0 ok, 2 no session named or an ambiguous prefix, 3 no session with that
prefix or it has no events.""")
@click.argument("session", required=False)
@click.option("--session", "session_id", default=None, help="Session id or a unique prefix of one (default: the current session); the same as the SESSION argument.")
@click.option("--commits", default=6, show_default=True, type=click.IntRange(min=0), help="Commits to list.")
@click.option("--files", default=5, show_default=True, type=click.IntRange(min=0), help="Files to list.")
@click.option("--no-git", is_flag=True, help="Do not ask git for each repository's branch, dirty and unpushed state.")
@json_option
def session_cmd(session, session_id, commits, files, no_git, as_json) -> None:
    """What one session did: span, projects, activity, commits, files, research hosts.

    SESSION (or --session) is a session id or a unique prefix of one, as `carto sessions`
    lists them; without either, the current agent session."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.digest import DigestError, session_digest
    from carto_core.model.session import current_session_id

    if session and session_id and session != session_id:
        usage_error(f"two sessions given: {session} and --session {session_id}; give one")
    session_id = session_id or session
    if session_id:
        from carto_core.cli.session_arg import resolve_or_exit

        session_id = resolve_or_exit(current_home(), session_id)
    session_id = session_id or current_session_id()
    if not session_id:
        usage_error("no session id: pass --session SID (or run inside an agent session)")
    try:
        doc = session_digest(current_home(), session_id, commits=commits, files=files, no_git=no_git)
    except DigestError as exc:
        # a home without logs holds no event of the session: found nothing, as below
        fail(str(exc), ExitCode.USAGE if exc.usage else ExitCode.NOT_FOUND)
    if not doc["event_count"]:
        fail(f"session {session_id} has no events in {current_home().root}", ExitCode.NOT_FOUND)
    if as_json:
        emit_json(doc)
        return
    c = doc["counts"]
    click.echo(f"session  {session_id[:8]} · {doc['provider'] or '?'} · {counted(doc['event_count'], 'event')}"
               + (f" (from {counted(doc['turns'], 'transcript turn')}: no hook rows)" if doc["evidence"] == "turns" else ""))
    click.echo(f"span     {doc['started_at']} .. {doc['ended_at']} "
               f"({duration(doc['duration_minutes'] * 60000)})")
    if len(doc["lineage"]["thread"]) > 1:
        click.echo("thread   " + " -> ".join(sid[:8] for sid in doc["lineage"]["thread"])
                   + " (linked across /clear, forks and resumes)")
    if doc["tempo"]["sparkline"]:
        bar = doc["tempo"]["bin_minutes"]
        # The JSON's minutes are rounded to two places: a session of a few seconds has bars
        # shorter than that rounding can say.
        bar = ("under 1s" if bar * 60 < 1 else f"{round(bar * 60)}s") if bar < 1 else duration(bar * 60000)
        click.echo(f"tempo    {doc['tempo']['sparkline']}  ({bar} a bar)")
    click.echo(f"projects {', '.join(doc['projects']) or '-'}")
    click.echo(f"activity {counted(c['edits'], 'edit')} · {c['bash']} bash · {counted(c['searches'], 'search', 'searches')} · "
               f"{counted(c['fetches'], 'fetch', 'fetches')} · {counted(c['compactions'], 'compaction')} · "
               f"{counted(c['subagents'], 'subagent')}")
    kinds = ", ".join(f"{t} {n}" for t, n in doc["commit_types"].items())
    click.echo(f"commits  {c['commits']}" + (f" ({kinds})" if kinds else ""))
    for commit in doc["commits"]:
        click.echo(f"  {commit['timestamp']}  {commit['sha'][:8]}  {commit['subject']}")
    click.echo("files    " + (", ".join(f"{f['path']} ×{f['touches']}" for f in doc["files"]) or "none")
               + (f" (+{doc['files_unresolved']} unresolved)" if doc["files_unresolved"] else ""))
    if doc["research_hosts"]:
        click.echo("research " + ", ".join(doc["research_hosts"]))
    r = doc["recall"]
    if r["calls"] or r["served"]:
        click.echo(f"recall   {counted(r['calls'], 'call')} → {r['served']} served ({r['served_unique']} ids) · "
                   + (f"{r['used_pct']}% marked used" if r["used_pct"] is not None else "none marked used")
                   + (f" · {r['fetched']} fetched" if r["fetched"] else ""))
    for state in doc["leaving"]:
        pushed = ("no upstream" if state["unpushed"] is None else
                  f"{state['unpushed']} unpushed" if state["unpushed"] else "pushed")
        click.echo(f"leaving  {os.path.basename(state['repo'])}@{state['branch'] or '?'} · "
                   f"{state['dirty']} dirty · {pushed}")


DAY_FILES = 8


@digest.command("day", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto digest day                     today so far
  carto digest day yesterday --md
  carto digest day 2026-09-07 --projects webshop,infra --json

A log that cannot be read is named on stderr and left out.

Exit codes: 0 ok (a quiet day too), 1 the home holds no changelog and no turns (an
outage, not a quiet day) or no log can be read, 2 a bad day, --deny-regex or owner list.""")
@click.argument("day", default="today")
@click.option("--projects", default=None, help="Comma-separated scope; out-of-scope work is counted, never named.")
@click.option("--deny-regex", default=None, metavar="RE",
              help="Drop events whose project or cwd matches RE before anything is grouped; "
                   "they are counted in scope.denied, never named.")
@click.option("--no-git", is_flag=True, help="Do not check commits against git (they stay unverified).")
@click.option("--md", "as_md", is_flag=True, help="Markdown instead of plain text.")
@json_option
def day_cmd(day, projects, deny_regex, no_git, as_md, as_json) -> None:
    """One local day (today, yesterday, YYYY-MM-DD), grouped by project.

    Every logged commit is checked against git (landed, moved, rewritten, missing,
    unverified); git-only lists the owner's commits nobody logged. Owners:
    $CARTO_PROFILE_AUTHORS (comma-separated), else git's user.name; plus the agent author
    Claude either way."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.digest import DigestError, day_digest

    from carto_core.cli.logskips import skip_unreadable
    from carto_core.logio.logs import SEARCHED_LOGS

    scope = [p.strip() for p in projects.split(",") if p.strip()] if projects else None
    skipped = skip_unreadable(current_home(), SEARCHED_LOGS, "its events are left out")
    try:
        doc = day_digest(current_home(), day, projects=scope, no_git=no_git, deny_regex=deny_regex)
    except DigestError as exc:
        fail(str(exc), ExitCode.USAGE if exc.usage else ExitCode.ERROR)
    if as_json:
        emit_json({**doc, **({"skipped_files": skipped} if skipped else {})})
        return
    t = doc["totals"]
    head = "# " if as_md else ""
    from datetime import datetime

    # as the explorer says it: a day that has not begun is still to come, not "so far"
    to_come = datetime.fromisoformat(doc["start"]) > datetime.fromisoformat(
        doc["generated_at"].replace("Z", "+00:00"))
    when = "" if doc["complete"] else (" still to come" if to_come else " so far")
    click.echo(f"{head}Day {doc['day']} ({doc['tz_abbrev']}){when}: "
               f"{counted(t['events'], 'event')}, {counted(t['sessions'], 'session')}, {counted(t['projects'], 'project')}, "
               f"{counted(t['active_minutes'], 'active minute')}")
    click.echo(f"commits: {t['commits_logged']} logged · {t['commits_landed']} landed · {t['commits_moved']} moved · "
               f"{t['commits_rewritten']} rewritten · {t['commits_missing']} missing · "
               f"{t['commits_unverified']} unverified · {t['commits_git_only']} git-only")
    for project in doc["projects"]:
        # The JSON keeps upstream's pseudo-project name; a person reads what every other view says.
        shown = "no project" if project["kind"] == "pseudo" else project["name"]
        click.echo(f"\n{'## ' if as_md else ''}{shown}: {counted(project['events'], 'event')}, "
                   f"{project['active_minutes']} min, {counted(len(project['sessions']), 'session')}")
        for commit in project["commits"]:
            extra = f" -> {commit['landed_as'][:8]}" if commit.get("landed_as") else ""
            click.echo(f"{'- ' if as_md else '  '}[{commit['status']}{extra}] {commit['sha'][:8]} {commit['subject']}")
        for commit in project["git_only_commits"]:
            click.echo(f"{'- ' if as_md else '  '}[git-only] {commit['sha'][:8]} {commit['subject']}")
        if project["files"]:
            more = len(project["files"]) - DAY_FILES
            click.echo(f"{'- ' if as_md else '  '}files: "
                       + ", ".join(f"{f['path']} ×{f['touches']}" for f in project["files"][:DAY_FILES])
                       + (f" (+{more} more: --json)" if more > 0 else ""))
    if doc["from_turns"]["sessions"]:
        click.echo(f"\n(read from the transcript turns of {counted(len(doc['from_turns']['sessions']), 'session')} "
                   "that logged no hook row)")
