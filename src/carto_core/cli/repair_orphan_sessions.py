"""`carto repair orphan-sessions`: give rows logged without a session their one matching session."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import repair_options, run
from carto_core.util.output import JsonErrorCommand


@click.command("orphan-sessions", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair orphan-sessions                 what would be matched, and how
  carto repair orphan-sessions --window 5 --write
  carto repair orphan-sessions --json          {"orphans": 4, "matched_transcript": 1, ...}""")
@click.option("--window", "window_minutes", type=click.FloatRange(min=0), default=10, show_default=True,
              metavar="MINUTES", help="How close to one of a session's events a row must be.")
@repair_options
def orphan_sessions(window_minutes: float, write: bool, as_json: bool) -> None:
    """Give rows logged without a session the one session that strictly matches them.

    A row whose session is absent, "" or "unknown" (a hook payload without its id, an old
    upstream row) is matched, first, by its transcript (the path one session recorded, or a
    file name ending in a known session id), else by project and time: the sessions with an
    event in the same project (and provider) within --window minutes. Exactly one candidate is
    taken; two or more are ambiguous and refused, none is unmatched: neither changes a row.
    Commits backfilled from git have no session by design and are left alone, as are decision
    changes a person typed at a terminal (`carto decision` outside an agent: provider unknown;
    the MCP decide tool's are an agent's)."""
    from carto_core.repair.orphans import OrphanSessions

    run(OrphanSessions(window_minutes), write=write, as_json=as_json, what="orphan rows")
