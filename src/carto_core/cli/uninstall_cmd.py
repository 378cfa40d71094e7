"""`carto uninstall AGENT`: take carto back out of an agent's configuration."""

from __future__ import annotations

import click

from carto_core.cli import PluginGroup


@click.group(cls=PluginGroup)
def uninstall() -> None:
    """Remove exactly what `carto install AGENT` added (hooks, trust entries, with --mcp the MCP
    server), leaving everything else as it was.

    Each subcommand backs a file up before changing it and prints what it removed; running it
    again changes nothing. `--print` shows the change without writing it.
    """
