"""`carto restore`: a backup back into a home, verified first, never over a home without
--force (`carto_core.control.backup`)."""

from __future__ import annotations

import click

from carto_core.cli.secret_options import opening_secret, secret_options
from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  CARTO_HOME=~/carto-restored carto restore ~/.local/share/carto-backups/carto-backup-...tar.gz
  carto restore backup.tar.gz.sealed --key-file ~/.config/carto/backup.key
  carto restore backup.tar.gz --force      replace this home (it is kept beside it, renamed)

\b
The whole backup is opened and checked first, into a folder beside the home: the seal (a
wrong passphrase or key, or a damaged file, is refused: exit 1) and every file against the
manifest's size, row count and SHA-256. Only then does it become the home. A home that holds
anything is replaced only with --force, and then kept as <home>.replaced-<time>; what that
home forgot stays forgotten (its tombstones keep those events out of what is restored) and
its team settings stay. Afterwards `carto index` rebuilds the keyword index, facts and vectors.
Exit codes: 0 restored, 1 wrong key or a damaged backup, 2 bad flags (both --passphrase-file and
--key-file, or a sealed file and no key or passphrase to open it), 4 the home holds something
(--force).""", cls=JsonErrorCommand)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--force", is_flag=True, help="Replace a home that holds anything (kept beside it).")
@secret_options
@json_option
def restore(file, force, passphrase_file, key_file, as_json) -> None:
    """Restore a backup into the home: verified whole, never over a home without --force."""
    from pathlib import Path

    from carto_core.control.archive import ArchiveError
    from carto_core.control.backup import HomeNotEmpty
    from carto_core.control.backup import restore as run
    from carto_core.control.sealed import SealError
    from carto_core.logio.home import current_home

    home = current_home()
    secret = opening_secret(file, passphrase_file, key_file)
    try:
        document = run(home, Path(file), secret=secret, force=force)
    except HomeNotEmpty as exc:
        fail(f"restore: {exc}", ExitCode.CONFLICT)
    except (ArchiveError, SealError) as exc:
        fail(f"restore: {exc}")
    except OSError as exc:
        fail(f"restore: {exc.filename or home.root}: {exc.strerror or exc}")
    if as_json:
        emit_json(document)
    else:
        forgotten = document["forgotten"]
        # the backup's rows less those kept out: what the home now holds of it
        kept_out = forgotten["rows"] if forgotten and forgotten["events"] else 0
        click.echo(f"{document['home']}: restored {counted(document['rows'] - kept_out, 'row')} "
                   f"from {document['backup']} (taken {document['created']})")
        if document["replaced_home_kept_at"]:
            click.echo(f"  the home it replaced: {document['replaced_home_kept_at']}")
        if forgotten and forgotten["events"]:
            click.echo(f"  kept out {counted(forgotten['events'], 'event')} ({counted(forgotten['rows'], 'row')}) "
                       "the home it replaced had forgotten: forgetting survives a restore (restore "
                       "into an empty folder to see the backup whole)")
        if document["team_settings"] == "replaced home":
            click.echo("  team settings: the replaced home's (its server, allow list and password file)")
        click.echo(f"  next: {document['next']}")
