"""carto-hermes: Hermes Agent sessions (`state.db`, read-only) and artifacts as carto events.

Registers the `hermes` source and the `carto ingest hermes` command. Heavy work stays inside the
command and the source's methods: importing this module costs only the registrations.
See docs/providers/hermes.md.
"""

from __future__ import annotations

from carto_core import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_hermes.source import HermesSource

    register(HermesSource)


@hookimpl
def carto_register_commands(cli):
    from carto_core.capture.plugin import add_commands
    from carto_hermes.cli import hermes_command

    add_commands(cli, ingest=hermes_command)
