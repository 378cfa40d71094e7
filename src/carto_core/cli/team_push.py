"""`carto team push`: send what the home's logs hold beyond what was pushed."""

from __future__ import annotations

import sys

import click

from carto_core.util.output import JsonErrorCommand, emit_failure, emit_json, json_option
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto team push                 send what is new, with a progress bar on stderr
  carto team push --json          one summary document (what was sent, inserted, refused)
  carto team push --from-start    read every log again (after a grant was added, say);
                                  what the server holds already is left as it is
\b
The keep-up job runs this by itself when a team is set up (never inside a hook). Each log's
position moves only after the server committed its batch; an interrupted push loses nothing
and the next one goes on from the last committed batch. Rows whose ids another machine pushed
are refused (never overwritten): counted per machine that holds them, and exit 4.
Exit codes: 0 pushed (or nothing new), 1 refused (no grant, bad settings or TLS), 2 bad flags,
3 no project is allowed yet, 4 the server refused rows whose ids another machine holds (the
rest was pushed), 75 the server is unreachable or another push of this home is running (retry
later). With --json a failure's document also carries `error` and `exit_code`.""", cls=JsonErrorCommand)
@click.option("--from-start", is_flag=True,
              help="Forget this server's positions (other servers' stay): read every log from its start.")
@click.option("--batch", "batch_rows", type=click.IntRange(min=1, max=50_000), default=None,
              help="Rows per batch (default 2000; batches are also cut at 8 MiB).")
@click.option("--no-vectors", is_flag=True, help="Send rows without vectors (the team's keyword ladder still finds them).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@json_option
def push(from_start, batch_rows, no_vectors, quiet, as_json) -> None:
    """Push this home's allowed projects to the team server."""
    from carto_core.cli.team_cmd import exit_code_of, home_settings
    from carto_core.team.push import BATCH_ROWS
    from carto_core.team.push import push as run_push

    home, settings = home_settings()
    show = not quiet and sys.stderr.isatty()
    progress, finish = _progress(show)
    try:
        report = run_push(home, settings, batch_rows=batch_rows or BATCH_ROWS, progress=progress,
                          from_start=from_start, embed=not no_vectors)
    finally:
        finish()
    document = report.to_dict()
    codes = {"ok": ExitCode.OK, "nothing_allowed": ExitCode.NOT_FOUND, "refused": ExitCode.CONFLICT}
    code = codes[report.state] if report.state in codes else exit_code_of(report.state)
    if as_json:
        if code:  # with the one line the text form prints for it, so stderr alone says it too
            emit_failure(document, report.reason, code)
        else:
            emit_json(document)
    else:
        _print(document, quiet)
    raise SystemExit(int(code))


def _progress(show: bool):
    if not show:
        return None, lambda: None
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

    bar = Progress(TextColumn("team push"), BarColumn(), DownloadColumn(), console=Console(stderr=True),
                   transient=True)
    task = bar.add_task("push", total=None)
    bar.start()

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total or None)

    return progress, bar.stop


def _print(document: dict, quiet: bool) -> None:
    if document["state"] == "nothing_allowed":
        click.echo(f"carto: {document['reason']}", err=True)
        return
    if document["state"] not in ("ok", "refused"):
        if document["sent"]:
            batches = counted(document["batches"], "committed batch", "committed batches")
            click.echo(f"sent {counted(document['sent'], 'row')} in {batches} before stopping")
        click.echo(f"carto: {document['reason']}", err=True)
        if document["refused"]:
            from carto_core.team.push import refusal_reason

            click.echo(f"carto: {refusal_reason(document['refused'], document['refused_by'])}", err=True)
        if document["state"] == "unreachable":
            click.echo("carto: nothing committed is lost; the next push goes on from the last committed batch",
                       err=True)
        elif document["state"] == "busy":
            click.echo("carto: retry once it has ended (the keep-up job pushes by itself)", err=True)
        return
    if not document["sent"]:
        click.echo("up to date: nothing new to send" + (
            f" ({counted(document['not_allowed'], 'row')} of projects not allowed stayed here)"
            if document["not_allowed"] else ""))
    else:
        # The parts add up to what was sent; the changelog copies folded here were never sent.
        line = (f"sent {counted(document['sent'], 'row')} in {counted(document['batches'], 'batch', 'batches')}: "
                f"{document['inserted']:,} new, {document['updated']:,} revised, "
                f"{document['unchanged']:,} already there, {document['refused']:,} refused")
        if document["merged"]:
            line += f", {document['merged']:,} merged into their tool calls"
        if document["folded"]:
            line += f"; {counted(document['folded'], 'changelog copy', 'changelog copies')} folded before sending"
        click.echo(line)
    if document["refused"]:
        click.echo(f"carto: {document['reason']}", err=True)
    if not quiet:
        if document["not_allowed"] and document["sent"]:
            click.echo(f"{counted(document['not_allowed'], 'row')} of projects not allowed stayed here")
        if document["excluded"]:
            click.echo(f"{counted(document['excluded'], 'row')} of allowed projects stayed here: "
                       "[capture] exclude keeps them out")
        if document["released"]:
            click.echo(f"{document['released']:,} of them {'was' if document['released'] == 1 else 'were'} held back "
                       "at an earlier push by [capture] exclude, which no longer covers them")
        if document["vectors"] and document["vectors"] != "sent":
            click.echo(f"vectors: {document['vectors']}")
        for problem in document["problems"]:
            click.echo(f"note: {problem}", err=True)
