"""`carto install <agent>` and `carto uninstall <agent>`: the half every agent shares (click
options, the hooks merge and removal, the `--mcp` delegation, the result printed as text or JSON,
the exit codes).

A provider plugin keeps only what is its own: where its hooks file lives, which hooks it adds
(its shipped hooks file) and any extra facts for the result::

    @click.command(name="codex")
    @click.option("--hooks-file", "hooks_path", ...)
    @install_options(mcp_help="Also register the carto MCP server in Codex's config.toml.")
    def install_codex(hooks_path, project, dry_run, mcp, as_json):
        path = ... or default_hooks_path(project)
        run_install("codex", lambda: install_result(path, carto_hooks(), dry_run=dry_run,
                                                    extra={"note": TRUST_NOTE}),
                    dry_run=dry_run, mcp=mcp, as_json=as_json)

`uninstall_result(path, provider)` with `run_install(..., removing=True)` is the way back.
Loaded only by the CLI (it imports click), never on the hook path.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from carto_core.install.hooksfile import InstallError, install_hooks, render, uninstall_hooks
from carto_core.install.launcher import launcher
from carto_core.util.terminal import counted

MCP_MISSING = "the MCP extra is not installed: pip install 'carto-core[mcp]'"


def load_hooks(path: Path) -> dict:
    """The `hooks` object of a shipped hooks file (`{"hooks": {Event: [groups]}}`)."""
    return json.loads(Path(path).read_text("utf-8"))["hooks"]


def install_options(*, project_help: str, mcp_help: str):
    """`--project`, `--print`, `--mcp` and `--json`, the options every `carto install <agent>`
    and `carto uninstall <agent>` takes (the hooks-file option is the provider's own)."""

    def decorate(command):
        for option in reversed((
            click.option("--project", is_flag=True, help=project_help),
            click.option("--print", "dry_run", is_flag=True, help="Show the change without writing it."),
            click.option("--mcp", is_flag=True, help=mcp_help),
            click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON document."),
        )):
            command = option(command)
        return command

    return decorate


def install_result(path: Path, hooks: dict, *, dry_run: bool = False, extra: dict | None = None) -> dict:
    """Merge the shipped `hooks` into the file at `path` (`hooksfile.install_hooks`), each
    command starting with this carto's absolute launcher (`install.launcher`) so the agent runs
    it from any environment; on a dry run the result also carries the hooks that would be added.
    Raises InstallError."""
    argv = launcher()
    rendered = render(hooks, argv)
    result = install_hooks(path, rendered, dry_run=dry_run)
    return {**result, **(extra or {}), "launcher": argv, "hooks": {"hooks": rendered} if dry_run else None}


def uninstall_result(path: Path, provider: str, *, dry_run: bool = False) -> dict:
    """Remove `provider`'s carto handlers from the file at `path` (`hooksfile.uninstall_hooks`).
    Raises InstallError."""
    return uninstall_hooks(path, provider, dry_run=dry_run)


def mcp_refusal(agent: str, *, remove: bool = False, **options) -> str | None:
    """Why the agent's MCP configuration file refuses the `--mcp` change (not parsable, an
    unexpected layout), found by a dry run; None when it takes it or the MCP support is missing
    (`add_mcp` says so)."""
    try:
        from carto_core.install.mcp import InstallError as McpError
        from carto_core.install.mcp import install_mcp, uninstall_mcp
    except ImportError:
        return None
    try:
        (uninstall_mcp if remove else install_mcp)(agent, dry_run=True, **options)
    except McpError as exc:
        return str(exc)
    return None


def add_mcp(result: dict, agent: str, *, dry_run: bool, remove: bool = False, **options) -> int | None:
    """`--mcp`: register (or with `remove`, unregister) `carto mcp` with the agent
    (`carto_core.install.mcp`); sets `result["mcp"]` to `{"changes": [...]}` or `{"error": why}`
    and returns the exit code an error calls for: 75 when the MCP support is not installed
    (installing it may make a later run work), 4 when the file refuses the change."""
    from carto_core.util.exitcodes import ExitCode

    try:
        from carto_core.install.mcp import InstallError as McpError
        from carto_core.install.mcp import install_mcp, uninstall_mcp
    except ImportError:
        result["mcp"] = {"error": MCP_MISSING}
        return int(ExitCode.UNAVAILABLE)
    if not remove:
        import importlib.util

        if importlib.util.find_spec("mcp") is None:
            # registered, the agent would start a `carto mcp` that exits at once, unexplained
            result["mcp"] = {"error": f"{MCP_MISSING}; nothing was registered"}
            return int(ExitCode.UNAVAILABLE)
    try:
        change = uninstall_mcp if remove else install_mcp
        result["mcp"] = {"changes": change(agent, dry_run=dry_run, **options)}
    except McpError as exc:
        result["mcp"] = {"error": str(exc)}
        return int(ExitCode.CONFLICT)
    return None


def _unname_settled_backups(result: dict) -> None:
    """`settle()` takes away the backups of every file it put back: a report still naming one
    sends a person looking for a file that is gone."""
    import os

    if result.get("backup") and not os.path.exists(result["backup"]):
        result["backup"] = None
    trust = result.get("trust")
    if isinstance(trust, dict) and trust.get("backup") and not os.path.exists(trust["backup"]):
        trust["backup"] = None
    mcp = result.get("mcp")
    if isinstance(mcp, dict) and mcp.get("changes"):
        mcp["changes"] = [line for line in mcp["changes"]
                          if not line.strip().startswith("backup: ")
                          or os.path.exists(line.strip()[len("backup: "):])]


def print_result(result: dict, *, dry_run: bool, trailer=(), removing: bool = False) -> None:
    """The text report: what was (or would be) changed, the backup, `note`, the MCP lines, then
    `trailer` lines (or `trailer(result)`'s, when it is a function)."""
    if result["changes"]:
        verb = ("would remove" if dry_run else "removed") if removing else ("would change" if dry_run else "changed")
        click.echo(f"{result['settings']}: {verb} {counted(len(result['changes']), 'hook handler')}")
        for line in result["changes"]:
            click.echo(f"  {line}")
        if result["backup"]:
            click.echo(f"  backup: {result['backup']}")
        if dry_run:
            click.echo("nothing written (--print)")
    elif removing:
        click.echo(f"{result['settings']}: no carto hooks there; nothing to change")
    else:
        click.echo(f"{result['settings']}: carto's hooks are already installed; nothing to change")
    trusted = result.get("trust") or {}
    if result.get("note") and (result["changes"] or not trusted or "error" in trusted):
        click.echo(result["note"])
    mcp_result = result.get("mcp") or {}
    if "error" in mcp_result:
        click.echo(f"mcp: {mcp_result['error']}", err=True)
    for line in mcp_result.get("changes", []):
        click.echo(f"mcp: {line}")
    if result.get("home"):
        click.echo(result["home"])
    # the trailer (Codex's trust entries) changes files the restore may then remove: it goes
    # first, so "config.toml: removed (carto had created it)" is the last word on that file
    for line in trailer(result) if callable(trailer) else trailer:
        click.echo(line)
    for line in result.get("restored", []):
        click.echo(line)
    if not removing and not dry_run:
        click.echo(exclusion_note())


def exclusion_note() -> str:
    """What an install says about opting out (it asks nothing): where `[capture] exclude` goes."""
    from carto_core.logio.home import config_file
    from carto_core.privacy.exclude import load

    rule = load()
    if rule:
        return (f"never recorded ([capture] exclude in {config_file()}): "
                + ", ".join(rule.patterns))
    return (f"to keep a project or folder out of carto, list it in {config_file()}: "
            '[capture] exclude = ["client-*", "~/private"] (docs/control.md#exclusion)')


def _make_home(result: dict) -> None:
    """The home the hooks write to, made now (0700), so that `carto doctor` and every lens
    find it at once instead of asking for it until the agent's first tool call."""
    from carto_core.model.config import ConfigError, load_config
    from carto_core.util.privatefiles import make_dirs

    try:
        root = load_config().home.root
    except ConfigError:
        return
    if not root.is_dir():
        try:
            from carto_core.install.ledger import record_folder

            record_folder(root)
            make_dirs(root)
        except OSError as exc:
            result["home"] = f"the home {root} could not be made ({exc.strerror}); the hooks make it"
            return
        result["home"] = f"made the home {root} (the hooks write there)"


def run_install(
    agent: str,
    install: Callable[[], dict],
    *,
    dry_run: bool,
    mcp: bool,
    as_json: bool,
    mcp_options: dict | None = None,
    trailer=(),
    removing: bool = False,
) -> dict:
    """The whole command: `install()` (the provider's merge, usually `install_result`; or its
    removal, `uninstall_result`, with `removing`), `--mcp`, the report; exit 1 when the home is
    a file or a folder this user cannot read (checked first: then nothing changes), 4 when the hooks
    file or, with `--mcp`, the MCP configuration file cannot be changed (checked first: then
    nothing changes), 75 when `--mcp` was asked and the MCP support is not installed (the hooks
    are changed as asked). Returns the result otherwise."""
    from carto_core.util.output import emit_json, fail
    from carto_core.util.exitcodes import ExitCode

    if not removing and not dry_run:
        from carto_core.logio.homefaults import home_refusal
        from carto_core.model.config import ConfigError, load_config

        try:
            unusable = home_refusal(load_config().home.root)
        except ConfigError:
            unusable = None
        if unusable:  # a file, or a folder this user cannot read: before any file changes
            fail(f"install {agent}: {unusable[0]}; {unusable[1]}")
    refused = mcp_refusal(agent, remove=removing, **(mcp_options or {})) if mcp else None
    if refused:
        fail(f"mcp: {refused}", ExitCode.CONFLICT)
    try:
        result = install()
    except InstallError as exc:
        fail(str(exc), ExitCode.CONFLICT)
    mcp_exit = add_mcp(result, agent, dry_run=dry_run, remove=removing, **(mcp_options or {})) if mcp else None
    if not removing and not dry_run:
        _make_home(result)
    if removing and not dry_run:
        # Files carto's entries have left mean what they meant before the install: their
        # original bytes back (or gone, when carto made them), and carto's backups with them.
        from carto_core.install.ledger import settle

        result["restored"] = settle()
        _unname_settled_backups(result)
    if as_json:
        emit_json(result)
    else:
        print_result(result, dry_run=dry_run, trailer=trailer, removing=removing)
    if mcp_exit is not None:
        raise SystemExit(mcp_exit)
    return result
