"""`carto repair permissions`: make an existing home private (folders 0700, files 0600)."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import finish, repair_home, repair_options
from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand


@click.command("permissions", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair permissions                  what others can read (dry run)
  carto repair permissions --write          make the home private
  carto repair permissions --write --json   the counts document
\b
Exit codes: 0 found something (and tightened it with --write), 3 the home is private
already, 1 an entry could not be changed (another user's file: chown it first).""")
@repair_options
def permissions(write: bool, as_json: bool) -> None:
    """Take away what the group and other users may do in the home.

    carto creates the home 0700, its folders 0700 and its files 0600 whatever the umask; a home
    made by an older carto, by hand or by a copy keeps the modes it was given (under the usual
    umask 022, every log 0644: any local user reads every prompt and turn). This lists every
    file and folder of the home (the home included) that grants the group or others anything,
    and with --write removes those bits (0644 -> 0600, 0755 -> 0700, owner bits kept).
    Symlinks are neither followed nor changed. `carto doctor` reports the same list."""
    from carto_core.repair import permissions as perms

    home = repair_home()
    entries = perms.scan(home.root)
    fixed, failed = perms.tighten(home.root, entries) if write and entries else (0, [])
    counts = perms.summary(entries)
    document = {"repair": "permissions", "home": str(home.root), "dry_run": not write,
                "open": counts["open"], "fixed": fixed,
                "would_fix": 0 if write else counts["open"], "failed": failed,
                "logs": {f"{kind}s": {"readable by others": n} for kind, n in sorted(counts["kinds"].items())},
                "examples": [{"path": e["path"], "mode": e["mode"], "to": e["private"]}
                             for e in counts["examples"]]}
    if failed:
        for line in failed[:20]:
            click.echo(f"carto: could not tighten {line}", err=True)
        if as_json:
            from carto_core.util.output import emit_json

            emit_json(document)
        raise SystemExit(int(ExitCode.ERROR))
    finish(document, as_json, found_key="open", what="files and folders others can read")
