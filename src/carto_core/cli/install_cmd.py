"""`carto install AGENT`: wire carto into an agent's configuration."""

from __future__ import annotations

import click

from carto_core.cli import PluginGroup


@click.group(cls=PluginGroup)
def install() -> None:
    """Install carto's hooks (or MCP server) into an agent's configuration.

    Each subcommand prints exactly what it changes and never clobbers existing entries;
    `--print` shows the change without writing it.
    """
