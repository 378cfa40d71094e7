"""The Codex plugin's hook implementations (entry point `codex` in the group `carto`)."""

from __future__ import annotations

from carto_core import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_codex.source import CodexRolloutSource

    register(CodexRolloutSource)


@hookimpl
def carto_register_commands(cli):
    from carto_codex.cli import ingest_codex

    ingest = cli.get_command(None, "ingest")
    if ingest is not None:
        ingest.add_command(ingest_codex)
    from carto_codex.cli import install_codex

    install = cli.get_command(None, "install")
    if install is not None:
        install.add_command(install_codex)
