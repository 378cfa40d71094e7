"""`carto report`: read-only reports over a home (prompt intents, retrieval hit rate, abandoned
recall). Subcommands load on demand from `REPORT_COMMANDS` (one module each under cli/); the
folds live in `carto_core.lenses`."""

from __future__ import annotations

import click

from carto_core.plugin.resolve import resolve

#: subcommand -> "module:attribute".
REPORT_COMMANDS: dict[str, str] = {
    "intents": "carto_core.cli.report_intents:intents",
    "hit-rate": "carto_core.cli.report_hit_rate:hit_rate",
    "abandonment": "carto_core.cli.report_abandonment:abandonment",
}


class ReportGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(REPORT_COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands and name in REPORT_COMMANDS:
            self.add_command(resolve(REPORT_COMMANDS[name]), name)
        return self.commands.get(name)


@click.group(cls=ReportGroup, epilog="""\b
Examples:
  carto report intents                    the 17 prompt intents, counts and samples
  carto report hit-rate --since 30d       served results that were used, by rank/log/project
  carto report abandonment --json         recall calls nobody marked, read in the transcript
\b
Exit codes: 0 a report, 3 nothing to report on, 2 bad flags, 1 an unreadable home.""")
def report() -> None:
    """Reports that read a home and write nothing: intents, hit-rate, abandonment."""




since_option = click.option("--since", metavar="WHEN", help="Only from WHEN on (today, 7d, 2w, last month, 2026-01-31, ...).")
before_option = click.option("--before", metavar="WHEN", help="Only up to WHEN.")
