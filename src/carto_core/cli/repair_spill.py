"""`carto repair spill`: append the rows a full or unwritable home refused, by hand."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import finish, repair_home, repair_options
from carto_core.util.output import JsonErrorCommand


@click.command("spill", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair spill                 how many rows wait, and where
  carto repair spill --write --json  append them; print the counts document""")
@repair_options
def spill(write: bool, as_json: bool) -> None:
    """Append the rows waiting in the hook's spill file to the home's logs.

    A hook whose home refuses a row (a full disk, a quota, a read-only or unwritable folder)
    keeps it in a spill file outside the home ($TMPDIR/carto-spill-<uid>/, or CARTO_SPILL_DIR)
    and the next hook that can write appends it. This does the same now, without waiting for a
    hook: the spill file, and any copy a flusher that died had claimed, are appended in order,
    bytes unchanged. A claim a live flusher holds is left to it. Rows that fail again stay."""
    from carto_core.logio import spill as spill_file

    home = repair_home()
    waiting = spill_file.pending(home.root)
    count = sum(item["entries"] for item in waiting)
    movable = sum(item["entries"] for item in waiting if not item["claimed_by"] or item["orphaned"])
    fixed = left = 0
    if write and movable:
        fixed, left = spill_file.flush(home.root)
    document = {"repair": "spill", "home": str(home.root), "dry_run": not write,
                "spilled": count, "held_by_live_flusher": count - movable, "left": left,
                "fixed": fixed, "would_fix": 0 if write else movable,
                "logs": {item["path"]: {"entries": item["entries"]} for item in waiting},
                "examples": []}
    finish(document, as_json, found_key="spilled", what="spilled rows")
