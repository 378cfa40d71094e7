"""`carto trustmap`: identifiers your agents rely on, diffed against Claude Code settings."""

from __future__ import annotations

import click

from carto_core.cli.output import emit_json, json_option


@click.command(epilog="""\b
Examples:
  carto trustmap                      hosts, CLIs, orgs, buckets, registries, MCP servers of the last year
  carto trustmap --window 30d --min 5 --json
Entries marked + are not yet mentioned in ~/.claude/settings.json (CARTOGRAPHER_SETTINGS).
Identifiers only: no command arguments are ever printed.""")
@click.option("--window", default="365d", show_default=True, help="How far back to look.")
@click.option("--min", "min_hits", default=3, show_default=True, help="Minimum uses for a CLI.")
@click.option("--cap", default=40, show_default=True, help="Projects whose git remotes are read.")
@click.option("--settings", default=None, help="Claude Code settings file to diff against.")
@json_option
def trustmap(window, min_hits, cap, settings, as_json) -> None:
    """Derive the trust map: what your agents' work touches, by identifier."""
    from carto_core.home import current_home
    from carto_core.lenses.trustmap import trustmap as build

    doc = build(current_home(), window=window, min_hits=min_hits, cap=cap, settings_path=settings)
    if as_json:
        emit_json(doc)
        return
    for key in ("hosts", "clis", "orgs", "buckets", "registries", "mcp_servers"):
        click.echo(f"{key}:")
        for entry in doc[key][:30]:
            kind = f" ({entry['kind']})" if "kind" in entry else ""
            click.echo(f"  {' ' if entry['covered'] else '+'} {entry['id']}{kind}  ×{entry['hits']}")
