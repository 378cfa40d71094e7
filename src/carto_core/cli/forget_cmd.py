"""`carto forget`: take events out of the home, from every log and everything derived from
them (`carto_core.control.forget`)."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto forget --project acme                   what would go: per log, per derived store
  carto forget --project acme --write           take it out, everywhere
  carto forget --before 2025-01-01 --write      everything older than that day
  carto forget --since 1h --write               what was recorded in the last hour
  carto forget --session 5f1c... --write        one session
  carto forget --match "hunter2" --json         the events whose text holds it (dry run)
  carto forget --event evt-abc123 --write       one event
  carto forget --project acme --before 90d      criteria combine: acme's events older than 90 days
  carto forget --resume                         finish a forget that was interrupted
  carto forget --in-replaced --write            what this home forgot, out of the homes a restore kept

\b
What goes: every row of every matching event (an event_id with one matching row goes whole)
from the six logs and knowledge-gaps.jsonl; the searches that served it (served-log,
access-ledger, search-calls); lines of .carto/ logs naming it; the keyword index's, facts
cache's and vector store's entries (patched in place: search keeps answering, semantic ladder
included); checkpoints of transcripts nothing is left of, and checkpoints and live states holding
a --match text (a Stop's answer kept for its turn); carto's section of MEMORY.md files;
the team server's rows (--project alone). A tombstone (hashes of the ids, no text) keeps any
later backfill or hook from writing them back. Never recorded at all: `[capture] exclude`.
Copies carto made that still hold it are named: homes `carto restore --force` kept beside
this one (--in-replaced forgets there too) and backups `carto backup` wrote (an archive is
never edited: delete it, then `carto backup` takes one without it).
Exit codes: 0 something matched (and was taken out with --write), 3 nothing matched,
2 no criteria or a bad one, 1 the home could not be read or written.""", cls=JsonErrorCommand)
@click.option("--project", "projects", multiple=True, metavar="NAME",
              help="A project's events (its exact name, any case; repeat for several).")
@click.option("--session", "sessions", multiple=True, metavar="ID", help="A session's events (repeatable).")
@click.option("--before", metavar="WHEN", default=None,
              help="Events older than WHEN (90d, 2025-01-01, last month, ...).")
@click.option("--since", metavar="WHEN", default=None,
              help="Events from WHEN on (1h: what was just recorded).")
@click.option("--match", "match", multiple=True, metavar="TEXT",
              help="Events whose text holds TEXT, any case (repeatable).")
@click.option("--event", "events", multiple=True, metavar="ID", help="One event by id (repeatable).")
@click.option("--write", is_flag=True, help="Take it out (default: a dry run that only counts).")
@click.option("--dry-run", "dry_run", is_flag=True, help="Only count (the default, said aloud; not with --write).")
@click.option("--resume", is_flag=True, help="Finish a forget that was interrupted, then stop.")
@click.option("--in-replaced", "in_replaced", is_flag=True,
              help="Forget in the homes `carto restore --force` kept beside this one "
                   "(<home>.replaced-<time>) too; alone, with no criteria: take out of them "
                   "everything this home forgot since they were kept.")
@json_option
def forget(projects, sessions, before, since, match, events, write, dry_run, resume, in_replaced,
           as_json) -> None:
    """Forget events: from every log, index, cache, vector and telemetry file; a dry run unless --write."""
    from carto_core.control.criteria import Criteria
    from carto_core.control import forget as engine
    from carto_core.logio.home import current_home
    from carto_core.util.timeparse import WhenError, parse_when

    home = current_home()
    if write and dry_run:
        usage_error("--write and --dry-run disagree: give one")
    blank = [text for text in match if text and not text.strip()]
    if blank:
        usage_error(f"--match {blank[0]!r}: text of spaces alone is in nearly every event; "
                    "give the text to forget")
    if resume:
        if any((projects, sessions, before, since, match, events)):
            usage_error("--resume takes no criteria: it finishes the forget that was interrupted")
        if not home.root.is_dir():
            fail(f"home {home.root} does not exist (nothing to resume)", ExitCode.NOT_FOUND)
        done = engine.resume(home, _progress(as_json)) if engine.pending(home) else None
        if done is None:
            if as_json:
                emit_json({"home": str(home.root), "resumed": None})
            else:
                click.echo("no interrupted forget to finish")
            raise SystemExit(int(ExitCode.NOT_FOUND))
        _report(done, as_json, resumed=True)
        return
    moments = {}
    for flag, value in (("before", before), ("since", since)):
        if value:
            try:
                moments[flag] = parse_when(value)
            except WhenError as exc:
                usage_error(f"--{flag}: {exc}")
    criteria = Criteria(projects, sessions, moments.get("before"), match, events,
                        since=moments.get("since"))
    if not criteria and in_replaced:
        _forgotten_in_replaced(home, write, as_json)
        return
    if not criteria:
        usage_error("say what to forget: --project, --session, --before, --since, --match or "
                    "--event (see carto forget --help)")
    from carto_core.cli.homeguard import require_home

    require_home()
    from carto_core.cli.project_names import say_unknown_projects

    say_unknown_projects(home, projects, "forget")
    try:
        from carto_core.control.copies import holding

        if write:
            document = engine.forget(home, criteria, _progress(as_json), copies=holding)
            if in_replaced:
                from carto_core.control.copies import forget_in_replaced

                document["replaced_homes"] = forget_in_replaced(home, criteria)
                done = {entry["path"] for entry in document["replaced_homes"]}
                copies = document.get("copies") or {}
                copies["replaced_homes"] = [entry for entry in copies.get("replaced_homes", [])
                                            if entry["path"] not in done]
        else:
            document = engine.plan_document(home, criteria, copies=holding)
    except OSError as exc:
        from carto_core.logio.reader import cannot_read

        unusable = cannot_read(exc)
        fail(f"forget: {unusable}" if unusable
             else f"{exc.filename or home.root}: {exc.strerror or exc}")
    _report(document, as_json, matched=bool(criteria.match))


def _forgotten_in_replaced(home, write: bool, as_json: bool) -> None:
    """`carto forget --in-replaced` with no criteria: what this home forgot since a restore
    kept a home beside it, taken out of that home too (its tombstones say which)."""
    from carto_core.cli.homeguard import require_home
    from carto_core.control.copies import forget_forgotten_in_replaced

    require_home()
    done = forget_forgotten_in_replaced(home, write=write, progress=_progress(as_json))
    if as_json:
        emit_json({"home": str(home.root), "dry_run": not write, "replaced_homes": done})
    elif not done:
        click.echo("no home a restore kept beside this one lacks what it forgot: nothing to forget there")
    for entry in [] if as_json else done:
        what = f"{counted(entry['events'], 'event')} ({counted(entry['rows'], 'row')})"
        if entry.get("finished"):
            earlier = entry["finished"]
            click.echo(f"replaced home {entry['path']}: finished a forget interrupted there "
                       f"({counted(earlier['events'], 'event')})")
        if not entry["events"]:
            click.echo(f"replaced home {entry['path']}: holds none of the events this home forgot "
                       f"since it was kept{'' if write else ' (--write marks it so)'}")
        elif write:
            click.echo(f"replaced home {entry['path']}: forgot {what}; it holds none of the events "
                       "this home forgot now")
        else:
            click.echo(f"replaced home {entry['path']}: {what} this home forgot would be forgotten "
                       "(dry run: nothing written); --write takes them out")
    if done and not as_json:
        # the tombstones name events: a text with no event (a search query) has no tombstone
        click.echo("a search query or hook.log line holding a forgotten text but naming no event "
                   "is found by that text alone: the forget's own criteria with --in-replaced")
    if not done:
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _progress(as_json: bool):
    import sys

    if as_json or not sys.stderr.isatty():
        return None

    def say(phase: str) -> None:
        click.echo(f"forget: {phase} ...", err=True)

    return say


def _report(document: dict, as_json: bool, *, resumed: bool = False, matched: bool = False) -> None:
    # A text only telemetry holds (a search query) is found too: those rows go.
    found = document["events"] or document["rows"] or any(
        n for group in ("telemetry", "state", "checkpoints") for n in (document.get(group) or {}).values()) \
        or any(entry["events"] or entry["rows"] for entry in document.get("replaced_homes") or ())
    if as_json:
        emit_json(document)
    elif not found and not resumed and not document["dry_run"]:
        click.echo("nothing matched: nothing was forgotten")
    else:
        if document.get("resumed"):
            resumed_events = counted(document["resumed"]["events"], "event")
            click.echo(f"finished an interrupted forget first ({resumed_events})")
        logs = document.get("removed") if not document["dry_run"] else document["logs"]
        for label, n in (logs or {}).items():
            if n:
                click.echo(f"{label}: {counted(n, 'row')}")
        for group in ("telemetry", "state", "checkpoints"):
            for name, n in (document.get(group) or {}).items():
                if n:
                    click.echo(state_line(group, name, n))
        derived = document.get("derived") if document["events"] else {}
        for name, value in (derived or {}).items():
            if value and value != {"outcome": "none"}:
                click.echo(derived_line(name, value))
        memory = document.get("memory_files") or {}
        for kind in ("removed", "rewritten"):
            for path in memory.get(kind, []):
                click.echo(f"MEMORY.md section {kind}: {path}")
        team = document.get("team") or {}
        if team.get("outcome") not in (None, "none") and (document["events"] or team["outcome"] != "not sent"):
            click.echo(f"team server: {team_line(team)}")
        if resumed:
            click.echo(f"finished the interrupted forget: {counted(document['events'], 'event')}")
        elif document["dry_run"]:
            tail = "; --write takes it out" if found else ""
            click.echo(f"{counted(document['events'], 'event')}, {counted(document['rows'], 'row')} "
                       "would be forgotten"
                       f" (dry run: nothing written){tail}")
            if document.get("pending"):
                click.echo("an interrupted forget waits: --write or --resume finishes it", err=True)
        else:
            click.echo(f"forgot {counted(document['events'], 'event')} ({counted(document['rows'], 'row')}); "
                       f"{counted(document.get('tombstones', 0), 'new tombstone')}")
            for entry in document.get("replaced_homes") or ():
                click.echo(f"replaced home {entry['path']}: forgot {counted(entry['events'], 'event')} "
                           f"({counted(entry['rows'], 'row')})")
            if matched and found:
                # a search is recorded with its query: checking by search writes the text back
                click.echo("to check it is gone, `carto doctor --secrets` or grep: `carto search` "
                           "for the text would record it again in the search-call log")
        _say_copies(document.get("copies") or {}, document["dry_run"])
    if not found and not resumed:
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _say_copies(copies: dict, dry_run: bool) -> None:
    """The copies carto made of the home that still hold what was forgotten: a forget in the
    home does not reach them, and "forgot N events" must not read as "no copy is left"."""
    homes, backups = copies.get("replaced_homes") or [], copies.get("backups") or []
    if not homes and not backups:
        return
    verb = "would still hold" if dry_run else "still hold"
    click.echo(f"copies carto made of this home {verb} it (a forget here does not reach them):")
    for entry in homes:
        click.echo(f"  replaced home {entry['path']}: {counted(entry['events'], 'event')} "
                   f"({counted(entry['rows'], 'row')})")
    if homes:
        click.echo("    forget there too: the same command with --in-replaced; or delete the "
                   "folder (`rm -r FOLDER`): a restore kept it, carto reads nothing from it")
    for entry in backups:
        held = (f"{counted(entry['rows'], 'row')}" if entry["rows"] is not None
                else "sealed: cannot be read without its key, may hold it")
        click.echo(f"  backup {entry['path']}: {held}")
    if backups:
        click.echo("    a backup cannot be edited (a checksummed archive): delete it (`rm FILE`), "
                   "then `carto backup` takes one without it")


#: What carto keeps beside the logs, as a person names it: (label, what is counted).
STATE = {("telemetry", "served"): ("served log", "row"), ("telemetry", "access"): ("access log", "row"),
         ("telemetry", "search-calls"): ("search-call log", "row"),
         ("state", "served lists"): ("served lists", "list"),
         ("checkpoints", "checkpoints"): ("backfill checkpoints", "stream"),
         ("checkpoints", "live"): ("live transcript states", "file"),
         ("checkpoints", "start-note"): ("start note", "project")}


def state_line(group: str, name: str, n: int) -> str:
    """A count of what carto keeps beside the logs, in words ("served log: 30 rows")."""
    label, unit = STATE.get((group, name), (name, "row"))
    return f"{label}: {counted(n, unit)}"


#: The derived stores, as a person names them, and what a dry run counts in each.
STORES = {"keyword_index": ("keyword index", "document"), "facts": ("facts cache", "event"),
          "vectors": ("vectors", "vector"), "profile": ("profile.md", "")}


def derived_line(name: str, value) -> str:
    """One derived store in words: what a dry run would take out of it ("keyword index: 5
    documents"), or what the forget did ("keyword index: patched, 1,211 documents left")."""
    label, unit = STORES.get(name, (name, ""))
    if value is True:
        return f"{label}: written again from what is left"
    if isinstance(value, int) and unit:
        return f"{label}: {counted(value, unit)}"
    if not isinstance(value, dict):
        return f"{label}: {_short(value)}"
    if "outcome" not in value:  # a dry run's vectors: per model
        if "error" in value:
            return f"{label}: not counted ({value['error']})"
        return f"{label}: " + ", ".join(f"{counted(n, unit)} ({model})" for model, n in value.items())
    outcome = value["outcome"]
    if outcome == "failed":
        return f"{label}: failed ({value.get('error', 'no reason given')})"
    if outcome == "rewritten":
        return f"{label}: written again from what is left"
    parts = [outcome]
    if "documents" in value:
        parts.append(f"{value['documents']:,} document{'s' * (value['documents'] != 1)} left")
    if value.get("removed_generations"):
        parts.append(f"{counted(value['removed_generations'], 'older generation')} removed")
    if "events" in value:
        parts.append(f"{value['events']:,} event{'s' * (value['events'] != 1)} left")
    for model, n in (value.get("deleted") or {}).items():
        parts.append(f"{counted(n, 'vector')} deleted ({model})")
    return f"{label}: " + ", ".join(parts)


def team_line(team: dict) -> str:
    """The team server's part of a forget, in words (`control.forget._team` says it as keys)."""
    outcome = team["outcome"]
    if outcome == "not sent":
        return f"left as it is ({team['why']})"
    if outcome == "would forget":
        names = ", ".join(team["projects"])
        return f"your rows of {names} would be removed, and {names} no longer allowed from this home"
    if outcome == "forgotten":
        line = f"{counted(team['removed'], 'row')} removed"
        if team.get("disallowed"):
            line += f", {counted(team['disallowed'], 'project')} no longer allowed from this home"
        return line
    if outcome == "failed":
        fix = f": run `{team['fix']}` when it answers" if team.get("fix") else ""
        return f"not reached ({team['error']}); this home's forget stands{fix}"
    return _short(team)


def _short(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_short(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "-"
    return str(value)
