"""`carto team admin forget ROLE`: remove a person's rows from the team server, as its owner."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto team admin forget bob                                   every row bob pushed
  carto team admin forget bob --project github.com/acme/shop    bob's rows of one project
  carto team admin forget bob --yes                             no question asked
\b
Run by the team's administrator (the schema's owner, through --url or $CARTO_TEAM_ADMIN_URL;
no carto home is needed: this command keeps its forgets in one), typically after `carto team admin revoke ROLE`: a member revoked can
no longer remove their own rows. The removal is audited on the server (who, what, how many)
and remembered in this machine's carto home: after the server is restored to a point before it,
the next `carto team admin` command from here forgets the rows again (this one asks first, naming
them: answering no changes nothing).
Without a terminal to ask (a script, an agent, --json) it removes nothing unless --yes is given.
Exit codes: 0 removed, 1 refused or failed, 2 bad flags, or no --yes without a terminal,
3 nothing matched, 75 the server is unreachable.""", cls=JsonErrorCommand)
@click.argument("role")
@click.option("--project", default=None, metavar="KEY", help="Only this project's rows (its key or its name).")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--url", default=None, metavar="URL", help="The owner's connection (default: $CARTO_TEAM_ADMIN_URL, else this home's).")
@click.option("--team", "team_name", default=None, help="The team (default: this home's, else the server's only team).")
@json_option
def forget(role, project, yes, url, team_name, as_json) -> None:
    """Remove ROLE's rows (or those of one project) from the team server."""
    from carto_core.cli.team_admin import admin_connect, admin_target, admin_team, forget_again_here
    from carto_core.cli.team_cmd import require_yes, team_work
    from carto_core.team.connect import TeamDenied
    from carto_core.logio.home import current_home
    from carto_core.team.forget import check_as_owner, forget_as_owner, is_owner, what as asked
    from carto_core.team.settings import default_machine
    from carto_core.util.exitcodes import ExitCode

    target, team_name = admin_target(url, team_name)
    conn = admin_connect(target, as_json, team_name=team_name)
    what = f"{role}" + (f" of project {project}" if project else "")
    with team_work(conn, target, as_json):
        team_name = admin_team(conn, team_name)
        if not is_owner(conn):
            conn.rollback()
            raise TeamDenied(f"{conn.info.user} does not own carto's schema: `carto team admin forget` "
                             "runs as the owner (--url or CARTO_TEAM_ADMIN_URL)")
        conn.rollback()
        # A no must change nothing: the forgets a restore undid, which every admin command makes
        # again, are named in the question and made again after it as that check found them;
        # the server's identity (their key) is asked once, for them and the new forget's record.
        checked = check_as_owner(conn, current_home(), target, team_name)
        again = checked.undone
        question = f"remove every row of {what} from team {team_name}" + (
            ", and forget again what the team server no longer holds (restored to an earlier point?) of "
            + "; ".join(f"the forget of {asked(r['asked'])} made here at {r['at']}, {counted(r['rows'], 'row')}"
                        for r in again) if again else "")
        require_yes(yes, as_json, question + "?")
        forget_again_here(conn, target, team_name, checked)
        document = forget_as_owner(conn, current_home(), target, team_name, user=role, project=project,
                                   machine=default_machine(), server=checked.server)
    if as_json:
        emit_json(document)
    else:
        click.echo(f"removed {counted(document['removed'], 'row')} of {what} from team {team_name}")
    if not document["removed"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))
