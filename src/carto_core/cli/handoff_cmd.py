"""`carto handoff [SESSION] [--project P]`: a cited, size-bounded summary for the next agent
(`carto_core.lenses.handoff`)."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error


@click.command(epilog="""\b
Examples:
  carto handoff                           this session (the agent's environment names it)
  carto handoff 5a1e0000                  another session, by a unique id prefix
  carto handoff --project webshop         a project: its wrapups, open threads, commits, files
  carto handoff 5a1e --max-chars 3000 --json

Every line ends with the event id it comes from (carto search --get ID reads it back); the
JSON stays within --max-chars and `cut` says what each section lost (docs/lenses.md#handoff).
Exit codes: 0 ok, 2 no session named or an ambiguous prefix, 3 nothing recorded for it.""", cls=JsonErrorCommand)
@click.argument("session_id", required=False)
@click.option("--project", default=None, help="A project (case-insensitive substring, a|b) instead of a session.")
@click.option("--max-chars", default=6000, show_default=True, type=click.IntRange(1000, 200000),
              help="The JSON document's size bound (sections lose their tails to fit).")
@json_option
def handoff(session_id, project, max_chars, as_json) -> None:
    """What the next agent needs from a session or a project, each line cited."""
    from carto_core.lenses.handoff import project_handoff, render, session_handoff
    from carto_core.lenses.sessions import AmbiguousSession, SessionNotFound, resolve_session
    from carto_core.logio.home import current_home
    from carto_core.model.project import RegistryError
    from carto_core.model.session import current_session_id

    home = current_home()
    if session_id and project:
        usage_error("give a session or --project, not both")
    from carto_core.cli.logskips import skip_unreadable
    from carto_core.logio.logs import SEARCHED_LOGS

    skipped = skip_unreadable(home, SEARCHED_LOGS, "its events are left out")
    try:
        if project:
            document = project_handoff(home, project, max_chars=max_chars)
        else:
            prefix = session_id or current_session_id()
            if not prefix:
                usage_error("no session id: pass SESSION or --project (or run inside an agent session)")
            document = session_handoff(home, resolve_session(home, prefix), max_chars=max_chars)
    except AmbiguousSession as exc:
        usage_error(f"{len(exc.candidates)} sessions start with {exc.prefix!r}: " + ", ".join(exc.candidates[:10]))
    except (SessionNotFound, LookupError) as exc:
        fail(str(exc), ExitCode.NOT_FOUND)
    except RegistryError as exc:
        usage_error(str(exc))
    if as_json:
        emit_json({**document, "skipped_files": skipped} if skipped else document)
    else:
        for line in render(document):
            click.echo(line)
