"""`carto repair writers`: give derived writers the rows they failed to write during ingest."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import finish, repair_home, repair_options
from carto_core.util.output import JsonErrorCommand


@click.command("writers", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair writers                 which writers failed, and how many rows they missed
  carto repair writers --write --json  write them again; print the counts document""")
@repair_options
def writers(write: bool, as_json: bool) -> None:
    """Write again, through each derived writer, the rows it failed to write during ingest.

    A derived writer (a plugin's `carto_register_writers`) that raised left its rows in the logs
    but not in what it writes, and the next ingest skips them (they are in the logs). This reads
    each failure in .carto/writer-errors.jsonl not repaired yet, takes its rows from the logs and
    hands them to the writer again; when they all go through, its failures are marked repaired
    (`carto doctor` then reports none). A writer that raises again keeps its failures (exit 1);
    one no longer installed is left as it is."""
    from carto_core.ingest.writer_errors import repair
    from carto_core.plugin.registry import get_registries
    from carto_core.util.exitcodes import ExitCode

    home = repair_home()
    registered = dict(get_registries().writers.items())
    document = repair(home, registered, write=write)
    failed = {name: w["error"] for name, w in document["writers"].items() if w["error"]}
    for name, error in failed.items():
        click.echo(f"carto: writer {name!r} failed again: {error} (its failures stay in "
                   ".carto/writer-errors.jsonl)", err=True)
    for name, w in document["writers"].items():
        if not w["installed"]:
            click.echo(f"carto: writer {name!r} is not installed: its {w['rows']} rows are left",
                       err=True)
    if failed:
        from carto_core.util.output import emit_json

        if as_json:
            emit_json({**document, "error": "a writer failed again", "exit_code": int(ExitCode.ERROR)})
        else:
            click.echo(f"{document['failed_writes']} failed writes found, {document['fixed']} rows "
                       "written again")
        raise SystemExit(int(ExitCode.ERROR))
    finish(document, as_json, found_key="failed_writes", what="failed writes")
