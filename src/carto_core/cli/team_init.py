"""`carto team init URL --team NAME`: connect this home to a team server."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_failure, emit_json, fail, json_option, usage_error


@click.command(epilog="""\b
Examples:
  carto team init 'postgresql://alice@db.example.com/carto?sslmode=verify-full' --team acme
  carto team init 'service=carto' --team acme          a service in ~/.pg_service.conf
  carto team init 'postgresql://alice:s3cret@db/carto' --team acme --allow ~/code/shop
  carto team init 'postgresql://alice@db/carto' --team acme --password-stdin   asked, not on the command line
\b
A password in the URL is not stored with it: it goes to a password file beside the settings
(<home>/.carto/team/pgpass, mode 0600, libpq's format) that carto passes to libpq. A service
file, ~/.pgpass or PGPASSWORD work as they do for psql; CARTO_TEAM_URL replaces the stored
URL for one process. TLS is what the URL or the service says (sslmode, sslrootcert, ...).
\b
Exit codes: 0 set up (and the server answered), 1 the server refused, TLS as the URL asks failed
or the settings could not be written, 2 bad flags, 75 set up but the server is unreachable now.
A failure keeps the settings; with --json its document carries `state`, `reason`, `error` and
`exit_code`.""", cls=JsonErrorCommand)
@click.argument("url")
@click.option("--team", "team_name", required=True, help="The team's name on the server.")
@click.option("--machine", default=None, help="This machine's name in results (default: the host name).")
@click.option("--allow", "allow_paths", multiple=True, metavar="PATH",
              help="Also allow the project checked out at PATH (repeatable; `carto team allow` later).")
@click.option("--password-stdin", is_flag=True,
              help="Read the password from the first line of stdin (asked, hidden, at a terminal) "
                   "into the password file.")
@click.option("--no-check", is_flag=True, help="Store the settings without connecting.")
@json_option
def init(url, team_name, machine, allow_paths, password_stdin, no_check, as_json) -> None:
    """Connect this home to a team server (nothing is sent until a project is allowed)."""
    from carto_core.cli.team_cmd import exit_code_of
    from carto_core.logio.home import current_home
    from carto_core.team.connect import TeamError, connect, describe, split_password, write_passfile
    from carto_core.team.remotes import project_key
    from carto_core.team.settings import FOLDER, PASSFILE, TeamSettings, TeamSettingsError, default_machine, load

    from carto_core.cli.homeguard import require_home
    from carto_core.util.privatefiles import make_dirs

    require_home()
    home = current_home()
    try:
        stored, password = split_password(url)
    except TeamError as exc:
        usage_error(str(exc))
    if password_stdin:
        if password is not None:
            usage_error("the URL holds a password already: drop it, or --password-stdin")
        password = _read_password()
    try:
        previous = load(home)
    except TeamSettingsError:
        previous = None
    projects = previous.projects if previous is not None and previous.team == team_name else []
    settings = TeamSettings(url=stored, team=team_name, machine=machine or (
        previous.machine if previous is not None else default_machine()), projects=projects)
    for path in allow_paths:
        found = project_key(path)
        if found is None:
            usage_error(f"{path} is not in a git repository with a remote: a project is named "
                        "across machines by its remote")
        settings.allow(found)
    state_dir = home.state / FOLDER
    make_dirs(state_dir)
    passfile = state_dir / PASSFILE
    if password is not None:
        write_passfile(passfile, stored, password)
        settings.passfile = str(passfile)
    elif previous is not None and previous.passfile and previous.stored_url == stored:
        settings.passfile = previous.passfile
    else:
        passfile.unlink(missing_ok=True)
    path = settings.save(home)
    document = {"settings": str(path), "server": describe(stored), "team": team_name,
                "machine": settings.machine, "projects": settings.projects,
                "password": "password file (0600)" if settings.passfile else "libpq (service, ~/.pgpass, PGPASSWORD)",
                "checked": False}
    code = 0
    if not no_check:
        try:
            conn = connect(settings)
            try:
                from carto_core.team.push import team_config

                config = team_config(conn, team_name)
                document.update({"checked": True, "model": config["model"], "analyzer": config["analyzer"]})
            finally:
                conn.close()
        except TeamError as exc:
            code = int(exit_code_of(exc))
            document.update({"state": exc.state, "reason": str(exc)})
    if as_json:
        if code:
            emit_failure(document, f"settings kept, but {document['reason']}", code)
        else:
            emit_json(document)
    else:
        click.echo(f"team {team_name} on {document['server']}, this machine as {settings.machine}")
        click.echo(f"settings: {path} (password: {document['password']})")
        if settings.projects:
            click.echo("allowed: " + ", ".join(p["key"] for p in settings.projects))
        else:
            click.echo("nothing is allowed to leave this machine yet: `carto team allow PATH`")
        if document.get("reason"):
            click.echo(f"carto: settings kept, but {document['reason']}", err=True)
        elif document["checked"]:
            click.echo("the server answered: schema current, you are a member")
    raise SystemExit(code)


def _read_password() -> str:
    import sys

    if sys.stdin.isatty():
        return click.prompt("password", hide_input=True, err=True)
    password = sys.stdin.readline().rstrip("\r\n")
    if not password:
        fail("--password-stdin: the first line of stdin is empty")
    return password
