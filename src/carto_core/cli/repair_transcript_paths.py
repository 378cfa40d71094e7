"""`carto repair transcript-paths`: point rows at Codex rollouts that moved on archive."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import repair_options, run
from carto_core.util.output import JsonErrorCommand


@click.command("transcript-paths", cls=JsonErrorCommand)
@click.option("--codex-home", "codex_homes", multiple=True, type=click.Path(file_okay=False),
              metavar="DIR", help="A Codex home to look in (repeatable; default: [transcripts] codex "
                                  "in the config, else $CODEX_HOME or ~/.codex).")
@repair_options
def transcript_paths(codex_homes: tuple[str, ...], write: bool, as_json: bool) -> None:
    """Point rows at Codex rollouts that moved since they were recorded.

    Codex moves a finished rollout from sessions/YYYY/MM/DD/ to archived_sessions/ (and back
    on unarchive), so the transcript_path its hooks recorded stops existing. A stale Codex path
    is changed only to the same file in a Codex home's archived_sessions/ (or sessions/), or
    to the one rollout of the row's session whose name ends in that session's id. One found
    nowhere is reported missing and kept.

    \b
    Examples:
      carto repair transcript-paths                    stale, moved, missing
      carto repair transcript-paths --write
      carto repair transcript-paths --codex-home /mnt/old/.codex --json
    """
    from pathlib import Path

    from carto_core.repair.transcripts import TranscriptPaths
    from carto_core.transcript.resolver import TranscriptRoots

    roots = None
    if codex_homes:
        roots = TranscriptRoots(claude=(), codex=tuple(Path(p).expanduser() for p in codex_homes))
    run(TranscriptPaths(roots), write=write, as_json=as_json, what="stale Codex transcript paths")
