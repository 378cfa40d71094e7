"""`carto team forget --user U | --project P`: remove rows from the team server."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option, usage_error
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto team forget --project github.com/acme/shop     my rows of that project
  carto team forget --user alice                        all of alice's rows (alice, or the owner)
  carto team forget --user alice --project shop --yes   no question asked
\b
What is forgotten here is also taken off this home's allow list (a --project), or the whole
list is cleared (your own --user), so the next push does not send it again; do the same on
your other machines. The removal is audited on the server (who, what, how many).
Without a terminal to ask (a script, an agent, --json) it removes nothing unless --yes is given.
Exit codes: 0 removed, 1 refused (another person's rows, not the owner), 2 bad flags, or no
--yes without a terminal, 3 nothing matched, 75 the server is unreachable.""", cls=JsonErrorCommand)
@click.option("--user", default=None, help="Whose rows (a login role): yours, or anyone's as the schema's owner.")
@click.option("--project", default=None, help="Which project's rows: its key (host/owner/name) or its name.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@json_option
def forget(user, project, yes, as_json) -> None:
    """Remove a person's or a project's rows from the team server."""
    from carto_core.cli.team_cmd import home_settings, require_yes, team_fail, team_work
    from carto_core.team.connect import TeamError, connect
    from carto_core.team.forget import forget_here, is_owner, what
    from carto_core.util.exitcodes import ExitCode

    if not user and not project:
        usage_error("say whose rows (--user) or which project's (--project) to forget")
    home, settings = home_settings()
    try:
        conn = connect(settings)
    except TeamError as exc:
        team_fail(exc, as_json)
    with team_work(conn, settings, as_json):
        me = conn.execute("SELECT current_user").fetchone()[0]
        owner = is_owner(conn)
        conn.rollback()
        # Whose rows go is the server's rule (a member's --project takes their own alone):
        # the question says it before anything is removed.
        require_yes(yes, as_json, _question(me, owner, user, project, settings.team))
        document = forget_here(conn, home, settings, user=user, project=project)
    # Keep it from being sent again from this home.
    local = []
    if project:
        local = [p["key"] for p in settings.disallow(project)]
    elif user == me:
        local = [p["key"] for p in settings.projects]
        settings.projects = []
    if local:
        settings.save(home)
    document["disallowed_here"] = local
    if as_json:
        emit_json(document)
    else:
        asked = what({"user": user, "project": project})
        click.echo(f"removed {counted(document['removed'], 'row')} of {asked} from team {settings.team}"
                   + (f" (authors: {', '.join(document['authors'])})" if document["authors"] else ""))
        if local:
            click.echo("no longer allowed from this home: " + ", ".join(local))
    if not document["removed"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _question(me: str, owner: bool, user: str | None, project: str | None, team: str) -> str:
    of_project = f" of project {project}" if project else ""
    if user and user != me:
        whose = f"{user}'s rows"
    elif user or not owner:
        whose = f"your rows ({me})"
    else:
        return f"remove every author's rows{of_project} from team {team} (as the schema's owner)?"
    return f"remove {whose}{of_project} from team {team}?"
