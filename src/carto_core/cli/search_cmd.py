"""`carto search`: ranked recall over the home's logs (the agents' main tool).

The ranking itself lives in `carto_core.search` (`run_search`); this module parses flags, prints,
and passes the caller's `Telemetry` (served-log, access ledger, search-calls, the delta-serving
list, knowledge gaps: `carto_core.search.telemetry`, shared with the MCP search tool).
"""

from __future__ import annotations

import re
import sys

import click

from carto_core.cli import RegistryNamesOption
from carto_core.cli.search_text import FORMATS
from carto_core.cli.tag_filter import TAG_HELP, tagged_sessions
from carto_core.model.config import DEFAULTS
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error, when_value
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted
from carto_core.search.api import PURPOSES

_CALL_OK = re.compile(r"^[A-Za-z0-9_.:-]+$")
#: An event id, or a turn's tool call (`turn-...-1#12`, as the lenses cite it).
_ID_OK = re.compile(r"^[A-Za-z0-9_.:-]+(?:#\d+)?$")


def _ids(value: str, flag: str) -> list[str]:
    ids = [part.strip() for part in value.split(",") if part.strip()]
    bad = [i for i in ids if not _ID_OK.match(i)]
    if not ids or bad:
        usage_error(f"{flag} takes comma-separated event ids of [A-Za-z0-9_.:-] (a turn's tool "
                    f"call: ID#N); got {value!r}")
    return ids


@click.command("search", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto search "discount codes cart"
  carto search deploy staging               # words unquoted are one query too
  carto search "terraform state lock" --since 30d --project infra
  carto search "rounding" --ranker bm25 --decay exp --json
  carto search "deploy*"                    # every word starting with deploy
  carto search "сервер" --analyzer unicode  # another analyzer (rebuilds the index)
  carto search --project webshop           # orient: wrapups, open threads, commits, files
  carto search --get evt-1a2b3c4d5e6f       # full record
  carto search --touch evt-1a2b3c4d5e6f     # this result helped (boosts it later)
  carto search --thread evt-1a2b3c4d5e6f    # the work arc around an event
  carto search "checkout" --intent bug-fixes  # only prompts that asked for a fix
  carto search "rounding" --team            # the team's memory too (docs/team.md)
  carto search "rounding" --format oneline | fzf   # a line per result

Exit codes: 0 results, 3 nothing found (no candidate above the relevance floor, or an
empty home), 2 bad input. --json's "floor" says why. CARTO_SEARCH_FLOOR=0 shows every
candidate; with minilm, CARTO_MINILM_CUT_WORDS=2 (or unaligned) makes the floor stricter
for words the home never saw (docs/semantic.md).""")
@click.argument("words", nargs=-1, metavar="[QUERY]...")
@click.option("--project", "-p", metavar="NAME", help="Scope to a project or family (substring, case-insensitive; `a|b` for several). Alone: orient on the project.")
@click.option("--since", metavar="WHEN", help="Only events at or after WHEN (today, yesterday, 3d, 2w, last week, 2026-01-31, ...).")
@click.option("--before", metavar="WHEN", help="Only events at or before WHEN.")
@click.option("--limit", "-n", type=int, default=15, show_default=True, help="How many results to show.")
@click.option("--ranker", "rankers", multiple=True, metavar="NAME", cls=RegistryNamesOption, registry="rankers", help="Ladder ranker to fuse, repeatable: {names} (default from config: bm25).")
@click.option("--decay", metavar="NAME", cls=RegistryNamesOption, registry="decay_policies", help=f"Decay policy: {{names}} (default {DEFAULTS['search.decay']}, or the config's [search] decay).")
@click.option("--fusion", metavar="NAME", cls=RegistryNamesOption, registry="fusions", help=f"Fusion method: {{names}} (default {DEFAULTS['search.fusion']}, or the config's [search] fusion).")
@click.option("--analyzer", metavar="NAME", cls=RegistryNamesOption, registry="analyzers", help="Analyzer of the keyword index: {names} (default from config; another one than the index's rebuilds it).")
@click.option("--semantic/--no-semantic", default=None, help="Force the semantic ladder on (report why it is unavailable) or leave it out.")
@click.option("--all", "show_all", is_flag=True, help="No delta serving: show results this session was already served.")
@click.option("--no-collapse", "no_collapse", is_flag=True, help="Show every copy of a repeated text (by default copies are folded into the best-ranked one: its `duplicates`).")
@click.option("--reset-served", is_flag=True, help="Forget what this session was served, then search (if a query is given).")
@click.option("--get", "get_ids", metavar="IDS", help="Print the full records of these event ids (comma-separated).")
@click.option("--touch", "touch_ids", metavar="IDS", help="Record that these results were used (reuse boost).")
@click.option("--thread", "thread_id", metavar="ID", help="Show the work arc of an event (parent_event_id chain).")
@click.option("--purpose", type=click.Choice(PURPOSES), default=None, help="Why this search runs (telemetry; default manual, or CARTO_PURPOSE).")
@click.option("--call-id", metavar="ID", help="Name this call in telemetry (carry it to --get/--touch).")
@click.option("--intent", metavar="KEY", help="Only prompts and turns whose prompt has this intent, in every ladder (keyword and semantic): feature-design, implementation, bug-fixes, git-commands, deploy-release, run-build-app, code-review-qa, planning-strategy, research, documentation, testing-verification, refactor-cleanup, content-creation, data-analysis, feedback-context, plan-approvals, other.")
@click.option("--tag", "tags", multiple=True, metavar="KIND:VALUE", help=TAG_HELP)
@click.option("--team", "team", is_flag=True, help="Also search the team server (carto team init): its keyword and vector ladders, fused with this home's results; each result names its machine and author. Unreachable: this home's results and a line saying so.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default=None,
              help="text (default): a block per result for a person; oneline: a line per result "
                   "(id, age, project, snippet) for grep and fzf; json: the same as --json.")
@click.option("--facets", "show_facets", is_flag=True, help="Also print the facets of the results found, the first 500 of them (projects, types, sources, months, days) above the results.")
@json_option
def search(words, project, since, before, limit, rankers, decay, fusion, analyzer, semantic,
           show_all, no_collapse, reset_served, get_ids, touch_ids, thread_id, purpose, call_id, intent, tags, team,
           output_format, show_facets, as_json):
    """Ranked recall: find events by keywords, newest work first unless you look something up.

    Ladders (BM25 per log, the semantic ladder when installed and indexed) are fused with RRF,
    weighted by salience, trimmed at 10 % of the top score and then decayed by age (the default,
    gated-prior: a query whose terms all occur in a few events is a lookup and skips decay, the
    newest match of a vague query comes first, and otherwise an old memory keeps at least 4/5
    of its score, 4/7 when the query asks for the latest state, all of it for a question that
    does not; a query naming a month of a year, "in November 2025", lifts what was said in
    that month and the next x2). Within one agent session, results already shown are hidden (delta serving);
    --all shows them.

    On a terminal each result is a block: its id in full (for --get, --thread, --touch), its
    age, project and kind, and a snippet with the query's words highlighted. Colour only on a
    terminal and never with NO_COLOR set; a pipe gets plain text.
    """
    import os

    from carto_core.logio.home import current_home
    from carto_core.model.session import current_session_id, detect_provider

    # `carto search deploy staging` (an agent's shell call without quotes) asks what the
    # quoted form asks; click refused the second word as an extra argument
    query = " ".join(words)

    if output_format == "json":
        as_json = True
    elif output_format and as_json:
        usage_error(f"--json and --format {output_format} disagree: give one")
    home = current_home()
    if not home.root.is_dir():
        _config_first()
        fail(f"the home {home.root} does not exist: nothing recorded there yet (or it moved: set "
             "CARTO_HOME); record with `carto install` (live hooks) or backfill with `carto ingest`",
             ExitCode.NOT_FOUND)
    session_id = current_session_id()
    provider = detect_provider()
    purpose = purpose or os.environ.get("CARTO_PURPOSE") or os.environ.get("CARTOGRAPHER_PURPOSE") or "manual"
    if purpose not in PURPOSES:
        usage_error(f"purpose {purpose!r} unknown; accepted: {', '.join(PURPOSES)}")
    if call_id is not None and not _CALL_OK.match(call_id):
        usage_error("--call-id takes [A-Za-z0-9_.:-] characters")
    if limit is not None and limit < 1:
        usage_error("--limit must be a whole number of at least 1")
    if intent is not None:
        from carto_core.intents import KEY_SET, unknown_key_message

        if intent not in KEY_SET:
            usage_error(unknown_key_message(intent))
    from carto_core.logio.homefaults import probe_writable
    from carto_core.search.telemetry import Telemetry

    # A home that cannot be written still answers, from the logs: no index cache, no telemetry.
    read_only = probe_writable(home.root)
    if read_only and (reset_served or touch_ids):
        fail(f"the home {home.root} is {read_only}: --reset-served and --touch record telemetry "
             "there and cannot run")
    if read_only:
        _say_read_only(home, read_only)
    telemetry = None if read_only else Telemetry(home, session_id, provider, purpose)
    if call_id and telemetry is not None:
        telemetry.call_id, telemetry.call_id_given = call_id, True

    if reset_served:
        from carto_core.search.telemetry import reset_served as reset

        removed = reset(home, session_id) if session_id else False
        note = ("(served list reset for this session)" if removed else
                f"(nothing to reset: session {session_id} was served nothing yet)" if session_id else
                "(nothing to reset: no session id, and delta serving hides only within an agent's "
                "session; CARTO_SESSION_ID names one)")
        if not (query or get_ids or touch_ids or thread_id or project):
            if as_json:
                emit_json({"reset_served": removed, "session_id": session_id or None})
            else:
                click.echo(note)
            return
        click.echo(note, err=True)
    if touch_ids:
        ids = _ids(touch_ids, "--touch")
        known, unknown = _known_ids(home, ids, session_id)
        count = telemetry.record_access(known, "result_used")
        if as_json:
            emit_json({"touched": known, "recorded": count, "unknown": unknown})
        else:
            for event_id in unknown:
                click.echo(f"(no event {event_id} in {home.root}: no reuse is kept for it; "
                           "paste an id a search showed)", err=True)
            if known:
                click.echo(f"(recorded {counted(count, 'reuse access', 'reuse accesses')})")
        if not known:
            raise SystemExit(int(ExitCode.NOT_FOUND))
        return
    if get_ids:
        return _get(home, _ids(get_ids, "--get"), telemetry, as_json, read_only)
    if thread_id:
        return _thread(home, _ids(thread_id, "--thread")[0], as_json)

    since_dt, before_dt = when_value(since, "--since"), when_value(before, "--before")
    if since_dt and before_dt and since_dt > before_dt:  # no row could fall inside it
        usage_error(f"--since {since} is after --before {before} ({since_dt:%Y-%m-%d %H:%M} > "
                    f"{before_dt:%Y-%m-%d %H:%M} UTC): the window holds no time; swap them?")
    if not query.strip():
        if project:
            from carto_core.cli.search_orient import orient_cmd

            return orient_cmd(home, project, since_dt, before_dt, limit, as_json, read_only)
        usage_error("give a QUERY, or --project NAME to orient on a project, or one of "
                    "--get/--touch/--thread IDS (see carto search --help)")

    from carto_core.search import SearchError, SearchRequest, run_search
    from carto_core.search.api import QUERY_MAX_CHARS
    from carto_core.search.engine import SearchEngine
    from carto_core.serve.warm_client import engine_for

    request = SearchRequest(
        query=query, project=project, since=since_dt, before=before_dt, limit=limit,
        rankers=list(rankers) or None, fusion=fusion, decay=decay, semantic=semantic,
        session_id=session_id, all=show_all, collapse=not no_collapse, intent=intent,
        sessions=tagged_sessions(home, list(tags)) if tags else None)
    try:
        try:
            # The warm server's engine when this runs inside `carto serve` (warm.py).
            engine = engine_for(home, analyzer, not read_only)
            result = run_search(request, engine=engine, telemetry=telemetry)
        except OSError as exc:
            from carto_core.logio.homefaults import FULL, NOT_PERMITTED, READ_ONLY, why

            if read_only or exc.errno not in READ_ONLY | NOT_PERMITTED | FULL:
                raise
            # The probe passed but a write failed (a disk that filled up meanwhile): again,
            # writing nothing.
            read_only = why(exc)
            _say_read_only(home, read_only)
            engine = SearchEngine(home, analyzer=analyzer, persist=False)
            result = run_search(request, engine=engine, telemetry=None)
    except SearchError as exc:
        from carto_core.search import EmptyHomeError

        if not (team and isinstance(exc, EmptyHomeError)):
            fail(str(exc) + _settings_behind(exc), exc.code)
        # Nothing recorded here yet: the team's memory still answers.
        from carto_core.team.lenses import empty_result

        result = empty_result(request, str(exc))
    except Exception as exc:  # project registry, config errors: name them
        from carto_core.model.config import ConfigError
        from carto_core.model.project import RegistryError

        if isinstance(exc, ConfigError):  # the setup is broken, as `carto config` says (1)
            fail(str(exc))
        if isinstance(exc, RegistryError):
            usage_error(str(exc))
        raise
    from carto_core.cli.search_text import say_skipped

    say_skipped(home, result.skipped_files)
    if result.query_cut is not None:
        print(f"carto: the query is {result.query_cut:,} characters: searched its first "
              f"{len(result.query):,} (a search reads at most {QUERY_MAX_CHARS:,})", file=sys.stderr)
    if as_json and not result.results and result.unknown_entities:  # recorded by the telemetry
        print(f"(recorded knowledge gap: {', '.join(result.unknown_entities)})", file=sys.stderr)
    if team:
        return _team(home, request, result, as_json, project, read_only, output_format, show_facets)
    if as_json:
        document = result.to_dict()
        if read_only:
            document["read_only_home"] = _read_only_note(home, read_only)
        emit_json(document)
    else:
        scope_lines = []
        if project and not result.results:
            from carto_core.cli.search_orient import no_project_line

            scope_lines.append(no_project_line(engine, project))
        if tags and not result.results and not request.sessions:
            scope_lines.append(f"No session holds every tag given ({', '.join(tags)}): "
                               "`carto sessions --json` lists each session's tags.")
        _print_text(home, result, project, output_format, show_facets,
                    scope_lines=[line for line in scope_lines if line])
    if not result.results:
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _config_first() -> None:
    """Exit 1 naming the config file when it cannot be read (as every command does): the
    home it would name is then not the one looked for (`current_home` passes over a broken
    file), so saying that home does not exist would point the wrong way."""
    from carto_core.model.config import ConfigError, load_config

    try:
        load_config()
    except ConfigError as exc:
        fail(str(exc))


def _team(home, request, result, as_json, project, read_only, output_format, show_facets) -> None:
    """`--team`: this home's results fused with the team server's (carto_core.team.lenses)."""
    from carto_core.team.lenses import search_with_team, team_line

    document, hits = search_with_team(home, request, result)
    if as_json:
        if read_only:
            document["read_only_home"] = _read_only_note(home, read_only)
        emit_json(document)
    else:
        result.results = [hit for hit, _, _ in hits]
        _print_text(home, result, project, output_format, show_facets,
                    who={hit.event_id: (machine, author) for hit, machine, author in hits},
                    team=team_line(document["team"]))
    if not document["results"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _settings_behind(exc) -> str:
    """For a search refused over a name: where the refused settings come from (a config file
    or a CARTO_* variable the person may not have in mind), since no flag of theirs named it."""
    if exc.code != ExitCode.USAGE:
        return ""
    from carto_core.cli.config_cmd import setting_problems
    from carto_core.model.config import load_config

    try:
        cfg = load_config()
    except Exception:  # noqa: BLE001 - the search's own message stands alone then
        return ""
    said = str(exc)

    def named(value) -> bool:
        # a refused name is quoted in the message; a rankers string was read letter by letter
        names = value if isinstance(value, list) else [value, str(value)[:1]]
        return any(f"'{name}'" in said for name in names)

    behind = [p for p in setting_problems(cfg) if named(p["value"])]
    return "".join(f" ({p['key']} = {p['value']!r} comes from "
                   f"{cfg.path if p['origin'] == 'config file' else p['origin']}; "
                   "`carto config` shows every setting)" for p in behind)


def _known_ids(home, ids: list[str], session_id: str | None) -> tuple[list[str], list[str]]:
    """(ids an index or this session's served list knows, the others): a mistyped id must not
    become a reuse record of an event that does not exist."""
    from carto_core.search.engine import SearchEngine
    from carto_core.search.fetch import fetch_records
    from carto_core.search.telemetry import read_served

    document = fetch_records(SearchEngine(home), ids)
    # a reuse record names the event whole: a prefix --get would resolve is not enough here
    missing = document["missing"] + list(document.get("resolved", ()))
    if missing and session_id:
        served = set(read_served(home, session_id))
        missing = [i for i in missing if i not in served]
    return [i for i in ids if i not in missing], missing


def _read_only_note(home, why: str) -> dict:
    return {"home": str(home.root), "why": why,
            "skipped": ["keyword index cache (built in memory for this call)", "telemetry"]}


def _say_read_only(home, why: str) -> None:
    print(f"carto: the home {home.root} is {why}: answering from the logs without writing the "
          "index cache or telemetry (slower; delta serving and reuse records are off)",
          file=sys.stderr)


# --------------------------------------------------------------------------- text output


def _print_text(home, result, project, output_format=None, show_facets=False,
                who: dict | None = None, team: str | None = None,
                scope_lines: list[str] | None = None) -> None:
    """`who`: event id -> (machine, author) of a --team search; `team`: its one line."""
    from carto_core.cli.search_text import notes, render_oneline, render_text
    from carto_core.util.terminal import Style, use_colour, width

    style, columns = Style(use_colour()), width()
    session = _session_named(home, result)
    if output_format == "oneline":
        text = render_oneline(result, style=style, width=columns)
        if text:
            click.echo(text, color=style.colour)
        for line in notes(result, session, scope_lines):  # stdout stays one line a result
            click.echo(line, err=True)
        return
    click.echo(render_text(result, project=project, style=style, width=columns,
                           show_facets=show_facets, who=who, team=team, session=session,
                           scope_lines=scope_lines),
               color=style.colour)


def _session_named(home, result) -> str | None:
    """The query, when a page it left empty is one word naming a session of the home (an id
    copied from `carto standup`): search reads rows' words, never their session ids."""
    if result.results:
        return None
    from carto_core.lenses.sessions import AmbiguousSession, session_in_query

    query = str(result.query).strip()
    if len(query.split()) != 1:
        return None  # no session id holds a space: the logs need not be read for one
    try:
        return query if session_in_query(home, query) else None
    except AmbiguousSession:  # several sessions start so: `carto session` lists them
        return query


# --------------------------------------------------------------------------- --get / --thread


def _get(home, ids, telemetry, as_json, read_only=None) -> None:
    from carto_core.cli.search_text import say_skipped
    from carto_core.search.engine import SearchEngine
    from carto_core.search.fetch import fetch_records

    engine = SearchEngine(home, persist=not read_only)
    document = fetch_records(engine, ids, telemetry)
    found, missing = document["found"], document["missing"]
    resolved, ambiguous = document.get("resolved", {}), document.get("ambiguous", [])
    forgotten = _forgotten_ids(home, missing)
    skipped = engine.skipped_files()
    say_skipped(home, skipped)
    if as_json:
        answer = {**document, "forgotten": forgotten}
        if read_only:
            answer["read_only_home"] = _read_only_note(home, read_only)
        if skipped:
            answer["skipped_files"] = skipped
        emit_json(answer)
    else:
        import json

        for asked in ids:
            event_id = resolved.get(asked, asked)
            click.echo(f"=== {event_id} ===")
            if event_id in found:
                click.echo(json.dumps(found[event_id], indent=2, ensure_ascii=False))
            elif asked in ambiguous:
                click.echo(f"(more than one event id starts with {asked}: give more of it)")
            elif event_id in forgotten:
                click.echo(f"(no event with that id in {home.root}: `carto forget` took it out)")
            else:
                click.echo(f"(no event with that id in {home.root}/*.jsonl - it may have aged "
                           "out, live only in a vector index as a transcript turn, or not exist)")
        click.echo(f"({len(found)} fetched, {len(missing)} missing)")
    if ambiguous:
        # as `carto session`, digest session and wrapup --session answer a prefix several ids
        # share: the ids, and exit 2 (asked too little), not 3 (nothing there)
        from carto_core.search.fetch import LISTED

        for prefix in ambiguous:
            listed = document["candidates"][prefix]
            count = f"more than {LISTED}" if len(listed) > LISTED else str(len(listed))
            click.echo(f"carto: {count} event ids start with {prefix!r}; give more of the id:", err=True)
            for candidate in listed[:LISTED]:
                click.echo(f"  {candidate}", err=True)
        raise SystemExit(int(ExitCode.USAGE))
    if not found:
        raise SystemExit(int(ExitCode.NOT_FOUND))


def _no_thread(home, event_id: str) -> str:
    """Why an id has no work arc: a row of another log (a transcript turn a search showed, whose
    id the page says pastes into --thread) is said as such, with what shows it instead."""
    from carto_core.search.engine import SearchEngine
    from carto_core.search.fetch import fetch_records

    row = fetch_records(SearchEngine(home), [event_id])["found"].get(event_id)
    if row is None:
        return f"(no event {event_id} in the changelog)"
    kind = "transcript turn" if event_id.startswith("turn-") else f"{row.get('type') or 'log'} row"
    session = row.get("session_id") or row.get("session")
    where = f", `carto session {session}` its session" if session else ""
    return (f"({event_id} is a {kind}, not a changelog event: a work arc follows changelog "
            f"events' parent_event_id; `carto search --get {event_id}` shows the "
            f"{'turn' if kind == 'transcript turn' else 'row'}{where})")


def _forgotten_ids(home, ids: list[str]) -> list[str]:
    """Of `ids`, the ones `carto forget` took out (the home's tombstones): a person asking for
    one learns why it is gone, not that it may never have existed."""
    from carto_core.logio.tombstone import is_buried

    return [i for i, buried in zip(ids, is_buried(home, ids)) if buried] if ids else []


def _thread(home, event_id, as_json) -> None:
    from carto_core.cli.search_text import say_skipped
    from carto_core.search.fetch import thread_document

    document = thread_document(home, event_id)
    skipped = document.get("skipped_files", [])
    say_skipped(home, skipped)
    if not document["found"]:
        if as_json:
            emit_json(document)
        else:
            # not "no such event": the changelog that would hold it cannot be read
            click.echo(f"(no work arc for {event_id}: the changelog cannot be read)" if skipped
                       else _no_thread(home, event_id))
        raise SystemExit(int(ExitCode.NOT_FOUND))
    if as_json:
        emit_json(document)
        return
    rows = {row["event_id"]: row for row in document["thread"]}
    arc = list(rows)
    click.echo(f"=== Thread for: {event_id} ===")
    for eid in arc:
        row = rows[eid]
        mark = "★" if eid == event_id else "|"
        click.echo(f"{mark}  [{row.get('timestamp', '?')}] [{row.get('type', '?')}] {eid}")
        click.echo(f"   {str(row.get('summary', ''))[:240]}")
        if row.get("project"):
            click.echo(f"   project: {row['project']}")
        if row.get("parent_event_id"):
            click.echo(f"   parent: {row['parent_event_id']}")
    click.echo(f"(arc length: {counted(len(arc), 'event')})")
