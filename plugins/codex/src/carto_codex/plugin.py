"""The Codex plugin's hook implementations (entry point `codex` in the group `carto`)."""

from __future__ import annotations

from carto_core.api import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_codex.memory import CodexMemorySource
    from carto_codex.source import CodexRolloutSource

    register(CodexRolloutSource)
    register(CodexMemorySource)


@hookimpl
def carto_register_commands(cli):
    from carto_core.api import add_commands
    from carto_codex.cli import ingest_codex, install_codex, uninstall_codex

    add_commands(cli, ingest=ingest_codex, install=install_codex, uninstall=uninstall_codex)
