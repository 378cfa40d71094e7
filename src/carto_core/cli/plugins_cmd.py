"""`carto plugins`: what is installed, what each plugin registered, what failed to load."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option


def plugins_document(root: click.Group) -> dict:
    """`root`: the group whose plugin commands are built so they are attributed (the CLI the
    command runs under)."""
    from carto_core.plugin.registry import get_registries

    registries = get_registries()
    root.list_commands(click.Context(root))
    plugins = []
    for name, info in sorted(registries.plugins.items()):
        plugins.append({
            "name": name,
            "distribution": info.distribution,
            "version": info.version,
            "module": info.module,
            "builtin": info.builtin,
            "status": "blocked" if info.blocked else ("error" if info.error else "loaded"),
            "error": info.error,
            "hooks": info.hooks,
            "registered": {kind: sorted(names) for kind, names in sorted(info.registered.items())},
            "capture": dict(sorted(info.capture.items())),
        })
    unknown = unknown_disabled(registries)
    problems = list(registries.problems)
    if unknown:
        problems.append(f"CARTO_DISABLE_PLUGINS names {', '.join(unknown)}, which "
                        f"{'is' if len(unknown) == 1 else 'are'} no installed plugin or live-capture "
                        f"provider: it blocks nothing (plugins: {', '.join(sorted(registries.plugins))})")
    return {"plugins": plugins, "problems": problems, "unknown_disabled": unknown}


def unknown_disabled(registries) -> list[str]:
    """The names CARTO_DISABLE_PLUGINS gives that block nothing: a typo leaves the plugin meant
    to be off running, and nothing else would say so."""
    from carto_core.plugin.table import blocked_names, plugin_table

    known = set(registries.plugins) | {record.get("provider") for record in plugin_table().get("capture", [])}
    return sorted(name for name in blocked_names() if name not in known)


@click.command(
    epilog="""\b
Examples:
  carto plugins                                     every plugin and what it registered
  carto plugins --json | jq '.plugins[] | select(.status != "loaded")'    what failed
  CARTO_DISABLE_PLUGINS=hermes carto plugins        run without one plugin"""
, cls=JsonErrorCommand)
@json_option
def plugins(as_json: bool) -> None:
    """List installed plugins: version, hooks implemented, names registered, live capture.

    A plugin that failed to import is listed with its error; the rest keep working. Block a
    plugin with CARTO_DISABLE_PLUGINS=name1,name2.
    """
    document = plugins_document(click.get_current_context().find_root().command)
    if as_json:
        emit_json(document)
        return
    for plugin in document["plugins"]:
        version = plugin["version"] or "?"
        origin = "built-in" if plugin["builtin"] else (plugin["distribution"] or "?")
        click.echo(f"{plugin['name']} {version} ({origin}) [{plugin['status']}]")
        if plugin["error"]:
            click.echo(f"    error: {plugin['error']}")
        for kind, names in plugin["registered"].items():
            click.echo(f"    {kind}: {', '.join(names)}")
        for provider, target in plugin["capture"].items():
            click.echo(f"    live capture: carto hook {provider} ... -> {target}")
        if plugin["hooks"]:
            click.echo(f"    hooks: {', '.join(plugin['hooks'])}")
    for problem in document["problems"]:
        click.echo(f"problem: {problem}")
