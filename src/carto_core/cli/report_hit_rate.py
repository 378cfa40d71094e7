"""`carto report hit-rate`: served results joined with the access ledger by call_id."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option
from carto_core.util.output import when_value as when
from carto_core.cli.report_cmd import before_option, since_option
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted


@click.command("hit-rate", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto report hit-rate
  carto report hit-rate --since 30d --purpose remember --json

Exit codes: 0 a report, 3 nothing was served in scope, 2 bad flags.""")
@since_option
@before_option
@click.option("--purpose", metavar="KIND", help="Only calls of this purpose (manual, remember, focus, feed, eval, audit; default: all).")
@json_option
def hit_rate(since, before, purpose, as_json):
    """How many of the results `carto search` served were then used (`--touch`), by rank,
    source log, project and purpose, and the MRR of the calls.

    The join is exact: a served-log row and an access-ledger row with the same call_id and
    event_id. `--get` fetches are counted apart (inspection, not use). Read-only."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.hit_rate import hit_rate_report

    document = hit_rate_report(current_home(), since=when(since, "--since"),
                               before=when(before, "--before"), purpose=purpose)
    if as_json:
        emit_json(document)
    else:
        _print(document)
    if not document["overall"]["served"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))


ROWS = 15


def _pct(value) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _print(document: dict) -> None:
    overall, mrr = document["overall"], document["mrr"]
    if not overall["served"]:
        click.echo("No served results in scope (carto search records them when it runs with a home it can write).")
        return
    click.echo(f"Hit rate: {overall['used']}/{overall['served']} served results used ({_pct(overall['hit_rate'])}); "
               f"{overall['fetched']} fetched with --get")
    click.echo(f"MRR: {mrr['value']:.3f} over {counted(mrr['calls'], 'call')} ({overall['calls_with_use']} with a use)")
    for title, key in (("By rank", "by_rank_bucket"), ("By source", "by_source"),
                       ("By project", "by_project"), ("By purpose", "by_purpose")):
        click.echo(f"\n{title}:")
        for name, counts in list(document[key].items())[:ROWS]:
            click.echo(f"  {str(name):<24} {counts['used']:>4}/{counts['served']:<5} {_pct(counts['hit_rate'])}")
        if len(document[key]) > ROWS:
            click.echo(f"  … {len(document[key]) - ROWS} more (--json)")
    if document["dead_weight"]:
        click.echo("\nServed three times or more, never used:")
        for entry in document["dead_weight"]:
            click.echo(f"  {entry['event_id']}  {counted(entry['served'], 'serve')}; last query: \"{entry['last_query']}\"")
