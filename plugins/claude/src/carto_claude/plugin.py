"""The Claude plugin's hook implementations (entry point `claude` in the group `carto`).

Live capture does not go through here: `carto hook claude ...` reaches `carto_claude.capture`
through the `carto.capture` entry point, without pluggy (see `carto_core.capture.hookpath`).
"""

from __future__ import annotations

from carto_core.api import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_claude.desktop import ClaudeDesktopSource
    from carto_claude.memory import ClaudeMemorySource
    from carto_claude.transcripts import ClaudeSource

    register(ClaudeSource)
    register(ClaudeMemorySource)
    register(ClaudeDesktopSource)


@hookimpl
def carto_register_commands(cli):
    from carto_core.api import add_commands
    from carto_claude.cli import ingest_claude, install_claude, uninstall_claude

    add_commands(cli, ingest=ingest_claude, install=install_claude, uninstall=uninstall_claude)
