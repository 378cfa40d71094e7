"""The Claude plugin's hook implementations (entry point `claude` in the group `carto`).

Live capture does not go through here: `carto hook claude ...` reaches `carto_claude.capture`
through the `carto.capture` entry point, without pluggy (see `carto_core.hookpath`).
"""

from __future__ import annotations

from carto_core import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_claude.transcripts import ClaudeSource

    register(ClaudeSource)


@hookimpl
def carto_register_commands(cli):
    from carto_claude.cli import ingest_claude, install_claude

    ingest = cli.get_command(None, "ingest")
    if ingest is not None:
        ingest.add_command(ingest_claude)
    install = cli.get_command(None, "install")
    if install is not None:
        install.add_command(install_claude)
