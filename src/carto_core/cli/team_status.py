"""`carto team status`: this home's team settings and outbox, and what the server says."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_failure, emit_json, json_option
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto team status           settings, what is pending here, the server's side
  carto team status --json    one document: {local, server}
  carto team status --held    also list the rows an earlier push held back that the next sends
\b
The local side is always answered; the server's when it is reachable (`server.reachable`:
true when it answered, even to refuse). A failure's `server.state` and `server.reason` say why;
with --json the document then also carries `error` and `exit_code`.
Exit codes: 0 ok, 1 no team set up, the server refuses this login (not a member: the line says
who can let it in), holds no schema this carto knows, or TLS as the URL asks fails, 2 bad flags,
75 the server is unreachable (the local side is printed).""", cls=JsonErrorCommand)
@click.option("--held", is_flag=True,
              help="List the rows an earlier push held back ([capture] exclude) that the next push sends.")
@json_option
def status(held, as_json) -> None:
    """What this home sends to the team, what is pending, what the server holds."""
    from carto_core.cli.team_cmd import exit_code_of, home_settings
    from carto_core.team.status import status as team_status

    home, settings = home_settings()
    document = team_status(home, settings, held=held)
    server = document["server"]
    code = exit_code_of(server["state"]) if _failed(server) else 0
    if as_json:
        if code:
            emit_failure(document, server["reason"], code)
        else:
            emit_json(document)
    else:
        _print(document)
    raise SystemExit(int(code))


def _failed(server: dict) -> bool:
    return bool(server.get("state")) or not server.get("reachable")


def _print(document: dict) -> None:
    local, server = document["local"], document["server"]
    click.echo(f"team {local['team']} on {local['server']}, this machine as {local['machine']}")
    click.echo(f"password: {local['password']}" + (" (URL from CARTO_TEAM_URL)" if local["url_from"] != "settings" else ""))
    if local["projects"]:
        click.echo("allowed: " + ", ".join(p["key"] for p in local["projects"]))
    else:
        click.echo("allowed: nothing (nothing leaves this machine): `carto team allow PATH`")
    pending = {label: log for label, log in local["logs"].items() if log["pending_bytes"]}
    if pending:
        click.echo("pending: " + ", ".join(f"{label} {log['pending_bytes']:,} bytes"
                                           + (" (rewritten: read again)" if log["state"] == "rewritten" else "")
                                           for label, log in pending.items()))
    else:
        click.echo("pending: nothing")
    if local["catch_up"]:
        click.echo("catch-up: rows written before these were allowed go with the next push: "
                   + ", ".join(local["catch_up"]))
    _print_held(local["held_back"])
    if _failed(server):
        click.echo(f"server: {server.get('reason')}")
        return
    grants = ", ".join(f"{g['project']}{'' if g['write'] else ' (read only)'}" for g in server["grants"]) or "none"
    click.echo(f"server: schema {server['schema']}, login {server['login']}, grants {grants}")
    click.echo(f"team vectors: {server['model'] or 'none'}" + (f" ({server['dim']} dimensions)" if server["dim"] else "")
               + f"; terms: {server['analyzer']}")
    click.echo(f"team events: {server['team_events']:,} from {counted(len(server['machines']), 'machine')}")
    for item in server["machines"]:
        click.echo(f"  {item['author']}@{item['machine']}: {item['events']:,}")
    lost = server.get("pushes_lost")
    if lost:
        again = (f"what was pushed after {lost['resend_after']}" if lost["resend_after"] else "every row")
        click.echo(f"server: it no longer holds rows this machine pushed since {lost['since']} (restored to an "
                   f"earlier point?): the next push sends {again} again")
    from carto_core.team.forget import what

    for key, whose, again in (("forgets_undone", "the forget", "the next push"),
                              ("admin_forgets_undone", "the `carto team admin forget`",
                               "the next `carto team admin` command from here")):
        for item in server.get(key) or []:
            click.echo(f"server: it no longer holds {whose} of {what(item)} made here at {item['at']} (restored to "
                       f"an earlier point?): {counted(item['rows'], 'row')} of it are there again; {again} "
                       "forgets them again")
    for item in server.get("admin_revokes_undone") or []:
        click.echo(f"server: it holds again the grants of {item['user']} ({', '.join(item['grants'])}) the `carto "
                   f"team admin revoke` made here at {item['at']} took (restored to an earlier point?): the next "
                   "`carto team admin revoke` from here revokes them again (it asks first)")
    if server.get("restore_unchecked"):
        click.echo(f"server: {server['restore_unchecked']}")
    last = server.get("last_push")
    if last:
        click.echo(f"your last push: {last['at']} from {last['machine']}: {last['sent']:,} sent in "
                   f"{counted(last['batches'], 'batch', 'batches')}, {last['inserted']:,} new, "
                   f"{last['refused']:,} refused")


def _entries(entries: list) -> str:
    return ", ".join("(config file unreadable)" if by is None else by for by in entries)


def _print_held(held: dict) -> None:
    if held["release"]:
        click.echo(f"held back: {counted(held['release'], 'row')} an earlier push held back by [capture] exclude "
                   f"go with the next push (lifted: {_entries(held['lifted'])})")
    for row in held.get("rows") or []:
        click.echo(f"  {row['timestamp'] or '-'}  {row['log']:<9} {row['project'] or row['key']}  "
                   f"{row['event_id']}  {(row['summary'] or '')[:80]}")
    if held["held_by"]:
        click.echo(f"held back: rows [capture] exclude still covers stay here ({_entries(held['held_by'])})")
