"""`carto sessions` and `carto session ID-OR-PREFIX`: sessions from the command line, from the
same views the explorer's `/api/sessions` routes serve (`carto_core.lenses.views`)."""

from __future__ import annotations

import click

from carto_core.cli.tag_filter import TAG_HELP, tagged_sessions
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.util.output import JsonErrorCommand, echo_wrapup_items, emit_json, fail, json_option, usage_error
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import cells, clip, counted, fitted_width, transcript_said


#: The logs `carto sessions` folds (every searched log: `LiveCorpus`), and what it lacks for
#: one it cannot read.
SESSION_LOGS = SEARCHED_LOGS
LEFT_OUT = "its events are left out"


def _short(text: str, width: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


#: What an event line of `carto session` keeps for its text before the ids' padding gives way,
#: and the least text worth a line's room.
SUMMARY_WANT = 20
SUMMARY_LEAST = 10
KIND_WIDTH = 18


def _event_lines(events: list[dict], width: int | None) -> list[str]:
    """`carto session`'s event lines: time, id, kind, text. The id is never cut (it is pasted
    into `carto search --get`, `--touch` or `forget`). A pipe (`width` None) gets every column
    and 70 columns of text; a terminal gets lines within its width: the ids are padded only to
    the longest that leaves SUMMARY_WANT columns of text (a subagent's turn id would push every
    line past the edge), and a line whose id is longer gives up the kind's padding, then its
    text, then its kind; a time and id wider than the terminal stand alone."""
    if width is None:
        column = max((len(event["event_id"]) for event in events), default=0)
        return [f"  {event['timestamp'] or '-':20} {event['event_id']:{column}} "
                f"{event['type'][:KIND_WIDTH]:{KIND_WIDTH}} {_short(event['summary'], 70)}"
                for event in events]
    lead = 2 + 20 + 1
    rest = 1 + KIND_WIDTH + 1 + SUMMARY_WANT
    column = max((len(event["event_id"]) for event in events
                  if lead + len(event["event_id"]) + rest <= width), default=0)
    lines = []
    for event in events:
        line = f"  {event['timestamp'] or '-':20} {event['event_id']:{column}}"
        kind = event["type"][:KIND_WIDTH]
        text = " ".join(str(event["summary"] or "").split())
        if width - len(line) >= 1 + KIND_WIDTH + 1 + SUMMARY_LEAST:
            line += f" {kind:{KIND_WIDTH}}"
        elif width - len(line) >= 1 + len(kind):
            line += f" {kind}"
        room = width - cells(line) - 1
        if room >= SUMMARY_LEAST and text:
            line += " " + clip(text, room)
        lines.append(line)
    return lines


@click.command(epilog="""\b
Examples:
  carto sessions                          every session, newest first (50)
  carto sessions --since 2d --project webshop
  carto sessions --provider codex --json | jq -r '.sessions[].session_id'
  carto sessions --team --since 1d        every machine of the team (docs/team.md)
  carto sessions --tag outcome:test-run --tag ext:py   sessions that ran tests and edited Python
  carto session 5a1e                      one session by a unique id prefix

Columns: id (first 8), project, provider, start and end (UTC), events, turns, commits,
edits, whether it has a wrapup; a narrower terminal gives up wrapup, edits, turns and commits,
then shows how long ago each ended for start and end (docs/cli.md). Exit codes: 0 ok, 2 bad
option, 3 no session matched.""", cls=JsonErrorCommand)
@click.option("--since", default=None, help="Only sessions active since WHEN (2h, 7d, yesterday, 2026-09-01).")
@click.option("--project", default=None, help="Project (case-insensitive substring; a|b for either).")
@click.option("--provider", default=None, help="claude, codex, hermes, git, ...")
@click.option("--limit", "-n", default=50, show_default=True, type=click.IntRange(min=1), help="At most this many.")
@click.option("--team", "team", is_flag=True, help="The team's sessions too (carto team init), each naming its machine and author.")
@click.option("--tag", "tags", multiple=True, metavar="KIND:VALUE", help=TAG_HELP)
@json_option
def sessions(since, project, provider, limit, team, tags, as_json) -> None:
    """List sessions, newest first: id, project, provider, span, events, turns, commits, edits, wrapup."""
    from carto_core.util.timeparse import parse_when

    moment = None
    if since:
        try:
            moment = parse_when(since)
        except ValueError as exc:
            usage_error(f"--since: {exc}")
    if team and tags:
        usage_error("--tag filters this home's sessions; it does not combine with --team")
    from carto_core.lenses.sessionstore import summaries_and_parents
    from carto_core.logio.home import current_home

    home = current_home()
    if team:
        from carto_core.team.lenses import sessions_with_team, team_line

        # this home's sessions and their threads' parents from the kept summaries; the team's
        # rows carry no link
        summaries, parents = summaries_and_parents(home)
        document = sessions_with_team(home, since=moment, project=project, provider=provider,
                                      limit=limit, summaries=summaries)
    else:
        from carto_core.cli.logskips import skip_unreadable
        from carto_core.lenses import views

        skipped = skip_unreadable(home, SESSION_LOGS, LEFT_OUT)
        # The summaries kept from the last run, brought up to date (`lenses.sessionstore`):
        # loading every event for them cost a large home minutes and gigabytes every time.
        # With them, each Codex sub-agent thread's parent (listed under it).
        summaries, parents = summaries_and_parents(home)
        only = tagged_sessions(home, list(tags), summaries=list(summaries.values())) if tags else None
        # as `views.list_sessions` over a corpus loaded once (generation 1) gives it
        document = views.sessions_page(summaries.values(), cutoff=moment, project=project,
                                       provider=provider, limit=limit, only=only)
        if skipped:
            document["skipped_files"] = skipped
    document.pop("days", None)
    document["since"] = since
    if as_json:
        emit_json(document)
    else:
        from carto_core.cli.sessions_text import session_table

        rows = document["sessions"]
        # every session of the home: the summaries' ids (the facts columns read again for
        # them cost a large home a second copy of the columns); with --team too, so that a
        # team session's id is not the start of a local session `carto session` would open
        for line in session_table(rows, fitted_width(), team=team, among=list(summaries), parents=parents):
            click.echo(line)
        if document["total"] > len(rows):
            click.echo(f"({document['total'] - len(rows)} more: --limit)")
        if team:
            click.echo(team_line(document["team"]))
    if not document["sessions"]:
        if not as_json:
            click.echo("no session matched", err=True)
        raise SystemExit(int(ExitCode.NOT_FOUND))


@click.command(epilog="""\b
Examples:
  carto session 5a1e0000                  its events in order, turns, commits, files, wrapup
  carto session 5a1e --json | jq '.files'
  carto session 5a1e --tree               main agent, subagents, turns, tool calls
  carto session 5a1e --tree --json | jq '.tree.turns[].tools[] | select(.agent)'

An id prefix is enough when one session has it; when several do, they are listed and the
exit code is 2. --tree hangs each subagent (its own file, an inline sidechain, a Codex
sub-agent thread) under the call that started it, each with its own transcript path
(docs/lenses.md#the-session-tree). Exit codes: 0 ok, 2 ambiguous prefix, 3 no such session.""", cls=JsonErrorCommand)
@click.argument("session_id")
@click.option("--events", "max_events", default=200, show_default=True, type=click.IntRange(min=0),
              help="Events to print in text output (JSON has them all).")
@click.option("--tree", "tree", is_flag=True,
              help="The agent tree instead: main agent, subagents, their turns and tool calls.")
@json_option
def session(session_id, max_events, tree, as_json) -> None:
    """One session: its events in order, its turns, commits and files, its wrapup."""
    if tree:
        from carto_core.cli.session_tree import show_tree

        show_tree(session_id.strip(), as_json)
        return
    from carto_core.cli.logskips import skip_unreadable
    from carto_core.lenses.sessionstore import summaries_and_columns
    from carto_core.lenses.views import stored_session_detail
    from carto_core.logio.home import current_home

    home = current_home()
    skipped = skip_unreadable(home, SESSION_LOGS, LEFT_OUT)
    # The kept summaries name every session, and the facts columns locate one session's rows:
    # loading every event for one session cost a large home half a minute and gigabytes.
    by_id, cols = summaries_and_columns(home)
    prefix = session_id.strip()
    matches = [prefix] if prefix in by_id else sorted(sid for sid in by_id if sid.startswith(prefix))
    if not matches:
        fail(f"no session id starts with {session_id!r}", ExitCode.NOT_FOUND)
    if len(matches) > 1:
        if as_json:
            emit_json({"error": "ambiguous", "prefix": session_id, "candidates": [
                {"session_id": m, "project": by_id[m]["project"], "provider": by_id[m]["provider"],
                 "ended": by_id[m]["ended"], "events": by_id[m]["events"]} for m in matches]})
        else:
            click.echo(f"carto: {len(matches)} sessions start with {session_id!r}; give more of the id:", err=True)
            for m in matches:
                s = by_id[m]
                click.echo(f"  {m}  {s['project'] or '-'}  {s['provider'] or '?'}  ended "
                           f"{s['ended']:%Y-%m-%dT%H:%M:%SZ}  {counted(s['events'], 'event')}", err=True)
        raise SystemExit(int(ExitCode.USAGE))
    detail = stored_session_detail(home, matches[0], by_id[matches[0]], cols)
    if skipped:
        detail["skipped_files"] = skipped
    if as_json:
        emit_json(detail)
        return
    s = detail["session"]
    click.echo(f"session  {s['session_id']} · {s['provider'] or '?'} · {s['project'] or 'no project'}")
    span = f"span     {s['started']} .. {s['ended']}"
    tally = (f"{counted(s['events'], 'event')}, {counted(s['turns'], 'turn')}, "
             f"{counted(s['commits'], 'commit')}, {counted(s['edits'], 'edit')}")
    room = fitted_width()
    # on a terminal too narrow for both (92 columns at 80), the counts go on a line of their own
    click.echo(f"{span} · {tally}" if room is None or cells(f"{span} · {tally}") <= room
               else f"{span}\n{'':9}{tally}")
    if s.get("transcript_path"):
        click.echo(f"transcript {transcript_said(s['transcript_path'])}")
    family = detail["lineage"]
    for link in family["continues"]:
        click.echo(f"continues {link['session_id']} ({link['kind']}, {link['at'] or '?'})")
    for link in family["continued_by"]:
        click.echo(f"continued {link['session_id']} ({link['kind']}, {link['at'] or '?'})")
    if family["restarts"]:
        click.echo("restarts " + ", ".join(f"{r['kind']} {r['at'] or '?'}" for r in family["restarts"]))
    for wrapup in detail["wrapup"]:
        click.echo(f"wrapup   {wrapup['event_id']}: {_short(wrapup['description'], 100)}")
        echo_wrapup_items(wrapup["decisions"], wrapup["unresolved"], wrapup["key_insight"], width=100)
    if detail["commits"]:
        from carto_core.capture.collision import COMMIT_RE

        click.echo("commits")
        for commit in detail["commits"]:
            match = COMMIT_RE.search(commit["summary"] or "")
            said = f"{match.group(1)[:8]}  {match.group(2).strip()}" if match else commit["summary"]
            click.echo(f"  {commit['timestamp'] or '-':20} {said}")
    if detail["files"]:
        click.echo("files    " + ", ".join(f"{f['path']} ×{f['touches']}" for f in detail["files"][:10])
                   + (f" (+{len(detail['files']) - 10} more)" if len(detail["files"]) > 10 else ""))
    click.echo(f"events ({len(detail['events'])})")
    shown = detail["events"][:max_events]
    for line in _event_lines(shown, fitted_width()):
        click.echo(line)
    if len(detail["events"]) > max_events:
        click.echo(f"  ... {len(detail['events']) - max_events} more (--events N, or --json)")
