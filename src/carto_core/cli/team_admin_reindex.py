"""`carto team admin reindex`: build the team's vector index (IVFFlat) once it is large."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option


@click.command(epilog="""\b
Examples:
  carto team admin reindex            build it (concurrently: pushes and searches go on)
\b
Under 50,000 vectors the team's vector ladder scans exactly and nothing is built. Rebuild
after the team has grown a few times over (the lists are learnt from the rows there at build
time). Figures: docs/performance.md. Exit codes: 0 done (or not needed), 1 failed, 2 bad flags, 75 unreachable.""", cls=JsonErrorCommand)
@click.option("--url", default=None, metavar="URL", help="The owner's connection (default: $CARTO_TEAM_ADMIN_URL, else this home's).")
@click.option("--team", "team_name", default=None, help="The team (default: this home's, else the server's only team).")
@json_option
def reindex(url, team_name, as_json) -> None:
    """Build the team's vector index."""
    from carto_core.cli.team_admin import admin_connect, admin_target, admin_team, forget_again_here
    from carto_core.cli.team_cmd import team_work
    from carto_core.team.admin import AdminError
    from carto_core.team.admin import reindex as run_reindex

    target, team_name = admin_target(url, team_name)
    conn = admin_connect(target, as_json, team_name=team_name)
    with team_work(conn, target, as_json, AdminError):
        team_name = admin_team(conn, team_name)
        forget_again_here(conn, target, team_name)
        document = run_reindex(conn, team_name)
    if as_json:
        emit_json(document)
    elif document["built"]:
        click.echo(f"built {document['index']}: {document['rows']:,} vectors in {document['lists']} lists")
    else:
        click.echo(f"not built: {document['reason']}")
