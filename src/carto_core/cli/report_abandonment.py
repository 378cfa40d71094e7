"""`carto report abandonment`: recall calls followed by no access, read in their transcripts."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option, usage_error
from carto_core.util.output import when_value as when
from carto_core.cli.report_cmd import before_option, since_option
from carto_core.util.exitcodes import ExitCode


#: Each category as the text says it (the JSON keeps the key).
CATEGORY_WORDS = {
    "unmarked_use": "used without a mark (the agent named a result)",
    "good_abandonment": "good abandonment (its text draws on the results' words)",
    "bad_abandonment": "bad abandonment (it searched again)",
    "no_need": "no need (it went on without them)",
    "unread": "unread (no transcript to read)",
}


@click.command("abandonment", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto report abandonment
  carto report abandonment --since 7d --purpose remember --json

Exit codes: 0 a report, 3 no recall call in scope, 2 bad flags.""")
@since_option
@before_option
@click.option("--purpose", metavar="KIND", help="Only calls of this purpose (default: all).")
@click.option("--window", "window", type=float, default=15.0, show_default=True,
              help="Minutes of transcript read after a call (the next prompt or search ends it sooner).")
@json_option
def abandonment(since, before, purpose, window, as_json):
    """Recall calls whose results got no mark (no --touch, no --get), each read in the
    session's transcript after the call: unmarked use (the agent named a result), good
    abandonment (its text draws on the results' words), bad abandonment (it searched again),
    no need (it went on without them), unread (no transcript). MRR explicit and with the
    unmarked uses credited. These categories are inferred from text (docs/search.md).
    Read-only."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.abandonment import abandonment_report

    if not 0 < window < float("inf"):  # nan fails both comparisons
        usage_error("--window must be a positive number of minutes")
    document = abandonment_report(current_home(), since=when(since, "--since"),
                                  before=when(before, "--before"), purpose=purpose,
                                  window_minutes=window)
    if as_json:
        emit_json(document)
    else:
        click.echo(f"Recall calls: {document['calls']} ({document['marked']} with a mark, "
                   f"{document['abandoned']} abandoned)")
        named = {name: CATEGORY_WORDS.get(name, name.replace("_", " ")) for name in document["categories"]}
        wide = max(map(len, named.values()), default=0)
        for name, count in document["categories"].items():
            click.echo(f"  {named[name]:<{wide}}  {count}")
        m = document["mrr"]
        if m["explicit"] is not None:
            click.echo(f"MRR: {m['explicit']:.3f} explicit, {m['implicit_credited']:.3f} with unmarked use credited")
    if not document["calls"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))
