"""`carto repair torn-rows`: split glued rows and restore torn ones from their copies."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import repair_options, run
from carto_core.util.output import JsonErrorCommand


@click.command("torn-rows", cls=JsonErrorCommand)
@repair_options
def torn_rows(write: bool, as_json: bool) -> None:
    """Split rows glued to a torn row; restore torn rows from a whole copy.

    A torn row is the start of a row that a crash or a full disk cut short (carto doctor
    counts them). A row appended right after one used to be glued onto it: this splits it
    off. A torn piece is dropped when the same log has the whole row again, rebuilt when
    another log holds its copy (a tool-use row rebuilds its changelog copy) and the rebuilt
    line starts with exactly the torn bytes, and otherwise kept as it is: nothing is
    destroyed that cannot be rebuilt byte for byte.

    \b
    Examples:
      carto repair torn-rows                  count, change nothing
      carto repair torn-rows --write          split and restore
      carto repair torn-rows --json           {"torn": 1, "fixed": 0, "would_fix": 1, ...}
    """
    from carto_core.repair.torn import TornRows

    run(TornRows(), write=write, as_json=as_json, what="torn rows")
