"""What a provider plugin's `carto_register_commands` shares: its subcommands under core's groups.

    @hookimpl
    def carto_register_commands(cli):
        from carto_codex.cli import ingest_codex, install_codex

        add_commands(cli, ingest=ingest_codex, install=install_codex)
"""

from __future__ import annotations


def add_commands(cli, **commands) -> None:
    """Put each command under core's group of that name (`ingest`, `install`, `uninstall`); a group this
    carto lacks is passed over (an older or trimmed core)."""
    for group_name, command in commands.items():
        group = cli.get_command(None, group_name)
        if group is not None:
            group.add_command(command)
