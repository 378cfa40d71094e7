"""`carto ingest claude` and `carto install claude`."""

from __future__ import annotations

import click

from carto_core.api import JsonErrorCommand, fail, install_options, window_options, window_values


@click.command(
    name="claude",
    epilog="""\b
Examples:
  carto ingest claude                        every transcript under ~/.claude/projects + history.jsonl
  carto ingest claude --since 7d             only transcripts changed in the last week
  carto ingest claude --settle 0             every turn final now (the newest too)
  carto ingest claude --root ~/old/projects  another transcript folder (no history unless --history)
  carto ingest claude --dry-run --json       count what would be written, write nothing

Turns go to turns.jsonl (turn-<session>-<n>), prompts to prompt-history.jsonl. Re-runs are
idempotent: per-file byte checkpoints skip what was read, and rows whose event_id a log
already holds are not written again - except a turn that grew: a transcript still being written
has its newest turn written marked "open" and rewritten as it grows (the summary says how many
are open and when they are final).""",
    cls=JsonErrorCommand,
)
@click.option("--root", "roots", multiple=True, type=click.Path(), help="Transcript folder (repeatable); default ~/.claude/projects or $CARTO_CLAUDE_PROJECTS.")
@click.option("--history", type=click.Path(), default=None, help="history.jsonl to project into prompt-history.jsonl (default ~/.claude/history.jsonl; 'none' skips it).")
@window_options()
@click.option("--dry-run", is_flag=True, help="Read and count, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON document.")
def ingest_claude(roots, history, since, since_days, settle_seconds, dry_run, as_json):
    """Backfill Claude Code transcripts (turns) and prompt history into the carto logs."""
    from carto_claude.transcripts import ClaudeSource
    from carto_core.api import load_config, report_summary, run_with_progress

    config = load_config()
    options = dict(config.section("sources").get("claude", {}) or {})
    if roots:
        options["roots"] = list(roots)
    if history is not None:
        options["history"] = "" if history.lower() == "none" else history
    options.update(window_values(since, since_days, settle_seconds))
    source = ClaudeSource(options)
    try:
        summary = run_with_progress(source, config.home, dry_run=dry_run, as_json=as_json)
    except (OSError, ValueError) as exc:
        fail(f"ingest claude: {exc}")
    report_summary(summary, as_json=as_json)


@click.command(
    name="claude",
    epilog="""\b
Examples:
  carto install claude --print     show the hooks that would be added, change nothing
  carto install claude             add carto's hooks to ~/.claude/settings.json
  carto install claude --project   add them to ./.claude/settings.json instead
  carto install claude --mcp       also register the `carto mcp` server with Claude Code
  carto install claude --recall    also answer each prompt with what earlier sessions did

Alternatively load carto as a Claude Code plugin (hooks + /carto:remember, standup, wrapup,
trustmap skills): `claude --plugin-dir "$(carto install claude --plugin-dir)"`.""",
    cls=JsonErrorCommand,
)
@click.option("--settings", "settings_path", type=click.Path(dir_okay=False), default=None, help="Settings file to change (default ~/.claude/settings.json).")
@click.option("--plugin-dir", "plugin_dir", is_flag=True, help="Print the Claude Code plugin folder shipped with carto and exit.")
@click.option("--recall", is_flag=True, help="Also add the UserPromptSubmit handler that answers each prompt with "
              "at most 3 snippets of earlier sessions' work (prompt-time recall, docs/recall.md).")
@install_options(project_help="Use ./.claude/settings.json (this project only).",
                 mcp_help="Also register the carto MCP server (needs the MCP extra).")
def install_claude(settings_path, plugin_dir, recall, project, dry_run, mcp, as_json):
    """Wire carto's live-capture hooks into Claude Code, never clobbering existing settings."""
    from pathlib import Path

    from carto_claude import install as installer
    from carto_core.api import run_install

    if plugin_dir:
        click.echo(str(installer.PLUGIN_DIR))
        return
    path = Path(settings_path).expanduser() if settings_path else installer.default_settings_path(project)
    run_install("claude", lambda: installer.install(path, dry_run=dry_run, recall=recall), dry_run=dry_run, mcp=mcp,
                as_json=as_json, mcp_options={"scope": "project" if project else "user"},
                trailer=(f"plugin folder (alternative to settings hooks): {installer.PLUGIN_DIR}",))


@click.command(
    name="claude",
    epilog="""\b
Examples:
  carto uninstall claude --print     show what would be removed, change nothing
  carto uninstall claude             remove carto's hooks from ~/.claude/settings.json
  carto uninstall claude --project   ... from ./.claude/settings.json
  carto uninstall claude --mcp       ... and the `carto mcp` server entry

Exit codes: 0 ok (also when nothing was installed); 4 a settings file (or, with --mcp, the MCP
configuration, checked before anything is removed) carto cannot change safely.""",
    cls=JsonErrorCommand,
)
@click.option("--settings", "settings_path", type=click.Path(dir_okay=False), default=None, help="Settings file to change (default ~/.claude/settings.json).")
@install_options(project_help="Use ./.claude/settings.json (this project only).",
                 mcp_help="Also remove the carto MCP server entry.")
def uninstall_claude(settings_path, project, dry_run, mcp, as_json):
    """Remove exactly what `carto install claude` added: carto's handlers (under any launcher),
    and the groups and events they leave empty; everything else stays. The file is backed up
    before it changes; running it again changes nothing."""
    from pathlib import Path

    from carto_claude import install as installer
    from carto_core.api import run_install, uninstall_result

    path = Path(settings_path).expanduser() if settings_path else installer.default_settings_path(project)
    run_install("claude", lambda: uninstall_result(path, "claude", dry_run=dry_run), dry_run=dry_run, mcp=mcp,
                as_json=as_json, mcp_options={"scope": "project" if project else "user"}, removing=True)
