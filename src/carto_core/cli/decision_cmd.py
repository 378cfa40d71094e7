"""`carto decision list|retire|reject|supersede`: the state of what wrapups decided, left open
and learnt (`carto_core.lenses.decisions`)."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, outcome_words

_STATES = ("current", "superseded", "retired", "rejected")


@click.group(epilog="""\b
Examples:
  carto decision list                            current decisions, threads and insights
  carto decision list --project webshop --all --json
  carto decision retire dec-1a2b3c --reason "the tax module is gone"
  carto decision supersede dec-1a2b3c --by dec-9f8e7d
  carto decision supersede dec-1a2b3c --text "apply discounts after tax"
  carto decision reject thr-4c5d6e --reason "never an issue"

A record is a decision (dec-), an open thread (thr-) or a key insight (ins-) a wrapup stated;
its id is the same for the same words in the same project. Changes are appended as
decision_update milestones: nothing is edited, and a later wrapup that states a record again
makes it current again. `carto memory` and MEMORY.md show current records only.
Exit codes: 0 done (or listed), 2 a refused change or bad flags, 3 no such record (list:
nothing to list).""")
def decision() -> None:
    """List decisions, open threads and insights; retire, reject or supersede one."""


@decision.command("list", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto decision list                            current decisions, threads and insights
  carto decision list --project webshop --all --json
  carto decision list --kind thread --state retired""")
@click.option("--project", default=None, help="Only this project (its name, case-insensitive).")
@click.option("--all", "all_states", is_flag=True, help="Every state, not only current records.")
@click.option("--state", "states", multiple=True, type=click.Choice(_STATES),
              help="Only records in this state (repeatable).")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(("decision", "thread", "insight")),
              help="Only this kind (repeatable).")
@json_option
def list_cmd(project, all_states, states, kinds, as_json) -> None:
    """Current records first, then the newest stated or changed."""
    from carto_core.lenses.decisions import list_document
    from carto_core.logio.home import current_home
    from carto_core.util.terminal import counted

    if all_states and states:
        from carto_core.util.output import usage_error

        usage_error("--all and --state: choose one")
    chosen = _STATES if all_states else (states or ("current",))
    from carto_core.cli.logskips import skip_unreadable

    # Records live in the milestones log alone: unread, it exits 1 naming it (no rest to
    # answer from, and "no records" would be untrue).
    skip_unreadable(current_home(), ["milestones"], "its records are left out")
    document = list_document(current_home(), project=project, states=chosen,
                             kinds=kinds or ("decision", "thread", "insight"))
    if as_json:
        emit_json(document)
    else:
        states = [record["state"] + (f" by {record['superseded_by']}" if record["superseded_by"] else "")
                  for record in document["records"]]
        wide = max(map(len, states), default=0)
        project_wide = max((len(record["project"] or "-") for record in document["records"]), default=0)
        for record, state in zip(document["records"], states):
            day = (record["last_stated"] or "")[:10]
            click.echo(f"{record['id']}  {state:<{wide}}  {record['project'] or '-':<{project_wide}}  {day}  {record['text']}")
        if not document["records"]:
            click.echo("no records" + (f" of {project}" if project else ""), err=True)
        if document["others_commits"]:
            # an older wrapup took a merged branch's commits as the owner's decisions
            click.echo(f"{counted(document['others_commits'], 'decision')} left out: the subject of "
                       "a commit another author wrote", err=True)
    if not document["records"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _change(state: str, record_id: str, by=None, text=None, reason=None, dry_run=False, as_json=False) -> None:
    from carto_core.lenses.decisions import DecisionError, change
    from carto_core.logio.home import current_home
    from carto_core.model.session import current_session_id, detect_provider

    try:
        out = change(current_home(), record_id, state, by=by, text=text, reason=reason,
                     session_id=current_session_id() or None, provider=detect_provider(),
                     dry_run=dry_run)
    except DecisionError as exc:
        fail(str(exc), ExitCode.USAGE if exc.usage else ExitCode.NOT_FOUND)
    if out["log_outcome"] == "written":
        from carto_core.control.memoryfiles import refresh_quietly

        refresh_quietly(current_home(), out["record"]["project"] or None)
    if as_json:
        emit_json(out)
        return
    record = out["record"]
    change = record["state"] + (f" by {record['superseded_by']}" if record["superseded_by"] else "")
    if out["log_outcome"] == "dry_run":
        click.echo(f"{record['id']} would be {change} (--dry-run: nothing written, {out['event_id'] or '-'})")
    else:
        click.echo(f"{record['id']} {change} ({outcome_words(out['log_outcome'])}: {out['event_id'] or '-'})")
    click.echo(f"  was: {record['text']}")
    if out.get("successor"):
        click.echo(f"  now: {out['successor']['id']} {out['successor']['text']}")


_reason = click.option("--reason", default=None, help="Why (kept on the update row).")
_dry = click.option("--dry-run", is_flag=True, help="Show the update row; write nothing.")


@decision.command("retire", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto decision retire dec-1a2b3c --reason "the tax module is gone"
  carto decision retire dec-1a2b --dry-run       the update row it would append""")
@click.argument("record_id")
@_reason
@_dry
@json_option
def retire(record_id, reason, dry_run, as_json) -> None:
    """RECORD_ID is no longer true (an id or a unique prefix of one)."""
    _change("retired", record_id, reason=reason, dry_run=dry_run, as_json=as_json)


@decision.command("reject", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto decision reject thr-4c5d6e --reason "never an issue"
  carto decision reject thr-4c5d --json          reject it; print the JSON document""")
@click.argument("record_id")
@_reason
@_dry
@json_option
def reject(record_id, reason, dry_run, as_json) -> None:
    """RECORD_ID never was true (a wrong decision, a thread that was never open)."""
    _change("rejected", record_id, reason=reason, dry_run=dry_run, as_json=as_json)


@decision.command("supersede", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto decision supersede dec-1a2b3c --by dec-9f8e7d
  carto decision supersede dec-1a2b3c --text "apply discounts after tax"
  carto decision supersede dec-1a2b3c --by dec-9f8e7d --dry-run --json""")
@click.argument("record_id")
@click.option("--by", "by", default=None, help="The current record that replaces it.")
@click.option("--text", default=None, help="Or: the words of a new record that replaces it.")
@_reason
@_dry
@json_option
def supersede(record_id, by, text, reason, dry_run, as_json) -> None:
    """RECORD_ID is replaced by another record (--by ID) or by new words (--text)."""
    _change("superseded", record_id, by=by, text=text, reason=reason, dry_run=dry_run, as_json=as_json)
