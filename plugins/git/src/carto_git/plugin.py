"""The git plugin's hook implementations (entry point `git` in the group `carto`)."""

from __future__ import annotations

from carto_core import hookimpl


@hookimpl
def carto_register_sources(register):
    from carto_git.source import GitSource

    register(GitSource)


@hookimpl
def carto_register_commands(cli):
    from carto_git.cli import ingest_git

    ingest = cli.get_command(None, "ingest")
    if ingest is not None:
        ingest.add_command(ingest_git)
