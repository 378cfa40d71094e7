"""`carto repair`: the group of repairs, and what its commands share (flags, output, exits).

Every repair is dry by default (it reads and counts), `--write` applies it through the safe
rewrite path, `--json` prints one counts document. Subcommands load on demand from
`REPAIR_COMMANDS` (one module each under cli/); the repairs themselves live in
`carto_core.repair`.
"""

from __future__ import annotations

import click

from carto_core.plugin.resolve import resolve
from carto_core.util.output import emit_json, fail, json_option
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted

#: subcommand -> "module:attribute".
REPAIR_COMMANDS: dict[str, str] = {
    "torn-rows": "carto_core.cli.repair_torn_rows:torn_rows",
    "orphan-sessions": "carto_core.cli.repair_orphan_sessions:orphan_sessions",
    "transcript-paths": "carto_core.cli.repair_transcript_paths:transcript_paths",
    "redact": "carto_core.cli.repair_redact:redact",
    "intents": "carto_core.cli.repair_intents:intents",
    "spill": "carto_core.cli.repair_spill:spill",
    "permissions": "carto_core.cli.repair_permissions:permissions",
    "writers": "carto_core.cli.repair_writers:writers",
}


class RepairGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(REPAIR_COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands and name in REPAIR_COMMANDS:
            self.add_command(resolve(REPAIR_COMMANDS[name]), name)
        return self.commands.get(name)


@click.group(cls=RepairGroup, epilog="""\b
Examples:
  carto repair torn-rows                 what is torn, and what could be restored
  carto repair torn-rows --write --json  restore it; print the counts document
  carto repair orphan-sessions --write   give sessionless rows their one matching session
  carto repair permissions --write       make the home private (folders 0700, files 0600)
\b
Exit codes: 0 found something (and fixed it with --write), 3 nothing to repair,
1 the home could not be read or written, 2 bad flags.""")
def repair() -> None:
    """Repair a home's logs: torn rows, sessionless rows, stale transcript paths, credentials,
    rows a full home refused (the spill file), files other users can read, rows a derived
    writer failed to write.

    Every repair is a dry run unless --write: it reads the logs and says what it found and
    what --write would change. With --write the logs are rewritten through carto's crash-safe
    rewrite path: rows hooks append meanwhile are kept, and a repair killed half way is
    finished or rolled back by the next carto command that touches the log."""


write_option = click.option(
    "--write", is_flag=True,
    help="Apply the repair (default: a dry run that only counts what it would change).")


dry_run_option = click.option(
    "--dry-run", "dry_run", is_flag=True,
    help="Only count (the default, said aloud; not with --write).")


def repair_options(command):
    """`--write`, `--dry-run` and `--json`, the flags every repair takes (as `carto forget`)."""
    import functools

    @functools.wraps(command)
    def checked(*args, dry_run: bool = False, **kwargs):
        if dry_run and kwargs.get("write"):
            from carto_core.util.output import usage_error

            usage_error("--write and --dry-run disagree: give one")
        return command(*args, **kwargs)

    return write_option(dry_run_option(json_option(checked)))


#: What a repair finds, one of it (`finish` says "1 torn row found").
ONE = {"torn rows": "torn row", "orphan rows": "orphan row", "unclassified prompts": "unclassified prompt",
       "files and folders others can read": "file or folder others can read",
       "credentials": "credential", "spilled rows": "spilled row", "failed writes": "failed write",
       "stale transcript paths": "stale transcript path"}


def finish(document: dict, as_json: bool, *, found_key: str, what: str) -> None:
    """Print the document (or its text form) and exit: 3 when nothing was found."""
    if as_json:
        emit_json(document)
    else:
        found, fixed, would = document.get(found_key, 0), document["fixed"], document["would_fix"]
        noun = ONE.get(what, what) if found == 1 else what
        # NUL runs a crash left are removed too, but they are not what the repair counts
        nul = document.get("nul_runs", 0)
        runs = f"; {counted(nul, 'run')} of NUL bytes {'would be ' if document['dry_run'] else ''}removed" \
            if nul else ""
        for label, counts in document["logs"].items():
            parts = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
            if parts:
                click.echo(f"{label}: {parts}")
        if document["dry_run"]:
            would -= nul
            tail = f"; --write would fix {would}" if would else "; nothing --write could fix" if not nul else ""
            click.echo(f"{found} {noun} found{tail}{runs} (dry run: nothing written)")
        else:
            click.echo(f"{found} {noun} found, {fixed - nul} fixed{runs}")
        for note in document.pop("notes", ()):
            click.echo(note)
        for example in document.get("examples", [])[:5]:
            click.echo("  " + " ".join(f"{k}={v}" for k, v in example.items()), err=True)
    found_any = document.get(found_key, 0) or document["fixed"] or document["would_fix"]
    raise SystemExit(int(ExitCode.OK if found_any else ExitCode.NOT_FOUND))


def repair_home():
    """The current home; exit 3 with one line when it does not exist (nothing to repair)."""
    from carto_core.model.config import load_config

    home = load_config().home
    if not home.root.is_dir():
        fail(f"home {home.root} does not exist (nothing to repair)", ExitCode.NOT_FOUND)
    return home


def run(repair_object, *, write: bool, as_json: bool, what: str) -> None:
    """Run one repair on the current home and finish; a home that cannot be read or written is
    one line and exit 1 (the fault layer names the problem)."""
    from carto_core.repair import run_repair

    home = repair_home()
    document = run_repair(repair_object, home, write=write)
    finish(document, as_json, found_key=repair_object.found_key, what=what)
