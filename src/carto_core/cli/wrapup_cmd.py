"""`carto wrapup`: write the session_wrapup milestone built from the session's events."""

from __future__ import annotations

import click

from carto_core.cli.output import emit_json, fail, json_option, usage_error


@click.command(epilog="""\b
Examples:
  carto wrapup                                   derive everything from the current session
  carto wrapup --decision "apply discounts before tax" --unresolved "coupon stacking"
  carto wrapup --session 5a1e... --dry-run --json

Decisions default to the session's commits, unresolved threads to files edited and not
committed, the key insight to where the edits concentrated. Running it twice for the same
session state writes nothing the second time (log_outcome: already_present).""")
@click.option("--session", "session_id", default=None, help="Session id (default: the current session).")
@click.option("--description", default=None, help="One-line synthesis (default: derived).")
@click.option("--decision", "decisions", multiple=True, help="A decision (repeatable; replaces the derived ones).")
@click.option("--unresolved", "unresolved", multiple=True, help="An open thread (repeatable).")
@click.option("--insight", default=None, help="The key insight (default: derived).")
@click.option("--dry-run", is_flag=True, help="Print the row; write nothing.")
@json_option
def wrapup(session_id, description, decisions, unresolved, insight, dry_run, as_json) -> None:
    """Record what this session decided and left open, as a session_wrapup milestone."""
    from carto_core.home import current_home
    from carto_core.lenses.digest import DigestError
    from carto_core.lenses.wrapup import build_wrapup, write_wrapup
    from carto_core.session import current_session_id

    session_id = session_id or current_session_id()
    if not session_id:
        usage_error("no session id: pass --session SID (or run inside an agent session)")
    home = current_home()
    try:
        row = build_wrapup(home, session_id, description=description,
                           decisions=list(decisions) or None, unresolved=list(unresolved) or None,
                           key_insight=insight)
    except DigestError as exc:
        fail(str(exc))
    receipt = {"log_outcome": "dry_run", "event_id": row["event_id"]} if dry_run else write_wrapup(home, row)
    if as_json:
        emit_json({"receipt": receipt, "row": row})
        return
    click.echo(f"wrapup {receipt['log_outcome']}: {row['event_id']}")
    click.echo(f"  {row['description']}")
    for item in row["decisions"]:
        click.echo(f"  decided: {item}")
    for item in row["unresolved"]:
        click.echo(f"  open:    {item}")
    if row["key_insight"]:
        click.echo(f"  insight: {row['key_insight']}")
