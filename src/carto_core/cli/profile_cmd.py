"""`carto profile`: rebuild `<home>/.carto/profile.md` from the logs."""

from __future__ import annotations

import os

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option, usage_error, when_value


MIN_BUDGET = 200


@click.command(epilog="""\b
Examples:
  carto profile                 rebuild .carto/profile.md (4000 characters at most)
  carto profile --no-write      print it instead
  carto profile --budget 2000 --window 30d --json

Exit codes: 0 written (or printed), 2 a bad --budget or --window.""", cls=JsonErrorCommand)
# The heading alone would overrun a smaller budget, which then could not be kept.
@click.option("--budget", default=4000, show_default=True, type=click.IntRange(min=MIN_BUDGET),
              help="Character budget; sections trimmed from the tail.")
@click.option("--window", default="90d", show_default=True, help="How far back to look.")
@click.option("--no-write", is_flag=True, help="Print, do not write.")
@click.option("--out", default=None, help="Write here instead of <home>/.carto/profile.md.")
@json_option
def profile(budget, window, no_write, out, as_json) -> None:
    """A derived profile: active projects, durable decisions, work shape, cadence."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.profile import build_profile, write_profile

    from carto_core.util.timeparse import utcnow

    # One instant for the check and the fold: "0d" counted from a later clock read would look
    # like a window a few microseconds long and pass.
    now = utcnow()
    if when_value(window, "--window", now=now) >= now:
        usage_error(f"--window {window}: starts now or later, so it covers no time; give how far "
                    "back to look (90d, 2w, 2026-01-01)")
    if out and os.path.isdir(os.path.expanduser(out)):
        usage_error(f"--out {out} is a folder: give the path of a file (profile.md in it, say)")
    home = current_home()
    from carto_core.cli.logskips import skip_unreadable
    from carto_core.logio.logs import SEARCHED_LOGS

    skipped = skip_unreadable(home, SEARCHED_LOGS, "its events are not counted")
    doc = build_profile(home, window=window, budget=budget, now=now)
    if not home.root.is_dir():
        no_write = True  # a home that does not exist is not created by a derived file
    if not no_write:
        doc["path"] = write_profile(home, doc, out)
    if as_json:
        emit_json({**doc, "skipped_files": skipped} if skipped else doc)
    elif no_write:
        click.echo(doc["markdown"])
    else:
        click.echo(f"wrote {doc['path']} ({doc['chars']}/{doc['budget']} chars; sections: {', '.join(doc['sections'])})")
    for warning in doc["warnings"]:
        click.echo(f"note: {warning}", err=True)
