"""`carto team admin`: what a team's administrator runs, connected as the schema's owner
(`--url`, else `CARTO_TEAM_ADMIN_URL`, else this home's team URL). Subcommands load on demand
from `ADMIN_COMMANDS` (one module each under cli/); the work is `carto_core.team.admin`."""

from __future__ import annotations

import os

import click

from carto_core.plugin.resolve import resolve
from carto_core.util.output import fail, usage_error

#: subcommand -> "module:attribute".
ADMIN_COMMANDS: dict[str, str] = {
    "setup": "carto_core.cli.team_admin_setup:setup",
    "grant": "carto_core.cli.team_admin_grant:grant",
    "revoke": "carto_core.cli.team_admin_revoke:revoke",
    "reindex": "carto_core.cli.team_admin_reindex:reindex",
    "forget": "carto_core.cli.team_admin_forget:forget",
}

ADMIN_URL_VARIABLE = "CARTO_TEAM_ADMIN_URL"


class AdminGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(ADMIN_COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands and name in ADMIN_COMMANDS:
            self.add_command(resolve(ADMIN_COMMANDS[name]), name)
        return self.commands.get(name)


@click.group(cls=AdminGroup, epilog="""\b
Examples:
  carto team admin setup 'postgresql://carto_owner@db/carto' --team acme --model auto
  carto team admin grant alice --password-stdin < alice.pw
  carto team admin grant bob --project github.com/acme/shop --read-only
  carto team admin revoke bob --project github.com/acme/shop
  carto team admin forget bob                   remove bob's rows (after a revoke)
  carto team admin reindex                      the vector index, once the team is large
\b
The owner bypasses row-level security; members see what `grant` gives them. docs/team.md
has the whole set-up (roles, TLS, pg_hba.conf).""")
def admin() -> None:
    """Set up a team server and its members (as the schema's owner)."""


url_option = click.option("--url", default=None, metavar="URL",
                          help=f"The owner's connection (default: ${ADMIN_URL_VARIABLE}, else this home's team URL).")
team_option = click.option("--team", "team_name", default=None,
                           help="The team (default: this home's team, else the server's only team).")


class AdminTarget:
    """Where an admin command connects: a URL and, from the home's settings, a password file."""

    def __init__(self, url: str, passfile: str | None = None):
        self.url = self.stored_url = url
        self.passfile = passfile


def admin_target(url: str | None, team_name: str | None) -> tuple[AdminTarget, str | None]:
    """(the connection target, the team name) from the flags, the environment and the home;
    the name is None when none of them says it (`admin_team` asks the server then)."""
    from carto_core.logio.home import current_home
    from carto_core.team.settings import TeamSettingsError, load

    try:
        settings = load(current_home())
    except TeamSettingsError:
        settings = None
    if url is None:
        url = os.environ.get(ADMIN_URL_VARIABLE)
    if url is None and settings is not None:
        return AdminTarget(settings.url, settings.passfile), team_name or settings.team
    if url is None:
        usage_error(f"give the owner's connection: --url URL (or {ADMIN_URL_VARIABLE})")
    if not team_name and settings is not None:
        team_name = settings.team
    return AdminTarget(url), team_name or None


def admin_team(conn, team_name: str | None) -> str:
    """The team an admin command works on: the one named, else the server's only team (an
    administrator's machine is rarely a member, and docs/team.md's commands name none)."""
    if team_name:
        return team_name
    teams = [row[0] for row in conn.execute("SELECT team FROM carto.teams ORDER BY team").fetchall()]
    conn.rollback()
    if len(teams) == 1:
        return teams[0]
    if not teams:
        fail("the server holds no team yet: `carto team admin setup URL --team NAME` creates one")
    names = ", ".join(teams[:-1]) + f" and {teams[-1]}"
    fail(f"the server holds the teams {names}: add " + " or ".join(f"--team {t}" for t in teams))


def forget_again_here(conn, target, team: str, checked=None, *, revokes: bool = False):
    """Make again the forgets `carto team admin forget` made from this home that the server
    reached no longer holds (restored to a point before them), and with `revokes` the revokes
    whose grants it holds again (without, a note names them), a note for each on stderr;
    `checked`: what `forget.check_as_owner` found of them on this connection (else checked
    here). Returns that check (`OwnerCheck`)."""
    from carto_core.logio.home import current_home
    from carto_core.team.forget import check_as_owner, forget_again_as_owner
    from carto_core.team.settings import default_machine

    if checked is None:
        checked = check_as_owner(conn, current_home(), target, team)
    for note in forget_again_as_owner(conn, current_home(), target, team, default_machine(), checked,
                                      revokes=revokes):
        click.echo(f"note: {note}", err=True)
    return checked


def admin_connect(target: AdminTarget, as_json: bool, *, team_name: str | None = None,
                  schema: bool = True):
    """The owner's connection; with `schema`, one to a database holding carto's schema (else
    one line naming the `setup` that makes it, for the database the URL names)."""
    from carto_core.cli.team_cmd import team_fail
    from carto_core.team.connect import TeamError, TeamSchemaMismatch, classify, connect, describe, split_password
    from carto_core.team.schema import read_state

    try:
        conn = connect(target, check=False, query_timeout_ms=None)
    except TeamError as exc:
        team_fail(exc, as_json)
    if not schema:
        return conn
    try:
        state = read_state(conn)
    except Exception as exc:  # noqa: BLE001 - a server error, as one line
        conn.close()
        team_fail(classify(exc, target), as_json)
    if state.version == 0:
        conn.close()
        url = split_password(target.url)[0]
        team_fail(TeamSchemaMismatch(
            f"{describe(target.url)} holds no carto schema (is it the team's database?): "
            f"`carto team admin setup '{url}' --team {team_name or 'NAME'}` sets it up"), as_json)
    return conn
