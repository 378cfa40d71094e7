"""The Hermes plugin's hook implementations (entry point `hermes` in the group `carto`).

Registers the `hermes` source and the `carto ingest hermes` command. Heavy work stays inside the
command and the source's methods: importing this module costs only the registrations.
"""

from __future__ import annotations

from carto_core.api import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_hermes.source import HermesSource

    register(HermesSource)


@hookimpl
def carto_register_commands(cli):
    from carto_core.api import add_commands
    from carto_hermes.cli import hermes_command

    add_commands(cli, ingest=hermes_command)
