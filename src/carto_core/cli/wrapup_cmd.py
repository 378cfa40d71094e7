"""`carto wrapup`: write the session_wrapup milestone built from the session's events."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, echo_wrapup_items, emit_json, fail, json_option, outcome_words, usage_error
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto wrapup                                   derive everything from the current session
  carto wrapup --decision "apply discounts before tax" --unresolved "coupon stacking"
  carto wrapup --session 5a1e --dry-run --json    a session by a unique id prefix
  carto wrapup --pending                         ended sessions with work and no wrapup
  carto wrapup --pending --project webshop --json

Decisions default to the session's commits, unresolved threads to files edited and not
committed, the key insight to where the edits concentrated; "none" or "n/a" is no thread. A
decision that says it reverses an earlier one ("reverses", "instead of", "no longer") is
matched to the current decision it most likely replaces, and the supersession is proposed
(proposed_supersessions; `carto decision supersede OLD --by NEW` applies it). Running it twice for the same
session state writes nothing the second time (log_outcome: already_present).

--pending lists sessions that ended (a SessionEnd, or quiet for CARTO_WRAPUP_STALE_HOURS, 2)
with a commit or at least CARTO_WRAPUP_MIN_EVENTS (10) events over CARTO_WRAPUP_MIN_MINUTES (5)
minutes, and no wrapup: newest first, each with the command that wraps it up (exit 3: none).
A log that cannot be read is named on stderr and its sessions left out; none readable: exit 1.
An ambiguous --session prefix lists the sessions it matches and exits 2.

Exit codes: 0 written (or already recorded, or printed with --dry-run), 2 no session named or
an ambiguous prefix, 3 no session with that prefix or it has no events (--pending: none waits).""", cls=JsonErrorCommand)
@click.option("--session", "session_id", default=None, help="Session id or a unique prefix of one (default: the current session).")
@click.option("--pending", is_flag=True, help="List ended sessions with work and no wrapup; write nothing.")
@click.option("--project", default=None, help="With --pending: only this project (case-insensitive substring).")
@click.option("--description", default=None, help="One-line synthesis (default: derived).")
@click.option("--decision", "decisions", multiple=True, help="A decision (repeatable; replaces the derived ones).")
@click.option("--unresolved", "unresolved", multiple=True, help="An open thread (repeatable).")
@click.option("--insight", default=None, help="The key insight (default: derived).")
@click.option("--dry-run", is_flag=True, help="Print the row; write nothing.")
@json_option
def wrapup(session_id, pending, project, description, decisions, unresolved, insight, dry_run, as_json) -> None:
    """Record what this session decided and left open, as a session_wrapup milestone."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.digest import DigestError
    from carto_core.lenses.wrapup import build_wrapup, recorded, write_wrapup
    from carto_core.util.exitcodes import ExitCode
    from carto_core.model.session import current_session_id

    home = current_home()
    if pending:
        _pending(home, project, as_json)
        return
    if project:
        usage_error("--project goes with --pending")
    if session_id:
        from carto_core.cli.session_arg import resolve_or_exit

        session_id = resolve_or_exit(home, session_id)
    session_id = session_id or current_session_id()
    if not session_id:
        usage_error("no session id: pass --session SID (or run inside an agent session)")
    from carto_core.cli.logskips import skip_unreadable
    from carto_core.logio.logs import SEARCHED_LOGS

    # The milestones log is written to (and read for a wrapup already there): unread, a write
    # fails naming it rather than skipping it.
    skipped = skip_unreadable(home, [label for label in SEARCHED_LOGS
                                     if dry_run or label != "milestones"], "its events are left out")
    try:
        row = build_wrapup(home, session_id, description=description,
                           decisions=list(decisions) or None, unresolved=list(unresolved) or None,
                           key_insight=insight)
    except DigestError as exc:
        # the session names nothing in the home: found nothing, as every lens says it
        fail(str(exc), ExitCode.USAGE if exc.usage else ExitCode.NOT_FOUND)
    from carto_core.lenses.decisions import proposals

    proposed = proposals(home, row)  # against the records before this wrapup
    receipt = {"log_outcome": "dry_run", "event_id": row["event_id"]} if dry_run else write_wrapup(home, row)
    if receipt["log_outcome"] == "written":
        from carto_core.control.memoryfiles import refresh_quietly

        refresh_quietly(home, row.get("project") or None)
    if as_json:
        emit_json({"receipt": receipt, "row": row, "proposed_supersessions": proposed,
                   **({"skipped_files": skipped} if skipped else {})})
        return
    said = outcome_words(receipt["log_outcome"])
    from carto_core.logio.reader import unreadable

    if dry_run and not unreadable(home.log("milestones")) and recorded(home, row["event_id"]):
        said = "already recorded (--dry-run: nothing written)"
    click.echo(f"wrapup {said}: {row['event_id']}")
    click.echo(f"  {row['description']}")
    echo_wrapup_items(row["decisions"], row["unresolved"], row["key_insight"])
    for proposal in proposed:
        click.echo(f"  reverses {proposal['supersede']} ({proposal['old_text']})? -> {proposal['command']}")


def _pending(home, project, as_json) -> None:
    from carto_core.util.exitcodes import ExitCode
    from carto_core.lenses.sessions import pending, thresholds
    from carto_core.lenses.sessionstore import cached_summaries
    from carto_core.lenses.views import project_matches
    from carto_core.model.session import current_session_id
    from carto_core.util.timeparse import format_timestamp, utcnow

    from carto_core.cli.logskips import skip_unreadable
    from carto_core.logio.logs import SEARCHED_LOGS

    # a log left out is named: "none waits" must not stand for "could not read"
    skipped = skip_unreadable(home, SEARCHED_LOGS, "its sessions are left out")
    now = utcnow()
    matcher = (lambda name: project_matches(project, name)) if project else None
    from carto_core.lenses.lineage import lineage

    # the summaries `carto sessions` keeps: loading every event for them cost a large home
    # seconds and gigabytes
    rows = pending(cached_summaries(home).values(), now, project=matcher,
                   exclude=current_session_id(), threads=lineage(home).threads())
    out = [{"session_id": r["session_id"], "project": r["project"], "provider": r["provider"],
            "started": format_timestamp(r["started"]) if r["started"] else None,
            "ended": format_timestamp(r["ended"]), "ended_by": r["ended_by"], "minutes": r["minutes"],
            "events": r["events"], "turns": r["turns"], "commits": r["commits"], "edits": r["edits"],
            "thread": r.get("thread") or [r["session_id"]],
            "command": f"carto wrapup --session {r['session_id']}"} for r in rows]
    if as_json:
        emit_json({"pending": out, "total": len(out), "project": project, "thresholds": thresholds(),
                   "generated_at": format_timestamp(now),
                   **({"skipped_files": skipped} if skipped else {})})
    else:
        wide = max((len(r["project"] or "-") for r in out), default=0)
        for r in out:
            how = "SessionEnd" if r["ended_by"] == "session_end" else "quiet"
            click.echo(f"{r['session_id'][:8]}  {r['project'] or '-':{wide}}  {r['provider'] or '?':7} ended "
                       f"{r['ended']} ({how})  {counted(r['events'], 'event')}, {counted(r['commits'], 'commit')}, "
                       f"{counted(r['edits'], 'edit')}"
                       f"  ->  carto wrapup --session {r['session_id'][:8]}")
            if len(r["thread"]) > 1:
                click.echo(f"          continues {', '.join(t[:8] for t in r['thread'][:-1])} (one thread)")
        if not out:
            click.echo("no ended session is waiting for a wrapup", err=True)
    if not out:
        raise SystemExit(int(ExitCode.NOT_FOUND))
