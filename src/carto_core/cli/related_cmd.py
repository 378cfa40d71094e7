"""`carto related TERM|FILE|SESSION`: the terms and sessions that occur with it, idf-weighted
(`carto_core.search.related`, which the explorer's `/api/terms/co` shares)."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.terminal import counted


def _kind(home, query: str, forced: str | None) -> tuple[str, str]:
    """(kind, query) where `query` is a full session id for a session."""
    from carto_core.lenses.sessions import AmbiguousSession, SessionNotFound, resolve_session, session_in_query
    from carto_core.search.related import query_kind

    try:
        if forced == "session":
            return "session", resolve_session(home, query)
        if forced is None:
            found = session_in_query(home, query)
            if found:
                return "session", found
    except AmbiguousSession as exc:
        usage_error(f"{len(exc.candidates)} sessions start with {query!r}: give more of the id")
    except SessionNotFound:
        fail(f"no session id starts with {query!r}", ExitCode.NOT_FOUND)
    return forced or query_kind(query), query


@click.command(epilog="""\b
Examples:
  carto related rounding                  terms and sessions that occur with a word
  carto related src/cart.py               ... with a file (its name's words, rows naming it)
  carto related 5a1e0000                  ... with a session: its characteristic terms, the
                                          sessions that share them
  carto related decimal --json | jq '.sessions[].session_id'

What it is: a session id, or a unique prefix of one that looks like one (6+ hex digits), else
a path (a slash, an existing file, a name with an extension), else a term; --term/--file/
--session decide. Scores are idf-weighted: a term often beside the query and rare elsewhere, a session
that holds the query often, of a rare word, come first (docs/lenses.md#related).
Exit codes: 0 found, 2 bad input or an ambiguous session prefix, 3 nothing occurs with it.""", cls=JsonErrorCommand)
@click.argument("query")
@click.option("--term", "kind", flag_value="term", help="QUERY is a word.")
@click.option("--file", "kind", flag_value="file", help="QUERY is a file path.")
@click.option("--session", "kind", flag_value="session", help="QUERY is a session id or prefix.")
@click.option("--limit", "-n", default=15, show_default=True, type=click.IntRange(1, 200), help="Terms and sessions to show.")
@json_option
def related(query, kind, limit, as_json) -> None:
    """Terms and sessions that co-occur with a term, a file or a session."""
    from carto_core.logio.home import current_home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.related import RelatedError, related as find

    home = current_home()
    kind, query = _kind(home, query.strip(), kind)
    engine = SearchEngine(home)
    try:
        document = find(engine, query, kind=kind, limit=limit)
    except RelatedError as exc:
        usage_error(str(exc))
    if as_json:
        emit_json(document)
    else:
        what = {"session": "session", "file": "file", "term": "term"}[kind]
        terms = f" (index terms: {', '.join(document['terms'])})" if document.get("terms") else ""
        click.echo(f"related to {what} {query}{terms}: {counted(document['documents'], 'document')} "
                   f"of {document['documents_total']}")
        if document["co_terms"]:
            click.echo("terms")
            # a session's terms are counted where said (a row may say "cart" three times), a
            # term's or a file's by the documents beside it: each line names what it counts
            for entry in document["co_terms"]:
                n = entry["together"]
                said = (f"said {n:>3} time{'' if n == 1 else 's'}" if kind == "session"
                        else f"in {n:>3} of these")
                click.echo(f"  {entry['score']:>9.2f}  {entry['word']:24} {said} · {counted(entry['df'], 'document')} in all")
        if document["sessions"]:
            click.echo("sessions")
            for entry in document["sessions"]:
                held = counted(entry["documents"], "document")
                if "shared_terms" in entry:  # a session's related sessions: what they share
                    held = f"{counted(entry['shared_terms'], 'shared term')}, {held}"
                click.echo(f"  {entry['score']:>9.2f}  {entry['session_id'][:8]}  {entry['project'] or '-':18} "
                           f"{held:>15}  last {entry['last'] or '?'}")
    if not document["co_terms"] and not document["sessions"]:
        if not as_json:
            click.echo("nothing occurs with it", err=True)
        raise SystemExit(int(ExitCode.NOT_FOUND))
