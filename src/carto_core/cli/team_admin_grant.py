"""`carto team admin grant ROLE`: make a person a member of a team (their login role)."""

from __future__ import annotations

import sys

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option


@click.command(epilog="""\b
Examples:
  carto team admin grant alice --password-stdin < alice.pw     every project, read and push
  carto team admin grant bob --project github.com/acme/shop    one project
  carto team admin grant carol --read-only                     read, never push
\b
The role is created when it does not exist (a login role; its password is hashed here
before it is sent, so the server and its logs never see it; carto never prints or stores it). Run it again to add projects.
Exit codes: 0 done, 1 refused, 2 bad flags or a bad name, 75 the server is unreachable.""", cls=JsonErrorCommand)
@click.argument("role")
@click.option("--project", "projects", multiple=True, metavar="KEY",
              help="A project (normalised remote) the member may read and push (repeatable; default: all).")
@click.option("--read-only", is_flag=True, help="Read the team, never push to it.")
@click.option("--password-stdin", is_flag=True, help="Set the role's password from the first line of stdin.")
@click.option("--url", default=None, metavar="URL", help="The owner's connection (default: $CARTO_TEAM_ADMIN_URL, else this home's).")
@click.option("--team", "team_name", default=None, help="The team (default: this home's, else the server's only team).")
@json_option
def grant(role, projects, read_only, password_stdin, url, team_name, as_json) -> None:
    """Make ROLE a member of the team (creating the login role if needed)."""
    from carto_core.cli.team_admin import admin_connect, admin_target, admin_team, forget_again_here
    from carto_core.cli.team_cmd import team_work
    from carto_core.logio.home import current_home
    from carto_core.team.admin import AdminError, add_member, check_role_name, members
    from carto_core.team.forget import granted
    from carto_core.team.remotes import normalise_remote
    from carto_core.util.output import usage_error

    try:
        check_role_name(role)
    except AdminError as exc:
        usage_error(str(exc))
    password = None
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            fail("--password-stdin: the first line of stdin is empty")
    target, team_name = admin_target(url, team_name)
    conn = admin_connect(target, as_json, team_name=team_name)
    keys = [normalise_remote(p) if p != "*" else "*" for p in projects]
    with team_work(conn, target, as_json, AdminError):
        team_name = admin_team(conn, team_name)
        checked = forget_again_here(conn, target, team_name)
        document = add_member(conn, team_name, role, projects=keys or None, password=password,
                              write=not read_only)
        # What the administrator asked for last: a restore giving the grant back undoes no revoke.
        granted(current_home(), checked.server, role, keys or None)
        document["grants"] = [m for m in members(conn, team_name) if m["member"] == role]
    if as_json:
        emit_json(document)
    else:
        click.echo(f"{role} {'created and ' if document['created'] else ''}granted on team {team_name}: "
                   + ", ".join(f"{g['project']}{'' if g['write'] else ' (read only)'}" for g in document["grants"]))
