"""`carto team admin revoke ROLE`: take a team's projects (or all of it) from a member."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto team admin revoke bob                                 bob leaves the team
  carto team admin revoke bob --project github.com/acme/shop  one project only
\b
Revoking stops reading and pushing at once (row-level security reads the grants on every
query). Rows already pushed stay until `carto team forget --user ROLE` removes them.
The revoke is audited on the server and remembered in this machine's carto home: after the
server is restored to a point before it (the member holds those grants again), this command
from here asks first, naming them, and revokes them again (answering no changes nothing).
Without a terminal to ask (a script, an agent, --json) it then removes nothing unless --yes.
Exit codes: 0 done, 1 refused, 2 bad flags, or no --yes without a terminal when asked, 3 the
role held no such grant, 75 the server is unreachable.""", cls=JsonErrorCommand)
@click.argument("role")
@click.option("--project", "projects", multiple=True, metavar="KEY", help="Only these projects (repeatable).")
@click.option("--yes", is_flag=True, help="Do not ask before revoking again what a restore gave back.")
@click.option("--url", default=None, metavar="URL", help="The owner's connection (default: $CARTO_TEAM_ADMIN_URL, else this home's).")
@click.option("--team", "team_name", default=None, help="The team (default: this home's, else the server's only team).")
@json_option
def revoke(role, projects, yes, url, team_name, as_json) -> None:
    """Take the team (or some of its projects) from ROLE."""
    from carto_core.cli.team_admin import admin_connect, admin_target, admin_team, forget_again_here
    from carto_core.cli.team_cmd import require_yes, team_work
    from carto_core.logio.home import current_home
    from carto_core.team.admin import members
    from carto_core.team.forget import check_as_owner, revoke_as_owner
    from carto_core.team.settings import default_machine
    from carto_core.team.remotes import normalise_remote
    from carto_core.util.exitcodes import ExitCode

    target, team_name = admin_target(url, team_name)
    conn = admin_connect(target, as_json, team_name=team_name)
    with team_work(conn, target, as_json):
        team_name = admin_team(conn, team_name)
        keys = [normalise_remote(p) if p != "*" else "*" for p in projects]
        # A no must change nothing: the revokes a restore undid are named in the question and
        # made again after this one (which stands for those of `role` it covers).
        checked = check_as_owner(conn, current_home(), target, team_name)
        again = [r for r in checked.undone if r.get("action") == "revoke"]
        if again:
            require_yes(yes, as_json, f"remove the grants of {role}" + (f" of {', '.join(keys)}" if keys else "")
                        + f" from team {team_name}, and revoke again what the team server holds again (restored "
                        "to an earlier point?) of " + "; ".join(
                            f"the revoke of {r['user']} made here at {r['at']}, {', '.join(r['back'])}"
                            for r in again) + "?")
        document = revoke_as_owner(conn, current_home(), target, team_name, role, projects=keys or None,
                                   machine=default_machine(), server=checked.server)
        forget_again_here(conn, target, team_name, checked, revokes=True)
        held = [] if document["grants_removed"] else [m for m in members(conn, team_name) if m["member"] == role]
    if as_json:
        emit_json(document)
    else:
        click.echo(f"{counted(document['grants_removed'], 'grant')} of {role} removed from team {team_name}")
    if not document["grants_removed"]:
        if not as_json:
            click.echo(f"carto: {_nothing_revoked(role, team_name, keys, held)}", err=True)
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _nothing_revoked(role: str, team: str, keys: list[str], held: list[dict]) -> str:
    """Why a revoke removed nothing: the role holds no grant, or holds others (a `*` grant is
    one row of its own, which revoking a project does not narrow)."""
    if not held:
        return f"{role} holds no grant on team {team}"
    grants = ", ".join(g["project"] + (" (every project)" if g["project"] == "*" else "") for g in held)
    theirs = "their grant is" if len(held) == 1 else "their grants are"
    return (f"{role} holds no grant of {', '.join(keys)} on team {team}: {theirs} {grants}; "
            f"`carto team admin revoke {role}` takes them all, then grant the projects to keep with --project")
