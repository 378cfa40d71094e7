"""`carto trustmap`: identifiers your agents rely on, diffed against Claude Code settings."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option, when_value
from carto_core.util.terminal import counted


@click.command(epilog="""\b
Examples:
  carto trustmap                      hosts, CLIs, orgs, buckets, registries, MCP servers of the last year
  carto trustmap --window 30d --min 5 --json
  carto trustmap --apply --dry-run      the autoMode.environment change as a diff
  carto trustmap --apply                back up ~/.claude/settings.json and merge it
Entries marked + are not yet mentioned in ~/.claude/settings.json (CARTOGRAPHER_SETTINGS).
Identifiers only: no command arguments are ever printed.""", cls=JsonErrorCommand)
@click.option("--window", default="365d", show_default=True, help="How far back to look.")
@click.option("--min", "min_hits", default=3, show_default=True, type=click.IntRange(min=1), help="Minimum uses for a CLI.")
@click.option("--cap", default=40, show_default=True, type=click.IntRange(min=0), help="Projects whose git remotes are read.")
@click.option("--settings", default=None, help="Claude Code settings file to diff against.")
@click.option("--apply", "apply_", is_flag=True, help="Merge the uncovered identifiers into the settings' autoMode.environment: the diff first, a backup, then the merge and a trustmap_update milestone.")
@click.option("--dry-run", is_flag=True, help="With --apply: show the diff, change nothing.")
@json_option
def trustmap(window, min_hits, cap, settings, apply_, dry_run, as_json) -> None:
    """Derive the trust map: what your agents' work touches, by identifier.

    With --apply, the identifiers the settings do not mention yet (source-control orgs, LAN
    hosts, public hosts used --min times, buckets, registries, Kubernetes namespaces and
    contexts) become autoMode.environment entries of Claude Code's settings: the change is
    shown as a diff, the file backed up beside itself, merged (an existing list is kept, a new
    one starts with "$defaults"), and a trustmap_update milestone recorded. --apply again
    proposes only what is still missing. A settings file that is not valid JSON is refused and
    nothing changes (exit 4). Exit codes: 0 ok, 2 a bad --window, --min or --cap, 3 nothing to
    apply, 4 a settings file that is not valid JSON.
    """
    from carto_core.logio.home import current_home
    from carto_core.lenses.trustmap import trustmap as build

    when_value(window, "--window")  # exit 2 for a window that does not read
    home = current_home()
    doc = build(home, window=window, min_hits=min_hits, cap=cap, settings_path=settings)
    if apply_ or dry_run:
        return _apply(home, doc, settings, dry_run, min_hits, as_json)
    if as_json:
        emit_json(doc)
        return
    click.echo(render_text(doc, window))


#: The document's lists, in the order and the words a person reads them.
HEADINGS = (("hosts", "Hosts"), ("clis", "CLIs"), ("orgs", "Source control orgs"),
            ("buckets", "Cloud storage buckets"), ("registries", "Package registries"),
            ("mcp_servers", "MCP servers"), ("k8s_namespaces", "Kubernetes namespaces"),
            ("k8s_contexts", "Kubernetes contexts"))
SHOWN = 30


def render_text(doc: dict, window: str) -> str:
    """The trust map for a person: a line saying what the marks mean, then each list under
    its heading (at most `SHOWN` entries, the rest counted), the empty ones on one line."""
    settings = doc.get("settings")
    lines = [f"What your agents relied on in the last {window}; + marks "
             + (f"what {settings} does not mention yet." if settings
                else "every entry: no Claude Code settings file was read.")]
    empty = []
    for key, heading in HEADINGS:
        entries = doc.get(key) or []
        if not entries:
            empty.append(heading)
            continue
        lines.append(f"{heading}:")
        for entry in entries[:SHOWN]:
            kind = f" ({entry['kind']})" if "kind" in entry else ""
            mark = " " if entry["covered"] else "+"
            lines.append(f"  {mark} {entry['id']}{kind}  ×{entry['hits']}")
        if len(entries) > SHOWN:
            lines.append(f"  ... and {len(entries) - SHOWN} more (--json lists them all)")
    if empty:
        lines.append(f"None seen: {', '.join(empty)}.")
    return "\n".join(lines)


def _apply(home, doc, settings, dry_run, min_hits, as_json) -> None:
    from carto_core.util.output import fail
    from carto_core.util.exitcodes import ExitCode
    from carto_core.install.automode import SettingsRefused, apply_trustmap, settings_path

    path = settings_path(settings)
    try:
        result = apply_trustmap(doc, path=path, dry_run=dry_run, min_public_hits=min_hits, home=home)
    except SettingsRefused as exc:
        fail(str(exc), ExitCode.CONFLICT)
    if as_json:
        emit_json(result)
    else:
        if not result["proposed"]:
            click.echo(f"nothing to apply: every identifier is already in {path}")
        else:
            click.echo(result["diff"], nl=False)
            if result["applied"]:
                click.echo(f"applied {counted(len(result['proposed']), 'entry', 'entries')} to {path}"
                           + (f" (backup: {result['backup']})" if result["backup"] else " (new file)")
                           + f"; milestone {result['milestone']}")
            else:
                click.echo(f"dry run: {counted(len(result['proposed']), 'entry', 'entries')} would be added; nothing changed")
    if not result["proposed"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))
