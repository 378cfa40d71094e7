"""`carto team allow [PATH|KEY]...`: which projects may leave this machine."""

from __future__ import annotations

import os

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option, usage_error


@click.command(epilog="""\b
Examples:
  carto team allow                         list the allowed projects
  carto team allow ~/code/shop             allow the project checked out there
  carto team allow github.com/acme/infra   allow a project by its key (a normalised remote)
  carto team allow --remove shop           stop sending it (rows already sent stay: `carto team forget`)
\b
A project is named across machines by its git remote, normalised (host/owner/name, lower case,
no user, port or .git). Its rows written before it was allowed are sent by the next push.
Exit codes: 0 ok, 1 no team set up, 2 bad flags, a PATH that does not exist or is outside a
repository with a remote.""", cls=JsonErrorCommand)
@click.argument("projects", nargs=-1, metavar="[PATH|KEY]...")
@click.option("--remove", is_flag=True, help="Remove these projects from the list instead.")
@json_option
def allow(projects, remove, as_json) -> None:
    """Allow projects to leave this machine (none given: list them)."""
    from carto_core.cli.team_cmd import home_settings
    from carto_core.team.remotes import ProjectKey, normalise_remote, project_key

    home, settings = home_settings()
    added, removed = [], []
    for spec in projects:
        if remove:
            gone = settings.disallow(spec)
            if not gone:
                usage_error(f"{spec!r} is not an allowed project (allowed: "
                            f"{', '.join(p['key'] for p in settings.projects) or 'none'})")
            removed.extend(gone)
            continue
        if os.path.exists(spec):
            found = project_key(spec)
            if found is None:
                usage_error(f"{spec} is not in a git repository with a remote: a project is named "
                            "across machines by its remote (or give its key: host/owner/name)")
        elif spec.startswith(("/", "./", "../", "~")):
            # A path (the shell expanded ~): a typo would otherwise become a key no remote has.
            usage_error(f"{spec}: no such folder (a project is a checkout's folder, or its key: "
                        "host/owner/name)")
        elif "/" in spec:
            key = normalise_remote(spec)
            found = ProjectKey(key, key.rsplit("/", 1)[-1], "")
        else:
            usage_error(f"{spec!r} is neither a folder nor a project key (host/owner/name)")
        if settings.allow(found):
            added.append(found.to_dict())
    if added or removed:
        settings.save(home)
    document = {"team": settings.team, "projects": settings.projects, "added": added, "removed": removed}
    if as_json:
        emit_json(document)
        return
    for item in added:
        click.echo(f"allowed {item['key']}" + (f" ({item['name']} at {item['path']})" if item["path"] else ""))
    for item in removed:
        click.echo(f"no longer sent: {item['key']} (rows already on the server stay: "
                   f"`carto team forget --project {item['key']}`)")
    if not (added or removed):
        if settings.projects:
            for item in settings.projects:
                click.echo(f"{item['key']}" + (f"  ({item['name']} at {item['path']})" if item.get("path") else ""))
        else:
            click.echo("no project is allowed to leave this machine: `carto team allow PATH`")
