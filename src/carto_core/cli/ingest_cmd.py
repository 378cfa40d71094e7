"""`carto ingest SOURCE`: backfill history from a provider into the home's logs."""

from __future__ import annotations

import click

from carto_core.cli import PluginGroup
from carto_core.util.output import JsonErrorCommand, JsonErrors, emit_json, fail
from carto_core.util.exitcodes import ExitCode


class IngestGroup(JsonErrors, PluginGroup):
    """Subcommands are plugin-provided ingest commands, else a generic one per source."""

    def list_commands(self, ctx):
        from carto_core.plugin.registry import get_registries

        self.load_root_plugins(ctx)
        names = set(self.commands)
        names.update(n for n, cls in get_registries().sources.items() if cls.can_backfill())
        return sorted(names)

    def get_command(self, ctx, name):
        if name not in self.commands:
            self.load_root_plugins(ctx)  # a plugin's own `ingest NAME` wins over the generic one
        if name in self.commands:
            return self.commands[name]
        from carto_core.plugin.registry import get_registries

        sources = get_registries().sources
        if name in sources and sources.get(name).can_backfill():
            command = generic_ingest_command(name, sources.get(name))
            self.add_command(command, name)
            return command
        return None


def run_with_progress(source, home, *, dry_run: bool, as_json: bool, streams=None):
    """Run `run_ingest` with a progress bar on stderr (hidden for --json or a non-terminal)."""
    import sys

    from carto_core.cli.homeguard import refuse_unusable_home

    refuse_unusable_home(f"ingest {source.name}")  # every source's command comes through here

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from carto_core.ingest.runner import run_ingest

    stream_list = list(streams if streams is not None else source.discover())
    show = not as_json and sys.stderr.isatty()
    # A source that can count its units before reading (git: `rev-list --count`) gets a bar
    # of units, moved while a stream's rows are written: one repository of 10,000 commits is
    # one stream, and a bar of streams stood at 0/1 until the end.
    count = getattr(source, "count_units", None)
    total_units = count(stream_list) if show and count is not None else None
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[units]}"), TimeElapsedColumn(),
                  disable=not show, transient=True) as progress:
        if total_units:
            task = progress.add_task(f"ingest {source.name}", total=total_units,
                                     units=getattr(source, "unit_name", "units"))
        else:
            task = progress.add_task(f"ingest {source.name}", total=len(stream_list), units="0 units")
        units = 0

        def advance(stream, batch):
            nonlocal units
            units += batch.units
            if total_units:
                progress.update(task, completed=min(units, total_units))
            else:
                progress.update(task, advance=1, units=f"{units} units")

        def rows_told(done, rows):
            # rows ~ units for such a source (a commit, a row); the stream's end sets it exact
            progress.update(task, completed=min(units + done, total_units))

        summary = run_ingest(source, home, streams=stream_list, dry_run=dry_run, progress=advance,
                             rows_progress=rows_told if total_units else None)
    if summary.rows_written and not dry_run:
        # New rows reach the semantic ladder without anyone running `carto index`.
        from carto_core.capture.keepup import maybe_start

        try:
            summary.keep_up = maybe_start(home, force=True)
        except Exception as exc:
            summary.keep_up = f"semantic keep-up not started: {type(exc).__name__}: {exc}"
    return summary


SETTLE_HELP = ("A transcript is finished (its last turn final) once quiet this long, by its file's "
               "mtime or by its own newest timestamp (default 600; a copy of an old transcript is "
               "finished at once). Earlier, its newest turn is written marked open and rewritten "
               "as it grows.")


def window_options(settle_help: str = SETTLE_HELP, since_help: str = "transcripts modified"):
    """`--since WHEN`, `--settle SECONDS` and the older `--since-days N` of every transcript
    source (`carto ingest claude | codex | hermes`): one spelling for one idea."""

    def decorate(command):
        command = click.option(
            "--since-days", "since_days", type=click.FloatRange(min=0), default=None, metavar="N",
            help="Older spelling of --since Nd.")(command)
        command = click.option(
            "--settle", "settle_seconds", type=click.FloatRange(min=0), default=None,
            metavar="SECONDS", help=settle_help)(command)
        return click.option(
            "--since", "since", metavar="WHEN", default=None,
            help=f"Only {since_help} since WHEN (24h, 7d, yesterday, 2026-01-02, ...).")(command)

    return decorate


def window_values(since: str | None, since_days: float | None, settle_seconds: float | None) -> dict:
    """The source options of `window_options` (usage errors for a bad WHEN or both spellings)."""
    from carto_core.util.output import usage_error
    from carto_core.util.timeparse import WhenError, parse_when

    options: dict = {}
    if since and since_days is not None:
        usage_error("give --since or --since-days, not both")
    if since:
        try:
            options["since"] = parse_when(since)
        except WhenError as exc:
            usage_error(f"--since: {exc}")
    elif since_days is not None:
        options["since_days"] = since_days
    if settle_seconds is not None:
        options["settle_seconds"] = settle_seconds
    return options


def report_summary(summary, *, as_json: bool) -> None:
    if as_json:
        emit_json(summary.as_dict())
    else:
        click.echo(summary.line())
        if summary.keep_up == "started":
            click.echo("  semantic ladder: embedding the new rows in the background "
                       "(`carto search --json` says how many are left: semantic.not_embedded)")
        elif summary.keep_up:
            click.echo(f"  {summary.keep_up}", err=True)
        for reason, count in sorted(summary.skipped.items()):
            click.echo(f"  skipped {count} x {reason}")
        for error in summary.errors:
            click.echo(f"  error: {error}", err=True)
    if summary.errors and not summary.rows_written and not summary.already_present:
        raise SystemExit(int(ExitCode.ERROR))
    if summary.streams == 0:
        # Said on stderr so a wrong --root is not mistaken for "already up to date".
        click.echo(f"carto: ingest {summary.source}: found nothing to read where it looked "
                   f"(check --root; `carto ingest {summary.source} --help` names the default)",
                   err=True)
        raise SystemExit(int(ExitCode.NOT_FOUND))


def generic_ingest_command(name: str, source_cls) -> click.Command:
    @click.command(name=name, help=f"Backfill from {name}: {source_cls.description or ''}\n\n"
                   "Re-runs are idempotent: checkpoints skip what was read, and rows whose "
                   "event_id a log already holds are not written again.",
                   epilog=f"\b\nExamples:\n  carto ingest {name} --root PATH --dry-run   read and count, write nothing"
                   f"\n  carto ingest {name} --root PATH             write the rows"
                   f"\n  carto ingest {name} --json                  one JSON summary on stdout"
                   "\n\nExit codes: 0 ok; 1 every stream failed to read; 3 found nothing to read.", cls=JsonErrorCommand)
    @click.option("--root", "roots", multiple=True, type=click.Path(), help="Where to look (repeatable); default per source.")
    @click.option("--dry-run", is_flag=True, help="Read and count, write nothing.")
    @click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
    def command(roots, dry_run, as_json):
        from carto_core.model.config import load_config

        options = dict(load_config().section("sources").get(name, {}) or {})
        if roots:
            options["roots"] = list(roots)
        source = source_cls(options)
        try:
            summary = run_with_progress(source, load_config().home, dry_run=dry_run, as_json=as_json)
        except OSError as exc:
            from carto_core.logio.homefaults import fault_message

            fail(f"ingest {name}: {fault_message(exc, load_config().home.root)}")
        except ValueError as exc:
            fail(f"ingest {name}: {exc}")
        report_summary(summary, as_json=as_json)

    return command


def backfill_sources(skipped: dict | None = None, absent: list | None = None) -> list[tuple[str, object]]:
    """(name, source built with the config's `[sources.NAME]` options) for every installed source
    that can backfill, by name. A source that refuses to be built without a setting of its own
    (Hermes without its policy file) is left out, its reason in `skipped`, or its name in
    `absent` when nothing it reads lies where it looks by default."""
    from carto_core.model.config import load_config
    from carto_core.plugin.registry import get_registries

    section = load_config().section("sources")
    out = []
    for name, cls in sorted(get_registries().sources.items()):
        if not cls.can_backfill():
            continue
        try:
            out.append((name, cls(dict(section.get(name, {}) or {}))))
        except Exception as exc:  # its own reason, said by --all
            if absent is not None and not cls.present_by_default():
                absent.append(name)
            elif skipped is not None:
                skipped[name] = str(exc).splitlines()[0]
    return out


def ingest_all(*, dry_run: bool, as_json: bool) -> None:
    """`carto ingest --all`: every source that finds something where it looks by default."""
    from carto_core.model.config import load_config

    from carto_core.cli.homeguard import refuse_unusable_home

    refuse_unusable_home("ingest")
    home = load_config().home
    summaries, nothing, not_set_up = {}, [], {}
    for name, source in backfill_sources(not_set_up, nothing):
        streams = list(source.discover())
        if not streams:
            nothing.append(name)
            continue
        try:
            summaries[name] = run_with_progress(source, home, dry_run=dry_run, as_json=as_json,
                                                streams=streams)
        except (OSError, ValueError) as exc:
            from carto_core.logio.homefaults import fault_message
            from carto_core.logio.notafile import NotAFile

            if isinstance(exc, NotAFile):  # one of the home's own files: every source fails on it
                fail(f"ingest: {exc}")
            summaries[name] = None
            said = fault_message(exc, home.root) if isinstance(exc, OSError) else exc
            click.echo(f"carto: ingest {name}: {said}", err=True)
            continue
        summary = summaries[name]
        if (not (summary.units or summary.rows_written or summary.already_present or summary.errors)
                and all(stream.size is None for stream in streams)):
            # a stream offered whether or not anything is there (claude-memory's CLAUDE.md)
            # that held nothing: nothing to read. A file stream read before is up to date
            # (its checkpoint: no unit again), which is something read
            del summaries[name]
            nothing.append(name)
    done = {name: s for name, s in summaries.items() if s is not None}
    if as_json:
        emit_json({"sources": {name: s.as_dict() for name, s in done.items()},
                   "nothing_to_read": nothing, "not_set_up": not_set_up,
                   "failed": sorted(set(summaries) - set(done))})
    else:
        for summary in done.values():
            click.echo(summary.line())
            for error in summary.errors:
                click.echo(f"  error: {error}", err=True)
        if nothing:
            click.echo(f"nothing to read where {', '.join(sorted(nothing))} look by default "
                       "(`carto ingest NAME --help` says where)")
        for name, why in not_set_up.items():
            # the refusal's first line only: the lines saying how to set it up are cut off
            click.echo(f"{name}: not set up ({why}); `carto ingest {name} --help` says how to set it up")
    if not summaries:
        raise SystemExit(int(ExitCode.NOT_FOUND))
    if not any(s.rows_written or s.already_present or not s.errors for s in done.values()):
        raise SystemExit(int(ExitCode.ERROR))


@click.group(cls=IngestGroup, invoke_without_command=True, epilog="""\b
Examples:
  carto ingest --all            every source that finds history on this machine
  carto ingest claude           Claude Code's transcripts and prompt history
  carto ingest git --repo .     this repository's commits

Exit codes (--all): 0 ok; 1 every source failed; 3 no source found anything to read.""")
@click.option("--all", "all_sources", is_flag=True,
              help="Backfill from every installed source that finds something where it looks by "
                   "default (its `[sources.NAME]` options from the config apply).")
@click.option("--dry-run", is_flag=True, help="With --all: read and count, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="With --all: one JSON document of every source's summary.")
@click.pass_context
def ingest(ctx, all_sources: bool, dry_run: bool, as_json: bool) -> None:
    """Backfill history from an installed source (`carto ingest --help` lists them), or from
    every one with --all."""
    if ctx.invoked_subcommand is not None:
        if all_sources:
            from carto_core.util.output import usage_error

            usage_error("give --all or a source name, not both")
        return
    if not all_sources:
        click.echo(ctx.get_help())
        raise SystemExit(int(ExitCode.USAGE))
    ingest_all(dry_run=dry_run, as_json=as_json)
