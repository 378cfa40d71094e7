"""`carto standup`: sessions active in a window, where they collide, what went unlogged."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.exitcodes import ExitCode


@click.command(
    epilog="""\b
Examples:
  carto standup                        the last 6 hours, every project
  carto standup --since 2h --project webshop
  carto standup --commit a41c2d9       which session made this commit?
  carto standup --commit "round line totals" --json
  carto standup --team                 every machine of the team (docs/team.md)

Sessions marked ● had an event within --live (default 20m); that is recency, not proof the
agent is running. CONTENTION lists projects and files two sessions both touched, with worktree
paths collapsed onto the main checkout. Read-only. With --team the team server's sessions join
this home's (each naming its machine and author) and files contend across machines by their
place in the repository (project-key:path), whatever each machine's checkout is called.

Exit codes: 0 something to report, 2 a bad --since/--live, 3 nothing in the window (no
session, no event, no silent Codex session, no unclaimed change; --json still prints its
document) or no logged commit matches --commit."""
, cls=JsonErrorCommand)
@click.option("--since", default="6h", show_default=True, help="Window: 30m, 6h, 2d, yesterday, ...")
@click.option("--project", default=None, help="Only this project (substring, `a|b`, family name).")
@click.option("--commit", "commit", default=None, metavar="SHA|SUBJECT",
              help="Name the session that made a commit (sha prefix or subject words).")
@click.option("--live", default="20m", show_default=True, help="An event this recent marks a session ●.")
@click.option("--me", default=None, help="Your session id or a unique prefix of one (default: from the session variables).")
@click.option("--no-git", is_flag=True, help="Skip UNCLAIMED (which runs `git status` per repository).")
@click.option("--team", "team", is_flag=True, help="Fold in the team server's sessions (carto team init); unreachable: this home's, and a line saying so.")
@json_option
def standup(since, project, commit, live, me, no_git, team, as_json) -> None:
    """Who is working on what, and where they collide."""
    from carto_core.logio.home import current_home
    from carto_core.lenses import standup as lens
    from carto_core.util.timeparse import WhenError

    home = current_home()
    from carto_core.cli.logskips import skip_unreadable

    skipped = skip_unreadable(home, lens.STANDUP_LOGS, "its events are left out")
    if commit:
        found = lens.find_commit(home, commit)
        if found is None:
            if as_json:
                emit_json({"commit": None, "query": commit})
            fail(f"no logged commit matches {commit!r}", ExitCode.NOT_FOUND)
        if as_json:
            emit_json({"commit": found, "query": commit})
        else:
            click.echo(lens.render_commit(found))
        return
    if me:
        from carto_core.cli.session_arg import resolve_or_exit
        from carto_core.lenses.sessions import resolve_known

        # a prefix names a session as --session does elsewhere; an id the home holds no row of
        # yet (a session that has only just begun) is kept as given
        me = resolve_or_exit(home, me, resolve_known)
    try:
        if team:
            from carto_core.team.lenses import standup_with_team

            doc = standup_with_team(home, since=since, project=project, live=live, me=me,
                                    scan_unclaimed=not no_git)
        else:
            doc = lens.standup(home, since=since, project=project, live=live, me=me,
                               scan_unclaimed=not no_git)
    except WhenError as exc:
        usage_error(str(exc))
    if skipped:
        doc["skipped_files"] = skipped
    if as_json:
        emit_json(doc)
    else:
        import sys

        from carto_core.util.terminal import fitted_width, fold

        # folded to a terminal's width (by columns) only: a pipe gets each line whole, COLUMNS or not
        click.echo(fold(lens.render_standup(doc), fitted_width() if sys.stdout.isatty() else None))
        if team:
            from carto_core.team.lenses import team_line

            click.echo(team_line(doc["team"]))
    if lens.found_nothing(doc):
        # The report is printed (an empty roster is still a valid document); the exit code
        # tells a script that the window held nothing.
        fail(f"nothing in the window ({since}{', project ' + project if project else ''}): "
             "no session, no unclaimed change", ExitCode.NOT_FOUND)
