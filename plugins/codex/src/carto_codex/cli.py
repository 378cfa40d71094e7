"""`carto ingest codex` (and `carto install codex`, see `carto_codex.install`)."""

from __future__ import annotations

import click

from carto_core.api import JsonErrorCommand, counted, install_options, window_options, window_values


@click.command(name="codex", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto ingest codex                       # ~/.codex (or $CODEX_HOME)
  carto ingest codex --since 7d --json
  carto ingest codex --root /mnt/old-laptop/.codex --dry-run

Exit codes: 0 ok; 1 every rollout failed to read; 2 bad option; 3 no rollout found.""")
@click.option("--root", "roots", multiple=True, type=click.Path(),
              help="A Codex home, a folder of rollouts or one rollout (repeatable). "
                   "Default: $CODEX_HOME, else ~/.codex.")
@window_options()
@click.option("--dry-run", is_flag=True, help="Read and count, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON document.")
def ingest_codex(roots, since, since_days, settle_seconds, dry_run, as_json):
    """Backfill Codex rollouts into turns.jsonl (`turn-codex-<sid>-<idx>`).

    Reads ~/.codex/sessions/YYYY/MM/DD/ and the flat ~/.codex/archived_sessions/. Scaffolding
    Codex injects (environment context, AGENTS.md) never starts a turn; a sub-agent's replay of
    its parent's lines is dropped; unknown record types are skipped and counted. Re-runs are
    idempotent: each rollout resumes from its checkpoint, and turns already in the log are not
    written again."""
    from carto_core.api import (
        ConfigError, fail, load_config, report_summary, run_with_progress, warn,
    )

    from carto_codex.source import CodexRolloutSource

    try:
        config = load_config()
    except ConfigError as exc:
        fail(str(exc))
    options = dict(config.section("sources").get("codex", {}) or {})
    if roots:
        options["roots"] = list(roots)
    options.update(window_values(since, since_days, settle_seconds))
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


@click.command(name="codex", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto install codex --print     show what would be added, change nothing
  carto install codex             add carto's hooks to ~/.codex/hooks.json
  carto install codex --trust     ... and trust carto's handlers (headless use: codex exec)
  carto install codex --project   add them to ./.codex/hooks.json instead
  carto install codex --mcp       also register `carto mcp` with Codex
  carto install codex --recall    also answer each prompt with what earlier sessions did

Exit codes: 0 ok (also when already installed); 4 the hooks file (or, with --trust,
config.toml; with --recall, carto's config file; with --mcp, the MCP configuration, checked
before anything is written) is not a file carto can merge into; 75 --mcp asked but the MCP
support is not installed.""")
@click.option("--hooks-file", "hooks_path", type=click.Path(dir_okay=False), default=None,
              help="Hooks file to change (default $CODEX_HOME/hooks.json, else ~/.codex/hooks.json).")
@click.option("--trust", "trust", is_flag=True,
              help="Also record Codex's trust for carto's own handlers in config.toml (what /hooks "
                   "does), after printing each; never done without this flag.")
@click.option("--recall", is_flag=True, help="Also turn prompt-time recall on (`[recall] prompt = true` in carto's "
              "config file): each prompt is answered with at most 3 snippets of earlier sessions' work.")
@install_options(project_help="Use ./.codex/hooks.json (this repository only).",
                 mcp_help="Also register the carto MCP server in Codex's config.toml.")
def install_codex(hooks_path, trust, recall, project, dry_run, mcp, as_json):
    """Wire carto's live-capture hooks into Codex, never clobbering existing hooks.

    Adds, per event carto captures, a handler running `<this carto> hook codex <Event>` (the
    absolute launcher, so Codex finds it from any environment); a carto handler already there
    is brought up to date in place. An existing file is backed up first.

    Codex runs a hook only once it is trusted, and `codex exec` skips untrusted ones silently:
    approve them in `codex` under /hooks, or pass --trust."""
    from pathlib import Path

    from carto_core.api import run_install

    from carto_codex import install as installer

    path = Path(hooks_path).expanduser() if hooks_path else installer.default_hooks_path(project)

    def install():
        from carto_core.api import ConfigEditError, InstallError, enable_prompt_recall

        if trust and not as_json and not dry_run:
            # Say what will be trusted before anything is written; inside install() so a hooks
            # file the preview cannot read is refused like the install itself (one line, exit 4).
            preview = installer.trust_handlers(path, dry_run=True)
            if preview.get("changes"):
                click.echo(f"carto will trust these handlers of {path} in {preview['config']}:")
                for line in preview["changes"]:
                    click.echo(f"  {line}")
        try:
            if recall:
                enable_prompt_recall(dry_run=True)  # refuse before the hooks file changes
            result = installer.install(path, dry_run=dry_run, trust=trust)
            changes = enable_prompt_recall(dry_run=dry_run) if recall else []
        except ConfigEditError as exc:
            raise InstallError(str(exc)) from None
        if recall:
            result["recall"] = changes or ["prompt-time recall is already on ([recall] prompt = true)"]
        return result

    result = run_install("codex", install, dry_run=dry_run, mcp=mcp, as_json=as_json,
                         trailer=lambda done: [*(done.get("recall") or []), *_trust_lines(done)])
    _exit_on_trust_error(result)


def _trust_lines(result: dict) -> list[str]:
    trusted = result.get("trust")
    if not trusted:
        return []
    if "error" in trusted:
        return [f"trust: {trusted['error']}"]
    uninstalling = "removed" in result
    changes = trusted["changes"]
    if not changes:
        return [] if uninstalling else [f"trust: carto's handlers are already trusted in {trusted['config']}"]
    if trusted.get("written"):
        # install --trust printed each handler before writing; say only that it is done.
        body = changes if uninstalling else [c for c in changes if not c.startswith("trust ")]
        lines = [f"trust: {trusted['config']} updated ({counted(len(changes), 'change')})"]
    else:
        body = changes
        lines = [f"trust: would change {trusted['config']}"]
    lines += [f"  {line}" for line in body]
    if trusted.get("backup") and trusted.get("written"):
        lines.append(f"  backup: {trusted['backup']}")
    return lines


def _exit_on_trust_error(result: dict) -> None:
    from carto_core.api import ExitCode

    if "error" in (result.get("trust") or {}):
        raise SystemExit(int(ExitCode.CONFLICT))


@click.command(name="codex", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto uninstall codex --print   show what would be removed
  carto uninstall codex           remove carto's hooks from ~/.codex/hooks.json
  carto uninstall codex --mcp     ... and the carto MCP server

Exit codes: 0 ok (also when nothing was installed); 4 a file carto cannot change safely
(with --mcp, config.toml is checked before anything is removed).""")
@click.option("--hooks-file", "hooks_path", type=click.Path(dir_okay=False), default=None,
              help="Hooks file to change (default $CODEX_HOME/hooks.json, else ~/.codex/hooks.json).")
@install_options(project_help="Use ./.codex/hooks.json (this repository only).",
                 mcp_help="Also remove the carto MCP server from Codex's config.toml.")
def uninstall_codex(hooks_path, project, dry_run, mcp, as_json):
    """Remove exactly what `carto install codex` added: carto's handlers in hooks.json (and the
    groups and events they leave empty) and their trust entries in config.toml. The user's own
    hooks stay, and so does their trust (moved to their new positions when a carto group before
    them went). Files are backed up before they change; running it again changes nothing."""
    from pathlib import Path

    from carto_core.api import run_install

    from carto_codex import install as installer

    path = Path(hooks_path).expanduser() if hooks_path else installer.default_hooks_path(project)
    result = run_install("codex", lambda: installer.uninstall(path, dry_run=dry_run), dry_run=dry_run,
                         mcp=mcp, as_json=as_json, removing=True, trailer=_trust_lines)
    _exit_on_trust_error(result)
