"""`carto ingest SOURCE`: backfill history from a provider into the home's logs."""

from __future__ import annotations

import click

from carto_core.cli import PluginGroup
from carto_core.cli.output import emit_json, fail
from carto_core.exitcodes import ExitCode


class IngestGroup(PluginGroup):
    """Subcommands are plugin-provided ingest commands, else a generic one per source."""

    def list_commands(self, ctx):
        from carto_core.registry import get_registries

        self.load_root_plugins(ctx)
        names = set(self.commands)
        names.update(n for n, cls in get_registries().sources.items() if cls.can_backfill())
        return sorted(names)

    def get_command(self, ctx, name):
        if name not in self.commands:
            self.load_root_plugins(ctx)  # a plugin's own `ingest NAME` wins over the generic one
        if name in self.commands:
            return self.commands[name]
        from carto_core.registry import get_registries

        sources = get_registries().sources
        if name in sources and sources.get(name).can_backfill():
            command = generic_ingest_command(name, sources.get(name))
            self.add_command(command, name)
            return command
        return None


def run_with_progress(source, home, *, dry_run: bool, as_json: bool, streams=None):
    """Run `run_ingest` with a progress bar on stderr (hidden for --json or a non-terminal)."""
    import sys

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from carto_core.ingest import run_ingest

    stream_list = list(streams if streams is not None else source.discover())
    show = not as_json and sys.stderr.isatty()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[units]} units"), TimeElapsedColumn(),
                  disable=not show, transient=True) as progress:
        task = progress.add_task(f"ingest {source.name}", total=len(stream_list), units=0)
        units = 0

        def advance(stream, batch):
            nonlocal units
            units += batch.units
            progress.update(task, advance=1, units=units)

        return run_ingest(source, home, streams=stream_list, dry_run=dry_run, progress=advance)


def report_summary(summary, *, as_json: bool) -> None:
    if as_json:
        emit_json(summary.as_dict())
    else:
        click.echo(summary.line())
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
                   "\n\nExit codes: 0 ok; 1 every stream failed to read; 3 found nothing to read.")
    @click.option("--root", "roots", multiple=True, type=click.Path(), help="Where to look (repeatable); default per source.")
    @click.option("--dry-run", is_flag=True, help="Read and count, write nothing.")
    @click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
    def command(roots, dry_run, as_json):
        from carto_core.config import load_config

        options = dict(load_config().section("sources").get(name, {}) or {})
        if roots:
            options["roots"] = list(roots)
        source = source_cls(options)
        try:
            summary = run_with_progress(source, load_config().home, dry_run=dry_run, as_json=as_json)
        except OSError as exc:
            from carto_core.homefaults import fault_message

            fail(f"ingest {name}: {fault_message(exc, load_config().home.root)}")
        except ValueError as exc:
            fail(f"ingest {name}: {exc}")
        report_summary(summary, as_json=as_json)

    return command


@click.group(cls=IngestGroup)
def ingest() -> None:
    """Backfill history from an installed source (`carto ingest --help` lists them)."""
