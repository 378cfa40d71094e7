"""`carto export`: the home's logs (or a project's, or those since a time) into an archive
(`carto_core.control.archive`)."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.terminal import counted, size


@click.command("export", epilog="""\b
Examples:
  carto export ~/carto-all.tar.gz                     every log
  carto export --project acme acme.tar.gz             one project's events
  carto export --since 30d --json last-month.tar.gz   the last 30 days
  carto import acme.tar.gz                            (in another home) merge it

\b
The archive is a gzip tar: carto/home/<log>.jsonl, rows byte for byte as the home holds them,
and carto/manifest.json (counts, sizes, SHA-256 of every file); keyword index, facts and
vectors are left out (`carto index` rebuilds them from the logs). With --project or --since
the events selected are those `carto forget` would take for the same criteria: every row of
an event that has one matching row. docs/control.md has the format.
Exit codes: 0 written, 3 nothing matched, 4 FILE exists (without --force), 2 bad flags,
1 the file could not be written.""", cls=JsonErrorCommand)
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@click.option("--project", "projects", multiple=True, metavar="NAME",
              help="Only this project's events (exact name, any case; repeatable).")
@click.option("--since", metavar="WHEN", default=None, help="Only events from WHEN on (30d, 2025-01-01, ...).")
@click.option("--force", is_flag=True, help="Replace FILE when it exists.")
@json_option
def export(file, projects, since, force, as_json) -> None:
    """Export the home's logs to an archive with a manifest of counts and checksums."""
    from pathlib import Path

    from carto_core.cli.homeguard import require_home
    from carto_core.control.archive import ArchiveError, export_home
    from carto_core.control.criteria import Criteria
    from carto_core.logio.home import current_home
    from carto_core.util.timeparse import WhenError, parse_when

    moment = None
    if since:
        try:
            moment = parse_when(since)
        except WhenError as exc:
            usage_error(f"--since: {exc}")
    target = Path(file).expanduser()
    if target.exists() and not force:
        fail(f"{target} exists: choose another name or add --force", ExitCode.CONFLICT)
    require_home()
    home = current_home()
    from carto_core.cli.project_names import say_unknown_projects

    say_unknown_projects(home, projects, "export")  # the same names as forget: whole, any case
    criteria = Criteria(projects, since=moment) if projects or moment else None
    try:
        manifest = export_home(home, target, criteria=criteria)
    except (ArchiveError, OSError) as exc:
        from carto_core.logio.reader import cannot_read

        fail(f"export: {isinstance(exc, OSError) and cannot_read(exc) or exc}")
    if manifest.get("written") is False:
        asked = " ".join([*(f"--project {p}" for p in projects), *([f"--since {since}"] if since else [])])
        fail(f"nothing matched {asked}: no archive written" if asked
             else f"the home {home.root} holds no row: no archive written", ExitCode.NOT_FOUND)
    document = {"file": str(target), "bytes": target.stat().st_size, "rows": manifest["rows"],
                "files": {name: info["rows"] for name, info in manifest["files"].items()},
                "selection": manifest["selection"]}
    if as_json:
        emit_json(document)
    else:
        click.echo(f"{target}: {counted(manifest['rows'], 'row')} in {counted(len(manifest['files']), 'log')} "
                   f"({size(document['bytes'])})")
    if not manifest["rows"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))
