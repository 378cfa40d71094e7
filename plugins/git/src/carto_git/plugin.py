"""The git plugin's hook implementations (entry point `git` in the group `carto`)."""

from __future__ import annotations

from carto_core.api import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_git.source import GitSource

    register(GitSource)


@hookimpl
def carto_register_commands(cli):
    from carto_core.api import add_commands
    from carto_git.cli import ingest_git

    add_commands(cli, ingest=ingest_git)
