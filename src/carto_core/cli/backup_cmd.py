"""`carto backup`: a consistent snapshot of the home, rotated, optionally sealed
(`carto_core.control.backup`)."""

from __future__ import annotations

import click

from carto_core.cli.secret_options import read_secret, sealing_options, warn_if_short
from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.terminal import counted, size


@click.command(epilog="""\b
Examples:
  carto backup                                   into <home>-backups/ beside the home, 7 kept
  carto backup --encrypt                         sealed with a passphrase (asked twice)
  carto backup --key-file ~/.config/carto/backup.key --json
  carto backup --new-key-file ~/.config/carto/backup.key    make a key file (0600) and stop
  carto restore <home>-backups/carto-backup-...tar.gz       (see carto restore --help)

\b
What goes in: the logs and the state no rebuild gives back (tombstones, checkpoints, live
transcript states, team settings without the password file, search calls), each log read
under carto's rewrite lock, so every row a hook appended before the backup began is in it and
none half. Derived stores are left out (`carto index` rebuilds them). A forget left unfinished
is finished first. Sealed backups: AES-256-GCM in 1 MiB chunks, the key from the passphrase by
scrypt (N=2^17, r=8, p=1) or from a key file by HKDF; they need the `backup` extra
(pip install 'carto-core[backup]'). [backup] in the config file: dir, keep, key_file, daily
(the detached keep-up job takes one a day). docs/control.md has the details.
Exit codes: 0 written, 1 the home or the backup folder could not be read or written, 2 bad flags,
4 --new-key-file names a file that exists (never overwritten).""", cls=JsonErrorCommand)
@click.option("--dir", "folder", type=click.Path(file_okay=False), default=None,
              help="Where backups go (default: [backup] dir, else <home>-backups beside the home).")
@click.option("--keep", type=click.IntRange(min=1), default=None, help="Backups kept ([backup] keep, default 7).")
@click.option("--encrypt", is_flag=True, help="Seal it with a passphrase (asked at the terminal).")
@click.option("--new-key-file", type=click.Path(dir_okay=False), default=None,
              help="Write a new random key file (0600) and stop.")
@sealing_options
@json_option
def backup(folder, keep, encrypt, new_key_file, passphrase_file, key_file, as_json) -> None:
    """Take a consistent, rotated, optionally encrypted snapshot of the home."""
    from pathlib import Path

    from carto_core.cli.homeguard import require_home
    from carto_core.control.archive import ArchiveError
    from carto_core.control.backup import BackupSettings
    from carto_core.control.backup import backup as take
    from carto_core.control.sealed import SealError
    from carto_core.logio.home import current_home

    if new_key_file:
        from carto_core.control.sealed import new_key_file as make

        try:
            path = make(Path(new_key_file).expanduser())
        except FileExistsError:
            fail(f"{new_key_file} exists: never overwritten (a key lost is a backup lost)",
                 ExitCode.CONFLICT)
        except OSError as exc:
            fail(f"{new_key_file}: {exc.strerror or exc}")
        emit_json({"key_file": str(path)}) if as_json else click.echo(
            f"{path}: a new key (keep a copy apart from the backups: without it they cannot be opened)")
        return
    if encrypt and key_file:
        usage_error("--encrypt (a passphrase) or --key-file, not both")
    require_home()
    home = current_home()
    settings = BackupSettings.load(home)
    if not (passphrase_file or key_file or encrypt) and settings.key_file is not None:
        key_file = str(settings.key_file)
    secret = read_secret(passphrase_file, key_file, ask=encrypt, confirm=True)
    try:
        document = take(home, settings=settings, secret=secret,
                        dest_dir=Path(folder).expanduser() if folder else None, keep=keep)
    except (ArchiveError, SealError, OSError) as exc:
        from carto_core.logio.reader import cannot_read

        fail(f"backup: {isinstance(exc, OSError) and cannot_read(exc) or exc}")
    warn_if_short(secret)
    if as_json:
        emit_json(document)
    else:
        sealed = " (sealed)" if document["sealed"] else ""
        click.echo(f"{document['backup']}{sealed}: {counted(document['rows'], 'row')}, "
                   f"{size(document['bytes'])}, {document['seconds']} s")
        for path in document["removed"]:
            click.echo(f"  rotated out: {path}")
        for item in document["left_out"]:
            click.echo(f"  left out: {item['path']} ({item['what']}, not a file)")
