"""`carto hook PROVIDER EVENT`: listed in `carto --help`; the console script never gets here.

`carto_core.entry` sends `carto hook ...` straight to the lean dispatcher (no click on an agent's
every tool call). This command exists so the name shows in `carto --help` and in-process callers
(`cli.main(["hook", ...])`) reach the same dispatcher; its help is the dispatcher's own.
"""

from __future__ import annotations

import click


@click.command(add_help_option=False,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def hook(args) -> None:
    """Live capture: the entry point agents' hooks call (payload on stdin, always exit 0)."""
    from carto_core.capture.hookpath import main

    raise SystemExit(main(list(args)))
