"""`carto repair redact`: replace the credentials already stored in a home."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import finish, repair_home, repair_options
from carto_core.util.output import JsonErrorCommand


@click.command("redact", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair redact                   count, per log and kind; change nothing
  carto repair redact --write           redact; patch the index, facts and vectors built from it
  carto repair redact --json            {"secrets": 3, "rows": 2, "fixed": 0, "would_fix": 2, ...}
  carto doctor --secrets                the same scan, as a health check""")
@repair_options
def redact(write: bool, as_json: bool) -> None:
    """Replace credentials stored anywhere under the home by [REDACTED:<kind>].

    Rows written before carto redacted them (upstream's logs, an older carto that knew fewer
    shapes) still hold keys and passwords. This runs every file under the home, .carto/
    included, through the redactor: every row of the logs, every line of .carto/hook.log and
    the other state logs, the live state and checkpoints (JSON), any other JSONL or text
    file; a dry run counts what it would replace, per file and kind, and names the cache files
    holding a piece of a credential. --write patches what changed (logs and JSONL through the
    crash-safe rewrite path, so rows hooks append meanwhile are kept; JSON and text files
    replaced whole, their mode kept) and patches the derived stores: the keyword index and the
    facts columns follow the redacted rows, the vectors of the rows that changed are deleted
    (the next keep-up embeds them again), the profile is written again; search keeps every
    ladder meanwhile. A cache file that still holds a piece (an LSA vocabulary) is removed.
    Binary files (locks, sockets, keys) are left alone. No credential is ever printed."""
    from carto_core.repair.redact import redact_home

    home = repair_home()
    document = redact_home(home, write=write)
    if not as_json:
        caches = document["caches"]
        for name in caches["holding"]:
            click.echo(f"cache holding a credential: {name}")
        for name, outcome in (caches.get("patched") or {}).items():
            if outcome.get("outcome") not in (None, "none"):
                click.echo(f"patched {name}: {outcome['outcome']}")
        for name in caches["removed"]:
            click.echo(f"removed cache file still holding a piece (rebuilds on next use): {name}")
    finish(document, as_json, found_key="secrets", what="credentials")
