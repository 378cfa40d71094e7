"""`carto ingest codex` (and `carto install codex`, see `carto_codex.install`)."""

from __future__ import annotations

import click

from carto_core.install.agent import install_options


@click.command(name="codex")
@click.option("--root", "roots", multiple=True, type=click.Path(),
              help="A Codex home, a folder of rollouts or one rollout (repeatable). "
                   "Default: $CODEX_HOME, else ~/.codex.")
@click.option("--since", "since", metavar="WHEN",
              help="Only rollouts modified since WHEN (today, 7d, 2026-01-02, ...).")
@click.option("--settle", "settle_seconds", type=float, default=None, metavar="SECONDS",
              help="A rollout untouched this long is finished and its last turn is written "
                   "(default 600). Codex's own turn_complete closes a turn at once.")
@click.option("--dry-run", is_flag=True, help="Read and count, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON document.")
def ingest_codex(roots, since, settle_seconds, dry_run, as_json):
    """Backfill Codex rollouts into turns.jsonl (`turn-codex-<sid>-<idx>`).

    Reads ~/.codex/sessions/YYYY/MM/DD/ and the flat ~/.codex/archived_sessions/. Scaffolding
    Codex injects (environment context, AGENTS.md) never starts a turn; a sub-agent's replay of
    its parent's lines is dropped; unknown record types are skipped and counted. Re-runs are
    idempotent: each rollout resumes from its checkpoint, and turns already in the log are not
    written again.

    \b
    Examples:
      carto ingest codex                       # ~/.codex (or $CODEX_HOME)
      carto ingest codex --since 7d --json
      carto ingest codex --root /mnt/old-laptop/.codex --dry-run

    Exit codes: 0 ok; 1 every rollout failed to read; 2 bad option; 3 no rollout found.
    """
    from carto_core.cli.ingest_cmd import report_summary, run_with_progress
    from carto_core.cli.output import fail, usage_error, warn
    from carto_core.config import ConfigError, load_config
    from carto_core.timeparse import WhenError, parse_when

    from carto_codex.source import CodexRolloutSource

    try:
        config = load_config()
    except ConfigError as exc:
        fail(str(exc))
    options = dict(config.section("sources").get("codex", {}) or {})
    if roots:
        options["roots"] = list(roots)
    if since:
        try:
            options["since"] = parse_when(since)
        except WhenError as exc:
            usage_error(f"--since: {exc}")
    if settle_seconds is not None:
        if settle_seconds < 0:
            usage_error("--settle must be 0 or more seconds")
        options["settle_seconds"] = settle_seconds
    source = CodexRolloutSource(options)
    try:
        summary = run_with_progress(source, config.home, dry_run=dry_run, as_json=as_json)
    except OSError as exc:
        fail(f"ingest codex: {exc}")
    for note in source.notes:
        warn(f"carto: {note}")
    if summary.streams == 0 and not as_json:
        where = ", ".join(str(r) for r in source.roots)
        warn(f"carto: no Codex rollout found under {where}")
    report_summary(summary, as_json=as_json)


@click.command(name="codex")
@click.option("--hooks-file", "hooks_path", type=click.Path(dir_okay=False), default=None,
              help="Hooks file to change (default $CODEX_HOME/hooks.json, else ~/.codex/hooks.json).")
@install_options(project_help="Use ./.codex/hooks.json (this repository only).",
                 mcp_help="Also register the carto MCP server in Codex's config.toml.")
def install_codex(hooks_path, project, dry_run, mcp, as_json):
    """Wire carto's live-capture hooks into Codex, never clobbering existing hooks.

    Adds, per event Codex fires, a handler running `carto hook codex <Event>` unless one with
    the same command and matcher is there already; an existing file is backed up first.

    \b
    Examples:
      carto install codex --print     show what would be added, change nothing
      carto install codex             add carto's hooks to ~/.codex/hooks.json
      carto install codex --project   add them to ./.codex/hooks.json instead
      carto install codex --mcp       also register `carto mcp` with Codex

    Exit codes: 0 ok (also when already installed); 4 the hooks file is not a JSON object
    carto can merge into; 75 --mcp asked but the MCP support is not installed.
    """
    from pathlib import Path

    from carto_core.install.agent import run_install

    from carto_codex import install as installer

    path = Path(hooks_path).expanduser() if hooks_path else installer.default_hooks_path(project)
    run_install("codex", lambda: installer.install(path, dry_run=dry_run), dry_run=dry_run, mcp=mcp,
                as_json=as_json)
