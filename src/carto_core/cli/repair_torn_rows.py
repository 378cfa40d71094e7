"""`carto repair torn-rows`: split glued rows and restore torn ones from their copies."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import repair_options, run
from carto_core.util.output import JsonErrorCommand


@click.command("torn-rows", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair torn-rows                  count, change nothing
  carto repair torn-rows --write          split and restore
  carto repair torn-rows --json           {"torn": 1, "fixed": 0, "would_fix": 1, ...}""")
@repair_options
def torn_rows(write: bool, as_json: bool) -> None:
    """Split rows glued to a torn row; restore torn rows from a whole copy.

    A torn row is the start of a row that a crash or a full disk cut short (carto doctor
    counts them). A row appended right after one used to be glued onto it: this splits it
    off. A torn piece is dropped when the same log has the whole row again, rebuilt when
    another log holds its copy (a tool-use row rebuilds its changelog copy) and the rebuilt
    line starts with exactly the torn bytes, and otherwise kept as it is: nothing is
    destroyed that cannot be rebuilt byte for byte. A torn row of a transcript carto ingested
    that is still on disk is read again from it (that stream alone: its checkpoint entry is
    dropped and it is ingested again), and the piece then settles as a duplicate."""
    from carto_core.cli.repair_cmd import finish, repair_home
    from carto_core.repair import run_repair
    from carto_core.repair.torn import TornRows, read_again, transcript_streams

    home = repair_home()
    repair = TornRows()
    document = run_repair(repair, home, write=write)
    found = transcript_streams(home, repair.unsettled) if repair.unsettled else []
    if found and not write:
        document["would_read_again"] = [str(stream.path) for _, _, stream in found]
        document["would_fix"] += len(found)
    elif found:
        document["read_again"] = read_again(home, found)
        again = run_repair(TornRows(), home, write=True)
        document["fixed"] += again["fixed"]
        document["unsettled"] = again.get("unsettled", 0)
        for label, mine in document["logs"].items():
            counts = again["logs"].get(label, {})
            if mine.get("unsettled"):  # settled now: the transcript gave the whole row again
                mine["unsettled"] = counts.get("unsettled", 0)
                mine["from_transcript"] = counts.get("duplicates", 0)
                mine["fixed"] = mine.get("fixed", 0) + counts.get("fixed", 0)
        document["examples"] = again.get("examples", [])
    finish(document, as_json, found_key=repair.found_key, what="torn rows")
