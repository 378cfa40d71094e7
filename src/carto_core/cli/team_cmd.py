"""`carto team`: the group of team-memory commands, and what they share (the home's settings,
errors as one line, exit codes). Subcommands load on demand from `TEAM_COMMANDS` (one module
each under cli/); the work itself lives in `carto_core.team`."""

from __future__ import annotations

from contextlib import contextmanager

import click

from carto_core.plugin.resolve import resolve
from carto_core.util.output import emit_failure, fail
from carto_core.util.exitcodes import ExitCode

#: subcommand -> "module:attribute".
TEAM_COMMANDS: dict[str, str] = {
    "init": "carto_core.cli.team_init:init",
    "allow": "carto_core.cli.team_allow:allow",
    "status": "carto_core.cli.team_status:status",
    "push": "carto_core.cli.team_push:push",
    "forget": "carto_core.cli.team_forget:forget",
    "admin": "carto_core.cli.team_admin:admin",
}


class TeamGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(TEAM_COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands and name in TEAM_COMMANDS:
            self.add_command(resolve(TEAM_COMMANDS[name]), name)
        return self.commands.get(name)


@click.group(cls=TeamGroup, epilog="""\b
Examples:
  carto team init postgresql://alice@db.example.com/carto?sslmode=verify-full --team acme
  carto team allow ~/code/shop        allow one project (by its git remote)
  carto team push                     send what is new (the keep-up job does it too)
  carto team status --json            what is pending here, what the server holds
  carto team forget --project github.com/acme/shop
\b
Exit codes: 0 ok, 1 error (refused, bad settings or TLS), 2 bad flags or names, 3 nothing
to do or nothing found, 4 a push's rows refused (another machine holds their ids), 75 the
server is unreachable or another push of this home is running (retry later; nothing was
lost). With --json a failure is one document with `error` and `exit_code`.
See docs/team.md.""")
def team() -> None:
    """Team memory: push this home's allowed projects to a PostgreSQL server the team shares,
    and read the whole team back (`carto search --team`, `standup --team`, `sessions --team`,
    `facts census|tempo --team`). Nothing leaves the machine until a project is allowed."""


def home_settings():
    """(home, its team settings) or exit 1 saying `carto team init` sets them."""
    from carto_core.cli.homeguard import require_home
    from carto_core.logio.home import current_home
    from carto_core.team.settings import TeamSettingsError, load

    require_home()
    home = current_home()
    try:
        settings = load(home)
    except TeamSettingsError as exc:
        fail(str(exc))
    if settings is None:
        fail(f"no team is set up for the home {home.root}: `carto team init URL --team NAME`")
    return home, settings


#: States a later try may clear by itself (the network, another push of this home ending):
#: exit 75. Every other state needs something changed first (settings, a grant, TLS): exit 1.
RETRY_STATES = frozenset({"unreachable", "busy"})


def exit_code_of(error) -> ExitCode:
    """The exit code of a TeamError (or of its state): 75 when retrying later may work."""
    state = error if isinstance(error, str) else error.state
    return ExitCode.UNAVAILABLE if state in RETRY_STATES else ExitCode.ERROR


def can_ask() -> bool:
    """Whether a person at a terminal can answer a question (stdin is one)."""
    import sys

    return sys.stdin.isatty()


def require_yes(yes: bool, as_json: bool, question: str) -> None:
    """Ask `question` before removing anything, unless --yes: asked at a terminal; without one
    (a script, an agent, --json) nothing can answer it, and the command says --yes is needed."""
    if yes:
        return
    if as_json or not can_ask():
        from carto_core.util.output import usage_error

        usage_error(f"nothing was removed: without a terminal to ask ({question}) give --yes")
    click.confirm(question, abort=True, err=True)


@contextmanager
def team_work(conn, settings, as_json: bool, *refusals: type[Exception]):
    """`conn` for a team command's work, closed after it (`carto_core.team.connect.working`):
    a refusal of the work (`refusals`: AdminError, SchemaError, the caller asked for what cannot
    be) is one line and exit 1; a TeamError or a server error is `team_fail`'s line (or
    document) and exit code; a question the person declined is click's to end."""
    from carto_core.team.connect import TeamError, working

    try:
        with working(conn, settings, passing=(click.Abort, *refusals)):
            yield conn
    except refusals as exc:
        fail(str(exc))
    except TeamError as exc:
        team_fail(exc, as_json)


def team_fail(error, as_json: bool, document: dict | None = None) -> None:
    """Report a TeamError (one line; with --json, the document with its state) and exit."""
    code = exit_code_of(error)
    if as_json:
        emit_failure({**(document or {}), "state": error.state, "reason": str(error)}, str(error), code)
        raise SystemExit(int(code))
    fail(str(error), code)
