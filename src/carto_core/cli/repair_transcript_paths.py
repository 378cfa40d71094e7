"""`carto repair transcript-paths`: point rows at Codex rollouts and Claude Code transcripts that
moved."""

from __future__ import annotations

import click

from carto_core.cli.repair_cmd import repair_options
from carto_core.util.output import JsonErrorCommand


@click.command("transcript-paths", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto repair transcript-paths                    stale, moved, missing
  carto repair transcript-paths --write
  carto repair transcript-paths --codex-home /mnt/old/.codex --json
  carto repair transcript-paths --claude-projects /mnt/old/projects --write""")
@click.option("--codex-home", "codex_homes", multiple=True, type=click.Path(file_okay=False),
              metavar="DIR", help="A Codex home to look in (repeatable; default: [transcripts] codex "
                                  "in the config, else $CODEX_HOME or ~/.codex).")
@click.option("--claude-projects", "claude_projects", multiple=True, type=click.Path(file_okay=False),
              metavar="DIR", help="A Claude Code projects/ folder to look in (repeatable; default: "
                                  "[transcripts] claude in the config, else "
                                  "$CLAUDE_CONFIG_DIR/projects or ~/.claude/projects).")
@repair_options
def transcript_paths(codex_homes: tuple[str, ...], claude_projects: tuple[str, ...], write: bool,
                     as_json: bool) -> None:
    """Point rows at Codex rollouts and Claude Code transcripts that moved since they were
    recorded.

    Codex moves a finished rollout from sessions/YYYY/MM/DD/ to archived_sessions/ (and back
    on unarchive), so the transcript_path its hooks recorded stops existing. A stale Codex path
    is changed only to the same file in a Codex home's archived_sessions/ (or sessions/), or
    to the one rollout of the row's session whose name ends in that session's id.

    Claude Code names a project folder after the checkout's path: a moved checkout, a renamed
    folder or a moved config dir leaves the recorded path behind. A stale Claude path is changed
    only to the file of the same name found by the session's id in a Claude projects/ folder
    (a subagent's file beside its session's transcript). One found nowhere is reported missing
    and kept; one of a session the Claude desktop app ran (carto ingest claude-desktop) is
    counted apart, desktop: the app's transcript is gone with it, and no repair brings it back."""
    from pathlib import Path

    from carto_core.repair.transcripts import TranscriptPaths
    from carto_core.transcript.resolver import TranscriptRoots

    roots = None
    if codex_homes or claude_projects:
        default = TranscriptRoots.default()
        roots = TranscriptRoots(
            claude=tuple(Path(p).expanduser() for p in claude_projects) or default.claude,
            codex=tuple(Path(p).expanduser() for p in codex_homes) or default.codex)
    from carto_core.cli.repair_cmd import finish, repair_home
    from carto_core.repair import run_repair
    from carto_core.repair.transcripts import desktop_note

    document = run_repair(TranscriptPaths(roots), repair_home(), write=write)
    note = desktop_note(document)
    if note and not as_json:
        document["notes"] = [note]
    finish(document, as_json, found_key=TranscriptPaths.found_key, what="stale transcript paths")
