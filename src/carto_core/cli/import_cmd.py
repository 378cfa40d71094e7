"""`carto import`: merge an archive (`carto export`, or a backup's logs) into this home by
event_id."""

from __future__ import annotations

import click

from carto_core.cli.secret_options import opening_secret, secret_options
from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option
from carto_core.util.terminal import counted


@click.command("import", epilog="""\b
Examples:
  carto import acme.tar.gz                    merge another home's export into this one
  CARTO_HOME=~/new carto import all.tar.gz    into a new, empty home
  carto import all.tar.gz --json              {"added": {"changelog": 120, ...}, "skipped": ...}

\b
The archive is verified whole first (every file against its manifest's size, row count and
SHA-256); a damaged one is refused and nothing is written. An event this home already holds is
not added again, nor one `carto forget` took out of it, nor one of a project it excludes
([capture] exclude); a telemetry row is added unless the same line is there. A second import
of the same archive adds nothing. A line of the archive that is no row (not JSON, torn, not
an object, a NUL run, an event log's row without an event_id) is not added and is counted by
reason; a log this carto does not know is named and not imported. The keyword index, facts and vectors catch up by themselves
(search and facts read the new rows; `carto index` embeds them).
Exit codes: 0 rows added, 3 nothing new, 1 a damaged or unreadable archive, 2 bad flags (both
--passphrase-file and --key-file, or a sealed file and no key or passphrase to open it).""", cls=JsonErrorCommand)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@secret_options
@json_option
def import_(file, passphrase_file, key_file, as_json) -> None:
    """Merge an archive's logs into this home by event_id (idempotent)."""
    from pathlib import Path

    from carto_core.control.archive import ArchiveError, import_archive
    from carto_core.control.sealed import SealError
    from carto_core.logio.home import current_home

    home = current_home()
    secret = opening_secret(file, passphrase_file, key_file)
    try:
        document = import_archive(home, Path(file), secret=secret)
    except (ArchiveError, SealError) as exc:
        fail(f"import: {exc}")
    if as_json:
        emit_json(document)
    else:
        for label, n in document["added"].items():
            click.echo(f"{label}: {counted(n, 'row')} added")
        skipped = {}
        for counts in document["skipped"].values():
            for why, n in counts.items():
                skipped[why] = skipped.get(why, 0) + n
        from carto_core.control.archive import UNREADABLE

        bad = {why: skipped.pop(why) for why in list(skipped) if why in UNREADABLE}
        tail = ", ".join(f"{n} {why}" for why, n in sorted(skipped.items()))
        click.echo(f"{counted(document['rows'], 'row')} added to {document['home']}"
                   + (f"; skipped: {tail}" if tail else ""))
        if bad:
            reasons = ", ".join(f"{n} {why}" for why, n in sorted(bad.items()))
            click.echo(f"not added, not rows: {counted(sum(bad.values()), 'line')} ({reasons})")
        for name in document.get("unknown_logs") or ():
            click.echo(f"{name}: not imported, a log this carto does not know "
                       "(a newer carto's, or not carto's)")
    if not document["rows"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))
