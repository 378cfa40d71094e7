"""`carto repair intents`: classify the prompts and turns written before carto did."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import repair_options, run
from carto_core.util.output import JsonErrorCommand


@click.command("intents", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair intents                   count them, change nothing
  carto repair intents --write --json    classify them""")
@repair_options
def intents(write: bool, as_json: bool) -> None:
    """Give prompts and turns without a prompt_intent the one carto would write now.

    Rows written before carto classified prompts (an older carto, upstream's prompt history)
    have none, so `carto search --intent` never returns them and `carto report intents` counts
    them as unclassified. A row that has a key keeps it. A turn is classified from the head of
    its body (its prompt comes first)."""
    from carto_core.repair.intents import ClassifyIntents

    run(ClassifyIntents(), write=write, as_json=as_json, what="unclassified prompts")
