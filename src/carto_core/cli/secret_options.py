"""The flags that give a backup its seal (`carto backup`, `carto restore`, `carto import`):
`--passphrase-file`, `--key-file`, `CARTO_BACKUP_PASSPHRASE`, or a prompt at a terminal."""

from __future__ import annotations

import os

import click

from carto_core.util.output import fail, usage_error

PASSPHRASE_VARIABLE = "CARTO_BACKUP_PASSPHRASE"


def secret_options(command, *, verb: str = "Open"):
    """`--key-file` and `--passphrase-file`: `carto restore` and `carto import` open with them,
    `carto backup` seals (`sealing_options`)."""
    command = click.option("--key-file", type=click.Path(dir_okay=False), default=None,
                           help=f"{verb} with this key file (32 random bytes; "
                                "`carto backup --new-key-file PATH` makes one).")(command)
    return click.option("--passphrase-file", type=click.Path(dir_okay=False), default=None,
                        help=f"Read the passphrase from this file (or set {PASSPHRASE_VARIABLE}).")(command)


def sealing_options(command):
    return secret_options(command, verb="Seal")


def opening_secret(file: str, passphrase_file: str | None, key_file: str | None):
    """The `Secret` that opens `file` (`carto restore`, `carto import`): the flags', else, for a
    file sealed with a key file, `[backup] key_file` (the key `carto backup` sealed it with
    without a flag), else the passphrase (the environment, or asked)."""
    from carto_core.control.sealed import is_sealed, sealed_kdf

    if not is_sealed(file):
        return read_secret(passphrase_file, key_file, ask=False)
    if not (passphrase_file or key_file) and sealed_kdf(file) == "key-file":
        from carto_core.control.backup import BackupSettings
        from carto_core.logio.home import current_home

        configured = BackupSettings.load(current_home()).key_file
        if configured is None:
            # no passphrase opens it: asking one (twice at a terminal) would only end in "wrong key"
            usage_error(f"{file} is sealed with a key file: --key-file PATH opens it (or key_file "
                        "in the config file's [backup])")
        key_file = str(configured)
    return read_secret(passphrase_file, key_file, ask=True)


#: Under this many characters a passphrase that sealed a backup draws a warning.
SHORT_PASSPHRASE = 12


def warn_if_short(secret) -> None:
    """A backup sealed with a short passphrase: whoever holds the file may guess it offline."""
    text = getattr(secret, "passphrase", None)
    if isinstance(text, str) and len(text) < SHORT_PASSPHRASE:
        click.echo(f"carto: the passphrase is {len(text)} character{'s' if len(text) != 1 else ''}: "
                   "whoever holds the backup can try guesses offline (the key derivation slows "
                   f"each, it stops none); use {SHORT_PASSPHRASE} or more, or --new-key-file",
                   err=True)


def read_secret(passphrase_file: str | None, key_file: str | None, *, ask: bool, confirm: bool = False):
    """The `Secret` the flags name, None when none is named and `ask` is off (or no terminal)."""
    import sys

    if passphrase_file and key_file:
        usage_error("--passphrase-file or --key-file, not both")
    from carto_core.control.sealed import SealError, Secret, read_key_file, require_cipher

    if ask or key_file or passphrase_file:
        try:  # said before a passphrase is typed (twice) for nothing
            require_cipher()
        except SealError as exc:
            fail(str(exc))
    try:
        if key_file:
            return Secret(key=read_key_file(os.path.expanduser(key_file)))
        if passphrase_file:
            with open(os.path.expanduser(passphrase_file), encoding="utf-8") as handle:
                text = handle.read().rstrip("\r\n")
            if not text:
                fail(f"{passphrase_file} is empty")
            return Secret(passphrase=text)
    except SealError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{exc.filename}: {exc.strerror or exc}")
    if os.environ.get(PASSPHRASE_VARIABLE):
        return Secret(passphrase=os.environ[PASSPHRASE_VARIABLE])
    if ask:
        if not sys.stdin.isatty():
            usage_error(f"a passphrase is needed: --passphrase-file, --key-file or {PASSPHRASE_VARIABLE}")
        text = click.prompt("passphrase", hide_input=True, confirmation_prompt=confirm, err=True)
        return Secret(passphrase=text)
    return None
