"""`carto report intents`: the prompt-intent distribution with samples per key."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option, usage_error
from carto_core.util.output import when_value as when
from carto_core.cli.report_cmd import before_option, since_option
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted


@click.command("intents", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto report intents
  carto report intents --since 30d --project webshop --samples 5
  carto report intents --log prompts --json | jq '.keys[] | {key, count}'

Exit codes: 0 a report, 3 no prompts in scope, 2 bad flags.""")
@since_option
@before_option
@click.option("--project", "-p", metavar="NAME", help="Only prompts of this project or family (substring).")
@click.option("--samples", type=int, default=3, show_default=True, help="Prompts shown per key (newest first).")
@click.option("--log", "log", type=click.Choice(["all", "prompts", "turns"]), default="all", show_default=True,
              help="Prompt history, the prompts that open turns, or both.")
@json_option
def intents(since, before, project, samples, log, as_json):
    """How the home's prompts divide among the 17 intents, with a few samples per key.

    Every prompt of the prompt history and every transcript turn carries `prompt_intent`
    (classified when it was written; docs/intents.md has the classifier and its measured
    precision and recall). Rows written before carto classified prompts are counted as
    unclassified. Read-only."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.intents_report import intents_report

    if samples < 0:
        usage_error("--samples must be 0 or more")
    logs = ("prompts", "turns") if log == "all" else (log,)
    document = intents_report(current_home(), since=when(since, "--since"),
                              before=when(before, "--before"), project=project,
                              samples=samples, logs=logs)
    if as_json:
        emit_json(document)
    else:
        _print(document)
    if not document["prompts"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))


#: A sample is a reminder of the prompt, cut with a mark (its id reads it whole).
SAMPLE_CHARS = 100


def _print(document: dict) -> None:
    classified = document["classified"]
    click.echo(f"Prompt intents: {counted(classified, 'classified prompt')}"
               + (f", {document['unclassified']} unclassified" if document["unclassified"] else "")
               + f" ({', '.join(document['logs'])})")
    for entry in sorted(document["keys"], key=lambda e: -e["count"]) if document["prompts"] else ():
        bar = "#" * round(entry["share"] * 40)
        click.echo(f"  {entry['key']:<22} {entry['count']:>6}  {entry['share'] * 100:5.1f}%  {bar}")
        for sample in entry["samples"]:
            text = " ".join(str(sample["text"] or "").split())
            click.echo(f"      {sample['event_id']}  {text if len(text) <= SAMPLE_CHARS else text[:SAMPLE_CHARS - 1] + '…'}")
    if not document["prompts"]:
        click.echo("(no prompts in scope: backfill with `carto ingest claude` or `carto ingest codex`)")
    elif document["unclassified"]:
        n = document["unclassified"]
        click.echo(f"({counted(n, 'prompt')} written before carto classified prompts: carto repair intents "
                   f"--write classifies {'it' if n == 1 else 'them'})")
